"""The bot's drawing pool: maps, private panels and replay GIFs drawn beside the event loop.

A drawing thread still holds the GIL for most of a draw, so a burst of phase ends used to delay
the acknowledgements the event loop owes Discord. Here the draws run in worker processes
(``concurrent.futures.ProcessPoolExecutor``), each with its own render caches, and the loop only
pickles a view dict out and PNG bytes back.

- Workers start on the first draw, in a thread (a bot that draws nothing starts none), with
  the ``forkserver`` start method, ``spawn`` where there is none: never ``fork``, which would
  copy a process whose other threads (aiosqlite, discord.py) may hold locks. The fork server
  (one more small process, for the bot's lifetime) preloads this module, so a fresh worker is a
  cheap fork that has already imported render/.
- A worker ends itself when the bot process is gone, however it went (a SIGKILL, a crash): the
  pool's workers hold both ends of their own task pipe, so they would never see it close.
- Each worker sets glibc's malloc to keep its big buffers on the heap (``reuse_freed_memory``):
  a map then draws on the memory of the one before instead of on fresh pages (half its CPU).
- ``workers == 0`` draws in a thread as before: the fallback, and what a small host can choose.
- A worker that dies breaks its pool: the pool is replaced by a fresh one and the draw tried
  once more; if that fails too the draw runs in a thread, so no post goes unsent for the pool.
- The process has one pool for drawings (``configure``, ``close``, and the module-level ``draw``
  functions) and one for a search AI's thinking (``think``), of the same size and priority: a
  think may take a CPU second, and maps queued behind thinks in one pool waited for them (a
  load run with search AIs in every match had its posts 82 s late at the median). A lower
  priority for thinks was tried and dropped: on a shared host it starved them (a 1 s think
  took two minutes), and a draw, a few tens of CPU ms, loses little sharing a core with one.
  The bot sizes both from its settings at start-up and shuts them down when it closes; the
  thinking pool starts its workers on the first think, so a bot without search AIs has none.
  Thinks reach this pool one per worker, in the order they came, each with the CPU budget the
  queue in front of it gives (bot/service/think_queue.py).
  Before and after (the terminal table, the command line, tests of the service) everything
  draws and thinks in a thread.
- A private panel (a player waiting on their click) goes to the workers at once; the maps and
  replays of phase ends, which may wait a moment, go at most ``workers`` at a time
  (``_background``), so a panel waits for the draws running, not for every map queued before it
  (at 40 busy matches a panel's wall p50 was 106 ms behind a queue of maps).
"""

from __future__ import annotations

import asyncio
import ctypes
import hashlib
import json
import logging
import multiprocessing
import os
import platform
import select
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

import render
from bot import metrics
from bot.service import replay_frames

log = logging.getLogger(__name__)

Result = TypeVar("Result")

WORKER_NICENESS = 5
"""How much lower a worker's CPU priority is than the bot's: on a busy machine the event loop's
acknowledgements go first, and a draw (whose post may wait a moment) takes the rest."""

SHIPPED = frozenset(render.RENDERERS)
"""The games whose renderers a worker has: those render/ ships. A game registered at run time
(a test's stand-in) exists only in this process, so its drawings are made here, in a thread."""

WAITED_ON = frozenset({"draw_private"})
"""Kinds of draw a player waits on (their click's answer): they pass the maps queued for workers."""

SAMPLES = 4096
"""Draws whose CPU and wall times are kept per kind (the newest ones): figures stay bounded."""


def default_workers() -> int:
    """One worker per core the process may use, minus the core the event loop needs; at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity call on this platform
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def _context() -> multiprocessing.context.BaseContext:
    """Forkserver where the platform has it (workers fork from a clean, single-threaded server
    that has this module loaded), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


def _follow(bot_pid: int) -> None:
    """In a worker: end this process once the bot's is gone (the bot's exit would not end it)."""
    try:
        watched = os.pidfd_open(bot_pid)
    except ProcessLookupError:
        os._exit(0)
    except (AttributeError, OSError):  # no pidfd on this platform: ask once a second
        while True:
            time.sleep(1.0)
            try:
                os.kill(bot_pid, 0)
            except ProcessLookupError:
                os._exit(0)
    select.select([watched], [], [])  # readable once the process has exited
    os._exit(0)


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
"""glibc's ``mallopt`` parameters (malloc.h)."""
MMAP_THRESHOLD = 32 * 1024 * 1024
"""Allocations this big or bigger get pages of their own (glibc's largest allowed value): every
buffer of a map (its 7.5 MB RGB image, its 1.9 MB palette indices and PNG rows) comes from the heap."""
TRIM_THRESHOLD = 64 * 1024 * 1024
"""Free memory the heap keeps at its top before handing it back: a few maps' worth."""


def reuse_freed_memory() -> bool:
    """In a worker: let glibc's malloc reuse the memory of the last draw for the next one. By
    default its threshold for giving a buffer pages of its own moves with what was freed, and a
    worker drawing maps in turn got fresh pages for most of its big buffers: ~3,500 page faults
    (14 MB zeroed by the kernel) and about 8 ms of CPU a map (of 18), half the draw.
    Fixed thresholds keep those buffers on the heap. True where it applied (Linux with glibc)."""
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return False
    libc = ctypes.CDLL(None)
    return bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def _watch_bot(bot_pid: int) -> None:
    """Each worker's initializer: a lower priority than the bot's, malloc set to reuse memory
    (``reuse_freed_memory``), and a daemon thread that follows the bot out."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    reuse_freed_memory()
    threading.Thread(target=_follow, args=(bot_pid,), name="follow-the-bot", daemon=True).start()


def _timed(function: Callable[..., Result], args: tuple[Any, ...]) -> tuple[Result, float]:
    """Run ``function`` and say how much CPU its thread spent (in a worker, or a thread of the bot)."""
    started = time.thread_time()
    result = function(*args)
    return result, time.thread_time() - started


def _draw_public(game: str, view: Mapping[str, Any], names: list[str] | None) -> bytes:
    return render.draw(game, view, names=names)


def _draw_private(game: str, view: Mapping[str, Any], names: list[str] | None) -> bytes:
    return render.draw_private(game, view, names)


class PoolClosed(Exception):
    """The pool was closed while its workers started: the draw runs in a thread."""


@dataclass
class Figures:
    """What one kind of drawing cost: the totals, and the newest samples (CPU ms, wall ms)."""

    count: int = 0
    cpu_seconds: float = 0.0
    samples: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=SAMPLES))


class DrawingPool:
    """Draws in ``workers`` processes (0: in a thread), with a fresh pool after a worker died."""

    def __init__(self, workers: int) -> None:
        if workers < 0:
            raise ValueError("a drawing pool has 0 workers (draw in a thread) or more")
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._starting: asyncio.Lock | None = None
        """Held while the first draw starts the workers (made in the loop that draws)."""
        self._starting_loop: asyncio.AbstractEventLoop | None = None
        self._background: asyncio.Semaphore | None = None
        """Held by each draw other than a private panel while it is with the workers (made in
        the loop that draws)."""
        self._background_loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._lock = threading.Lock()
        """Guards the figures: the bot's loop writes them, a probe's thread may read them."""
        self._figures: dict[str, Figures] = {}
        self.where: dict[str, int] = {"pool": 0, "thread": 0}
        """How many draws ran in a worker process and how many in a thread of the bot."""
        self.replaced = 0
        """Pools replaced because a worker died."""

    async def draw(self, game: str, view: Mapping[str, Any], names: list[str] | None = None) -> bytes:
        """PNG bytes of the public map (``render.draw``)."""
        return await self.run("draw", _draw_public, game, view, names, game=game)

    async def draw_private(self, game: str, view: Mapping[str, Any], names: list[str] | None = None) -> bytes:
        """PNG bytes of a seat's private panel (``render.draw_private``), titled with the seat's name."""
        return await self.run("draw_private", _draw_private, game, view, names, game=game)

    async def run(self, kind: str, function: Callable[..., Result], *args: Any, game: str | None = None,
                  since: float | None = None) -> Result:
        """``function(*args)`` in a worker (a module-level function, picklable arguments and
        result), its cost counted under ``kind``; ``game`` outside SHIPPED draws in a thread.
        Its wall time counts from ``since`` (``time.perf_counter()``; default: now), where it
        waited in a queue before this one. The function's own errors are raised here."""
        started = time.perf_counter() if since is None else since
        here = game is not None and game not in SHIPPED
        if kind in WAITED_ON or here or self.workers == 0:
            result, cpu = await self._run(function, args, here=here)
        else:
            async with self._background_turn():
                result, cpu = await self._run(function, args, here=here)
        self._count(kind, cpu, time.perf_counter() - started)
        return result

    def _background_turn(self) -> asyncio.Semaphore:
        """The bound on draws that may wait with the workers at once (see the module's docstring)."""
        loop = asyncio.get_running_loop()
        if self._background is None or self._background_loop is not loop:
            self._background, self._background_loop = asyncio.Semaphore(self.workers), loop
        return self._background

    async def _run(self, function: Callable[..., Result], args: tuple[Any, ...], here: bool) -> tuple[Result, float]:
        if self.workers == 0 or self._closed or here:
            return await self._in_thread(function, args)
        loop = asyncio.get_running_loop()
        for _attempt in (1, 2):
            executor = self._executor
            try:
                executor = await self._started()
                waiting = loop.run_in_executor(executor, _timed, function, args)
            except (BrokenProcessPool, OSError) as exc:  # the pool could not start a worker
                self._replace(executor, exc)
                continue
            except PoolClosed:
                break
            try:
                outcome = await waiting
            except BrokenProcessPool as exc:
                self._replace(executor, exc)
                continue
            with self._lock:
                self.where["pool"] += 1
            return outcome
        else:
            log.warning("the fresh drawing pool failed too: this draw runs in a thread")
        return await self._in_thread(function, args)

    async def _in_thread(self, function: Callable[..., Result], args: tuple[Any, ...]) -> tuple[Result, float]:
        outcome = await asyncio.to_thread(_timed, function, args)
        with self._lock:
            self.where["thread"] += 1
        return outcome

    async def _started(self) -> ProcessPoolExecutor:
        """The live pool; the first draw makes it, and starts its workers in a thread: starting a
        process (and the fork server, the first time) waits on other processes, and the event
        loop must not (it was a 1 s stall in a load run)."""
        if self._executor is not None:
            return self._executor
        loop = asyncio.get_running_loop()
        if self._starting is None or self._starting_loop is not loop:
            self._starting, self._starting_loop = asyncio.Lock(), loop
        async with self._starting:
            if self._executor is None:
                executor = await asyncio.to_thread(self._start)
                if self._closed:  # the bot closed while the workers started
                    executor.shutdown(wait=False, cancel_futures=True)
                    raise PoolClosed
                self._executor = executor
        return self._executor

    async def warm(self) -> None:
        """Start the workers now, at the bot's start, instead of at the first draw: the fork
        server's imports (about 1 s of CPU) then do not hold up the first map after a restart.
        A pool that cannot start now is left to the first draw, which tries again."""
        if self.workers <= 0 or self._closed:
            return
        try:
            await self._started()
        except PoolClosed:
            return
        except (OSError, BrokenProcessPool) as failed:
            log.warning("the drawing pool could not start at once (%s): the first draw tries again", failed)

    def _start(self) -> ProcessPoolExecutor:
        """A pool with all its workers started: each start waits on a no-op job, so none is left
        for a draw to start on the event loop."""
        executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=_context(),
                                       initializer=_watch_bot, initargs=(os.getpid(),))
        try:
            for started in [executor.submit(os.getpid) for _ in range(self.workers)]:
                started.result()
        except BaseException:
            executor.shutdown(wait=False, cancel_futures=True)
            raise
        return executor

    def _replace(self, broken: ProcessPoolExecutor | None, reason: BaseException) -> None:
        """Drop a broken pool so the next draw starts a fresh one. Draws that were waiting on
        the same pool all fail together: only the first one replaces it and says so."""
        if broken is None:
            log.warning("the drawing pool could not start (%s): trying once more", reason)
            return
        if self._executor is not broken:
            return
        self._executor = None
        self.replaced += 1
        log.warning("a drawing worker died (%s): starting a fresh pool and drawing again", reason)
        broken.shutdown(wait=False, cancel_futures=True)

    def _count(self, kind: str, cpu_seconds: float, wall_seconds: float) -> None:
        metrics.DRAW_SECONDS.labels(kind).observe(wall_seconds)
        with self._lock:
            figures = self._figures.setdefault(kind, Figures())
            figures.count += 1
            figures.cpu_seconds += cpu_seconds
            figures.samples.append((cpu_seconds * 1000, wall_seconds * 1000))

    def figures(self) -> dict[str, Figures]:
        """A copy of what each kind of drawing cost so far (safe to call from any thread)."""
        with self._lock:
            return {kind: Figures(f.count, f.cpu_seconds, deque(f.samples, maxlen=SAMPLES))
                    for kind, f in self._figures.items()}

    async def close(self) -> None:
        """Shut the workers down, letting draws already handed to them finish. Draws that come
        later run in a thread: a closed pool starts no worker again."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True)


_pool = DrawingPool(0)
_thinkers = DrawingPool(0)


def pool() -> DrawingPool:
    """The process's drawing pool."""
    return _pool


def thinking_pool() -> DrawingPool:
    """The process's pool for a search AI's thinking (sized with the drawing pool)."""
    return _thinkers


async def configure(workers: int | None) -> DrawingPool:
    """Size the process's pools (None: ``default_workers()``); a pool of another size is shut
    down. Returns the drawing pool."""
    global _pool, _thinkers
    wanted = default_workers() if workers is None else workers
    if wanted != _pool.workers:
        old, _pool = _pool, DrawingPool(wanted)
        await old.close()
    if wanted != _thinkers.workers:
        old, _thinkers = _thinkers, DrawingPool(wanted)
        await old.close()
    return _pool


async def close() -> None:
    """Shut the process's pools down (the bot's close). Draws and thinks still to come run in a
    thread: once the bot has closed, nothing starts a worker again."""
    global _pool, _thinkers
    (old, _pool), (old_thinkers, _thinkers) = (_pool, DrawingPool(0)), (_thinkers, DrawingPool(0))
    await old.close()
    await old_thinkers.close()


RECENT_MAPS = 24
"""Public maps kept by what they show: a phase post's map and the web table's (bot/web/) are one drawing."""
_recent: OrderedDict[str, bytes] = OrderedDict()


def map_key(game: str, view: Mapping[str, Any], names: list[str] | None) -> str:
    """What a public map shows, as one digest (the same view read back from a notice gives the same)."""
    text = json.dumps([game, view, names], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


async def draw(game: str, view: Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """The public map, drawn by the process's pool (or the same map drawn a moment ago)."""
    return await _recent_or(map_key(game, view, names), lambda: _pool.draw(game, view, names))


async def draw_phase_map(game: str, view: Mapping[str, Any], names: list[str] | None,
                         replay_view: Mapping[str, Any]) -> bytes:
    """A phase post's map (``draw``), its phase end's replay frame (of ``replay_view``) made and
    kept on the way by the worker (replay_frames.py). A map drawn a moment ago is taken as it
    is: its replay draws that frame."""
    return await _recent_or(map_key(game, view, names), lambda: _pool.run(
        "draw", replay_frames.draw_and_keep, game, view, names, replay_view, game=game))


async def _recent_or(key: str, drawn: Callable[[], Awaitable[bytes]]) -> bytes:
    """The map drawn a moment ago under ``key``, else ``drawn()`` (kept for the next ask)."""
    png = _recent.get(key)
    if png is None:
        png = await drawn()
        _recent[key] = png
        while len(_recent) > RECENT_MAPS:
            _recent.popitem(last=False)
    _recent.move_to_end(key)
    return png


async def draw_private(game: str, view: Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """A seat's private panel, drawn by the process's pool."""
    return await _pool.draw_private(game, view, names)


async def run(kind: str, function: Callable[..., Result], *args: Any, game: str | None = None) -> Result:
    """Any drawing job (the replay GIF of a ``game``), run by the process's pool."""
    return await _pool.run(kind, function, *args, game=game)


async def think(function: Callable[..., Result], *args: Any, game: str | None = None,
                since: float | None = None) -> Result:
    """A search AI's decision, run by the process's thinking pool (counted as "think", its wall
    time from ``since``: when it joined the thinking queue)."""
    return await _thinkers.run("think", function, *args, game=game, since=since)
