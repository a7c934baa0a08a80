"""Dice and casualties, independent of where the units stand.

A side is a list of holders (a fortification, a garrison, an army, an attacking garrison
force); each holder is a dict kind -> count. Kinds: the regular units, "daimyo", "ronin"
and "fort" (a fortification's temporary defenders).
"""

from __future__ import annotations

import functools
import random

from engine.rng import roll_dice
from engine.samurai.content import content

CASUALTY_ORDER = ("fort", "ronin", "spearman", "gunner", "swordsman", "bowman", "daimyo")
"""Fortification defenders must fall first (rule); then the cheapest, the daimyo last."""


@functools.cache
def _table() -> dict[str, tuple[int, str]]:
    """(value, step) per regular kind, read once: battles roll often (the odds test runs
    tens of thousands), and the content does not change while the process runs."""
    return {kind: (unit.value, unit.step) for kind, unit in content().units.units.items()}


def unit_value(kind: str, fort_value: int) -> int:
    if kind == "fort":
        return fort_value
    return _table()[kind][0]


def unit_step(kind: str) -> str:
    if kind == "fort":
        return "melee"
    return _table()[kind][1]


def roll_side(holders: list[dict[str, int]], step: str | None, fort_value: int,
              rng: random.Random, with_fort: bool = True) -> tuple[list[list[int]], int]:
    """Roll every unit of the side that acts in this step (None = all units: a naval first
    strike). Returns the dice per kind as [value, die...] lists and the number of hits.
    Dice are rolled kind by kind in casualty order, so a seed always gives the same battle."""
    table = _table()
    totals: dict[str, int] = {}
    for holder in holders:
        for kind, count in holder.items():
            if count <= 0:
                continue
            if kind == "fort":
                if not with_fort or (step is not None and step != "melee"):
                    continue
            elif step is not None and table[kind][1] != step:
                continue
            totals[kind] = totals.get(kind, 0) + count
    dice: list[list[int]] = []
    hits = 0
    if not totals:
        return dice, hits
    for kind in CASUALTY_ORDER:
        count = totals.get(kind, 0)
        if not count:
            continue
        value = fort_value if kind == "fort" else table[kind][0]
        rolled = roll_dice(rng, 12, count)
        hits += sum(1 for die in rolled if die <= value)
        dice.append([value, *rolled])
    return dice, hits


def side_size(holders: list[dict[str, int]]) -> int:
    total = 0
    for holder in holders:
        total += sum(holder.values())
    return total


def take_casualties(holders: list[dict[str, int]], hits: int) -> list[tuple[int, str]]:
    """Remove `hits` units in casualty order, earlier holders first within a kind.
    Mutates the holders; returns (holder index, kind) per unit removed."""
    removed: list[tuple[int, str]] = []
    if hits <= 0:
        return removed
    for kind in CASUALTY_ORDER:
        for index, holder in enumerate(holders):
            have = holder.get(kind, 0)
            if have <= 0:
                continue
            take = min(have, hits)
            holder[kind] = have - take
            hits -= take
            removed.extend((index, kind) for _ in range(take))
            if not hits:
                return removed
    return removed


def fight_step(attackers: list[dict[str, int]], defenders: list[dict[str, int]], step: str, fort_value: int,
               rng: random.Random) -> tuple[list[list[int]], int, list[list[int]], int]:
    """One combat step (ranged or melee): both sides roll at once, then both take their
    casualties, so a unit killed in this step still strikes. Mutates both sides; returns
    (attacker dice, attacker hits, defender dice, defender hits)."""
    adice, ahits = roll_side(attackers, step, fort_value, rng)
    ddice, dhits = roll_side(defenders, step, fort_value, rng)
    take_casualties(defenders, ahits)
    take_casualties(attackers, dhits)
    return adice, ahits, ddice, dhits


def naval_strike(attackers: list[dict[str, int]], defenders: list[dict[str, int]],
                 rng: random.Random) -> tuple[list[list[int]], int]:
    """A naval landing: every defender except fortification defenders rolls once, the
    attacker takes the hits before the first round. Mutates the attacker; returns dice, hits."""
    dice, hits = roll_side(defenders, None, 0, rng, with_fort=False)
    take_casualties(attackers, hits)
    return dice, hits


def resolve(attackers: list[dict[str, int]], defenders: list[dict[str, int]], fort_value: int, rng: random.Random,
            naval: bool = False, max_rounds: int | None = None) -> str:
    """Fight a battle to the end without a call-off (the attacker's "fight to the end").
    Pure apart from mutating the sides; the rules engine fights with the same steps.
    Returns "won" (attacker holds the field), "lost" or "wiped" (nobody left), or "open"
    when `max_rounds` ran out first."""
    if naval and side_size(defenders):
        naval_strike(attackers, defenders, rng)
    rounds = 0
    while side_size(attackers) and side_size(defenders):
        if max_rounds is not None and rounds >= max_rounds:
            return "open"
        rounds += 1
        for step in ("ranged", "melee"):
            fight_step(attackers, defenders, step, fort_value, rng)
    if side_size(attackers):
        return "won"
    return "wiped" if not side_size(defenders) else "lost"
