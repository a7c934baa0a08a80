"""Every seat's turn of a match in one read (``MatchService.seat_turns``, what the delivery
reads after each drain): the same turns as asking seat by seat, in a few statements whatever the
number of seats."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from bot.service import MatchService
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, HOST, lobby, play_choice
from tests.service.test_seat_turn import deliver_prompts

MAX_STATEMENTS = 3
"""BEGIN, the match with its seats and deadline, the outbox's part of every seat with their choices
(the state comes from the cache); seat by seat it was BEGIN and three reads a seat."""


async def seat_by_seat(svc: MatchService, match_id: int, seats: list[int]) -> dict[int, Any]:
    return {seat: await svc.seat_turn(match_id, seat) for seat in seats}


async def test_all_seats_at_once_read_what_each_seat_reads_alone(svc: MatchService, store: Store,
                                                                 clock: Clock) -> None:
    users = [HOST, BOB, CAROL]
    info = await lobby(svc, users, ais=1, hours=10)
    humans = [seat for seat in (info.seat_of(user) for user in users) if seat is not None]
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    checked = 0
    for step in range(8):
        await deliver_prompts(svc, first_ref=1000 * (step + 1))
        alone = await seat_by_seat(svc, info.id, humans)
        engines = {store.engine.sync_engine, store.read_engine.sync_engine}  # SQLite reads have their own
        for engine in engines:
            event.listen(engine, "before_cursor_execute", record)
        try:
            statements.clear()
            together = await svc.seat_turns(info.id)
        finally:
            for engine in engines:
                event.remove(engine, "before_cursor_execute", record)
        assert together == alone, f"step {step}"
        assert len(statements) <= MAX_STATEMENTS, statements
        checked += sum(1 for turn in together.values() if turn.subject is not None)
        # some seats answer, one leaves its decision to the deadline now and then
        for user in users[: 1 + step % 3]:
            choice = await play_choice(svc, info.id, user)
            if choice is not None:
                await svc.submit(info.id, user, choice)
        if step % 3 == 2:
            await svc.tick(clock.advance(11))
    assert checked >= 16, "most seats had a turn DM to compare"
