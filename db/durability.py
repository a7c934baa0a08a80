"""Commits made durable outside SQLite's write lock, many at a time.

SQLite in WAL mode with ``synchronous=FULL`` syncs the write-ahead log inside every COMMIT, while
the transaction still holds the database's one write lock: on this machine's disk that is ~5.5 ms
of wall time a commit (0.01 ms without it), and every other writer of the process queues behind
it (``Store.writer``). At 40 busy matches the write turn was held mostly by syncs, and a click
waited ~150 ms at the median for its turn (docs/benchmarks.md, session 18).

So the store's writer connection commits with ``synchronous=NORMAL``: the commit reaches the log
in the operating system's cache (a killed process loses nothing) but is not yet on the disk (a
power cut could lose it). Each write turn, once it has let the write lock go, waits here until a
sync of the log that began after its commit has finished (``durable``): its caller hears of the
write only when it is on the disk, as with FULL. Writers that end while a sync runs share the next
one, so the disk syncs once for a burst of commits, and nobody holds the write lock meanwhile.

What is on the disk before a caller returns is what FULL gave; what differs is that another
connection may read a commit in the few milliseconds before its sync. Whatever leaves the process
from such a read (the delivery's posts and DMs) first calls ``durable`` too, which returns at once
when every commit is synced already."""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
from pathlib import Path


def _sync_files(paths: tuple[Path, ...]) -> None:
    """fdatasync the first of ``paths`` that exists (the log, else the database file: a log already
    checkpointed and removed left everything in the file). Linux syncs the file's data whoever
    wrote it, through whichever descriptor. A data sync is what SQLite's own FULL sync of the log
    is on Linux: the data and what reading it back needs (the file's size), not its times; it
    cost less CPU than fsync a sync (docs/benchmarks.md, session 20)."""
    for path in paths:
        try:
            descriptor = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            continue
        try:
            # macOS's Python has no fdatasync; fsync is what SQLite itself calls there
            getattr(os, "fdatasync", os.fsync)(descriptor)
        finally:
            os.close(descriptor)
        return


CHECKPOINT_EVERY = 100
"""Syncs between two checkpoints of the log into the database file (the writer's own automatic
checkpoint is off: it ran inside a COMMIT, on the event loop's thread, and synced the file)."""


class SyncRound:
    """One sync of the log asked for on one event loop, and the write turns waiting for it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.waiters: list[asyncio.Future[None]] = []


class LogSync:
    """Syncs of one SQLite file's write-ahead log, shared by every write turn that waits on one.
    They run on a thread of their own, started at the first: a hand-over through a queue costs
    a tenth of ``asyncio.to_thread``'s executor (0.03 against 0.3 ms of CPU a sync, profiled)."""

    def __init__(self, database: Path) -> None:
        self.paths = (database.with_name(database.name + "-wal"), database)
        self.ended = 0
        """Write turns ended so far (each may have committed)."""
        self.covered = 0
        """The count of write turns ended when the newest finished sync began: all on the disk."""
        self.syncs = 0
        """Syncs made (for tests and benchmarks: how many commits shared one)."""
        self.checkpoints = 0
        """Checkpoints made (on the thread)."""
        self._running: SyncRound | None = None
        self._requests: queue.SimpleQueue[tuple[SyncRound, int] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def ended_turn(self) -> None:
        """A write turn ended (its commit, if any, is in the log)."""
        self.ended += 1

    async def durable(self) -> None:
        """Return when every write turn ended before this call is on the disk (at once when the
        newest finished sync covers them). A caller cancelled while it waits leaves the sync to
        finish for the others."""
        need = self.ended
        while self.covered < need:
            loop = asyncio.get_running_loop()
            running = self._running
            if running is None or running.loop is not loop:  # none under way, or a store moved to a new loop
                running = self._running = self._start(loop, self.ended)
            waiter: asyncio.Future[None] = loop.create_future()
            running.waiters.append(waiter)
            await waiter

    def _start(self, loop: asyncio.AbstractEventLoop, began_at: int) -> SyncRound:
        running = SyncRound(loop)
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._serve, name="warhost-log-sync", daemon=True)
            self._thread.start()
        self._requests.put((running, began_at))
        return running

    def _serve(self) -> None:
        checkpointer: sqlite3.Connection | None = None
        served = 0
        try:
            while (request := self._requests.get()) is not None:
                running, began_at = request
                error: OSError | None = None
                try:
                    _sync_files(self.paths)
                except OSError as failed:
                    error = failed
                with contextlib.suppress(RuntimeError):  # a loop already closed has nobody waiting
                    running.loop.call_soon_threadsafe(self._finished, running, began_at, error)
                served += 1
                if served % CHECKPOINT_EVERY == 0:
                    checkpointer = checkpointer or sqlite3.connect(self.paths[1], isolation_level=None, timeout=0)
                    _checkpoint(checkpointer)
                    self.checkpoints += 1
        finally:
            if checkpointer is not None:
                _checkpoint(checkpointer)
                checkpointer.close()

    def _finished(self, running: SyncRound, began_at: int, error: OSError | None) -> None:
        """On the loop: the record first, then the waiters (a waiter that finds the sync done
        must also find it counted, or it would wait on it again without yielding). Each waiter
        has a future of its own, resolved here: a waiter cancelled meanwhile cancels only its
        own, and the others wake in this turn of the loop (a shared future behind
        ``asyncio.shield`` woke them one turn later, one more poll of the loop a write)."""
        if self._running is running:
            self._running = None
        if error is None:
            self.syncs += 1
            self.covered = max(self.covered, began_at)
        for waiter in running.waiters:
            if not waiter.done():
                if error is None:
                    waiter.set_result(None)
                else:
                    waiter.set_exception(error)

    def close(self) -> None:
        """Stop the thread (after the sync under way, if any)."""
        if self._thread is not None:
            self._requests.put(None)
            self._thread = None


def _checkpoint(connection: sqlite3.Connection) -> None:
    """Copy what the log holds into the database file, as far as no reader still needs it
    (PASSIVE: it waits for nobody, and nobody waits for it)."""
    with contextlib.suppress(sqlite3.Error):
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()


def database_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for an in-memory database or another dialect)."""
    if not url.startswith("sqlite"):
        return None
    _, _, rest = url.partition(":///")
    name = rest.split("?", 1)[0]
    if not name or name == ":memory:":
        return None
    return Path(name)
