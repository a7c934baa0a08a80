"""Recovery after restart, kick to AI, outbox delivery, privacy of notices, prompt versions."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from bot.service import MatchService, StalePrompt
from db import Seat, Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, CHANNEL, HOST, lobby, log_and_state


async def test_recover_drives_ai_seats_after_restart(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url)
    info = await lobby(MatchService(store, clock=clock), [HOST, BOB])
    # A process died after marking Bob's seat for the AI but before the AI played it.
    async with store.write() as s:
        await (await s.connection()).execute(
            sa.update(Seat).where(Seat.match_id == info.id, Seat.user_id == BOB).values(ai_takeover=True))
    await store.close()
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock)
    assert await svc.recover() == 1
    assert await svc.recover() == 0
    view = await svc.public_view(info.id)
    assert view["bid_ready"] == [1]
    await svc.submit(info.id, HOST, {"bid": 0})
    _log, loaded, replayed = await log_and_state(store, info.id)
    assert loaded == replayed
    await store.close()


async def test_kick_hands_the_seat_to_the_ai(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    await svc.submit(info.id, HOST, {"bid": 0})
    await svc.submit(info.id, CAROL, {"bid": 0})
    after = await svc.kick(CHANNEL, HOST, 1)
    assert after.seats[1].ai_policy == "heuristic" and after.seats[1].user_id is None
    assert (await svc.public_view(info.id))["phase"] == "move"  # the AI bid for Bob at once
    log, _loaded, _replayed = await log_and_state(store, info.id)
    assert (log[2].seat, log[2].by) == (1, "ai")


async def test_outbox_delivery_is_idempotent_and_private(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB])
    await svc.submit(info.id, HOST, {"bid": 4})
    notices = await svc.outbox()
    keys = [(n.match_id, n.key) for n in notices]
    assert len(keys) == len(set(keys))
    prompts = [n for n in notices if n.kind == "prompt"]
    assert {n.user_id for n in prompts} == {HOST, BOB}
    assert all(n.payload["view"]["you"]["seat"] == n.seat for n in prompts)
    for n in notices:
        if n.user_id is None:  # public: nothing of Host's sealed bid of 4
            assert n.payload.get("view", {}).get("you") is None
            assert "4" not in n.payload["text"] and all("4" not in line for line in n.payload.get("events", []))
    first = notices[0]
    await svc.delivered(first.id, "msg-1")
    await svc.delivered(first.id, "msg-2")  # a repeat changes nothing
    assert first.id not in [n.id for n in await svc.outbox()]


async def test_prompt_versions_follow_turns(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB])
    await svc.submit(info.id, HOST, {"bid": 2}, version=0)
    res = await svc.submit(info.id, BOB, {"bid": 0}, version=0)
    assert res.locked and res.seq == 2
    mover = await svc.pending_prompt(info.id, HOST)  # Host bid more: Host moves first
    assert mover is not None and mover.version == 2 and mover.prompt.kind == "move"
    assert await svc.pending_prompt(info.id, BOB) is None
    await svc.submit(info.id, HOST, {"action": "gather"}, version=2)
    with pytest.raises(StalePrompt):
        await svc.submit(info.id, HOST, {"action": "gather"}, version=2)
    bob = await svc.pending_prompt(info.id, BOB)
    assert bob is not None and bob.version == 3 and bob.deadline is not None
