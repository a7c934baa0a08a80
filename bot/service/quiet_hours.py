"""Quiet hours: a daily stretch of a player's own wall-clock time ("23:00-08:00 Europe/Berlin")
in which nothing of the bot should buzz them.

The arithmetic is done in the player's zone, so it follows daylight saving time: a stretch
across midnight ends the next local morning, and an end time the clocks skip on the night they
go forward (02:30 that night in Berlin) is read with the offset before the jump, so it ends at
03:30 summer time. On the night the clocks go back, an end time that happens twice ends at its
first occurrence.

What the bot does in quiet hours (decided once, here, and tested in tests/service):
- a reminder due then waits until the quiet hours end; if the decision's deadline comes first
  (at or before that end), the reminder is dropped: it could only arrive after the AI chose;
- a turn DM or turn mention still arrives, silently (Discord's SUPPRESS_NOTIFICATIONS), so the
  decision is there when the player looks, and nothing buzzes;
- a heads-up ("the seat before yours is on turn") is dropped: it is stale by morning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.service.errors import BadChoice

OFF = "off"
QUIET_FORMAT = re.compile(r"([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)")
""""HH:MM-HH:MM", 24-hour clock, as stored."""
DEFAULT_ZONE = "UTC"
ZONE_CHOICES = 25
"""Zones an autocomplete offers at most (Discord's limit)."""

SEND, HOLD, DROP = "send", "hold", "drop"


@dataclass(frozen=True)
class QuietHours:
    """A daily stretch from ``start`` to ``end`` (local wall-clock times) in ``zone``."""

    start: time
    end: time
    zone: str

    @property
    def text(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M} {self.zone}"


def parse_quiet(text: str) -> str:
    """A player's quiet hours as stored: "HH:MM-HH:MM" or "off"; a clear error otherwise."""
    cleaned = text.strip().lower().replace(" ", "").replace("–", "-")
    if cleaned in (OFF, "none", ""):
        return OFF
    match = QUIET_FORMAT.fullmatch(cleaned)
    if match is None:
        raise BadChoice(f"Quiet hours are written like 23:00-08:00 (24-hour clock), or off; {text!r} is not. "
                        "Nothing was changed.")
    start, end = cleaned.split("-")
    if start == end:
        raise BadChoice("Quiet hours must start and end at different times. Nothing was changed.")
    return cleaned


def zone_name(name: str) -> str:
    """An IANA time zone name, checked ("Europe/Berlin"); a clear error for an unknown one."""
    cleaned = name.strip()
    if cleaned not in _zones():
        raise BadChoice(f"{cleaned!r} is not a time zone I know. Pick one from the list (for example "
                        "Europe/Berlin or America/New_York). Nothing was changed.")
    try:
        ZoneInfo(cleaned)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise BadChoice(f"{cleaned!r} is not a time zone I know. Nothing was changed.") from exc
    return cleaned


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def zone_matches(current: str) -> list[str]:
    """Zone names for an autocomplete: those containing what was typed, shortest first."""
    typed = current.strip().lower().replace(" ", "_")
    found = sorted((z for z in _zones() if typed in z.lower()), key=lambda z: (len(z), z))
    return found[:ZONE_CHOICES]


def quiet_hours(stored: str | None, zone: str | None) -> QuietHours | None:
    """The stored setting as quiet hours (None when off or unset)."""
    if stored is None or stored == OFF or QUIET_FORMAT.fullmatch(stored) is None:
        return None
    start, end = stored.split("-")
    return QuietHours(time.fromisoformat(start), time.fromisoformat(end), zone or DEFAULT_ZONE)


def _local(day: date, at: time, zone: ZoneInfo) -> datetime:
    """``at`` on ``day`` in ``zone``, as a UTC instant. A wall time the clocks skip is read with
    the offset before the jump (02:30 becomes 03:30 summer time); one that happens twice is its
    first occurrence (fold 0)."""
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def quiet_until(quiet: QuietHours | None, now: datetime) -> datetime | None:
    """When the quiet hours running at ``now`` end (UTC); None when ``now`` is not in them."""
    if quiet is None:
        return None
    zone = ZoneInfo(quiet.zone)
    local = now.astimezone(zone)
    for start_day in (local.date() - timedelta(days=1), local.date()):
        begins = _local(start_day, quiet.start, zone)
        end_day = start_day if quiet.end > quiet.start else start_day + timedelta(days=1)
        ends = _local(end_day, quiet.end, zone)
        if begins <= now < ends:
            return ends
    return None


def reminder_plan(quiet: QuietHours | None, now: datetime, due_at: datetime) -> tuple[str, datetime | None]:
    """What to do with a reminder due at ``now`` for a decision due at ``due_at``: SEND it now,
    HOLD it until the returned time (the end of the quiet hours), or DROP it (the deadline
    comes first)."""
    until = quiet_until(quiet, now)
    if until is None:
        return SEND, None
    if until >= due_at:
        return DROP, None
    return HOLD, until
