"""A battle's course: its start, its rounds and the Turn Deck's cards, one card at a time.

These run without a decision; the phase table's battle step (actions.py) calls them until
someone owes one. What the cards do to the realm (Threat, attacks, the boss) is in rules.py.
Clause references are in docs/rules/defenders.md.
"""

from __future__ import annotations

from typing import Literal

from engine.defenders import board
from engine.defenders.board import CAPITAL
from engine.defenders.content import content
from engine.defenders.names import region_name, who
from engine.defenders.rules import (
    Flow,
    ap_per_card,
    boss_round,
    finish,
    heal,
    max_hp,
    reveal_boss,
)
from engine.defenders.state import Defender, new_active, new_attack
from engine.words import counted


def round_start(f: Flow) -> None:
    state = f.state
    state.round += 1
    f.emit("round", f"Battle {state.battle}, round {state.round} begins ({counted(len(state.turn_deck), 'card')} in the Turn Deck, "
          f"{len(state.horde)} in the Horde).", phase_end=True)
    if state.caravan_pile:
        key = state.caravan_pile.pop()
        state.regions[key].caravans += 1
        f.emit("caravan", f"A Caravan arrives in {region_name(state, key)} and waits for an escort.")
    if state.boss.revealed:
        boss_round(f)


def round_end(f: Flow) -> None:
    state = f.state
    # Only what changes is set (a field set to the value it holds changes nothing).
    if state.hexed:
        state.hexed = False
    if state.boss.armor_soaked:
        state.boss.armor_soaked = []
    for d in state.defenders:
        _clear(d, ("shield", "in_tree", "riding"), "round:")
    if state.tree is not None:
        state.tree = None
    if not (state.regions["mountains"].war and state.regions["mountains"].side == "hostile"):
        state.manticore = "mountains"
    for r in state.regions.values():
        if r.wards:
            r.wards = 0
        if r.fleet_die:
            r.fleet_die = False
    if not (state.regions["coast"].war and state.regions["coast"].side == "hostile"):
        state.fleet_dice = 3
    if not (state.regions["desert"].war and state.regions["desert"].side == "hostile"):
        state.storms = 3
    if state.regions["plains"].threat == 0 and "deserter" in state.discard + state.turn_deck:
        gone = state.discard.count("deserter") + state.turn_deck.count("deserter")
        state.discard = [c for c in state.discard if c != "deserter"]
        state.turn_deck = [c for c in state.turn_deck if c != "deserter"]
        state.soldiers += gone
        f.emit("log", f"The Field is calm again: the Turn Deck loses {counted(gone, 'Deserter card')}.")
    if state.round >= state.options.round_limit:
        finish(f, False, f"the horde still stood after the {state.options.round_limit}-round limit")
        return
    state.turn_deck = state.discard + state.turn_deck
    state.discard = []
    if state.horde:
        state.turn_deck.append(state.horde.pop())
        f.emit("log", "A card from the Horde joins the Turn Deck.")
    elif not state.boss.revealed:
        reveal_boss(f)
    f.rng.shuffle(state.turn_deck)


def draw_card(f: Flow) -> None:
    state = f.state
    card = state.turn_deck.pop()
    state.current = card
    c = content()
    if card.startswith("d:"):
        d = state.defenders[int(card[2:])]
        f.emit("card", f"Defender card: {who(d)} takes a Turn with {ap_per_card(state)} AP.", phase_end=True)
        start_card(f, "defender", d)
    elif card == "all":
        f.emit("card", f"All Defenders card: {ap_per_card(state)} AP for any Defenders to share, first come first served.", phase_end=True)
        start_card(f, "all", None)
    elif card.startswith("e:"):
        e = c.enemy(card[2:])
        names = " and ".join(region_name(state, r) for r in e.regions)
        f.emit("card", f"Enemy card: {e.name} attack {names}.")
        for r in e.regions:
            state.attacks.append(new_attack(r, e.name, "enemy"))
    elif card.startswith("x:"):
        dire = c.dire_card(card[2:])
        f.emit("card", f"Dire Enemy: {dire.name} attacks {region_name(state, dire.region)}. {dire.text}")
        state.attacks.append(new_attack(dire.region, dire.name, "dire", dire.key))
    elif card == "soldier":
        target = board.most_threatened(state)
        state.soldiers += 1
        region = state.regions[target]
        if region.threat > 0 and not region.destroyed:
            region.threat -= 1
            f.emit("card", f"Soldier card: the muster Secures 1 Threat in {region_name(state, target)}.")
        else:
            f.emit("card", "Soldier card: all is quiet; the soldier returns to the Field.")
    elif card == "deserter":
        f.emit("card", "Deserter card: deserters raid the Field.")
        state.attacks.append(new_attack("plains", "Deserters", "deserter"))


def start_card(f: Flow, kind: Literal["defender", "all"], d: Defender | None) -> None:
    state = f.state
    state.active = new_active(kind, d.idx if d else None, ap_per_card(state))
    if state.boss.armor_soaked:
        state.boss.armor_soaked = []
    for defender in state.defenders:
        _clear(defender, ("took_turn", "moved_free"), "turn:")
    if d is not None:
        begin_turn(f, d)


def _clear(d: Defender, flags: tuple[str, ...], used: str) -> None:
    """What lasts a round or a Turn is over for ``d``: its ``flags`` lowered and the ability
    uses marked ``used`` ("round:" or "turn:") forgotten. Only what changes is set (a field set
    to the value it holds changes nothing, and this runs for every Defender on every card)."""
    for flag in flags:
        if getattr(d, flag):
            setattr(d, flag, False)
    marks = d.used
    if marks and any(mark.startswith(used) for mark in marks):
        d.used = [mark for mark in marks if not mark.startswith(used)]


def begin_turn(f: Flow, d: Defender) -> None:
    """A Defender's Turn begins: the Capital heals them (A6, U14)."""
    d.took_turn = True
    if d.region == CAPITAL and d.hp < max_hp(d):
        healed = heal(d)
        f.emit("log", f"{who(d)} rests in the Capital City: {healed} HP restored.")


def end_card(f: Flow) -> None:
    state = f.state
    if state.current is not None and state.current not in ("soldier",):
        state.discard.append(state.current)
    state.current = None
    state.active = None
    for d in state.defenders:
        if d.took_turn:
            d.took_turn = False


def start_battle(f: Flow) -> None:
    state = f.state
    state.phase = "play"
    state.round = 0
    f.rng.shuffle(state.turn_deck)
    what = "General" if state.boss.kind == "general" else "Epic Foe"
    f.emit("battle", f"Battle {state.battle} of {3 if state.options.mode == 'campaign' else 1} begins: a hidden {what} "
          f"waits under a Horde of {counted(len(state.horde), 'card')}.")
    round_start(f)
