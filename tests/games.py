"""What a test needs to play any shipped game without naming it: a table size and a short match.

Cross-game tests are parametrised over `engine.games()` (read at collection, before any test
registers a stand-in), so a new game is tested by them the day it is registered."""

from __future__ import annotations

from typing import Any

import annotated_types

import engine

KEYS = sorted(engine.games())


def table_of(key: str) -> int:
    """Three seats where the game takes three, else the count nearest to it the game takes."""
    seats = engine.get(key).info.seats
    return min(max(3, seats.start), seats.stop - 1)


def short(key: str, rounds: int = 1) -> dict[str, Any]:
    """Options ending a match of `key` after `rounds` rounds, or the fewest the game allows;
    no options for a game without a round limit."""
    field = engine.get(key).options_model().model_fields.get("round_limit")
    if field is None:
        return {}
    least = max((int(item.ge) for item in field.metadata if isinstance(item, annotated_types.Ge)), default=1)
    return {"round_limit": max(rounds, least)}
