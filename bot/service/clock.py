"""The service's clock: the database's, where several processes share one; and the wall clock
of clock deadlines (a decision due "every day at 21:00 Europe/Berlin, at least 12 h").

Leases and deadlines are judged against times every process must agree on. With PostgreSQL
that is the database server's clock: each process measures how far its own clock is from it
(at start, then every RESYNC_SECONDS) and reads its own clock corrected by that offset, so a
process whose clock runs 30 s ahead neither takes a live holder's lease nor fires a deadline
early. On SQLite every process runs on the one machine the file lives on: its clock is the only one."""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from datetime import time as dt_time
from zoneinfo import ZoneInfo, available_timezones

from bot.service import limits
from bot.service.clock_deadline import ClockDeadline
from bot.service.errors import BadChoice
from db.models import Match, utcnow
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


# Clock deadlines: "every day at 21:00 Europe/Berlin, at least 12 h".

CLOCK_FORMAT = re.compile(r"(\d{1,2}):(\d{2})")
MIN_HOURS = (1.0, 168.0)
"""The least time a decision gets under a clock deadline: an hour to a week."""
DEFAULT_MIN_HOURS = 12.0
ZONE_CHOICES = 25
"""Discord shows at most 25 autocomplete choices."""


def clock_deadline(at: str | None, zone: str | None, min_hours: float | None) -> ClockDeadline | None:
    """A host's clock deadline, checked: None when no time is given; a malformed time, an
    unknown zone or a zone without a time is refused (BadChoice) and nothing is created."""
    if at is None:
        if zone is not None or min_hours is not None:
            raise BadChoice("timezone and min_hours go with deadline_at (the time of day a decision is due, "
                            "like 21:00). Nothing was created.")
        return None
    found = CLOCK_FORMAT.fullmatch(at.strip())
    if found is None or int(found.group(1)) > 23 or int(found.group(2)) > 59:
        raise BadChoice(f"deadline_at {clip_text(at)!r} is not a time of day: write it as HH:MM on a 24-hour "
                        "clock, like 21:00 or 7:30. Nothing was created.")
    if zone is None:
        raise BadChoice("deadline_at needs a timezone too (like Europe/Berlin or America/New_York), so everyone "
                        "knows whose 21:00 it is. Nothing was created.")
    name = known_zone(zone)
    hours = limits.number(DEFAULT_MIN_HOURS if min_hours is None else min_hours, *MIN_HOURS, "min_hours", " hours")
    return ClockDeadline(at=dt_time(int(found.group(1)), int(found.group(2))), zone=name, min_hours=hours)


def clock_of(match: Match) -> ClockDeadline | None:
    """The match's clock deadline as stored (None: each decision gets its deadline_hours)."""
    if match.deadline_clock is None or match.deadline_zone is None:
        return None
    hours, minutes = match.deadline_clock.split(":")
    return ClockDeadline(at=dt_time(int(hours), int(minutes)), zone=match.deadline_zone,
                         min_hours=match.deadline_min_hours or DEFAULT_MIN_HOURS)


def known_zone(zone: str) -> str:
    """An IANA time zone's name as the database spells it, or BadChoice naming the typo."""
    names = _zone_names()
    name = names.get(zone.strip().lower())
    if name is None:
        raise BadChoice(f"{clip_text(zone)!r} is not a time zone I know. Use an IANA name such as Europe/Berlin, "
                        "America/New_York or Asia/Tokyo (the option suggests them as you type). Nothing was created.")
    ZoneInfo(name)  # the name comes from the zone database: it loads
    return name


def zone_choices(typed: str) -> list[str]:
    """Zone names for an autocomplete: those starting with what was typed first, then those
    containing it (each part of a name, so "berl" finds Europe/Berlin), ZONE_CHOICES at most."""
    wanted = typed.strip().lower().replace(" ", "_")
    names = sorted(_zone_names().values())
    starting = [n for n in names if n.lower().startswith(wanted)]
    containing = [n for n in names if wanted in n.lower() and n not in starting]
    return [*starting, *containing][:ZONE_CHOICES]


@functools.cache
def _zone_names() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones() if "/" in name or name == "UTC"}


def clip_text(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


PAUSE_DAYS = (0.05, 30.0)
"""How long `/game pause` may last, in days (about an hour to a month)."""
DEFAULT_PAUSE_DAYS = 7.0
