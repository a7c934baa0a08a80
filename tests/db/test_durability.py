"""Commits synced outside the write lock (db/durability.py): a write returns only once a sync
that began after its commit has finished; writes that end together share a sync; the delivery
reads no notice of a commit still waiting for its sync; a failed sync is the writer's error."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from db import Notice, Store, durability
from db.prepared import insert_rows
from tests.db.test_lean import _keys, _match, _notice


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'synced.db'}")
    yield opened
    await opened.close()


class HeldSyncs:
    """The log's syncs held at the disk until released: how many began, and a gate."""

    def __init__(self) -> None:
        self.began = 0
        self.gate = threading.Event()
        self.started = threading.Event()
        self.fail: OSError | None = None

    def hold(self) -> None:
        """Hold the syncs that begin from now on."""
        self.started.clear()
        self.gate.clear()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldSyncs]:
    syncs = HeldSyncs()
    syncs.gate.set()  # open until a test holds it
    real = durability._sync_files

    def held_sync(paths: tuple[Path, ...]) -> None:
        syncs.began += 1
        syncs.started.set()
        syncs.gate.wait(30)
        if syncs.fail is not None:
            raise syncs.fail
        real(paths)

    monkeypatch.setattr(durability, "_sync_files", held_sync)
    yield syncs
    syncs.gate.set()


async def _write(store: Store, match_id: int, key: str) -> None:
    async with store.lean_write() as connection:
        await insert_rows(connection, Notice.__table__, [_notice(match_id, key)])  # type: ignore[attr-defined]


async def _started(syncs: HeldSyncs) -> None:
    assert await asyncio.to_thread(syncs.started.wait, 30)


async def test_the_writer_commits_without_a_sync_of_its_own(store: Store) -> None:
    async with store.engine.connect() as connection:  # as the kept writer connected
        synchronous = (await connection.execute(sa.text("PRAGMA synchronous"))).scalar()
    assert synchronous == 1  # NORMAL: the store syncs the log itself, after the write lock
    assert store.log_sync is not None


async def test_a_write_returns_only_once_its_commit_is_synced(store: Store, held: HeldSyncs) -> None:
    match_id = await _match(store)
    await _write(store, match_id, "lean first")  # a sync of its own, let through
    held.hold()
    writing = asyncio.create_task(_write(store, match_id, "lean held"))
    await _started(held)
    await asyncio.sleep(0.05)
    assert not writing.done()  # committed (others may read it) but not yet on the disk
    assert await _keys(store, match_id) == ["lean first", "lean held"]
    assert store.writer is not None and not store.writer.locked()  # the next writer need not wait for the disk
    held.gate.set()
    await writing
    assert store.log_sync is not None and store.log_sync.covered >= store.log_sync.ended


async def test_writes_that_end_together_share_a_sync(store: Store, held: HeldSyncs) -> None:
    match_id = await _match(store)
    held.hold()
    held.began = 0
    first = asyncio.create_task(_write(store, match_id, "lean 0"))
    await _started(held)  # a sync under way: the writes ending now wait for the next one
    rest = [asyncio.create_task(_write(store, match_id, f"lean {n}")) for n in range(1, 30)]
    while store.log_sync is not None and store.log_sync.ended < 30:
        await asyncio.sleep(0.01)
    held.gate.set()
    await asyncio.gather(first, *rest)
    assert held.began == 2  # the one under way, then one for the 29 that ended meanwhile
    assert sorted(await _keys(store, match_id)) == sorted(f"lean {n}" for n in range(30))


async def test_a_writer_cancelled_while_it_waits_for_the_disk_leaves_the_others_waiting(
        store: Store, held: HeldSyncs) -> None:
    """A caller gone while its write waits for its sync (a click abandoned) stops only its own
    wait: the others sharing that sync return once it is on the disk, and the write stays."""
    match_id = await _match(store)
    held.hold()
    first = asyncio.create_task(_write(store, match_id, "lean first"))
    await _started(held)  # a sync under way: the writes below wait with the first for its end
    gone = asyncio.create_task(_write(store, match_id, "lean gone"))
    staying = [asyncio.create_task(_write(store, match_id, f"lean stays {n}")) for n in range(2)]
    while store.log_sync is not None and store.log_sync.ended < 4:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    assert not any(task.done() for task in (first, gone, *staying))
    gone.cancel()
    await asyncio.gather(gone, return_exceptions=True)
    await asyncio.sleep(0.05)
    assert not any(task.done() for task in (first, *staying)), "their sync is still held"
    held.gate.set()
    await asyncio.gather(first, *staying)
    assert sorted(await _keys(store, match_id)) == ["lean first", "lean gone", "lean stays 0", "lean stays 1"]
    assert store.log_sync is not None and store.log_sync.covered >= store.log_sync.ended


async def test_nothing_new_to_sync_returns_at_once(store: Store, held: HeldSyncs) -> None:
    match_id = await _match(store)
    await _write(store, match_id, "lean a")
    began = held.began
    await store.durable()
    assert held.began == began


async def test_the_delivery_reads_no_notice_before_its_sync(store: Store, held: HeldSyncs) -> None:
    from bot.service import MatchService

    service = MatchService(store)
    match_id = await _match(store)
    before = [notice.id for notice in (await service.next_batch(match_id)).notices]
    held.hold()
    writing = asyncio.create_task(_write(store, match_id, "lean notice"))
    await _started(held)
    reading = asyncio.create_task(service.next_batch(match_id))
    await asyncio.sleep(0.05)
    assert not reading.done()  # it found the notice, and waits for the disk before handing it on
    held.gate.set()
    batch = await reading
    await writing
    assert [n.key for n in batch.notices if n.id not in before] == ["lean notice"]


async def test_a_failed_sync_is_the_writers_error_and_the_next_write_goes_through(
        store: Store, held: HeldSyncs) -> None:
    match_id = await _match(store)
    held.fail = OSError(5, "Input/output error")
    with pytest.raises(OSError):
        await _write(store, match_id, "lean unsure")
    held.fail = None
    await _write(store, match_id, "lean sure")
    assert await _keys(store, match_id) == ["lean unsure", "lean sure"]


async def test_a_store_without_the_writer_queue_syncs_in_each_commit(tmp_path: Path) -> None:
    opened = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'pooled.db'}", one_writer=False)
    try:
        assert opened.log_sync is None
        async with opened.engine.connect() as connection:
            assert (await connection.execute(sa.text("PRAGMA synchronous"))).scalar() == 2  # FULL
    finally:
        await opened.close()


async def test_the_log_is_checkpointed_into_the_file_off_the_event_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(durability, "CHECKPOINT_EVERY", 1)
    path = tmp_path / "checkpointed.db"
    opened = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        async with opened.engine.connect() as connection:  # the writer's own checkpoints are off
            assert (await connection.execute(sa.text("PRAGMA wal_autocheckpoint"))).scalar() == 0
        match_id = await _match(opened)
        for n in range(4):
            await _write(opened, match_id, f"lean {n}")
        assert opened.log_sync is not None
        for _ in range(3000):  # the thread checkpoints after answering each sync
            if opened.log_sync.checkpoints == opened.log_sync.syncs:
                break
            await asyncio.sleep(0.01)
        alone = tmp_path / "file-alone.db"
        alone.write_bytes(path.read_bytes())  # the database file without its log
        copy = sqlite3.connect(alone)
        try:
            keys = [key for key, in copy.execute("SELECT key FROM notices ORDER BY id") if key.startswith("lean")]
        finally:
            copy.close()
        assert keys == ["lean 0", "lean 1", "lean 2", "lean 3"]
    finally:
        await opened.close()


@pytest.mark.parametrize("has_data_sync", [True, False], ids=["fdatasync", "fsync only (macOS)"])
def test_the_log_is_synced_where_the_platform_has_no_data_sync(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, has_data_sync: bool) -> None:
    """The log is synced by fdatasync where it exists and by fsync where it does not (macOS's
    Python): either way the file that exists gets its sync, and a missing log falls to the database."""
    synced: list[str] = []
    if has_data_sync:
        monkeypatch.setattr(os, "fdatasync", lambda descriptor: synced.append("fdatasync"), raising=False)
    else:
        monkeypatch.delattr(os, "fdatasync", raising=False)
    monkeypatch.setattr(os, "fsync", lambda descriptor: synced.append("fsync"))
    database = tmp_path / "bot.db"
    database.write_bytes(b"x")
    durability._sync_files((tmp_path / "bot.db-wal", database))
    assert synced == ["fdatasync" if has_data_sync else "fsync"]
