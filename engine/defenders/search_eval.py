"""The Defenders search's evaluation: the team's chance to win from a position, fitted on
heuristic matches (benchmarks/defenders_evaluation.py).

A rollout that stops before the end is scored by this. The hand-set table safety it replaces
(the Capital's Threat first) left out what a win needs besides survival: every Caravan home
before the boss can fall, and time, since a battle still undecided at the round limit is lost."""

from __future__ import annotations

import math

from engine.defenders import rules
from engine.defenders.rules import CARAVANS
from engine.defenders.state import DefendersState

NAMES = ("bias", "capital threat", "capital one from falling", "outer threat", "outer destroyed", "boss health",
         "boss revealed", "caravans home", "caravans waiting", "defender health", "rounds played",
         "experience", "artifacts", "horde left")
"""What each feature is, in order (the fitting script prints the weights by these)."""

WEIGHTS = (-1.330, -2.464, -0.027, -1.286, -2.909, -3.199, 0.378, 2.631, 0.807, 1.844, 3.838, 2.273, 0.733, 1.551)
"""Fitted by benchmarks/defenders_evaluation.py; one per name above."""


def features(state: DefendersState) -> tuple[float, ...]:
    """The position as numbers the team's chance follows (each about 0 to 1)."""
    options = state.options
    destruction = max(1, options.destruction)
    outer = [region for region in state.regions.values() if region.key != "capital"]
    count = max(1, len(outer))
    threat = sum(options.outer_max if region.destroyed else region.threat for region in outer)
    waiting = sum(region.caravans for region in outer)
    defenders = state.defenders
    health = sum(defender.hp / max(1, rules.max_hp(defender)) for defender in defenders) / max(1, len(defenders))
    return (1.0,
            state.capital_threat / destruction,
            1.0 if state.capital_threat >= destruction - 1 else 0.0,
            threat / (count * max(1, options.outer_max)),
            sum(region.destroyed for region in outer) / count,
            state.boss.hp / max(1, state.boss.max_hp),
            1.0 if state.boss.revealed else 0.0,
            state.capital_caravans / CARAVANS,
            waiting / CARAVANS,
            health,
            state.round / max(1, options.round_limit),
            sum(defender.xp for defender in defenders) / (10 * max(1, len(defenders))),
            sum(len(defender.artifacts) for defender in defenders) / max(1, len(defenders)),
            len(state.horde) / 5)


def chance(weights: tuple[float, ...], values: tuple[float, ...]) -> float:
    """The logistic chance of ``weights`` . ``values``."""
    total = sum(weight * value for weight, value in zip(weights, values, strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, total))))


def evaluate(state: DefendersState, seat: int) -> float:
    """The team's chance to win from ``state`` (co-operative: the same for every seat)."""
    return chance(WEIGHTS, features(state))
