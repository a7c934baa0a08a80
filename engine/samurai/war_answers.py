"""The answers to the Wage War prompts, dispatched by prompt kind through a table."""

from __future__ import annotations

import random

from engine.contract import Event, IllegalChoice
from engine.samurai.answers import Pick
from engine.samurai.battle import (
    finish_battle,
    launch,
    run_rounds,
    start_battle,
)
from engine.samurai.board import (
    army_at,
    check_province,
    emit,
    player_of,
    pname,
    who,
)
from engine.samurai.content import content
from engine.samurai.garrison_forces import (
    default_force,
    force_has_choice,
    move_garrison,
)
from engine.samurai.movement import (
    army_moves,
    attack_targets,
    declare_sources,
    garrison_attackers,
    garrison_sources,
    garrison_targets,
    gather,
    gather_count,
    move_army,
)
from engine.samurai.ninja import (
    own_turn_option,
)
from engine.samurai.state import (
    Declaration,
    Interrupt,
    SamuraiState,
)
from engine.samurai.victory import check_win
from engine.samurai.war import end_war_turn


def handle_war(state: SamuraiState, seat: int, kind: str, answer: Pick, events: list[Event], rng: random.Random) -> None:
    war = state.war
    assert war is not None
    player = player_of(state, seat)
    act = answer.act
    if act == "cancel" and war.sel:
        war.sel = {}
        return
    if kind == "battle":
        if act == "calloff":
            battle = war.battle
            assert battle is not None
            finish_battle(state, events, "calloff")
            return
        if act not in ("continue", "fight_on"):
            raise IllegalChoice("continue the battle or call it off")
        assert war.battle is not None
        war.battle.fight_on = act == "fight_on"
        war.battle.stage = "ranged"
        run_rounds(state, events, rng)
        return
    if kind == "chain":
        if act == "stop":
            war.chain_army = None
            return
        army = player.armies[war.chain_army]
        target = check_province(answer.target)
        if act != "attack" or target not in attack_targets(state, seat, army.location):
            raise IllegalChoice(f"{pname(target)} is not adjacent to {pname(army.location)} or cannot be attacked")
        war.chain_army = None
        start_battle(state, events, rng, seat, target, [Declaration(source=army.location, force="army", army=army.idx, target=target)],
                     chained=True)
        return
    if kind == "war_order":
        target = check_province(answer.target)
        if act != "battle" or target not in {d.target for d in war.declarations}:
            raise IllegalChoice(f"no declared attack on {pname(target)}")
        launch(state, events, rng, seat, target)
        return
    if kind == "move_to":
        army = player.armies[war.sel["army"]]
        pid = check_province(answer.province)
        dests = army_moves(state, seat, army, claim=war.sub == "D")
        if act != "to" or pid not in dests:
            raise IllegalChoice(f"army {army.idx + 1} cannot reach {pname(pid)} from {pname(army.location)} "
                                f"through your own provinces in {army.moves_left} moves")
        move_army(state, seat, army, pid, dests[pid], events)
        war.sel = {}
        check_win(state, events)
        return
    if kind == "garrison_to":
        source = war.sel["garrison"]
        pid = check_province(answer.province)
        targets = garrison_targets(state, seat, source)
        if act != "to" or pid not in targets:
            raise IllegalChoice(f"{pname(pid)} is not adjacent to {pname(source)}, or is not yours or empty, or is full")
        if answer.count is None and force_has_choice(state, source, targets[pid]):
            war.sel["to"] = pid
            return
        n = answer.count or targets[pid]
        if n > targets[pid]:
            raise IllegalChoice(f"at most {targets[pid]} units can move from {pname(source)} to {pname(pid)}")
        move_garrison(state, events, seat, source, pid, default_force(state, source, n))
        return
    if kind == "declare_target":
        source = war.sel["source"]
        target = check_province(answer.target)
        if act != "attack" or target not in attack_targets(state, seat, source):
            if target not in content().adj[source]:
                raise IllegalChoice(f"{pname(target)} is not adjacent to {pname(source)}")
            if state.round == 1 and army_at(state, target):
                raise IllegalChoice(f"no attack may be declared on {pname(target)}: it holds an army and this is the first round")
            raise IllegalChoice(f"{pname(target)} is your own province")
        force = "army" if war.sel.get("army") is not None else "garrison"
        if force == "garrison" and answer.count is None and force_has_choice(state, source, garrison_attackers(state, source)):
            war.sel["target"] = target
            return
        count = None
        if force == "garrison" and answer.count is not None:
            most = garrison_attackers(state, source)
            if answer.count > most:
                raise IllegalChoice(f"at most {most} units of the garrison of {pname(source)} can attack "
                                    "(one must stay unless an army holds the province)")
            count = answer.count
        war.declarations.append(Declaration(source=source, force=force, army=war.sel.get("army"), target=target, count=count))
        war.sel = {}
        return
    # the phase menus
    if act == "done":
        if war.sub == "A":
            war.sub = "B"
        elif war.sub == "B":
            war.sub = "C"
            if war.declarations:
                emit(state, events, f"{who(seat)} declares attacks on " + ", ".join(
                    sorted({pname(d.target) for d in war.declarations})) + ".", kind="declare")
        elif war.sub == "D":
            end_war_turn(state, events)
        return
    if kind in ("war_move", "war_final") and act in ("move", "gather"):
        if answer.army is None or not 0 <= answer.army < len(player.armies) or not player.armies[answer.army].alive:
            raise IllegalChoice("choose one of your living armies")
        army = player.armies[answer.army]
        if act == "gather":
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
        return
    if kind in ("war_move", "war_declare", "war_final") and act == "ninja":
        if not own_turn_option(state, seat):
            raise IllegalChoice("you have no ninja that can strike now")
        state.interrupts.insert(0, Interrupt(seat=seat, kind="ninja"))
        return
    if kind == "war_final" and act == "garrison":
        pid = check_province(answer.province)
        if pid not in garrison_sources(state, seat):
            raise IllegalChoice(f"the garrison of {pname(pid)} cannot move now")
        war.sel = {"garrison": pid}
        return
    if kind == "war_declare" and act == "source":
        pid = check_province(answer.province)
        srcs = declare_sources(state, seat)
        force = "army" if answer.army is not None else "garrison"
        if (pid, force, answer.army) not in srcs:
            raise IllegalChoice(f"no {force} of yours in {pname(pid)} can declare an attack")
        war.sel = {"source": pid, "army": answer.army}
        return
    raise IllegalChoice(f"{act!r} is not a choice here")
