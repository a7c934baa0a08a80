"""Ratings: a finished match with two humans moves them (the winner up), exactly once; AI seats,
one-human and cooperative matches count games and wins but move no rating."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

import engine
from bot.service import MatchService
from bot.service.ratings import ranks, record_finish
from db import MatchRecord, Rating, RecordSeat, Store
from db.models import Match, Seat
from db.records import DEFAULT_MU, DEFAULT_SIGMA
from db.store import VersionConflict
from engine.kit.info import GameInfo
from tests.service.helpers import BOB, CAROL, GUILD, HOST, lobby, play_choice
from tests.service.toygame import GAME, ToyGame


async def play_out(svc: MatchService, match_id: int, users: list[int]) -> dict[str, Any]:
    """Every human answers until the match is over; returns its result."""
    while True:
        moved = False
        for user in users:
            choice = await play_choice(svc, match_id, user)
            pending = await svc.pending_prompt(match_id, user)
            if choice is None or pending is None or pending.prompt.answered:
                continue
            await svc.submit(match_id, user, choice, version=pending.version)
            moved = True
        if not moved:
            break
    info = await svc.get_match(match_id)
    assert info.status == "finished" and info.result is not None
    return info.result


async def decided_match(svc: MatchService, users: list[int], ais: int = 0, seed: int = 1) -> tuple[int, dict[str, Any]]:
    """A finished toy match that the dice of ``seed`` give one winner."""
    info = await lobby(svc, users, ais=ais, rounds=2, seed=seed)
    result = await play_out(svc, info.id, users)
    assert not result["draw"], "pick a seed whose match has one winner"
    return info.id, result


async def ratings(store: Store) -> dict[int, Rating]:
    async with store.read() as session:
        return {r.user_id: r for r in (await session.exec(select(Rating).where(Rating.guild_id == GUILD))).all()}


def test_ranks_put_winners_first_then_scores() -> None:
    result = engine.Result(winners=[2], reason="r", scores={0: 3, 1: 5, 2: 9, 3: 3})
    assert ranks(result, [0, 1, 2, 3]) == [3, 2, 1, 3]
    assert ranks(engine.Result(winners=[0, 1], reason="tie", draw=True), [0, 1]) == [1, 1]
    assert ranks(engine.Result(winners=[1], reason="r"), [0, 1, 2]) == [2, 1, 2]


async def test_winner_rises_loser_falls(svc: MatchService, store: Store) -> None:
    match_id, result = await decided_match(svc, [HOST, BOB])
    winner = [HOST, BOB][result["winners"][0]]
    loser = BOB if winner == HOST else HOST
    rows = await ratings(store)
    assert rows[winner].mu > DEFAULT_MU > rows[loser].mu
    assert rows[winner].sigma < DEFAULT_SIGMA and rows[loser].sigma < DEFAULT_SIGMA
    assert (rows[winner].games, rows[winner].wins, rows[winner].rated) == (1, 1, 1)
    assert (rows[loser].games, rows[loser].wins, rows[loser].rated) == (1, 0, 1)
    async with store.read() as session:
        record = await session.get(MatchRecord, match_id)
        seats = (await session.exec(select(RecordSeat).where(RecordSeat.match_id == match_id))).all()
    assert record is not None and record.rated and record.rounds == 2
    assert {s.user_id: s.won for s in seats} == {winner: True, loser: False}
    assert all(s.mu_before == DEFAULT_MU and s.mu_after is not None for s in seats)

    stats = await svc.player_stats(GUILD, winner)
    assert [(s.game, s.games, s.wins, s.rated) for s in stats] == [("toy", 1, 1, 1)]
    board = await svc.leaderboard(GUILD, "toy")
    assert [s.user_id for s in board] == [winner, loser]


async def test_a_second_finish_of_the_same_match_changes_nothing(svc: MatchService, store: Store) -> None:
    match_id, result = await decided_match(svc, [HOST, BOB])
    before = {u: (r.mu, r.sigma, r.games, r.wins) for u, r in (await ratings(store)).items()}
    async with store.write() as session:
        match = await session.get(Match, match_id)
        seats = list((await session.exec(select(Seat).where(Seat.match_id == match_id))).all())
        state = await store.load_state(session, match)
        again = await record_finish(session, match, seats, GAME, state, engine.Result(**result), match.updated_at)
    assert again is None
    assert {u: (r.mu, r.sigma, r.games, r.wins) for u, r in (await ratings(store)).items()} == before


async def test_a_retried_finish_rates_once(svc: MatchService, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The finishing transaction fails after the ratings were written (another writer, a crash):
    everything rolls back with it, and the retry rates the match once."""
    info = await lobby(svc, [HOST, BOB], rounds=1, seed=3)
    real_bump = store.bump
    failed: list[int] = []

    async def flaky_bump(session: Any, match: Match, now: Any, **values: Any) -> None:
        if values.get("status") == "finished" and not failed:
            failed.append(match.id)
            raise VersionConflict("simulated")
        await real_bump(session, match, now, **values)

    monkeypatch.setattr(store, "bump", flaky_bump)
    await play_out(svc, info.id, [HOST, BOB])
    assert failed == [info.id]
    rows = await ratings(store)
    assert (rows[HOST].games, rows[BOB].games) == (1, 1)
    assert rows[HOST].rated == rows[BOB].rated == 1
    async with store.read() as session:
        records = (await session.exec(select(MatchRecord))).all()
    assert [r.match_id for r in records] == [info.id]


async def test_ai_seats_are_not_rated(svc: MatchService, store: Store) -> None:
    """One human against the AI: the game and its win count, the rating stays."""
    await decided_match(svc, [HOST], ais=1)
    rows = await ratings(store)
    assert list(rows) == [HOST]
    assert (rows[HOST].mu, rows[HOST].sigma, rows[HOST].games, rows[HOST].rated) == (DEFAULT_MU, DEFAULT_SIGMA, 1, 0)


async def test_two_humans_and_an_ai_rate_the_humans_only(svc: MatchService, store: Store) -> None:
    await decided_match(svc, [HOST, BOB, CAROL], ais=1, seed=3)
    rows = await ratings(store)
    assert sorted(rows) == sorted([HOST, BOB, CAROL])
    assert all(r.rated == 1 and r.mu != DEFAULT_MU for r in rows.values())


class CoopToy(ToyGame):
    """The toy game, declared cooperative (everyone wins or loses together)."""

    info = GameInfo(key="toy", title="Toy Bidding War", seats=range(2, 5), cooperative=True)


async def test_cooperative_matches_count_games_not_ratings(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], rounds=1, seed=5)
    async with store.write() as session:
        match = await session.get(Match, info.id)
        seats = list((await session.exec(select(Seat).where(Seat.match_id == info.id))).all())
        state = await store.load_state(session, match)
        record = await record_finish(session, match, seats, CoopToy(), state,
                                     engine.Result(winners=[0, 1], reason="the city stands"), match.updated_at)
    assert record is not None and not record.rated
    rows = await ratings(store)
    assert {u: (r.games, r.wins, r.rated, r.mu) for u, r in rows.items()} == {
        HOST: (1, 1, 0, DEFAULT_MU), BOB: (1, 1, 0, DEFAULT_MU)}
