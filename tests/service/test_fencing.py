"""The delivered mark is fenced by the delivery lease's term: a process whose lease passed to
another holder (it was paused past it) cannot mark a notice delivered; a renewal keeps the term."""

from __future__ import annotations

from datetime import timedelta

from bot.service import MatchService
from bot.service.outbox import Fence
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, HOST, lobby, recorded

TTL = timedelta(seconds=10)


async def test_a_lease_term_fences_the_delivered_mark(store: Store, svc: MatchService, clock: Clock) -> None:
    with recorded(store) as statements:
        first = await store.acquire_lease("deliver", "a", clock.now, TTL)
    assert first is not None
    assert len(statements) == 1, statements  # one upsert, no BEGIN or COMMIT on SQLite (issue 32)
    assert await store.acquire_lease("deliver", "a", clock.now, TTL) == first, "a renewal keeps the term"
    assert await store.acquire_lease("deliver", "b", clock.now, TTL) is None, "a live holder keeps it"
    await lobby(svc, [HOST, BOB])
    waiting = await svc.outbox()
    old = Fence("deliver", "a", first)
    assert await svc.delivered(waiting[0].id, "1", old)

    second = await store.acquire_lease("deliver", "b", clock.now + timedelta(seconds=11), TTL)  # a's expired
    assert second == first + 1, "a new holder starts a new term"
    assert not await svc.delivered(waiting[1].id, "2", old), "the old term marks nothing"
    assert not await svc.holds_term(old)
    assert await svc.delivered(waiting[1].id, "2", Fence("deliver", "b", second))
    again = await store.acquire_lease("deliver", "a", clock.now + timedelta(seconds=30), TTL)
    assert again == second + 1, "taken back, it is a term of its own: the old fence stays dead"
    assert not await svc.delivered(waiting[2].id, "3", old)
