"""Leases and deadlines are judged by the database's clock: a process whose clock runs 30 s
ahead says so at start, takes no lease from a live holder and fires no deadline early."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
import sqlalchemy as sa

from bot.service import MatchService
from bot.service.clock import DatabaseClock
from db import Deadline, Store
from db.models import utcnow
from tests.service.helpers import BOB, HOST, lobby

AHEAD = timedelta(seconds=30)


def ahead() -> object:
    return utcnow() + AHEAD


async def test_a_process_30_s_ahead_follows_the_database_clock(pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    store = await Store.open(pg_url)
    try:
        honest, skewed = DatabaseClock(store), DatabaseClock(store, base=ahead)  # type: ignore[arg-type]
        with caplog.at_level(logging.WARNING, logger="bot.service.clock"):
            assert abs(await honest.check_at_start()) < timedelta(seconds=2)
            assert not caplog.records
            offset = await skewed.check_at_start()
        assert abs(offset + AHEAD) < timedelta(seconds=2)
        [said] = caplog.records
        assert "30.0 s ahead of the database's" in said.getMessage()

        live = MatchService(store, clock=honest, holder="live", lease_seconds=10)
        late = MatchService(store, clock=skewed, holder="skewed", lease_seconds=10)
        assert await live.take_lease("deliver", "live", ttl_seconds=10)
        assert await late.take_lease("deliver", "skewed", ttl_seconds=10) is None, "the live holder keeps it"
        raw = MatchService(store, clock=ahead, holder="raw", lease_seconds=10)  # type: ignore[arg-type]
        assert await raw.take_lease("deliver", "raw", ttl_seconds=10) is not None, \
            "uncorrected, the skewed clock would have taken it (the test can tell)"

        info = await lobby(live, [HOST, BOB], hours=1)
        due = utcnow() + timedelta(seconds=20)
        async with store.write() as session:
            await (await session.connection()).execute(
                sa.update(Deadline).where(Deadline.match_id == info.id)
                .values(started_at=due - timedelta(hours=1), due_at=due, fire_at=due,
                        reminded_50=True, reminded_90=True))
        async with store.read() as session:
            assert await store.due_deadlines(session, ahead()), "by its own clock the deadline has passed"
        assert await late.tick() == 0, "no deadline fires early"
        assert (await late.status(info.channel_id)).waiting, "both seats still owe their choice"
    finally:
        await store.close()


async def test_on_sqlite_the_process_clock_is_the_only_one(tmp_path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}")
    try:
        clock = DatabaseClock(store)
        assert await clock.check_at_start() == timedelta(0)
        assert abs(await store.database_now() - utcnow()) < timedelta(seconds=2)
    finally:
        await store.close()
