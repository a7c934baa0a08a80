"""A whole toy match through the service: prompts, versions, sealed bids, notices, result."""

from __future__ import annotations

from bot.service import MatchService
from db import Store
from tests.service.helpers import BOB, CAROL, CHANNEL, HOST, lobby, log_and_state, play_choice


async def test_full_match_with_ai(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB], ais=1, rounds=4)
    assert info.status == "active" and len(info.seats) == 3
    while True:
        moved = False
        for user in (HOST, BOB):
            choice = await play_choice(svc, info.id, user)
            if choice is not None:
                pending = await svc.pending_prompt(info.id, user)
                if pending.prompt.answered:
                    continue
                res = await svc.submit(info.id, user, choice, version=pending.version)
                assert res.seq > 0
                moved = True
        if not moved:
            break
    final = await svc.get_match(info.id)
    assert final.status == "finished" and final.result is not None
    log, loaded, replayed = await log_and_state(store, info.id)
    assert loaded == replayed
    assert [c.seq for c in log] == list(range(1, len(log) + 1))
    assert {c.by for c in log} == {"player", "ai"}
    kinds = [n.kind for n in await svc.outbox(limit=10_000)]
    for kind in ("lobby", "phase", "prompt", "turn", "progress", "result"):
        assert kind in kinds
    assert await svc.find_match(CHANNEL) is None


async def test_sealed_bids_hidden_and_revisable(svc: MatchService, store: Store) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL])
    p = await svc.pending_prompt(info.id, HOST)
    assert p is not None and p.prompt.secret and p.version == 0
    r1 = await svc.submit(info.id, HOST, {"bid": 4}, version=p.version)
    assert not r1.locked and not r1.revision
    r2 = await svc.submit(info.id, HOST, {"bid": 1}, version=p.version)
    assert r2.revision and not r2.locked
    public = await svc.public_view(info.id)
    assert public["bid_ready"] == [0] and "you" not in public
    assert "1" not in str(public.get("you"))
    assert (await svc.seat_view(info.id, HOST))["you"]["bid"] == 1
    assert (await svc.seat_view(info.id, BOB))["you"]["bid"] is None
    # Bob's prompt did not change while Host bid: his version still works.
    pb = await svc.pending_prompt(info.id, BOB)
    assert pb.version == 0
    await svc.submit(info.id, BOB, {"bid": 0}, version=0)
    res = await svc.submit(info.id, CAROL, {"bid": 0}, version=0)
    assert res.locked
    public = await svc.public_view(info.id)
    assert public["phase"] == "move" and public["gold"] == [4, 5, 5]  # the last bid (1) counted
    log, loaded, replayed = await log_and_state(store, info.id)
    assert [c.payload for c in log[:2]] == [{"bid": 4}, {"bid": 1}]
    assert loaded == replayed
    # Public notices never carry a sealed bid before the lock.
    for n in await svc.outbox(limit=1000):
        if n.user_id is None and n.kind in ("progress", "events"):
            assert "4" not in n.payload["text"]
