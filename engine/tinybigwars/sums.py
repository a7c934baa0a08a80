"""The sums and the odds the heuristic's estimates (engine/tinybigwars/tactics.py) are made of:
one clan's heroes at a location summed, and the chance of rolling enough hits. Both are pure
functions of a few small values, so they are kept by those values for the process.
"""

from __future__ import annotations

import math

from engine.tinybigwars.board import hero_card
from engine.tinybigwars.state import Hero

HIT_PER_DIE = 0.5
"""A 5 scores 1 and a 6 scores 2: half a hit per die on average."""
HIT_VARIANCE_PER_DIE = 7 / 12


class Stack:
    """One clan's live heroes at one location, summed as the heuristic's estimates read them
    (plain ints: the estimates come out exactly as from the heroes). Read only: `stack_of`
    shares one among every location and decision with the same heroes."""

    __slots__ = ("power", "max_power", "energy", "max_energy", "vitality", "shields", "auto_hits",
                 "tiger", "defend_die")

    def __init__(self, heroes: list[Hero]) -> None:
        power = energy = vitality = shields = auto_hits = 0
        max_power = hero_card(heroes[0]).power
        max_energy = heroes[0].energy
        tiger = defend_die = False
        for h in heroes:
            card = hero_card(h)
            ability = card.ability
            power += card.power
            max_power = max(max_power, card.power)
            energy += h.energy
            max_energy = max(max_energy, h.energy)
            vitality += h.health + h.energy
            shields += ability == "ignore_first_hit"
            auto_hits += ability == "auto_hit"
            tiger = tiger or ability == "six_three_hits"
            defend_die = defend_die or ability == "defend_die"
        self.power, self.max_power, self.energy, self.max_energy = power, max_power, energy, max_energy
        self.vitality, self.shields, self.auto_hits = vitality, shields, auto_hits
        self.tiger, self.defend_die = tiger, defend_die


_LONE_STACKS: dict[tuple[str, int, int], Stack] = {}
"""The `Stack` of one hero by its card, health and energy (all a lone hero's sums read): most
stacks are one hero, and the same few recur all match long."""
_STACKS: dict[tuple[tuple[str, int, int], ...], Stack] = {}
"""The `Stack` of several heroes by each one's card, health and energy, in order."""
_MAX_STACKS = 10_000


def lone_stack(hero: Hero) -> Stack:
    """The sums of ``hero`` alone (shared: read, never change)."""
    key = (hero.card, hero.health, hero.energy)
    found = _LONE_STACKS.get(key)
    if found is None:
        if len(_LONE_STACKS) >= _MAX_STACKS:
            _LONE_STACKS.clear()
        found = _LONE_STACKS[key] = Stack([hero])
    return found


def stack_of(heroes: list[Hero]) -> Stack:
    """The sums of ``heroes``, one clan's at one location (shared: read, never change)."""
    if len(heroes) == 1:
        return lone_stack(heroes[0])
    key = tuple([(hero.card, hero.health, hero.energy) for hero in heroes])
    found = _STACKS.get(key)
    if found is None:
        if len(_STACKS) >= _MAX_STACKS:
            _STACKS.clear()
        found = _STACKS[key] = Stack(heroes)
    return found


_CHANCES: dict[tuple[int, float, float], float] = {}
"""`chance_at_least` by its arguments: a pure function of three small numbers, asked again
and again (a few thousand distinct ones over a match)."""
_MAX_CHANCES = 200_000


def chance_at_least(dice: int, mean_extra: float, needed: float) -> float:
    """Normal estimate of rolling at least ``needed`` hits with ``dice`` dice plus sure hits."""
    key = (dice, mean_extra, needed)
    found = _CHANCES.get(key)
    if found is None:
        mean = HIT_PER_DIE * dice + mean_extra
        spread = math.sqrt(max(HIT_VARIANCE_PER_DIE * dice, 0.25))
        found = 0.5 * (1 + math.erf((mean - needed + 0.5) / (spread * math.sqrt(2))))
        if len(_CHANCES) >= _MAX_CHANCES:
            _CHANCES.clear()
        _CHANCES[key] = found
    return found
