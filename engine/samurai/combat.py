"""Dice and casualties, independent of where the units stand.

A side is a list of holders (a fortification, a garrison, an army, an attacking garrison
force); each holder is a dict kind -> count. Kinds: the regular units, "daimyo", "ronin"
and "fort" (a fortification's temporary defenders).
"""

from __future__ import annotations

import random

from engine.samurai.content import content

CASUALTY_ORDER = ("fort", "ronin", "spearman", "gunner", "swordsman", "bowman", "daimyo")
"""Fortification defenders must fall first (rule); then the cheapest, the daimyo last."""


def unit_value(kind: str, fort_value: int) -> int:
    if kind == "fort":
        return fort_value
    return content().units.units[kind].value


def unit_step(kind: str) -> str:
    if kind == "fort":
        return "melee"
    return content().units.units[kind].step


def roll_side(holders: list[dict[str, int]], step: str | None, fort_value: int,
              rng: random.Random, with_fort: bool = True) -> tuple[list[list[int]], int]:
    """Roll every unit of the side that acts in this step (None = all units: a naval first
    strike). Returns the dice per kind as [value, die...] lists and the number of hits."""
    totals: dict[str, int] = {}
    for holder in holders:
        for kind, n in holder.items():
            if n > 0 and (with_fort or kind != "fort") and (step is None or unit_step(kind) == step):
                totals[kind] = totals.get(kind, 0) + n
    dice: list[list[int]] = []
    hits = 0
    for kind in CASUALTY_ORDER:
        n = totals.get(kind, 0)
        if not n:
            continue
        value = unit_value(kind, fort_value)
        rolled = [rng.randint(1, 12) for _ in range(n)]
        hits += sum(1 for d in rolled if d <= value)
        dice.append([value, *rolled])
    return dice, hits


def side_size(holders: list[dict[str, int]]) -> int:
    return sum(sum(h.values()) for h in holders)


def take_casualties(holders: list[dict[str, int]], hits: int) -> list[tuple[int, str]]:
    """Remove `hits` units in casualty order, earlier holders first within a kind.
    Mutates the holders; returns (holder index, kind) per unit removed."""
    removed: list[tuple[int, str]] = []
    for kind in CASUALTY_ORDER:
        for i, holder in enumerate(holders):
            while hits > 0 and holder.get(kind, 0) > 0:
                holder[kind] -= 1
                hits -= 1
                removed.append((i, kind))
    return removed
