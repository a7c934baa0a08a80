"""The service's clock: the database's, where several processes share one.

Leases and deadlines are judged against times every process must agree on. With PostgreSQL
that is the database server's clock: each process measures how far its own clock is from it
(at start, then every RESYNC_SECONDS) and reads its own clock corrected by that offset, so a
process whose clock runs 30 s ahead neither takes a live holder's lease nor fires a deadline
early. On SQLite every process runs on the one machine the file lives on: its clock is the only one."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from db.models import utcnow
from db.store import Store

log = logging.getLogger(__name__)

RESYNC_SECONDS = 60.0
"""How often the offset to the database's clock is measured again (clocks drift, NTP steps them)."""
SKEW_WARNING = timedelta(seconds=2)
"""An offset above this is worth telling the operator: another process on the machine may trust it."""


class DatabaseClock:
    """``utcnow()`` as the database sees it: the process's clock plus the measured offset."""

    def __init__(self, store: Store, base: Callable[[], datetime] = utcnow) -> None:
        self.store = store
        self.base = base
        self.offset = timedelta(0)
        self.next_sync = 0.0

    def __call__(self) -> datetime:
        return self.base() + self.offset

    async def sync(self) -> timedelta:
        """Measure the offset (PostgreSQL only): the database's time against the midpoint of the
        round trip on this process's clock."""
        self.next_sync = time.monotonic() + RESYNC_SECONDS
        if self.store.dialect != "postgresql":
            return self.offset
        before = self.base()
        database = await self.store.database_now()
        after = self.base()
        self.offset = database - (before + (after - before) / 2)
        return self.offset

    async def resync(self) -> None:
        """Measure again once RESYNC_SECONDS have passed (the tick calls it)."""
        if time.monotonic() >= self.next_sync:
            previous = self.offset
            await self.sync()
            if abs(self.offset - previous) > SKEW_WARNING:
                log.warning("this process's clock moved %.1f s against the database's; leases and deadlines "
                            "follow the database's clock", (previous - self.offset).total_seconds())

    async def check_at_start(self) -> timedelta:
        """Measure, and say so when this process's clock is more than SKEW_WARNING off."""
        offset = await self.sync()
        if abs(offset) > SKEW_WARNING:
            seconds = -offset.total_seconds()
            log.warning("this machine's clock is %.1f s %s the database's; leases and deadlines follow the "
                        "database's clock, but fix the machine's time (NTP)", abs(seconds),
                        "ahead of" if seconds > 0 else "behind")
        return offset
