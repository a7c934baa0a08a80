"""Wage War, seat by seat in turn order: phases A (move), B (declare), C (battles) and D
(final moves); this module steps through what needs no decision."""

from __future__ import annotations

import random

from engine.contract import Event
from engine.kit.events import emit
from engine.samurai.battle import launch
from engine.samurai.board import end_phase, player_of, province_name, who
from engine.samurai.content import content
from engine.samurai.movement import (
    any_declare_source,
    any_garrison_source,
    attack_targets,
    gather_count,
    has_army_move,
)
from engine.samurai.rounds import end_round
from engine.samurai.state import SamuraiState, War


def start_war(state: SamuraiState) -> None:
    """Wage War begins with the first seat of the turn order."""
    state.phase = "war"
    state.war = War()
    begin_war_turn(state)


def begin_war_turn(state: SamuraiState) -> None:
    """A seat's turn starts fresh: its armies' moves and attacks restored, no selection."""
    war = state.war
    assert war is not None
    if war.order_pos < len(state.order):
        seat = state.order[war.order_pos]
        for army in player_of(state, seat).armies:
            army.moves_left = army.level
            army.attacks_used = 0
            army.won = False
    war.sub = "A"
    war.sel = {}
    war.declarations = []
    war.battle = None
    war.chain_army = None
    war.d_moved = []
    war.d_garrisons = False


def war_options_exist(state: SamuraiState, seat: int, sub: str) -> bool:
    """Whether the seat has anything to do in a phase: one with nothing is skipped unasked."""
    player = player_of(state, seat)
    if sub == "A":
        return any(has_army_move(state, seat, army, False) or gather_count(state, army)
                   for army in player.armies)
    if sub == "B":
        return any_declare_source(state, seat)
    if sub == "D":
        war = state.war
        assert war is not None
        if not war.d_garrisons and any(has_army_move(state, seat, army, True) for army in player.armies):
            return True
        if any(gather_count(state, army) for army in player.armies if army.alive):
            return True
        return any_garrison_source(state, seat)
    return False


def war_step(state: SamuraiState, events: list[Event], rng: random.Random) -> bool:
    """One step of the war that needs no decision; False when the seat must choose."""
    war = state.war
    assert war is not None
    if war.order_pos >= len(state.order):
        end_round(state, events, rng)
        return True
    seat = state.order[war.order_pos]
    if player_of(state, seat).eliminated:
        war.order_pos += 1
        begin_war_turn(state)
        return True
    if war.sub == "A":
        if war.sel or war_options_exist(state, seat, "A"):
            return False
        war.sub = "B"
        return True
    if war.sub == "B":
        if war.sel or war_options_exist(state, seat, "B"):
            return False
        war.sub = "C"
        announce_declarations(state, war, seat, events)
        return True
    if war.sub == "C":
        if war.battle is not None:
            return False
        if war.chain_army is not None:
            army = player_of(state, seat).armies[war.chain_army]
            can_attack = army.alive and not army.assassinated and army.location \
                and attack_targets(state, seat, army.location)
            if can_attack and army.attacks_used < army.level:
                return False
            war.chain_army = None
            return True
        targets = sorted({declaration.target for declaration in war.declarations})
        if not targets:
            for army in player_of(state, seat).armies:
                if army.alive and army.won:
                    army.level = min(content().units.limits.max_level, army.level + 1)
                    emit(state, "log", events, "info",
                         f"{who(seat)}'s daimyo of army {army.idx + 1} gains experience (level {army.level}).")
                army.won = False
                army.moves_left = army.level
            war.sub = "D"
            return True
        if len(targets) == 1:
            launch(state, events, rng, seat, targets[0])
            return True
        return False
    if war.sub == "D":
        if war.sel or war_options_exist(state, seat, "D"):
            return False
        end_war_turn(state, events)
        return True
    return False


def announce_declarations(state: SamuraiState, war: War, seat: int, events: list[Event]) -> None:
    """Phase B ends: the attacks declared are announced together, before any battle."""
    if war.declarations:
        targets = sorted({province_name(declaration.target) for declaration in war.declarations})
        emit(state, "log", events, "declare", f"{who(seat)} declares attacks on " + ", ".join(targets) + ".")


def end_war_turn(state: SamuraiState, events: list[Event]) -> None:
    """The turn passes to the next seat in turn order."""
    war = state.war
    assert war is not None
    seat = state.order[war.order_pos]
    end_phase(events, state, f"{who(seat)} ends the Wage War turn.", kind="war_turn")
    war.order_pos += 1
    begin_war_turn(state)
