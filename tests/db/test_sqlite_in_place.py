"""SQLite statements that cannot wait run in place on the event loop's thread; what may wait
(BEGIN IMMEDIATE, COMMIT) goes to the connection's thread, and the event loop keeps running
while it waits (db/sqlite_connection.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from db import Store
from db.models import Secret
from db.prepared import insert_rows
from db.sqlite_connection import OnceStopped

NOW = datetime(2026, 5, 1, tzinfo=UTC)


class Trips:
    """Counts the calls that went to a connection's thread, by what they ran."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: list[str] = []
        original = OnceStopped._on_thread
        trips = self

        def on_thread(self: OnceStopped, begin: str | None, fn: Any, args: tuple[Any, ...],
                      kwargs: dict[str, Any]) -> tuple[Any, bool]:
            name = args[1].split()[0].upper() if args and isinstance(args[0], OnceStopped) else getattr(fn, "__name__", "?")
            trips.sent.append(f"{begin} + {name}" if begin else name)
            return original(self, begin, fn, args, kwargs)

        monkeypatch.setattr(OnceStopped, "_on_thread", on_thread)


async def _store(path: Path) -> Store:
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    async with store.write() as session:  # every pooled connection set up before counting
        session.add(Secret(name="seed", value="x", created_at=NOW))
    async with store.read() as session:
        await session.get(Secret, "seed")
    return store


async def test_a_write_makes_no_trip_and_a_read_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = await _store(tmp_path / "trips.db")
    trips = Trips(monkeypatch)
    try:
        async with store.write() as session:
            connection = await session.connection()
            await connection.execute(sa.text("SELECT 1"))
            for n in range(5):
                await connection.execute(sa.text("INSERT INTO secrets (name, value, created_at) VALUES (:n, 'v', :now)"),
                                         {"n": f"k{n}", "now": NOW})
            changed = await connection.execute(sa.text("UPDATE secrets SET value = 'w' WHERE name LIKE 'k%'"))
            assert changed.rowcount == 5
        # the writer of a store that syncs its log itself (db/durability.py): BEGIN IMMEDIATE,
        # the statements and COMMIT all run in place, the write turn held for their CPU alone
        assert trips.sent == []
        async with store.write_once() as alone:  # a write on its own (autocommit) likewise
            await insert_rows(alone, Secret.__table__,  # type: ignore[attr-defined]
                              [{"name": "alone", "value": "v", "created_at": NOW}])
        assert trips.sent == []

        async with store.read() as session:
            rows = (await (await session.connection()).execute(sa.text("SELECT name, value FROM secrets WHERE name LIKE 'k%' ORDER BY name"))).all()
        assert [tuple(row) for row in rows] == [(f"k{n}", "w") for n in range(5)]
        assert trips.sent == ["SELECT"], "a read connection's read: one trip (its BEGIN and rollback none)"
        trips.sent.clear()

        async with store.write() as session:  # a transaction that wrote nothing makes no trip
            pass
        assert trips.sent == []
    finally:
        await store.close()


async def test_a_failed_write_is_rolled_back_in_place_and_leaves_no_lock(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "failed.db"
    store = await _store(path)
    trips = Trips(monkeypatch)
    try:
        with pytest.raises(sa.exc.IntegrityError):
            async with store.write() as session:
                connection = await session.connection()
                await connection.execute(sa.text("DELETE FROM secrets"))
                await connection.execute(sa.text("INSERT INTO secrets (name, value, created_at) VALUES ('a', 'x', :now), "
                                                 "('a', 'y', :now)"), {"now": NOW})
        assert trips.sent == []
        other = sqlite3.connect(path, timeout=0)  # a lock left behind fails at once
        try:
            other.execute("BEGIN IMMEDIATE")
            other.rollback()
        finally:
            other.close()
        async with store.read() as session:
            assert (await session.get(Secret, "seed")) is not None, "the DELETE was rolled back"
    finally:
        await store.close()


@pytest.mark.parametrize("alone", [False, True], ids=["a transaction", "a write on its own"])
async def test_the_event_loop_runs_while_a_write_waits_for_another_process_lock(tmp_path: Path, alone: bool) -> None:
    """Another process holds the write lock: the store's BEGIN IMMEDIATE (or its write on its
    own, with no transaction around it) finds it at once in place, and waits on its thread, not
    on the event loop, which goes on acknowledging clicks meanwhile."""
    path = tmp_path / "held.db"
    store = await _store(path)
    locked, release = threading.Event(), threading.Event()

    def other_process() -> None:
        other = sqlite3.connect(path)
        try:
            other.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(60)
            other.rollback()
        finally:
            other.close()

    holder = threading.Thread(target=other_process)
    holder.start()
    try:
        await asyncio.to_thread(locked.wait, 30)

        async def write() -> None:
            if alone:
                async with store.write_once() as connection:
                    await insert_rows(connection, Secret.__table__,  # type: ignore[attr-defined]
                                      [{"name": "after", "value": "written", "created_at": NOW}])
                return
            async with store.write() as session:
                session.add(Secret(name="after", value="written", created_at=NOW))

        writing = asyncio.create_task(write())
        ticks = 0
        while ticks < 20:  # the loop keeps turning while the write waits for the lock
            await asyncio.sleep(0.01)
            ticks += 1
        assert not writing.done(), "the write waits for the other process's lock"
        release.set()
        await asyncio.wait_for(writing, 30)
        async with store.read() as session:
            found = await session.get(Secret, "after")
        assert found is not None and found.value == "written"
    finally:
        release.set()
        await asyncio.to_thread(holder.join, 30)
        await store.close()


async def test_a_statement_after_a_cancelled_trip_waits_for_it(tmp_path: Path) -> None:
    """A caller cancelled while its statement is on the thread: the next call on the connection
    goes to the thread too, after it, never alongside it on the event loop."""
    from db.sqlite_connection import connect_once_stopped

    connection = connect_once_stopped(str(tmp_path / "order.db"))
    await connection
    try:
        gate = threading.Event()
        order: list[str] = []

        def slow() -> None:
            gate.wait(30)
            order.append("slow")

        stuck = asyncio.ensure_future(connection._execute(slow))
        await asyncio.sleep(0.02)
        stuck.cancel()
        cursor = connection.cursor()
        reading = asyncio.ensure_future(cursor.execute("SELECT 41 + 1"))
        await asyncio.sleep(0.05)
        assert not reading.done(), "the read waits behind the trip still under way"
        gate.set()
        await asyncio.wait_for(reading, 30)
        assert order == ["slow"] and await cursor.fetchall() == [(42,)]
        assert await cursor.execute("SELECT 7") is cursor and await cursor.fetchone() == (7,)
    finally:
        await connection.close()
