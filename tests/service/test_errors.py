"""Bad input: each refusal is a specific error and leaves the database exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from bot.service import BadChoice, Conflict, MatchService, NoMatch, NotAllowed, NotSeated, StalePrompt
from db import Choice, Match, Notice, Seat, Store
from tests.service.helpers import BOB, CAROL, CHANNEL, DAVE, GUILD, HOST, lobby


async def fingerprint(store: Store) -> tuple[Any, ...]:
    """Everything a refusal could have touched."""
    async with store.read() as s:
        matches = (await s.exec(sa.select(Match.id, Match.version, Match.status, Match.step).order_by(Match.id))).all()
        seats = (await s.exec(sa.select(Seat.match_id, Seat.seat_no, Seat.user_id, Seat.prompt_version,
                                        Seat.ai_takeover).order_by(Seat.id))).all()
        choices = (await s.exec(sa.select(sa.func.count()).select_from(Choice))).one()
        notices = (await s.exec(sa.select(sa.func.count()).select_from(Notice))).one()
    return tuple(map(tuple, matches)), tuple(map(tuple, seats)), choices, notices


async def refused(store: Store, error: type[Exception], call: Any) -> str:
    before = await fingerprint(store)
    with pytest.raises(error) as info:
        await call
    assert type(info.value) is error
    assert await fingerprint(store) == before
    return str(info.value)


async def test_refusals_change_nothing(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    assert "no match" in (await refused(store, NoMatch, svc.submit(999_999, HOST, {"bid": 1}))).lower()
    await refused(store, NoMatch, svc.status(CHANNEL + 99))
    await refused(store, NotSeated, svc.submit(info.id, DAVE, {"bid": 1}))
    await refused(store, NotSeated, svc.pending_prompt(info.id, DAVE))
    await refused(store, StalePrompt, svc.submit(info.id, HOST, {"bid": 1}, version=7))
    await refused(store, BadChoice, svc.submit(info.id, HOST, {"bid": 99}))
    await refused(store, BadChoice, svc.submit(info.id, HOST, {"bet": 1}))
    await refused(store, BadChoice, svc.submit(info.id, HOST, {"bid": 1}, interaction_id="x" * 101))
    await refused(store, Conflict, svc.create(GUILD, CHANNEL, DAVE, "dave", "toy", {}))
    await refused(store, NotAllowed, svc.abort(CHANNEL, BOB))
    await refused(store, NotAllowed, svc.kick(CHANNEL, BOB, 0))
    await refused(store, NotAllowed, svc.extend(CHANNEL, BOB, 5))
    await refused(store, Conflict, svc.join(CHANNEL, DAVE, "dave"))  # already started
    # A closed prompt: the secret step locks, the old version of its prompts is stale.
    for user in (HOST, BOB, CAROL):
        await svc.submit(info.id, user, {"bid": 0}, version=0)
    msg = await refused(store, StalePrompt, svc.submit(info.id, BOB, {"bid": 1}, version=0))
    assert "no longer open" in msg
    # Turn order: only the seat whose turn it is may move.
    mover = [u for u in (HOST, BOB, CAROL) if await svc.pending_prompt(info.id, u) is not None][0]
    other = next(u for u in (HOST, BOB, CAROL) if u != mover)
    await refused(store, StalePrompt, svc.submit(info.id, other, {"action": "raid"}))
    await svc.abort(CHANNEL, HOST)
    await refused(store, StalePrompt, svc.submit(info.id, mover, {"action": "raid"}))
    await refused(store, NoMatch, svc.abort(CHANNEL, HOST))


async def test_lobby_refusals(svc: MatchService, store: Store) -> None:
    await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {}, max_seats=2)
    await refused(store, NoMatch, svc.create(GUILD, CHANNEL + 1, HOST, "host", "chess", {}))
    await refused(store, BadChoice, svc.create(GUILD, CHANNEL + 1, HOST, "host", "toy", {"rounds": 0}))
    await refused(store, Conflict, svc.create(GUILD, CHANNEL + 1, HOST, "host", "toy", {}, max_seats=9))
    await refused(store, Conflict, svc.start(CHANNEL, HOST))  # one player only
    await refused(store, Conflict, svc.join(CHANNEL, HOST, "host"))  # already seated
    await svc.join(CHANNEL, BOB, "bob")
    msg = await refused(store, Conflict, svc.join(CHANNEL, CAROL, "carol"))
    assert "full" in msg
    await refused(store, Conflict, svc.add_ai(CHANNEL, HOST))
    await refused(store, NotAllowed, svc.start(CHANNEL, BOB))
    await refused(store, Conflict, svc.public_view((await svc.find_match(CHANNEL)).id))
    await refused(store, NotSeated, svc.leave(CHANNEL, CAROL))
    await refused(store, Conflict, svc.remove_ai(CHANNEL, HOST, 1))  # seat 1 is Bob, not an AI


async def test_lobby_moves(svc: MatchService, store: Store) -> None:
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {})
    await svc.join(CHANNEL, BOB, "bob")
    await svc.add_ai(CHANNEL, HOST, "random")
    await svc.join(CHANNEL, CAROL, "carol")
    after = await svc.leave(CHANNEL, BOB)
    assert [(s.seat, s.name) for s in after.seats] == [(0, "host"), (1, "AI Ayame"), (2, "carol")]
    after = await svc.remove_ai(CHANNEL, HOST, 1)
    assert [s.name for s in after.seats] == ["host", "carol"]
    after = await svc.leave(CHANNEL, HOST)
    assert after.host_id == CAROL and after.status == "lobby"
    after = await svc.leave(CHANNEL, CAROL)
    assert after.status == "aborted"
    assert await svc.find_match(CHANNEL) is None
    # The channel is free again.
    again = await svc.create(GUILD, CHANNEL, DAVE, "dave", "toy", {})
    assert again.id != info.id
