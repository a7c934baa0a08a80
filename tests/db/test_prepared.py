"""Statements run on the DB-API connection (db/prepared.py): what a Core execution gave (typed
rows, SQLAlchemy's errors, the session's transaction), and seen by every statement counter."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine

from db import Notice, Store
from db.prepared import insert_rows, prepared, run
from tests.service.helpers import recorded

AT = datetime(2026, 12, 3, 9, 30, 15, 250_000, tzinfo=UTC)


def _notices_of() -> sa.Select[Any]:
    table = Notice.__table__  # type: ignore[attr-defined]
    return (sa.select(table.c.key, table.c.payload, table.c.created_at, table.c.user_id)
            .where(table.c.match_id == sa.bindparam("match_id"), table.c.kind == "event").order_by(table.c.id))


async def _match(store: Store) -> int:
    import engine
    from bot.service import MatchService
    from tests.service.toygame import GAME

    engine.register(GAME)
    info = await MatchService(store).create(1, 9, 1001, "host", "toy", {"rounds": 3}, seed=1)
    return info.id


def _notice(match_id: int, key: str) -> dict[str, Any]:
    return {"match_id": match_id, "key": key, "kind": "event", "channel_id": 9, "user_id": 2**62 + 5,
            "seat": None, "payload": {"text": "Bob gathers.", "n": [1, 2]}, "created_at": AT}


async def test_rows_come_back_typed_in_order_and_in_the_transaction(store: Store) -> None:
    match_id = await _match(store)
    async with store.write() as session:
        connection = await session.connection()
        await insert_rows(connection, Notice.__table__, [_notice(match_id, "a"), _notice(match_id, "b")])  # type: ignore[attr-defined]
        statement = prepared("test.notices_of", connection.dialect, _notices_of)
        rows = (await run(connection, statement, {"match_id": match_id})).rows
    assert rows == [("a", {"text": "Bob gathers.", "n": [1, 2]}, AT, 2**62 + 5),
                    ("b", {"text": "Bob gathers.", "n": [1, 2]}, AT, 2**62 + 5)]
    assert rows[0][2].tzinfo is not None
    with pytest.raises(RuntimeError):
        async with store.write() as session:
            await insert_rows(await session.connection(), Notice.__table__, [_notice(match_id, "c")])  # type: ignore[attr-defined]
            raise RuntimeError("the change fails after its insert")
    async with store.read() as session:
        connection = await session.connection()
        keys = [row[0] for row in (await run(connection, prepared("test.notices_of", connection.dialect, _notices_of),
                                             {"match_id": match_id})).rows]
    assert keys == ["a", "b"]  # the rolled-back insert left nothing


async def test_a_unique_key_clash_is_sqlalchemys_integrity_error(store: Store) -> None:
    match_id = await _match(store)
    async with store.write() as session:
        await insert_rows(await session.connection(), Notice.__table__, [_notice(match_id, "same")])  # type: ignore[attr-defined]
    with pytest.raises(sa.exc.IntegrityError) as raised:
        async with store.write() as session:
            await insert_rows(await session.connection(), Notice.__table__, [_notice(match_id, "same")])  # type: ignore[attr-defined]
    assert "Bob gathers" not in str(raised.value)  # parameters stay out of the message, as the engine hides them


async def test_every_counter_sees_the_statements_and_the_begin(store: Store) -> None:
    """The tests' recorder (the engine's listeners) and bot_probe's (a listener on every Engine)
    both see each prepared statement, and the BEGIN sent straight to SQLite."""
    match_id = await _match(store)
    everywhere: list[str] = []

    def probe(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        everywhere.append(statement)

    event.listen(Engine, "before_cursor_execute", probe)
    try:
        with recorded(store) as statements:
            async with store.write() as session:
                connection = await session.connection()
                await insert_rows(connection, Notice.__table__, [_notice(match_id, "x"), _notice(match_id, "y")])  # type: ignore[attr-defined]
                await run(connection, prepared("test.notices_of", connection.dialect, _notices_of), {"match_id": match_id})
    finally:
        event.remove(Engine, "before_cursor_execute", probe)
    words = [statement.split(None, 1)[0].upper() for statement in statements]
    assert words[-2:] == ["INSERT", "SELECT"]
    if store.dialect == "sqlite":
        assert words == ["BEGIN", "INSERT", "SELECT"]
    assert everywhere == statements


async def test_a_time_bound_again_is_written_as_the_first_time(store: Store) -> None:
    """A statement's times are converted once per instant (``remembering``): the same instant
    given again, or in another zone, is the same time stored; other instants keep their own,
    also once more of them came than are remembered; a time without a zone is refused."""
    from datetime import timedelta, timezone

    from db.prepared import REMEMBERED_VALUES

    match_id = await _match(store)
    east = AT.astimezone(timezone(timedelta(hours=5)))
    later = [AT + timedelta(minutes=n) for n in range(1, REMEMBERED_VALUES + 3)]
    rows = [_notice(match_id, "a"), {**_notice(match_id, "b"), "created_at": east},
            *[{**_notice(match_id, f"later{n}"), "created_at": at} for n, at in enumerate(later)],
            {**_notice(match_id, "again"), "created_at": AT}]
    async with store.write() as session:
        connection = await session.connection()
        for row in rows:  # one statement each: each binds its time alone
            await insert_rows(connection, Notice.__table__, [row])  # type: ignore[attr-defined]
        found = {key: at for key, _payload, at, _user in
                 (await run(connection, prepared("test.notices_of", connection.dialect, _notices_of),
                            {"match_id": match_id})).rows}
    assert found["a"] == found["b"] == found["again"] == AT
    assert [found[f"later{n}"] for n in range(len(later))] == later
    with pytest.raises((ValueError, sa.exc.StatementError)):
        async with store.write() as session:
            await insert_rows(await session.connection(), Notice.__table__,  # type: ignore[attr-defined]
                              [{**_notice(match_id, "naive"), "created_at": AT.replace(tzinfo=None)}])
