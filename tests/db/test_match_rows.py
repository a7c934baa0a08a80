"""The match rows' read (`Store.match_rows`, one statement with a row per seat) gives every seat
typed as the ORM loads it: its datetimes aware, its flags booleans. The match's and the
deadline's columns, repeated in every row, are processed in the first row only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import col, select

import engine
from bot.service import MatchService
from db import Store
from db.models import Deadline, Match, Seat
from db.prepared import Prepared
from tests.service.helpers import BOB, CAROL, HOST
from tests.service.toygame import GAME

AT = datetime(2026, 12, 4, 18, 0, 30, 125_000, tzinfo=UTC)


def _values(row: object, keys: list[str]) -> dict[str, object]:
    return {key: getattr(row, key) for key in keys}


async def test_every_seat_of_a_match_read_is_typed_as_the_orm_loads_it(store: Store) -> None:
    engine.register(GAME)
    svc = MatchService(store)
    info = await svc.create(None, 77, HOST, "host", "toy", {}, seed=1)
    await svc.join(77, BOB, "bob")
    await svc.join(77, CAROL, "carol")
    await svc.start(77, HOST)
    async with store.write() as session:  # each seat its own datetimes and flags
        for n, seat in enumerate((await session.exec(select(Seat).where(col(Seat.match_id) == info.id))).all()):
            seat.prompt_opened_at = AT + timedelta(minutes=n)
            seat.away_until = AT + timedelta(hours=n + 1) if n else None
            seat.ai_takeover = n == 2
        if await session.get(Deadline, info.id) is None:
            session.add(Deadline(match_id=info.id, step=0, started_at=AT, due_at=AT + timedelta(hours=5)))
    async with store.read_once() as connection:
        read = await store.match_rows(connection, info.id)
    assert read is not None
    match, seats, deadline = read
    async with store.read() as session:
        loaded = await session.get(Match, info.id)
        loaded_seats = (await session.exec(select(Seat).where(col(Seat.match_id) == info.id)
                                           .order_by(col(Seat.seat_no)))).all()
        loaded_deadline = await session.get(Deadline, info.id)
    seat_keys = list(Seat.model_fields)
    assert len(seats) == 3
    assert [_values(s, seat_keys) for s in seats] == [_values(s, seat_keys) for s in loaded_seats]
    assert [s.prompt_opened_at for s in seats] == [AT, AT + timedelta(minutes=1), AT + timedelta(minutes=2)]
    assert all(s.prompt_opened_at is not None and s.prompt_opened_at.tzinfo is not None for s in seats)
    assert [s.ai_takeover for s in seats] == [False, False, True]
    assert _values(match, list(Match.model_fields)) == _values(loaded, list(Match.model_fields))
    assert isinstance(match.options, dict) and match.created_at.tzinfo is not None
    assert deadline is not None and _values(deadline, list(Deadline.model_fields)) == _values(
        loaded_deadline, list(Deadline.model_fields))


def test_processed_takes_the_repeated_columns_from_the_first_row_only() -> None:
    """Rows of a join to many: the columns that differ from row to row (``each_row``) are
    processed in every row, the others in the first row only."""
    statement = Prepared.__new__(Prepared)
    statement._active = ((0, lambda value: f"one:{value}"), (1, lambda value: f"many:{value}"))
    rows = [("a", "x"), ("a", "y"), ("a", "z")]
    assert statement.processed(rows, None, range(1, 2)) == [("one:a", "many:x"), ("a", "many:y"), ("a", "many:z")]
    assert statement.processed(rows, None) == [("one:a", "many:x"), ("one:a", "many:y"), ("one:a", "many:z")]
