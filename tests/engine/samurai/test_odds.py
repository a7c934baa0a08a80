"""Exact odds: the engine's own battle resolution, run 20,000 times with different seeds,
matches a win probability computed independently by a Markov chain over the unit counts."""

from __future__ import annotations

import random
from functools import cache
from math import comb

import pytest

from engine.samurai import combat

# The project's decisions (d12, a hit on the value or less), written out here on purpose
# instead of read from the engine's content, so the two computations stay independent.
VALUE = {"daimyo": 6, "bowman": 6, "swordsman": 5, "gunner": 4, "spearman": 4, "ronin": 5}
RANGED = {"bowman", "gunner"}
LOSS_ORDER = ("ronin", "spearman", "gunner", "swordsman", "bowman", "daimyo")
Side = tuple[int, ...]  # counts in LOSS_ORDER
RUNS = 20_000


def side(**units: int) -> Side:
    return tuple(units.get(k, 0) for k in LOSS_ORDER)


def hit_distribution(s: Side, ranged: bool) -> dict[int, float]:
    """Probability of each number of hits when one side's units of one step roll: the
    convolution of one binomial per kind."""
    dist = {0: 1.0}
    for kind, n in zip(LOSS_ORDER, s, strict=True):
        if not n or (kind in RANGED) != ranged:
            continue
        p = VALUE[kind] / 12
        new: dict[int, float] = {}
        for have, p_have in dist.items():
            for k in range(n + 1):
                new[have + k] = new.get(have + k, 0.0) + p_have * comb(n, k) * p**k * (1 - p) ** (n - k)
        dist = new
    return dist


def lose(s: Side, hits: int) -> Side:
    """Remove `hits` units, cheapest kind first, the daimyo last."""
    out = list(s)
    for i in range(len(out)):
        take = min(out[i], hits)
        out[i] -= take
        hits -= take
    return tuple(out)


def step(states: dict[tuple[Side, Side], float], ranged: bool) -> dict[tuple[Side, Side], float]:
    """Both sides roll at once in one step, then both take their casualties."""
    out: dict[tuple[Side, Side], float] = {}
    for (a, d), p in states.items():
        for ah, pa in hit_distribution(a, ranged).items():
            for dh, pd in hit_distribution(d, ranged).items():
                key = (lose(a, dh), lose(d, ah))
                out[key] = out.get(key, 0.0) + p * pa * pd
    return out


@cache
def outcome_odds(a: Side, d: Side) -> tuple[float, float, float]:
    """(won, lost, wiped) for a battle fought to the end from this position. A round that
    changes nothing repeats, so its probability is divided out (a geometric series)."""
    if not sum(d):
        return (1.0, 0.0, 0.0) if sum(a) else (0.0, 0.0, 1.0)
    if not sum(a):
        return (0.0, 1.0, 0.0)
    after = step(step({(a, d): 1.0}, ranged=True), ranged=False)
    stay = after.pop((a, d), 0.0)
    won = lost = wiped = 0.0
    for (a2, d2), p in after.items():
        w, l_, x = outcome_odds(a2, d2)
        won, lost, wiped = won + p * w, lost + p * l_, wiped + p * x
    return won / (1 - stay), lost / (1 - stay), wiped / (1 - stay)


def as_holder(s: Side) -> dict[str, int]:
    return {k: n for k, n in zip(LOSS_ORDER, s, strict=True) if n}


BATTLES = {
    "hand_to_hand": (side(daimyo=1, spearman=3), side(spearman=2, swordsman=1)),
    "ranged_and_hand_to_hand": (side(daimyo=1, spearman=2, gunner=1), side(spearman=2, bowman=1)),
}


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_engine_battles_match_the_exact_win_probability(name):
    a, d = BATTLES[name]
    exact_won, exact_lost, exact_wiped = outcome_odds(a, d)
    assert abs(exact_won + exact_lost + exact_wiped - 1) < 1e-9
    counts = {"won": 0, "lost": 0, "wiped": 0}
    for seed in range(RUNS):
        atk, dfd = [as_holder(a)], [as_holder(d)]
        counts[combat.resolve(atk, dfd, 0, random.Random(seed))] += 1
    assert abs(counts["won"] / RUNS - exact_won) < 0.01, (counts, exact_won)
    assert abs(counts["wiped"] / RUNS - exact_wiped) < 0.01, (counts, exact_wiped)


def test_the_chain_is_a_real_check():
    """The exact computation tells apart what it should: a lone spearman against a lone
    spearman wins 4/12 * 8/12 of the exchanges that decide, i.e. 2/5 won, 1/5 wiped."""
    won, lost, wiped = outcome_odds(side(spearman=1), side(spearman=1))
    assert won == pytest.approx(2 / 5) and lost == pytest.approx(2 / 5) and wiped == pytest.approx(1 / 5)
