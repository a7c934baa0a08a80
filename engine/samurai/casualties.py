"""Losses after a combat step, chosen by the owner of each side.

Two rules fix part of the order: castle or fortress defenders fall first, and the daimyo is
the last casualty of his army (when he falls the army is gone). Between those the owner
decides which units fall. A side is asked only when it has a real choice: hits left after
the fortification defenders, fewer hits than units it could lose, and units of more than one
kind. The deadline default is the order the project used before owners chose (ronin, who
leave at the end of the round anyway, then spearmen, gunners, swordsmen, bowmen).

A side is a list of holders, as in combat.py: dicts kind -> count, "fort" for the
fortification's defenders and "daimyo" for an army's leader.
"""

from __future__ import annotations

from engine.contract import IllegalChoice, NumberField, Prompt
from engine.samurai.answers import UnitCounts
from engine.samurai.board import PLURAL, province_name
from engine.samurai.state import Battle
from engine.words import counted

LOSS_KINDS = ("ronin", "spearman", "gunner", "swordsman", "bowman")
"""The kinds an owner chooses among, in the default order."""
NAMES = {**PLURAL, "ronin": "ronin"}


def losses_pool(holders: list[dict[str, int]]) -> dict[str, int]:
    """The units the owner may choose to lose, by kind (fortification defenders and the
    daimyo are not his to choose)."""
    pool = dict.fromkeys(LOSS_KINDS, 0)
    for holder in holders:
        for kind in LOSS_KINDS:
            pool[kind] += holder.get(kind, 0)
    return pool


def hits_after_forts(holders: list[dict[str, int]], hits: int) -> int:
    """Hits left once the fortification defenders, who must fall first, have taken theirs."""
    for holder in holders:
        hits -= holder.get("fort", 0)
    return max(0, hits)


def has_choice(holders: list[dict[str, int]], hits: int) -> bool:
    left = hits_after_forts(holders, hits)
    if left <= 0:  # the fortification took every hit (or none came): nothing to choose
        return False
    total = kinds = 0
    for count in losses_pool(holders).values():
        if count:
            total += count
            kinds += 1
    return left < total and kinds >= 2


def default_losses(holders: list[dict[str, int]], hits: int) -> dict[str, int]:
    """The deadline default: the fixed order of LOSS_KINDS."""
    return ordered_losses(holders, hits, LOSS_KINDS)


def ordered_losses(holders: list[dict[str, int]], hits: int, order: list[str] | tuple[str, ...]) -> dict[str, int]:
    """The losses the hits take when units fall kind by kind in ``order`` (a standing order)."""
    left = hits_after_forts(holders, hits)
    losses = dict.fromkeys(LOSS_KINDS, 0)
    if left <= 0:
        return losses
    pool = losses_pool(holders)
    for kind in order:
        take = min(pool[kind], left)
        losses[kind] = take
        left -= take
    return losses


def check_losses(holders: list[dict[str, int]], hits: int, answer: UnitCounts) -> dict[str, int]:
    """The chosen losses, if they are exactly the units the hits must take."""
    pool = losses_pool(holders)
    want = min(hits_after_forts(holders, hits), sum(pool.values()))
    losses = answer.model_dump()
    for kind, count in losses.items():
        if count > pool[kind]:
            raise IllegalChoice(f"you have only {pool[kind]} {NAMES[kind]} in this battle, not {count}")
    total = sum(losses.values())
    if total != want:
        raise IllegalChoice(f"your side takes {want} losses; you chose {total}")
    return losses


def apply_losses(holders: list[dict[str, int]], hits: int, losses: dict[str, int]) -> None:
    """Remove the fortification defenders first, then the chosen units (earlier holders
    first within a kind), then, with hits to spare, the daimyo. Mutates the holders."""
    left = hits
    for holder in holders:
        take = min(holder.get("fort", 0), left)
        if take:
            holder["fort"] -= take
            left -= take
    for kind in LOSS_KINDS:
        want = min(losses.get(kind, 0), left)
        for holder in holders:
            take = min(holder.get(kind, 0), want)
            if take:
                holder[kind] -= take
                want -= take
                left -= take
    for holder in holders:
        take = min(holder.get("daimyo", 0), left)
        if take:
            holder["daimyo"] -= take
            left -= take


def losses_text(losses: dict[str, int]) -> str:
    parts = [f"{count} {NAMES[kind] if count > 1 else kind}" for kind, count in losses.items() if count]
    return ", ".join(parts) or "nothing"


def loss_room(holders: list[dict[str, int]], hits: int) -> dict[str, int]:
    """The most of each kind the side holds that the hits may take (`loss_prompt`'s fields)."""
    left = hits_after_forts(holders, hits)
    return {kind: min(count, left) for kind, count in losses_pool(holders).items() if count}


def loss_default(holders: list[dict[str, int]], hits: int, chosen: dict[str, int] | None) -> dict[str, int]:
    """`loss_prompt`'s default: the losses chosen, else the deadline default, of each kind the
    side holds."""
    pool = losses_pool(holders)
    return {unit: count for unit, count in (chosen or default_losses(holders, hits)).items() if pool[unit]}


def loss_prompt(battle: Battle, side: str, seat: int, holders: list[dict[str, int]]) -> Prompt:
    """The owner's choice of losses for one side: a number per kind it holds."""
    pending = battle.pending
    assert pending is not None
    hits = pending.hits[side]
    left = hits_after_forts(holders, hits)
    pool = losses_pool(holders)
    fields = [NumberField(name=kind, label=f"{NAMES[kind].capitalize()} lost (of {pool[kind]})", max=most)
              for kind, most in loss_room(holders, hits).items()]
    chosen = pending.chosen.get(side)
    step = "naval landing" if pending.step == "naval" else f"round {battle.rounds} {pending.step}"
    forts = hits - left
    text = (f"Battle for {province_name(battle.target)}, {step}: {counted(hits, 'hit')} on your side"
            + (f", {forts} taken by the fortification's defenders" if forts else "")
            + f". Choose which {'unit falls' if left == 1 else f'{left} units fall'}"
            + " (your daimyo falls only when nobody else is left).")
    if chosen is not None:
        text = f"Losses chosen ({losses_text(chosen)}); sealed until the other side has chosen. Submit again to change."
    return Prompt(seat=seat, kind="casualties", text=text, answer=UnitCounts, input="numbers", fields=fields,
                  secret=True, answered=chosen is not None,
                  default=loss_default(holders, hits, chosen))
