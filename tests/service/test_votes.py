"""Conceding and votes to end a match, at the service: who may, what each outcome does to the
match, its record and the ratings, and every refusal (nothing changes)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

import engine
from bot.service import MatchService
from bot.service.errors import BadChoice, Conflict, NoMatch, NotAllowed, NotSeated, StalePrompt
from bot.service.ratings import ranks, record_finish
from db import MatchRecord, Rating, RecordSeat, Store
from db.models import Match, Notice, Seat
from db.records import DEFAULT_MU
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, CHANNEL, DAVE, GUILD, HOST, lobby
from tests.service.test_ratings import CoopToy, play_out


async def _ratings(store: Store) -> dict[int, Rating]:
    async with store.read() as session:
        return {r.user_id: r for r in (await session.exec(select(Rating).where(Rating.guild_id == GUILD))).all()}


async def _record(store: Store, match_id: int) -> tuple[MatchRecord | None, dict[int, RecordSeat]]:
    async with store.read() as session:
        record = await session.get(MatchRecord, match_id)
        seats = (await session.exec(select(RecordSeat).where(RecordSeat.match_id == match_id))).all()
    return record, {s.seat_no: s for s in seats}


async def _channel_texts(store: Store, match_id: int, kind: str = "timeout") -> list[str]:
    async with store.read() as session:
        rows = (await session.exec(select(Notice).where(Notice.match_id == match_id, Notice.kind == kind)
                                   .order_by(Notice.id))).all()
    return [str(r.payload.get("text", "")) for r in rows]


def test_conceded_seats_rank_below_everyone_the_earliest_last() -> None:
    won_by_conceded = engine.Result(winners=[1], reason="r", scores={0: 3, 1: 9, 2: 5})
    assert ranks(won_by_conceded, [0, 1, 2], conceded=[1]) == [3, 4, 2]
    assert ranks(engine.Result(winners=[], reason="agreed", draw=True), [0, 1, 2], conceded=[2, 0]) == [2, 1, 3]


async def test_a_concession_is_the_players_loss_even_when_their_ai_seat_wins(svc: MatchService,
                                                                             store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL], rounds=2)
    done = await svc.concede(info.id, BOB, 1)
    assert not done.ended and done.ai_name == "player1 (AI)"
    after = await svc.get_match(info.id)
    assert after.status == "active" and after.seat_user(1) is None
    assert any("player1 conceded: the AI plays their seat" in t for t in await _channel_texts(store, info.id))
    with pytest.raises(NotSeated):
        await svc.pending_prompt(info.id, BOB)  # no prompt of that seat reaches bob any more
    with pytest.raises(StalePrompt, match="already conceded"):
        await svc.concede(info.id, BOB, 1)
    # The seat BOB conceded wins the match: it is still BOB's loss, rated below both others.
    async with store.write() as session:
        match = await session.get(Match, info.id)
        seats = list((await session.exec(select(Seat).where(Seat.match_id == info.id))).all())
        state = await store.load_state(session, match)
        record = await record_finish(session, match, seats, engine.get("toy"), state,
                                     engine.Result(winners=[1], reason="[[seat:1]] took everything"), match.updated_at)
    assert record is not None and record.rated
    _, rows = await _record(store, info.id)
    assert (rows[1].user_id, rows[1].name, rows[1].won) == (BOB, "player1", False)
    standings = await _ratings(store)
    assert standings[BOB].wins == 0 and standings[BOB].games == 1
    assert standings[BOB].mu < standings[HOST].mu and standings[BOB].mu < standings[CAROL].mu


async def test_concede_refusals_change_nothing(svc: MatchService) -> None:
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 2}, seed=7)
    with pytest.raises(Conflict, match="has not started"):
        await svc.seat_to_concede(CHANNEL, HOST)
    await svc.join(CHANNEL, BOB, "player1")
    await svc.start(CHANNEL, HOST)
    with pytest.raises(NotSeated, match="no seat in this match"):
        await svc.seat_to_concede(CHANNEL, CAROL)
    assert (await svc.seat_to_concede(CHANNEL, BOB)).seat == 1
    with pytest.raises(NotAllowed, match="another seat"):
        await svc.concede(info.id, BOB, 0)  # a forged button: HOST's seat
    with pytest.raises(NotSeated):
        await svc.concede(info.id, CAROL, 1)
    after = await svc.get_match(info.id)
    assert after.seat_user(0) == HOST and after.seat_user(1) == BOB and after.version == info.version + 2


async def test_the_last_human_conceding_ends_the_match_for_the_ai(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST], ais=1, rounds=3)
    done = await svc.concede(info.id, HOST, 0)
    assert done.ended
    after = await svc.get_match(info.id)
    assert after.status == "finished" and after.result is not None and after.result["winners"] == [1]
    record, rows = await _record(store, info.id)
    assert record is not None and (rows[0].user_id, rows[0].won) == (HOST, False) and rows[1].won
    assert (await _ratings(store))[HOST].wins == 0


async def test_an_agreed_draw_finishes_the_match_rated_as_a_draw(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL], rounds=3)
    await svc.concede(info.id, CAROL, 2)
    asked = await svc.propose(CHANNEL, HOST, "draw")
    assert asked.status == "pending" and asked.asked == ["player1"]
    async with store.read() as session:
        dms = (await session.exec(select(Notice).where(Notice.match_id == info.id, Notice.kind == "vote"))).all()
    assert [(d.user_id, d.payload["kind"]) for d in dms] == [(BOB, "draw")], "only bob is asked, in his DMs"
    with pytest.raises(Conflict, match="already open"):
        await svc.propose(CHANNEL, BOB, "abandon")
    with pytest.raises(NotAllowed, match="not yours to answer"):
        await svc.answer_vote(info.id, asked.id, HOST, True)  # the proposer already counts as yes
    done = await svc.answer_vote(info.id, asked.id, BOB, True)
    assert done.status == "passed"
    after = await svc.get_match(info.id)
    assert after.status == "finished" and after.result is not None and after.result["draw"]
    record, rows = await _record(store, info.id)
    assert record is not None and record.draw and record.rated and not any(r.won for r in rows.values())
    standings = await _ratings(store)
    assert standings[HOST].mu == pytest.approx(standings[BOB].mu)
    assert standings[CAROL].mu < standings[HOST].mu, "carol conceded: still her loss"
    with pytest.raises(StalePrompt, match="closed"):
        await svc.answer_vote(info.id, asked.id, BOB, True)
    board = await svc.board_of(info.id)
    assert board.status.ending is not None and "a draw" in board.status.ending


async def test_a_no_ends_the_vote_and_the_match_goes_on(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL], rounds=3)
    asked = await svc.propose(CHANNEL, BOB, "abandon")
    assert sorted(asked.asked) == ["host", "player2"]
    await svc.answer_vote(info.id, asked.id, HOST, True)
    with pytest.raises(Conflict, match="already said yes"):
        await svc.answer_vote(info.id, asked.id, HOST, True)
    board = await svc.board_of(info.id)
    assert board.status.vote is not None and "player1 proposes to abandon" in board.status.vote
    done = await svc.answer_vote(info.id, asked.id, CAROL, False)
    assert done.status == "refused"
    assert (await svc.get_match(info.id)).status == "active"
    texts = await _channel_texts(store, info.id)
    assert sum("is over: player2 said no. The match goes on." in t for t in texts) == 1
    board = await svc.board_of(info.id)
    assert board.status.vote is not None and "ended: someone said no" in board.status.vote
    assert await svc.vote_closed(info.id, asked.id, 2) == "answered"


async def test_an_unanswered_vote_expires_at_the_tick(svc: MatchService, store: Store, clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB], rounds=3, hours=48)
    asked = await svc.propose(CHANNEL, HOST, "draw")
    assert asked.due_at == clock.now + timedelta(hours=24), "the decision time, at most 24 h"
    assert await svc.vote_closed(info.id, asked.id, 1) is None
    clock.advance(24.5)
    assert await svc.tick() >= 1
    assert [v.status for v in await svc.vote_trail(info.id)] == ["expired"]
    assert (await svc.get_match(info.id)).status == "active"
    assert sum("not everyone answered in time" in t for t in await _channel_texts(store, info.id)) == 1
    assert await svc.vote_closed(info.id, asked.id, 1) == "its time ran out"
    # a second vote may open now
    assert (await svc.propose(CHANNEL, BOB, "abandon")).status == "pending"


async def test_an_agreed_abandon_closes_the_match_unrated_and_in_history(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], rounds=3)
    asked = await svc.propose(CHANNEL, HOST, "abandon")
    await svc.answer_vote(info.id, asked.id, BOB, True)
    after = await svc.get_match(info.id)
    assert after.status == "aborted"
    board = await svc.board_of(info.id)
    assert board.status.ending is not None and "agreed to abandon" in board.status.ending
    record, rows = await _record(store, info.id)
    assert record is not None and not record.rated and not record.draw and not any(r.won for r in rows.values())
    assert await _ratings(store) == {}, "no rating and no stats move"
    history = await svc.history(GUILD)
    assert [(h.match_id, h.abandoned) for h in history] == [(info.id, True)]
    texts = await _channel_texts(store, info.id)
    assert sum("agreed to abandon the match" in t for t in texts) == 1
    with pytest.raises(NoMatch):
        await svc.propose(CHANNEL, HOST, "draw")


async def test_proposal_refusals_and_tables_that_need_no_consent(svc: MatchService, store: Store) -> None:
    with pytest.raises(BadChoice):
        await svc.propose(CHANNEL, HOST, "surrender")
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 3}, seed=7)
    with pytest.raises(Conflict, match="has not started"):
        await svc.propose(CHANNEL, HOST, "draw")
    await svc.join(CHANNEL, BOB, "player1")
    await svc.start(CHANNEL, HOST)
    with pytest.raises(NotSeated, match="Only the players"):
        await svc.propose(CHANNEL, DAVE, "draw")
    # A paused table whose players were all removed: nobody is asked, a server manager decides at once.
    await svc.pause(CHANNEL, HOST)
    await svc.kick(CHANNEL, HOST, 1)
    await svc.kick(CHANNEL, HOST, 0)
    with pytest.raises(NotAllowed):
        await svc.propose(CHANNEL, BOB, "abandon")
    done = await svc.propose(CHANNEL, DAVE, "abandon", is_manager=True)
    assert done.status == "passed" and done.asked == []
    assert (await svc.get_match(info.id)).status == "aborted"


async def test_a_vote_is_void_when_the_match_ends_or_a_player_concedes(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL], rounds=3)
    asked = await svc.propose(CHANNEL, HOST, "draw")
    await svc.concede(info.id, CAROL, 2)
    assert [v.status for v in await svc.vote_trail(info.id)] == ["void"]
    assert any("player2 conceded, so the table is not the one asked" in t for t in await _channel_texts(store, info.id))
    asked = await svc.propose(CHANNEL, HOST, "abandon")
    await svc.abort(CHANNEL, HOST)
    assert await svc.vote_closed(info.id, asked.id, 1) == "the match changed before everyone answered"
    done = await svc.answer_vote(info.id, asked.id, BOB, True)
    assert done.status == "void" and (await svc.get_match(info.id)).status == "aborted"


async def test_a_cooperative_game_has_no_draw_and_a_concession_is_no_team_win(store: Store, clock: Clock) -> None:
    engine.register(CoopToy())
    svc = MatchService(store, clock=clock)
    info = await lobby(svc, [HOST, BOB, CAROL], rounds=1, seed=5)
    with pytest.raises(Conflict, match="has no draw"):
        await svc.propose(CHANNEL, HOST, "draw")
    await svc.concede(info.id, CAROL, 2)
    await play_out(svc, info.id, [HOST, BOB])
    standings = await _ratings(store)
    assert standings[CAROL].games == 1 and standings[CAROL].wins == 0 and standings[CAROL].mu == DEFAULT_MU
