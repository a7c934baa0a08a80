"""Undo with consent, time away and `/game mine` in the service, on the toy game (SQLite and PostgreSQL).

The toy's bids are sealed (revealed together once all are in) and every move rolls a die, so it
has each kind of reveal the undo rules care about."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

import engine
from bot.service import BadChoice, Conflict, MatchService, NotAllowed, NotSeated, StalePrompt
from db import Choice, Deadline, Store, Undo
from tests.service.helpers import BOB, CAROL, CHANNEL, GUILD, HOST, lobby


async def _bid(svc: MatchService, match_id: int, user: int, bid: int) -> None:
    pending = await svc.pending_prompt(match_id, user)
    assert pending is not None and pending.prompt.kind == "bid"
    await svc.submit(match_id, user, {"bid": bid}, version=pending.version)


async def _log(store: Store, match_id: int) -> list[tuple[int, dict]]:
    async with store.read() as session:
        rows = (await session.exec(select(Choice).where(Choice.match_id == match_id).order_by(Choice.seq))).all()
        return [(r.seat, r.payload) for r in rows]


async def test_the_hosts_own_sealed_choice_undoes_at_once(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB])
    await _bid(svc, info.id, HOST, 2)
    before = await svc.pending_prompt(info.id, HOST)
    outcome = await svc.request_undo(CHANNEL, HOST)
    assert outcome.status == "done" and "only the host's own choices" in outcome.why
    assert (await svc.get_match(info.id)).step == 0 and await _log(store, info.id) == []
    again = await svc.pending_prompt(info.id, HOST)
    assert again is not None and not again.prompt.answered, "the bid is open again"
    assert before is not None and again.version == 0
    trail = await svc.undo_trail(info.id)
    assert [(t.status, t.to_step) for t in trail] == [("done", 0)] and "host's bid" in trail[0].summary
    assert any("host undid host's bid." in line for line in await svc.log_of(info.id))


async def test_undo_after_a_reveal_needs_consent_and_a_refusal_changes_nothing(svc: MatchService,
                                                                              store: Store) -> None:
    info = await lobby(svc, [HOST, BOB])
    await _bid(svc, info.id, HOST, 2)
    await _bid(svc, info.id, BOB, 1)  # the sealed bids are revealed together
    log = await _log(store, info.id)
    asked = await svc.request_undo(CHANNEL, HOST)
    assert asked.status == "pending" and asked.waiting == [BOB] and "other players' choices" in asked.why
    assert await _log(store, info.id) == log, "asking changes nothing yet"
    with pytest.raises(Conflict, match="already waiting"):
        await svc.request_undo(CHANNEL, HOST)
    with pytest.raises(NotAllowed, match="not yours to answer"):
        await svc.answer_undo(info.id, asked.id, HOST, True)
    refused = await svc.answer_undo(info.id, asked.id, BOB, False)
    assert refused.status == "refused" and await _log(store, info.id) == log
    with pytest.raises(StalePrompt, match="closed"):
        await svc.answer_undo(info.id, asked.id, BOB, True)
    again = await svc.request_undo(CHANNEL, HOST)
    done = await svc.answer_undo(info.id, again.id, BOB, True)
    assert done.status == "done" and done.agreed == ["player1"]
    assert await _log(store, info.id) == log[:1], "bob's bid is taken back, the host's stays"
    assert [t.status for t in await svc.undo_trail(info.id)] == ["refused", "done"]


async def test_undo_cannot_reroll_luck(svc: MatchService, store: Store) -> None:
    """The same choice after an undo rolls the same die: the log (and its sha) come out the same."""
    info = await lobby(svc, [HOST, BOB])
    await _bid(svc, info.id, HOST, 3)
    await _bid(svc, info.id, BOB, 1)  # the host moves first
    pending = await svc.pending_prompt(info.id, HOST)
    first = await svc.submit(info.id, HOST, {"action": "raid"}, version=pending.version)
    sha = engine.log_sha256(await _log(store, info.id))
    asked = await svc.request_undo(CHANNEL, HOST)
    assert asked.status == "pending" and "dice were rolled" in asked.why and asked.log_sha_before == sha
    done = await svc.answer_undo(info.id, asked.id, BOB, True)
    assert done.status == "done" and done.to_step == 2
    pending = await svc.pending_prompt(info.id, HOST)
    second = await svc.submit(info.id, HOST, {"action": "raid"}, version=pending.version)
    assert second.events == first.events and any("rolls" in e for e in second.events)
    assert engine.log_sha256(await _log(store, info.id)) == sha


async def test_undo_refusals_change_nothing(svc: MatchService, store: Store, clock) -> None:
    info = await lobby(svc, [HOST, BOB], hours=48)
    with pytest.raises(Conflict, match="past the start of the match: no player choice"):
        await svc.request_undo(CHANNEL, HOST)
    await _bid(svc, info.id, HOST, 2)
    await _bid(svc, info.id, BOB, 1)
    with pytest.raises(Conflict, match="past the start of the match: only 2 player choices"):
        await svc.request_undo(CHANNEL, HOST, back=3)
    with pytest.raises(NotAllowed):
        await svc.request_undo(CHANNEL, BOB)
    with pytest.raises(BadChoice):
        await svc.request_undo(CHANNEL, HOST, back=0)
    asked = await svc.request_undo(CHANNEL, HOST, back=2)
    assert asked.status == "pending"
    log = await _log(store, info.id)
    clock.advance(25)  # past the consent time (24 h at most), not the decision's 48 h
    assert await svc.tick() >= 1
    assert [t.status for t in await svc.undo_trail(info.id)] == ["expired"]
    assert await _log(store, info.id) == log
    with pytest.raises(StalePrompt, match="it expired"):
        await svc.answer_undo(info.id, asked.id, BOB, True)


async def test_a_pending_undo_is_void_once_the_match_moves_on(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    await _bid(svc, info.id, HOST, 2)
    await _bid(svc, info.id, BOB, 1)
    asked = await svc.request_undo(CHANNEL, HOST)
    assert asked.waiting == [BOB]
    await _bid(svc, info.id, CAROL, 0)
    late = await svc.answer_undo(info.id, asked.id, BOB, True)
    assert late.status == "void" and len(await _log(store, info.id)) == 3


async def test_away_hands_the_seat_to_the_ai_until_the_player_acts(svc: MatchService, clock) -> None:
    info = await lobby(svc, [HOST, BOB], rounds=3)
    with pytest.raises(NotSeated):
        await svc.go_away(CHANNEL, CAROL, 2)
    with pytest.raises(BadChoice):
        await svc.go_away(CHANNEL, BOB, 0.1)
    away = await svc.go_away(CHANNEL, BOB, 2)
    assert away.mode == "ai" and away.until == clock.now + timedelta(hours=2)
    status = await svc.status(CHANNEL)
    bob = next(s for s in status.match.seats if s.user_id == BOB)
    assert bob.is_ai and bob.away_until == away.until and BOB not in [s.user_id for s in status.waiting]
    assert (await svc.get_match(info.id)).step == 1, "the AI placed bob's bid"
    pending = await svc.pending_prompt(info.id, BOB)  # asking is coming back
    bob = next(s for s in (await svc.get_match(info.id)).seats if s.user_id == BOB)
    assert not bob.is_ai and bob.away_until is None
    assert pending is None or pending.prompt.answered
    await svc.go_away(CHANNEL, BOB, 1)
    clock.advance(1.5)
    await svc.tick()
    bob = next(s for s in (await svc.get_match(info.id)).seats if s.user_id == BOB)
    assert not bob.is_ai and bob.away_until is None, "the time away is over"


async def test_away_in_a_pause_match_stops_the_seats_clock(svc: MatchService, store: Store, clock) -> None:
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 2}, deadline_hours=10, seed=3,
                            away_mode="pause")
    await svc.join(CHANNEL, BOB, "bob")
    await svc.start(CHANNEL, HOST)
    await _bid(svc, info.id, HOST, 1)
    clock.advance(4)  # 6 h left for bob
    away = await svc.go_away(CHANNEL, BOB, 12)
    async with store.read() as session:
        deadline = await session.get(Deadline, info.id)
    assert deadline.started_at == away.until and deadline.due_at == away.until + timedelta(hours=6)
    clock.advance(11)
    await svc.tick()
    assert (await svc.get_match(info.id)).step == 1, "nobody chose for bob while he was away"
    with pytest.raises(Conflict, match="has not started"):
        await svc.create(GUILD, CHANNEL + 1, HOST, "host", "toy", {}, away_mode="ai")
        await svc.go_away(CHANNEL + 1, HOST, 1)
    with pytest.raises(BadChoice):
        await svc.create(GUILD, CHANNEL + 2, HOST, "host", "toy", {}, away_mode="sleep")


async def test_mine_lists_open_matches_with_what_is_owed(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB])
    await _bid(svc, info.id, HOST, 1)
    await svc.create(GUILD + 1, CHANNEL + 5, BOB, "bob", "toy", {})
    mine = await svc.my_matches(BOB, GUILD)
    assert [m.match_id for m in mine] == [info.id]
    assert mine[0].owe is not None and "bid" in mine[0].owe and mine[0].deadline is not None
    hosts = await svc.my_matches(HOST, GUILD)
    assert hosts[0].owe is None and hosts[0].waiting_for == ["player1"]
    everywhere = await svc.my_matches(BOB)
    assert len(everywhere) == 2 and everywhere[0].status == "lobby"
    assert await svc.my_matches(CAROL) == []


async def test_undo_rows_keep_no_payloads(svc: MatchService, store: Store) -> None:
    """The audit lists whose choices went, not what they were (a sealed bid stays sealed)."""
    info = await lobby(svc, [HOST, BOB])
    await _bid(svc, info.id, HOST, 4)
    await svc.request_undo(CHANNEL, HOST)
    async with store.read() as session:
        row = (await session.exec(select(Undo))).one()
    assert row.undone == [{"seq": 1, "seat": 0, "kind": "bid", "by": "player"}]
    assert "4" not in row.summary


async def test_the_hosts_own_choice_that_revealed_the_sealed_step_asks_everyone(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    await _bid(svc, info.id, BOB, 1)
    await _bid(svc, info.id, CAROL, 1)
    await _bid(svc, info.id, HOST, 2)  # the last bid reveals all three
    asked = await svc.request_undo(CHANNEL, HOST)
    assert asked.status == "pending" and "sealed step was revealed since" in asked.why
    assert sorted(asked.waiting) == sorted([BOB, CAROL]), "nobody else's choice goes, but everyone saw the bids"
