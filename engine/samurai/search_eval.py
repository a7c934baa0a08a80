"""How likely each house is to win a Samurai match from a world, for the search's rollouts.

The search plays its rollouts with the heuristic for every house, and the opponents it meets
are that heuristic, so the worth of a world where a rollout stops is best read as what
heuristic matches from such worlds came to: each house gets a score from a few facts of its
position (provinces, troops, armies, whether it is the house with the fewest provinces, which
the heuristic houses all turn on), and its chance to win is its share of the scores'
exponentials (a conditional logit over the living houses). The weights are fitted on
seeded heuristic matches by ``benchmarks/samurai_evaluation.py``, which prints them and
how well they predict held-out matches beside the province lead the search used before.
"""

from __future__ import annotations

import math

from engine.samurai.board import army_regulars, garrison_size
from engine.samurai.state import SamuraiState, owner_index

FEATURES = ("provinces", "near_shogun", "garrisons", "army_units", "armies", "fewest")
"""What a house's score reads (`features`)."""

WEIGHTS = (0.0413, 0.0747, 0.0792, 0.1412, 0.5503, -0.2222)
"""Fitted by benchmarks/samurai_evaluation.py (seeds and figures in docs/benchmarks.md)."""

NEAR = 25
"""Provinces above this count again (``near_shogun``): the last provinces before 35 weigh more."""


def features(state: SamuraiState, seat: int, fewest: int) -> tuple[float, ...]:
    """The facts of ``seat``'s position its score weighs (``fewest``: the fewest provinces a
    living house holds)."""
    held = owner_index(state).owned.get(seat, ())
    provinces = state.provinces
    garrisons = sum(garrison_size(provinces[pid].garrison) for pid in held)
    alive = [army for army in state.players[seat].armies if army.alive]
    army_units = sum(army_regulars(army) for army in alive)
    count = len(held)
    return (float(count), float(max(0, count - NEAR)), float(garrisons), float(army_units), float(len(alive)),
            1.0 if count == fewest else 0.0)


def living(state: SamuraiState) -> list[int]:
    return [player.seat for player in state.players if not player.eliminated]


def win_chances(state: SamuraiState, weights: tuple[float, ...] = WEIGHTS) -> dict[int, float]:
    """Every living house's chance to win from ``state``, as the fitted scores share it."""
    seats = living(state)
    if not seats:
        return {}
    held = owner_index(state).owned
    fewest = min(len(held.get(seat, ())) for seat in seats)
    scores = {seat: sum(w * f for w, f in zip(weights, features(state, seat, fewest), strict=True)) for seat in seats}
    top = max(scores.values())
    shares = {seat: math.exp(score - top) for seat, score in scores.items()}
    total = sum(shares.values())
    return {seat: share / total for seat, share in shares.items()}


def evaluate(state: SamuraiState, seat: int) -> float:
    """``seat``'s chance to win from ``state`` (0 when eliminated)."""
    return win_chances(state).get(seat, 0.0)
