"""Bounds of the numbers a player hands the service, each refused with a sentence naming it.

Discord checks the slash options' ranges in its client, but the service is called by other
front-ends too (the terminal table, tests, a forged interaction), and one unchecked number can
break a match for good: a deadline of 10^12 hours cannot be stored as a date, so its lobby could
never start."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot.service.errors import BadChoice, Conflict

DEADLINE_HOURS = (0.05, 720.0)
"""3 minutes to 30 days for each decision."""
EXTEND_HOURS = (0.1, 336.0)
DEADLINE_AHEAD = timedelta(hours=DEADLINE_HOURS[1])
"""An extended deadline is never further away than the longest deadline a match may have."""
LOG_LINES = (1, 50)
SEED = (0, 2**63 - 1)
"""The seed column is a signed 64-bit integer."""


def number(value: Any, low: float, high: float, what: str, unit: str = "") -> float:
    """`value` as a float from `low` to `high`, or BadChoice saying so."""
    try:
        result = float(value)
    except (TypeError, ValueError, OverflowError):
        result = math.nan
    if isinstance(value, bool) or not low <= result <= high:
        raise BadChoice(f"{what} must be a number from {low:g} to {high:g}{unit}. Nothing was changed.")
    return result


def whole(value: Any, low: int, high: int, what: str) -> int:
    """`value` as an int from `low` to `high`, or BadChoice saying so."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadChoice(f"{what} must be a whole number from {low} to {high}. Nothing was changed.")
    return value


def deadline_hours(value: Any) -> float:
    """A match's deadline per decision: longer than 30 days could not be stored as a date."""
    return number(value, *DEADLINE_HOURS, "deadline_hours", " hours")


def extend_hours(value: Any, left: timedelta) -> float:
    """Hours to add to a deadline that is `left` away now."""
    hours = number(value, *EXTEND_HOURS, "hours", " hours")
    if left + timedelta(hours=hours) > DEADLINE_AHEAD:
        room = max((DEADLINE_AHEAD - left).total_seconds() / 3600, 0)
        raise BadChoice(f"A deadline can be at most {DEADLINE_HOURS[1]:g} hours away; it can be extended by "
                        f"{room:.1f} hours at most now. Nothing was changed.")
    return hours


def seed(value: Any) -> int | None:
    """A given seed (None: a random one) that fits the database column."""
    return None if value is None else whole(value, *SEED, "seed")


def log_lines(value: Any) -> int:
    """How many log lines to read; SQLite would read them all for a negative LIMIT."""
    return whole(value, *LOG_LINES, "lines")


@dataclass(frozen=True)
class MatchLimits:
    """Open matches (lobbies included) one server and one player may have at once: one user
    opening a match in every channel of a server, or seating themselves in fifty, is refused."""

    per_server: int = 25
    per_user: int = 5

    def server_full(self, open_here: int) -> None:
        if open_here >= self.per_server:
            raise Conflict(f"This server already has {open_here} open matches, the most it may have at once. "
                           "Finish or abort one first. Nothing was opened.")

    def user_full(self, seated: int, joining: bool = False) -> None:
        if seated >= self.per_user:
            done = "You did not join." if joining else "Nothing was opened."
            raise Conflict(f"You already play in {seated} open matches, the most one player may at once. "
                           f"Finish or leave one first. {done}")
