"""Deadlines with an injected clock: reminders once each, AI at expiry, takeover, restart, lease."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import sqlalchemy as sa

from bot.service import MatchService, Notice
from db import Choice, Deadline, Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, CHANNEL, HOST, lobby


async def notices(svc: MatchService, kind: str) -> list[Notice]:
    return [n for n in await svc.outbox(limit=100_000) if n.kind == kind]


async def by_of(store: Store, match_id: int) -> list[tuple[int, str]]:
    async with store.read() as s:
        rows = (await s.exec(sa.select(Choice.seat, Choice.by).where(Choice.match_id == match_id)
                             .order_by(Choice.seq))).all()
    return [tuple(r) for r in rows]


async def test_reminders_expiry_takeover_and_restart(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock)
    t0 = clock.now
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10, rounds=6)
    status = await svc.status(CHANNEL)
    assert status.deadline == t0 + timedelta(hours=10)
    assert [w.user_id for w in status.waiting] == [HOST, BOB, CAROL]
    assert await svc.tick(clock.advance(4)) == 0
    assert await svc.tick(clock.advance(1)) == 1  # 50 %
    [r50] = await notices(svc, "reminder")
    assert sorted(r50.payload["user_ids"]) == sorted([HOST, BOB, CAROL])
    await svc.submit(info.id, HOST, {"bid": 1})
    assert await svc.tick(clock.advance(1)) == 0
    assert await svc.tick(clock.advance(3)) == 1  # 90 %, only those who still owe
    r90 = (await notices(svc, "reminder"))[-1]
    assert sorted(r90.payload["user_ids"]) == sorted([BOB, CAROL])
    assert await svc.tick(clock.now) == 0

    # Restart: fresh store and service objects on the same database.
    await store.close()
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock)
    assert await svc.tick(clock.now) == 0
    assert len(await notices(svc, "reminder")) == 2
    assert await svc.tick(clock.advance(1)) == 2  # expiry: the AI bids for Bob and Carol
    timeouts = await notices(svc, "timeout")
    assert len(timeouts) == 2 and all("Time is up" in n.payload["text"] for n in timeouts)
    log = await by_of(store, info.id)
    assert log[:3] == [(0, "player"), (1, "deadline"), (2, "deadline")]
    assert (await svc.public_view(info.id))["phase"] == "move"
    assert await svc.tick(clock.now) == 0  # nothing fires twice

    # Host and Carol play; Bob sleeps until he has missed two deadlines in a row.
    for _ in range(20):
        seats = {s.user_id: s for s in (await svc.get_match(info.id)).seats}
        if seats[BOB].ai_takeover:
            break
        for user in (HOST, CAROL):
            pending = await svc.pending_prompt(info.id, user)
            if pending is not None and not pending.prompt.answered:
                choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
                await svc.submit(info.id, user, choice, version=pending.version)
        if BOB not in [w.user_id for w in (await svc.status(CHANNEL)).waiting]:
            continue
        clock.advance(10)
        await svc.tick(clock.now)
    seats = {s.user_id: s for s in (await svc.get_match(info.id)).seats}
    assert seats[BOB].ai_takeover and seats[BOB].missed == 2
    assert not seats[HOST].ai_takeover and not seats[CAROL].ai_takeover
    assert "until they are back" in (await notices(svc, "timeout"))[-1].payload["text"]
    # From now on the AI plays Bob at once, without waiting for a deadline.
    n_before = len(await by_of(store, info.id))
    for _ in range(6):
        for user in (HOST, CAROL):
            pending = await svc.pending_prompt(info.id, user)
            if pending is not None and not pending.prompt.answered:
                choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
                await svc.submit(info.id, user, choice, version=pending.version)
    later = (await by_of(store, info.id))[n_before:]
    assert (1, "ai") in later and (1, "deadline") not in later
    # Bob comes back with /game act: the takeover ends.
    await svc.pending_prompt(info.id, BOB)
    seats = {s.user_id: s for s in (await svc.get_match(info.id)).seats}
    assert not seats[BOB].ai_takeover and seats[BOB].missed == 0
    await store.close()


async def test_concurrent_ticks_fire_once(db_url: str, clock: Clock) -> None:
    stores = [await Store.open(db_url) for _ in range(2)]
    a, b = (MatchService(s, clock=clock) for s in stores)
    info = await lobby(a, [HOST, BOB], hours=10)
    for hours in (5, 4, 1):  # 50 %, 90 %, expiry
        clock.advance(hours)
        done = await asyncio.gather(a.tick(clock.now), b.tick(clock.now), a.tick(clock.now), b.tick(clock.now))
        assert sum(done) >= 1
    assert len(await notices(a, "reminder")) == 2
    assert len(await notices(a, "timeout")) == 2
    assert [by for _seat, by in await by_of(stores[0], info.id)] == ["deadline", "deadline"]
    for s in stores:
        await s.close()


async def test_lease_excludes_second_holder(store: Store, clock: Clock) -> None:
    assert await store.acquire_lease("tick", "a", clock.now, timedelta(seconds=60))
    assert not await store.acquire_lease("tick", "b", clock.now, timedelta(seconds=60))
    assert await store.acquire_lease("tick", "a", clock.now, timedelta(seconds=60))  # renew
    assert await store.acquire_lease("tick", "b", clock.advance(1), timedelta(seconds=60))  # expired
    await store.release_lease("tick", "b", clock.now)
    assert await store.acquire_lease("tick", "a", clock.now, timedelta(seconds=60))


async def test_deadline_hours_as_a_match_option(svc: MatchService, clock: Clock) -> None:
    info = await svc.create(1, CHANNEL, HOST, "host", "toy", {"rounds": 2, "deadline_hours": 2})
    assert info.deadline_hours == 2 and info.options == {"rounds": 2, "start_gold": 5, "move_hours": None}
    await svc.join(CHANNEL, BOB, "bob")
    await svc.start(CHANNEL, HOST)
    assert (await svc.status(CHANNEL)).deadline == clock.now + timedelta(hours=2)
    assert await svc.tick(clock.advance(2)) == 2


async def test_a_phase_sets_its_own_deadline(svc: MatchService, clock: Clock) -> None:
    info = await svc.create(1, CHANNEL, HOST, "host", "toy", {"rounds": 2, "move_hours": 0.5})
    await svc.join(CHANNEL, BOB, "bob")
    await svc.start(CHANNEL, HOST)
    assert (await svc.status(CHANNEL)).deadline == clock.now + timedelta(hours=24)  # bids: the match default
    await svc.submit(info.id, HOST, {"bid": 1})
    await svc.submit(info.id, BOB, {"bid": 0})
    assert (await svc.public_view(info.id))["phase"] == "move"
    assert (await svc.status(CHANNEL)).deadline == clock.now + timedelta(hours=0.5)


async def test_extend_and_pause_move_the_deadline(svc: MatchService, store: Store, clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    await svc.extend(CHANNEL, HOST, 10)
    assert await svc.tick(clock.advance(6)) == 0  # 50 % is now at 10 h
    await svc.pause(CHANNEL, HOST)
    assert await svc.tick(clock.advance(100)) == 0  # paused: nothing fires
    await svc.resume(CHANNEL, HOST)
    async with store.read() as s:
        d = await s.get(Deadline, info.id)
    assert d.due_at == clock.now + timedelta(hours=14)
    assert await svc.tick(clock.advance(4)) == 1
    assert len(await notices(svc, "reminder")) == 1


async def test_the_tick_reads_only_deadlines_whose_time_has_come(svc: MatchService, store: Store, clock) -> None:
    """Each deadline row knows its next fire time (first reminder, then the next, then the end),
    and a tick selects only the rows at or past it."""
    from sqlmodel import select

    from db.models import Deadline

    info = await lobby(svc, [HOST, BOB], hours=10)

    async def fire_at() -> str:
        async with store.read() as session:
            row = (await session.exec(select(Deadline).where(Deadline.match_id == info.id))).one()
            return f"{(row.fire_at - row.started_at).total_seconds() / 3600:g}"

    assert await fire_at() == "5", "first the half-time reminder"
    clock.advance(5.5)
    assert await svc.tick() > 0
    assert await fire_at() == "9", "then the 90 % reminder"
    clock.advance(2)
    assert await svc.tick() == 0, "nothing is due between the reminders"
