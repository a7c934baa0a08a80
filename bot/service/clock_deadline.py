"""A clock deadline: a decision due "every day at 21:00 Europe/Berlin, at least 12 h".

Apart from clock.py (which parses and stores it) so that the plain result types can carry one
without the service's clock and its refusals."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from datetime import time as dt_time
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class ClockDeadline:
    """Each decision is due at the next ``at`` (wall-clock time in ``zone``) that is at least
    ``min_hours`` after it opened."""

    at: dt_time
    zone: str
    min_hours: float

    @property
    def clock_text(self) -> str:
        return f"{self.at:%H:%M}"

    def describe(self) -> str:
        """How a lobby says it: "every day at 21:00 Europe/Berlin, at least 12 h"."""
        return f"every day at {self.clock_text} {self.zone}, at least {self.min_hours:g} h"

    def due(self, opened: datetime, least: timedelta | None = None) -> datetime:
        """The deadline (UTC) of a decision opened at ``opened``: the first ``at`` at least
        ``least`` (default: min_hours) later. A time a DST gap skips (02:30 on
        the night clocks jump 02:00 -> 03:00) is taken as late as the gap moves it (03:30); a
        time a fold repeats counts at its first occurrence, or its second if only that one is far
        enough off."""
        zone = ZoneInfo(self.zone)
        earliest = opened.astimezone(UTC) + (timedelta(hours=self.min_hours) if least is None else least)
        first_day = earliest.astimezone(zone).date() - timedelta(days=1)
        candidates = []
        for offset in range(4):
            wall = datetime.combine(first_day + timedelta(days=offset), self.at, tzinfo=zone)
            first, second = wall.replace(fold=0), wall.replace(fold=1)
            candidates.append(first.astimezone(UTC))
            first_offset, second_offset = first.utcoffset(), second.utcoffset()
            if first_offset is not None and second_offset is not None and first_offset > second_offset:
                candidates.append(second.astimezone(UTC))  # a fold: the wall time happens twice
        return min(when for when in candidates if when >= earliest)
