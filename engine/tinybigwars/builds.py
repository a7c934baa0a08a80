"""Good forces for the heuristic AI, drawn by seed so AI clans are varied.

A draw takes three independent steps: a hero line-up (two heroes for both activations,
more as the limit grows, leaving at least a quarter of the points for the rest), then
a Building card or none (each choice alike), then the most minions the remaining points
buy. Because the Building card is chosen apart from the heroes and the minions, a clan
with a Building card differs from one without only by the minions it gave up for it:
the balance benchmark compares exactly what the card is worth.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

from engine.tinybigwars.content import content

NO_BUILDING = ""


def hero_counts(point_limit: int) -> range:
    """Hero numbers worth fielding: two for both activations, more as the limit grows."""
    if point_limit < 18:
        return range(1, 3)
    return range(2, 3 + max(1, (point_limit - 20) // 10))


@cache
def minion_fills(budget: int) -> tuple[tuple[str, ...], ...]:
    """The sets of minion cards (each card once) that bring the most minions within ``budget``."""
    c = content()
    ids = sorted(c.minions)
    best: list[tuple[str, ...]] = [()]
    most = 0
    for size in range(1, len(ids) + 1):
        for group in combinations(ids, size):
            if sum(c.minions[m].cost for m in group) > budget:
                continue
            count = sum(c.minions[m].count for m in group)
            if count > most:
                best, most = [group], count
            elif count == most:
                best.append(group)
    return tuple(best)


@cache
def hero_sets(point_limit: int) -> tuple[tuple[str, ...], ...]:
    """Every hero line-up that leaves at least a quarter of ``point_limit`` for the rest, and no
    more than the minion and Building cards can take (large limits field more heroes)."""
    c = content()
    ids = sorted(c.heroes)
    cap = sum(m.cost for m in c.minions.values()) + max(b.cost for b in c.buildings.values()) + 1
    sizes = range(hero_counts(point_limit).start, len(ids) + 1)
    scored = []
    for count in sizes:
        for heroes in combinations(ids, count):
            left = point_limit - sum(c.heroes[h].cost for h in heroes)
            if left >= 0:
                scored.append((heroes, left))
    fitting = [h for h, left in scored if point_limit * 0.25 <= left <= cap and len(h) in hero_counts(point_limit)]
    if not fitting:
        fitting = [h for h, left in scored if left <= cap]
    if not fitting and scored:
        fitting = [min(scored, key=lambda entry: entry[1])[0]]
    return tuple(fitting)


def draw_build(point_limit: int, rng: random.Random) -> list[str] | None:
    """One good force for ``point_limit``; None when no line-up fits (a tiny limit)."""
    c = content()
    lineups = hero_sets(point_limit)
    if not lineups:
        return None
    heroes = rng.choice(lineups)
    left = point_limit - sum(c.heroes[h].cost for h in heroes)
    buildings = [NO_BUILDING, *(b for b in sorted(c.buildings) if c.buildings[b].cost <= left)]
    building = rng.choice(buildings)
    if building:
        left -= c.buildings[building].cost
    minions = rng.choice(minion_fills(left))
    return [*heroes, *minions, *([building] if building else [])]
