"""Good forces for the heuristic AI: every sound build of a point limit, to draw one by seed.

A build is sound when it fields enough heroes to use both activations, leaves a fair share
of the points for minions, and wastes at most one point. Drawing among all of them (not
always the "best" one) keeps AI clans varied, so every card meets every other in play.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from engine.tinybigwars.content import content

MAX_WASTE = 1
"""Points a sound build may leave unspent."""


def hero_counts(point_limit: int) -> range:
    """Hero numbers worth fielding: two for both activations, more as the limit grows."""
    if point_limit < 18:
        return range(1, 3)
    return range(2, 3 + max(1, (point_limit - 20) // 10))


@cache
def _fillers(budget: int) -> tuple[tuple[tuple[str, ...], int], ...]:
    """Every set of minion cards plus at most one Building card, with its cost, within ``budget``."""
    c = content()
    minion_ids = sorted(c.minions)
    out: list[tuple[tuple[str, ...], int]] = []
    for size in range(len(minion_ids) + 1):
        for group in combinations(minion_ids, size):
            cost = sum(c.minions[m].cost for m in group)
            if cost > budget:
                continue
            out.append((group, cost))
            for b in sorted(c.buildings):
                with_building = cost + c.buildings[b].cost
                if with_building <= budget:
                    out.append(((*group, b), with_building))
    return tuple(out)


def _minion_count(cards: tuple[str, ...]) -> int:
    c = content()
    return sum(c.minions[x].count for x in cards if x in c.minions)


@cache
def sound_builds(point_limit: int) -> tuple[tuple[str, ...], ...]:
    """Every sound build of ``point_limit``, heroes first, in a fixed order.

    Very large limits cannot be spent to the point (the minion cards run out): there the
    builds that waste least count as sound.
    """
    c = content()
    hero_ids = sorted(c.heroes)
    lineups: list[tuple[tuple[str, ...], list[tuple[str, ...]], int]] = []
    for count in hero_counts(point_limit):
        for heroes in combinations(hero_ids, count):
            left = point_limit - sum(c.heroes[h].cost for h in heroes)
            if left < point_limit * 0.25:
                continue
            fillers = _fillers(left)
            waste = left - max(cost for _, cost in fillers)
            lineups.append((heroes, [cards for cards, cost in fillers if left - cost <= max(waste, MAX_WASTE)], waste))
    if not lineups:
        return ()
    allowed = max(MAX_WASTE, min(waste for _, _, waste in lineups))
    builds: list[tuple[str, ...]] = []
    for heroes, fillers, waste in lineups:
        if waste > allowed:
            continue
        most = max(_filler_value(cards) for cards in fillers)
        builds += [(*heroes, *cards) for cards in fillers if _filler_value(cards) >= most - 1]
    return tuple(builds)


def _filler_value(cards: tuple[str, ...]) -> int:
    """Minions brought, a Building card counted as worth its points in minions."""
    c = content()
    return _minion_count(cards) + sum(c.buildings[x].cost for x in cards if x in c.buildings)


@cache
def hero_sets(point_limit: int) -> tuple[tuple[str, ...], ...]:
    """The distinct hero line-ups among the sound builds."""
    c = content()
    seen: dict[tuple[str, ...], None] = {}
    for build in sound_builds(point_limit):
        seen[tuple(x for x in build if x in c.heroes)] = None
    return tuple(seen)
