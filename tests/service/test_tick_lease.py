"""The deadline tick's lease across processes: an idle holder keeps it without writing, another
process never fires while it is held, and a tick that did work hands it over."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import event

from bot.service import MatchService
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, HOST, lobby

WRITES = ("INSERT", "UPDATE", "DELETE", "BEGIN IMMEDIATE")
"""What takes or needs the write lock (on SQLite, BEGIN IMMEDIATE takes the database's one writer)."""


@contextmanager
def writes_of(store: Store) -> Iterator[list[str]]:
    """The writing statements the store sends meanwhile."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith(WRITES):
            sent.append(statement)

    event.listen(store.engine.sync_engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", record)


async def lease_of(store: Store) -> tuple[str, Any] | None:
    async with store.read() as session:
        lease = await store.lease(session, "tick")
    return None if lease is None else (lease.holder, lease.expires_at)


async def test_an_idle_tick_writes_nothing_until_the_lease_is_half_spent(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock, holder="first", lease_seconds=60)
    await lobby(svc, [HOST, BOB], hours=10)
    assert await svc.tick(clock.now) == 0
    taken = await lease_of(store)
    assert taken == ("first", clock.now + timedelta(seconds=60))
    with writes_of(store) as sent:
        for _ in range(5):
            assert await svc.tick(clock.now + timedelta(seconds=29)) == 0
    assert sent == []  # nobody may take the lease before it expires: nothing to write
    renewed_at = clock.now + timedelta(seconds=31)
    with writes_of(store) as sent:
        assert await svc.tick(renewed_at) == 0
    assert sent and await lease_of(store) == ("first", renewed_at + timedelta(seconds=60))
    await store.close()


async def test_only_the_holder_fires_and_work_hands_the_lease_over(db_url: str, clock: Clock) -> None:
    hours = 6 * 3600  # a lease longer than the reminders' spacing, so it is live when they come due
    stores = [await Store.open(db_url) for _ in range(2)]
    first = MatchService(stores[0], clock=clock, holder="first", lease_seconds=hours)
    second = MatchService(stores[1], clock=clock, holder="second", lease_seconds=hours)
    await lobby(first, [HOST, BOB], hours=10)
    assert await first.tick(clock.now) == 0  # idle: "first" takes the lease and keeps it
    due = clock.advance(5)  # the 50 % reminder
    assert await second.tick(due) == 0  # the lease of "first" is live: "second" fires nothing
    assert await first.tick(due) == 1
    assert len([n for n in await first.outbox() if n.kind == "reminder"]) == 1
    # A tick that did work lets the lease go: the other process takes it at its next tick.
    assert await second.tick(due) == 0
    assert await lease_of(stores[0]) == ("second", due + timedelta(seconds=hours))
    late = clock.advance(4)  # the 90 % reminder, while "second" holds the lease
    assert await first.tick(late) == 0
    assert await second.tick(late) == 1
    assert len([n for n in await first.outbox() if n.kind == "reminder"]) == 2
    for store in stores:
        await store.close()
