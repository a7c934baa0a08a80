"""Transactions without a session (db/lean.py): what they write is committed or left out whole,
they queue as the store's sessions do and give up with StoreBusy, every statement counter sees
them, and a read of one statement sends no BEGIN."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from db import Notice, Store, StoreBusy
from db.prepared import begun, insert_rows, prepared, run
from tests.db.busy import every_write_turn_held
from tests.service.helpers import recorded


@contextlib.contextmanager
def counted_commits(store: Store) -> Iterator[list[int]]:
    """A 1 for every commit the store's engine sends while inside."""
    commits: list[int] = []

    def on_commit(_conn: Any) -> None:
        commits.append(1)

    event.listen(store.engine.sync_engine, "commit", on_commit)
    try:
        yield commits
    finally:
        event.remove(store.engine.sync_engine, "commit", on_commit)

AT = datetime(2026, 12, 3, 9, 30, 15, tzinfo=UTC)


def _keys_of() -> sa.Select[Any]:
    table = Notice.__table__  # type: ignore[attr-defined]
    return sa.select(table.c.key).where(table.c.match_id == sa.bindparam("match_id")).order_by(table.c.id)


async def _match(store: Store) -> int:
    import engine
    from bot.service import MatchService
    from tests.service.toygame import GAME

    engine.register(GAME)
    info = await MatchService(store).create(1, 9, 1001, "host", "toy", {"rounds": 3}, seed=1)
    return info.id


def _notice(match_id: int, key: str) -> dict[str, Any]:
    return {"match_id": match_id, "key": key, "kind": "event", "channel_id": 9, "user_id": None,
            "seat": None, "payload": {"text": key}, "created_at": AT}


async def _keys(store: Store, match_id: int) -> list[str]:
    async with store.read_once() as connection:
        rows = (await run(connection, prepared("test.lean_keys", connection.dialect, _keys_of),
                          {"match_id": match_id})).rows
    return [key for key, in rows if key.startswith("lean")]


async def test_a_lean_write_commits_whole_or_leaves_nothing(store: Store) -> None:
    match_id = await _match(store)
    async with store.lean_write() as connection:
        await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean a"), _notice(match_id, "lean b")])  # type: ignore[attr-defined]
    with pytest.raises(RuntimeError):
        async with store.lean_write() as connection:
            await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean c")])  # type: ignore[attr-defined]
            raise RuntimeError("the change fails after its insert")
    with pytest.raises(sa.exc.IntegrityError):  # a unique key clash is SQLAlchemy's error, as from Core
        async with store.lean_write() as connection:
            await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean d")])  # type: ignore[attr-defined]
            await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean a")])  # type: ignore[attr-defined]
    assert await _keys(store, match_id) == ["lean a", "lean b"]
    async with store.write() as session:  # the sessions' writes go on as before, beside the lean ones
        await insert_rows(await session.connection(), Notice.__table__, [_notice(match_id, "lean e")])  # type: ignore[attr-defined]
    async with store.lean_read() as connection:
        rows = (await run(connection, prepared("test.lean_keys", connection.dialect, _keys_of),
                          {"match_id": match_id})).rows
    assert [key for key, in rows if key.startswith("lean")] == ["lean a", "lean b", "lean e"]


async def test_a_write_cancelled_inside_leaves_nothing_and_the_next_goes_through(store: Store) -> None:
    match_id = await _match(store)
    inside = asyncio.Event()

    async def cancelled() -> None:
        async with store.lean_write() as connection:
            await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean gone")])  # type: ignore[attr-defined]
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(cancelled())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with store.lean_write() as connection:
        await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean kept")])  # type: ignore[attr-defined]
    async with store.write() as session:
        await insert_rows(await session.connection(), Notice.__table__, [_notice(match_id, "lean kept too")])  # type: ignore[attr-defined]
    assert await _keys(store, match_id) == ["lean kept", "lean kept too"]


SLOW_COUNT = sa.text("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000) "
                     "SELECT count(*) FROM c")
"""A statement that keeps SQLite busy for about two seconds: long enough to be cancelled while it runs."""


async def test_a_read_cancelled_mid_statement_is_cancelled_and_the_next_read_works(store: Store) -> None:
    """Cancelling a read while its statement runs leaves SQLAlchemy's transaction invalid; giving
    the connection back (on SQLite, a kept one) must still stop it and let the cancellation through (a PendingRollbackError
    raised there instead was swallowed by a loop's error handler, and the web feed never stopped)."""
    match_id = await _match(store)
    running = asyncio.Event()

    async def slow_read() -> None:
        async with store.read() as session:
            connection = await session.connection()
            running.set()
            await connection.execute(SLOW_COUNT)

    task = asyncio.create_task(slow_read())
    await running.wait()
    await asyncio.sleep(0.2)  # the statement is on its way in the connection's thread
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with store.read() as session:
        count = (await (await session.connection()).execute(sa.text("SELECT count(*) FROM notices"))).scalar_one()
    assert count >= 0 and await _keys(store, match_id) == []


async def test_counters_see_the_lean_statements_and_commits_and_a_lone_read_has_no_begin(store: Store) -> None:
    match_id = await _match(store)
    with counted_commits(store) as commits, recorded(store) as statements:
        async with store.lean_write() as connection:
            await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean a")])  # type: ignore[attr-defined]
        written = list(statements)
        statements.clear()
        assert await _keys(store, match_id) == ["lean a"]
        once = list(statements)
        statements.clear()
        async with store.lean_read() as connection:
            await run(connection, prepared("test.lean_keys", connection.dialect, _keys_of), {"match_id": match_id})
        read = list(statements)
    words = [[statement.split(None, 2)[:2] if statement.startswith("BEGIN") else statement.split(None, 1)[:1]
              for statement in found] for found in (written, once, read)]
    if store.dialect == "sqlite":
        assert words == [[["BEGIN", "IMMEDIATE"], ["INSERT"]], [["SELECT"]], [["BEGIN"], ["SELECT"]]]
    else:  # PostgreSQL's BEGIN is no statement
        assert words == [[["INSERT"]], [["SELECT"]], [["SELECT"]]]
    assert commits == [1]


async def test_a_lean_write_that_gets_no_turn_in_time_is_refused_busy(db_url: str) -> None:
    """A lean write waits in the same queue as the store's sessions and, past ``wait_seconds``,
    is refused with StoreBusy before anything is written."""
    store = await Store.open(db_url, pool_size=1, wait_seconds=0.3)
    try:
        match_id = await _match(store)
        async with every_write_turn_held(store):
            with pytest.raises(StoreBusy):
                async with store.lean_write() as connection:
                    await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean busy")])  # type: ignore[attr-defined]
        async with store.lean_write() as connection:
            await insert_rows(connection, Notice.__table__, [_notice(match_id, "lean after")])  # type: ignore[attr-defined]
        assert await _keys(store, match_id) == ["lean after"]
    finally:
        await store.close()


@pytest.mark.parametrize("fails", [False, True], ids=["committed", "rolled back"])
async def test_a_rows_write_whose_step_asks_for_a_session_keeps_one_transaction(store: Store, fails: bool) -> None:
    """A rows transaction (``Store.rows_write``) begun without a session and joined by one midway
    (a vote, an undo) is still one transaction: one BEGIN, one commit, what was written before
    and after the session came committed together, or left out together on an error."""
    match_id = await _match(store)
    with counted_commits(store) as commits, recorded(store) as statements:
        with pytest.raises(RuntimeError) if fails else contextlib.nullcontext():
            async with store.rows_write() as unit:
                await insert_rows(await begun(unit.db), Notice.__table__,  # type: ignore[attr-defined]
                                  [_notice(match_id, "lean before")])
                session = unit.session()
                session.add(Notice(**_notice(match_id, "lean after")))
                if fails:
                    raise RuntimeError("a step failed")
        begins = [statement for statement in statements if statement.startswith("BEGIN")]
    assert await _keys(store, match_id) == ([] if fails else ["lean before", "lean after"])
    assert commits == ([] if fails else [1])
    if store.dialect == "sqlite":
        assert begins == ["BEGIN IMMEDIATE"]
    async with store.rows_write() as unit:  # the writer is clean for the next transaction
        await insert_rows(await begun(unit.db), Notice.__table__, [_notice(match_id, "lean next")])  # type: ignore[attr-defined]
    assert (await _keys(store, match_id))[-1] == "lean next"
