"""The answers to the Wage War prompts, dispatched through tables: the steps of a turn by
prompt kind, the phase menus by (prompt kind, act). A new prompt kind is one handler and
one table row, not one more branch in a long chain."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.clone import trusted
from engine.contract import Event, IllegalChoice
from engine.samurai.answers import Pick
from engine.samurai.battle import finish_battle, launch, run_rounds, start_battle
from engine.samurai.board import army_at, army_province, check_province, player_of, province_name
from engine.samurai.content import content
from engine.samurai.garrison_forces import default_force, force_has_choice, move_garrison
from engine.samurai.movement import (
    army_moves,
    attack_targets,
    garrison_attackers,
    garrison_targets,
    gather,
    gather_count,
    is_declare_source,
    is_garrison_source,
    move_army,
)
from engine.samurai.ninja import own_turn_option
from engine.samurai.state import Declaration, Interrupt, SamuraiState, War
from engine.samurai.victory import check_win
from engine.samurai.war import announce_declarations, end_war_turn
from engine.words import counted

StepAnswer = Callable[[SamuraiState, int, Pick, list[Event], random.Random], None]
MenuAnswer = Callable[[SamuraiState, int, str, Pick, list[Event]], None]


def current_war(state: SamuraiState) -> War:
    """The war in progress: every war answer needs one."""
    war = state.war
    assert war is not None
    return war


def handle_war(state: SamuraiState, seat: int, kind: str, answer: Pick, events: list[Event],
               rng: random.Random) -> None:
    """Apply the answer of the seat whose Wage War turn it is; "Back" leaves any step."""
    war = current_war(state)
    if answer.act == "cancel" and war.sel:
        war.sel = {}
        return
    step_answer = STEP_ANSWERS.get(kind)
    if step_answer is not None:
        step_answer(state, seat, answer, events, rng)
        return
    answer_menu(state, seat, kind, answer, events)


# ---------------------------------------------------------------- the steps of a turn


def answer_battle(state: SamuraiState, seat: int, answer: Pick, events: list[Event],
                  rng: random.Random) -> None:
    war = current_war(state)
    if answer.act == "calloff":
        assert war.battle is not None
        finish_battle(state, events, "calloff")
        return
    if answer.act not in ("continue", "fight_on"):
        raise IllegalChoice("continue the battle or call it off")
    assert war.battle is not None
    war.battle.fight_on = answer.act == "fight_on"
    war.battle.stage = "ranged"
    run_rounds(state, events, rng)


def answer_chain(state: SamuraiState, seat: int, answer: Pick, events: list[Event],
                 rng: random.Random) -> None:
    war = current_war(state)
    if answer.act == "stop":
        war.chain_army = None
        return
    assert war.chain_army is not None  # the chain prompt is asked only while an army may attack again
    army = player_of(state, seat).armies[war.chain_army]
    target = check_province(answer.target)
    here = army_province(army)
    if answer.act != "attack" or target not in attack_targets(state, seat, here):
        raise IllegalChoice(f"{province_name(target)} is not adjacent to {province_name(here)} "
                            "or cannot be attacked")
    war.chain_army = None
    declaration = trusted(Declaration, {"source": here, "force": "army", "army": army.idx, "target": target,
                                        "count": None, "units": None})
    start_battle(state, events, rng, seat, target, [declaration], chained=True)


def answer_battle_order(state: SamuraiState, seat: int, answer: Pick, events: list[Event],
                        rng: random.Random) -> None:
    war = current_war(state)
    target = check_province(answer.target)
    if answer.act != "battle" or target not in {declaration.target for declaration in war.declarations}:
        raise IllegalChoice(f"no declared attack on {province_name(target)}")
    launch(state, events, rng, seat, target)


def answer_move_to(state: SamuraiState, seat: int, answer: Pick, events: list[Event],
                   rng: random.Random) -> None:
    war = current_war(state)
    army = player_of(state, seat).armies[war.sel["army"]]
    pid = check_province(answer.province)
    destinations = army_moves(state, seat, army, claim=war.sub == "D")
    if answer.act != "to" or pid not in destinations:
        raise IllegalChoice(f"army {army.idx + 1} cannot reach {province_name(pid)} from "
                            f"{province_name(army.location)} through your own provinces in {counted(army.moves_left, 'move')}")
    move_army(state, seat, army, pid, destinations[pid], events)
    war.sel = {}
    check_win(state, events)


def answer_garrison_to(state: SamuraiState, seat: int, answer: Pick, events: list[Event],
                       rng: random.Random) -> None:
    war = current_war(state)
    source = war.sel["garrison"]
    pid = check_province(answer.province)
    targets = garrison_targets(state, seat, source)
    if answer.act != "to" or pid not in targets:
        raise IllegalChoice(f"{province_name(pid)} is not adjacent to {province_name(source)}, "
                            "or is not yours or empty, or is full")
    if answer.count is None and force_has_choice(state, source, targets[pid]):
        war.sel["to"] = pid
        return
    count = answer.count or targets[pid]
    if count > targets[pid]:
        raise IllegalChoice(f"at most {counted(targets[pid], 'unit')} can move from {province_name(source)} "
                            f"to {province_name(pid)}")
    move_garrison(state, events, seat, source, pid, default_force(state, source, count))


def answer_declare_target(state: SamuraiState, seat: int, answer: Pick, events: list[Event],
                          rng: random.Random) -> None:
    war = current_war(state)
    source = war.sel["source"]
    target = check_province(answer.target)
    if answer.act != "attack" or target not in attack_targets(state, seat, source):
        if target not in content().adj[source]:
            raise IllegalChoice(f"{province_name(target)} is not adjacent to {province_name(source)}")
        if state.round == 1 and army_at(state, target):
            raise IllegalChoice(f"no attack may be declared on {province_name(target)}: "
                                "it holds an army and this is the first round")
        raise IllegalChoice(f"{province_name(target)} is your own province")
    force = "army" if war.sel.get("army") is not None else "garrison"
    if force == "garrison" and answer.count is None \
            and force_has_choice(state, source, garrison_attackers(state, source)):
        war.sel["target"] = target
        return
    count = None
    if force == "garrison" and answer.count is not None:
        most = garrison_attackers(state, source)
        if answer.count > most:
            raise IllegalChoice(f"at most {counted(most, 'unit')} of the garrison of {province_name(source)} can attack "
                                "(one must stay unless an army holds the province)")
        count = answer.count
    war.declarations.append(trusted(Declaration, {"source": source, "force": force, "army": war.sel.get("army"),
                                                  "target": target, "count": count, "units": None}))
    war.sel = {}


STEP_ANSWERS: dict[str, StepAnswer] = {
    "battle": answer_battle,
    "chain": answer_chain,
    "war_order": answer_battle_order,
    "move_to": answer_move_to,
    "garrison_to": answer_garrison_to,
    "declare_target": answer_declare_target,
}
"""The prompts of a step inside a phase, by kind (the phase menus are below)."""


# ---------------------------------------------------------------- the phase menus


def answer_menu(state: SamuraiState, seat: int, kind: str, answer: Pick, events: list[Event]) -> None:
    """A phase menu (war_move, war_declare, war_final): "done" ends the phase in any of them."""
    if answer.act == "done":
        finish_phase(state, seat, events)
        return
    menu_answer = MENU_ANSWERS.get((kind, answer.act))
    if menu_answer is None:
        raise IllegalChoice(f"{answer.act!r} is not a choice here")
    menu_answer(state, seat, kind, answer, events)


def finish_phase(state: SamuraiState, seat: int, events: list[Event]) -> None:
    war = current_war(state)
    if war.sub == "A":
        war.sub = "B"
    elif war.sub == "B":
        war.sub = "C"
        announce_declarations(state, war, seat, events)
    elif war.sub == "D":
        end_war_turn(state, events)


def choose_army(state: SamuraiState, seat: int, kind: str, answer: Pick, events: list[Event]) -> None:
    """Move or gather with an army: one that can gather a single unit does so at once."""
    war = current_war(state)
    armies = player_of(state, seat).armies
    if answer.army is None or not 0 <= answer.army < len(armies) or not armies[answer.army].alive:
        raise IllegalChoice("choose one of your living armies")
    army = armies[answer.army]
    if answer.act == "gather":
        if not gather_count(state, army):
            raise IllegalChoice(f"army {army.idx + 1} has no garrison units to take, or no room")
        if gather_count(state, army) > 1:
            war.sel = {"gather": army.idx}
        else:
            gather(state, seat, army, events)
        return
    if army.assassinated:
        raise IllegalChoice(f"army {army.idx + 1}'s daimyo was assassinated: it cannot move")
    if kind == "war_final" and war.d_garrisons:
        raise IllegalChoice("armies move before garrisons in phase D")
    if not army_moves(state, seat, army, claim=kind == "war_final"):
        raise IllegalChoice(f"army {army.idx + 1} has nowhere to move")
    war.sel = {"army": army.idx}


def strike_with_ninja(state: SamuraiState, seat: int, kind: str, answer: Pick, events: list[Event]) -> None:
    if not own_turn_option(state, seat):
        raise IllegalChoice("you have no ninja that can strike now")
    state.interrupts.insert(0, Interrupt(seat=seat, kind="ninja"))


def choose_garrison(state: SamuraiState, seat: int, kind: str, answer: Pick, events: list[Event]) -> None:
    pid = check_province(answer.province)
    if not is_garrison_source(state, seat, pid):
        raise IllegalChoice(f"the garrison of {province_name(pid)} cannot move now")
    current_war(state).sel = {"garrison": pid}


def choose_attack_source(state: SamuraiState, seat: int, kind: str, answer: Pick,
                         events: list[Event]) -> None:
    pid = check_province(answer.province)
    force = "army" if answer.army is not None else "garrison"
    if not is_declare_source(state, seat, pid, answer.army):
        raise IllegalChoice(f"no {force} of yours in {province_name(pid)} can declare an attack")
    current_war(state).sel = {"source": pid, "army": answer.army}


MENU_ANSWERS: dict[tuple[str, str], MenuAnswer] = {
    ("war_move", "move"): choose_army,
    ("war_move", "gather"): choose_army,
    ("war_move", "ninja"): strike_with_ninja,
    ("war_declare", "source"): choose_attack_source,
    ("war_declare", "ninja"): strike_with_ninja,
    ("war_final", "move"): choose_army,
    ("war_final", "gather"): choose_army,
    ("war_final", "garrison"): choose_garrison,
    ("war_final", "ninja"): strike_with_ninja,
}
"""The phase menus' acts, by (prompt kind, act): anything else is not a choice there."""
