"""The status board's read (``MatchService.board_of``): the match rows and one statement for the
newest log line and whether there are blocked targets, undos or votes; their rows are read only
when there are some, and the board says the same as reading each in full."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from bot.service import MatchService
from bot.service.types import Board
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, CHANNEL, HOST, lobby

PLAIN_BOARD = 1
"""The match with its seats and deadline and the rest in one statement, with no BEGIN (the
state comes from the cache); it was BEGIN and two before (and BEGIN and five reads, blocks, log
line, undos, vote, before that)."""


async def in_full(svc: MatchService, store: Store, match_id: int) -> tuple[Any, ...]:
    """What the board shows, each part read in full (the blocks, the log with its undos, the vote)."""
    async with store.read() as session:
        match, seats, _state, _deadline = await svc._committed(session, match_id)
        blocked = await svc.deliveries.blocked_in(session, match_id)
        lines = await svc._log_in(session, match_id, 1, seats)
        vote = await store.latest_vote(session, match_id)
    return blocked, lines[-1] if lines else None, svc.vote_line(vote, match)


async def board_and_statements(svc: MatchService, store: Store, match_id: int) -> tuple[Board, int]:
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    await svc.board_of(match_id)  # the state cached, as after any change the board follows
    engines = {store.engine.sync_engine, store.read_engine.sync_engine}  # SQLite reads have their own
    for engine in engines:
        event.listen(engine, "before_cursor_execute", record)
    try:
        board = await svc.board_of(match_id)
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", record)
    return board, len(statements)


async def test_the_board_reads_what_it_shows_in_one_statement_beside_the_match(svc: MatchService, store: Store,
                                                                              clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    seen: list[tuple[Any, ...]] = []

    async def check() -> int:
        board, count = await board_and_statements(svc, store, info.id)
        expected = await in_full(svc, store, info.id)
        assert (board.status.blocked, board.latest, board.status.vote) == expected
        seen.append(expected)
        return count

    assert await check() <= PLAIN_BOARD  # nothing chosen yet
    for user, bid in ((HOST, 2), (BOB, 1), (CAROL, 3)):
        pending = await svc.pending_prompt(info.id, user)
        assert pending is not None
        await svc.submit(info.id, user, {"bid": bid}, version=pending.version)
    assert await check() <= PLAIN_BOARD and seen[-1][1], "a log line, nothing else"

    asked = await svc.request_undo(CHANNEL, HOST)  # the bids were revealed: the others must agree
    assert asked.status == "pending"
    await check()
    for user in asked.waiting:
        done = await svc.answer_undo(info.id, asked.id, user, True)
    assert done.status == "done"
    await check()
    assert "undid" in str(seen[-1][1]), "the undo's line is the newest on the board"

    await svc.propose(CHANNEL, BOB, "abandon")
    await check()
    assert seen[-1][2], "the open vote is on the board"

    waiting = [n for n in await svc.outbox(limit=100) if n.user_id is not None]
    assert await svc.park(waiting[0].id, 50007, "closed DMs", retry_in=60) is not None
    await check()
    assert seen[-1][0], "the blocked target is on the board"
