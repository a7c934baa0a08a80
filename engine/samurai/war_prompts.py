"""The prompt of the seat whose Wage War turn it is: its phase menu, or the step it is in
(a move's destination, a declaration's target, the next battle, a chained attack)."""

from __future__ import annotations

from engine.contract import Option, Prompt
from engine.samurai.answers import Pick
from engine.samurai.battle import (
    battle_sides,
)
from engine.samurai.board import (
    MAX_OPTIONS,
    opt,
    paged,
    player_of,
    pname,
)
from engine.samurai.combat import side_size
from engine.samurai.garrison_forces import (
    force_prompt,
    gather_prompt,
)
from engine.samurai.movement import (
    army_moves,
    attack_targets,
    declare_sources,
    garrison_attackers,
    garrison_sources,
    garrison_targets,
    gather_count,
    target_label,
)
from engine.samurai.ninja import (
    own_turn_option,
)
from engine.samurai.state import (
    SamuraiState,
)


def war_prompt(state: SamuraiState) -> Prompt | None:
    war = state.war
    assert war is not None
    if war.order_pos >= len(state.order):
        return None
    seat = state.order[war.order_pos]
    player = player_of(state, seat)
    if war.sub == "C" and war.battle is not None:
        battle = war.battle
        attackers, defenders = battle_sides(state, battle)
        opts = [opt("continue", "Fight another round", {"act": "continue"}),
                opt("fight_on", "Fight to the end without asking again", {"act": "fight_on"}),
                opt("calloff", "Call off the attack", {"act": "calloff"})]
        return Prompt(seat=seat, kind="battle", text=f"Battle for {pname(battle.target)} after round {battle.rounds}: "
                      f"your {side_size(attackers)} units against {side_size(defenders)}. Go on?", answer=Pick,
                      options=opts, default=opts[0].choice)
    if war.sub == "C" and war.chain_army is not None:
        army = player.armies[war.chain_army]
        assert army.location is not None
        opts = [opt(f"attack:{t}", target_label(state, seat, army.location, t), {"act": "attack", "target": t})
                for t in attack_targets(state, seat, army.location)]
        stop = opt("stop", "Stop attacking with this army", {"act": "stop"})
        return Prompt(seat=seat, kind="chain", text=f"Army {army.idx + 1} (level {army.level}) may attack again from "
                      f"{pname(army.location)} ({army.level - army.attacks_used} attacks left).", answer=Pick,
                      options=(opts[:MAX_OPTIONS - 1] + [stop]), default=stop.choice)
    if war.sub == "C":
        targets = sorted({d.target for d in war.declarations})
        opts = [opt(f"battle:{t}", f"Resolve the battle for {pname(t)}", {"act": "battle", "target": t})
                for t in targets]
        return Prompt(seat=seat, kind="war_order", text="Choose the next battle to resolve.", answer=Pick,
                      options=opts[:MAX_OPTIONS], default=opts[0].choice)
    cancel = opt("cancel", "Back", {"act": "cancel"})
    if "gather" in war.sel:
        return gather_prompt(state, seat, player.armies[war.sel["gather"]])
    if war.sub == "D" and "to" in war.sel:
        source, dest = war.sel["garrison"], war.sel["to"]
        return force_prompt(state, seat, source, garrison_targets(state, seat, source)[dest], "garrison_move",
                            f"Move garrison units from {pname(source)} to {pname(dest)}: which go?")
    if war.sub == "B" and "target" in war.sel:
        source, tgt = war.sel["source"], war.sel["target"]
        return force_prompt(state, seat, source, garrison_attackers(state, source), "garrison_force",
                            f"The garrison of {pname(source)} attacks {pname(tgt)}: which units go?")
    if war.sub in ("A", "D") and "army" in war.sel:
        army = player.armies[war.sel["army"]]
        dests = army_moves(state, seat, army, claim=war.sub == "D")
        candidates = [(pid, opt(f"to:{pid}", f"{pname(pid)} ({d} step{'s' if d > 1 else ''})"
                           + (" - claim" if state.provinces[pid].owner is None else ""),
                           {"act": "to", "province": pid})) for pid, d in dests.items()]
        options = paged(state, seat, candidates, [cancel])
        return Prompt(seat=seat, kind="move_to", text=f"Move army {army.idx + 1} from {pname(army.location)} "
                      f"({army.moves_left} moves left) to:", answer=Pick, options=options, default=cancel.choice)
    if war.sub == "D" and "garrison" in war.sel:
        source = war.sel["garrison"]
        candidates = [(pid, opt(f"to:{pid}", f"To {pname(pid)} (up to {n} units)"
                           + (" - claim" if state.provinces[pid].owner is None else ""),
                           {"act": "to", "province": pid}))
                 for pid, n in garrison_targets(state, seat, source).items()]
        options = paged(state, seat, candidates, [cancel])
        return Prompt(seat=seat, kind="garrison_to", text=f"Move units of the garrison of {pname(source)} "
                      "to an adjacent province you own or an unoccupied one:", answer=Pick, options=options,
                      default=cancel.choice)
    if war.sub == "B" and war.sel:
        source = war.sel["source"]
        candidates = [(t, opt(f"attack:{t}", target_label(state, seat, source, t), {"act": "attack", "target": t}))
                 for t in attack_targets(state, seat, source)]
        options = paged(state, seat, candidates, [cancel])
        force = f"army {war.sel['army'] + 1}" if war.sel.get("army") is not None else "the garrison"
        return Prompt(seat=seat, kind="declare_target", text=f"Declare an attack by {force} from {pname(source)}:",
                      answer=Pick, options=options, default=cancel.choice)
    done = opt("done", "Done with this phase", {"act": "done"})
    extras: list[Option] = []
    candidates = []
    if war.sub == "A":
        for army in player.armies:
            if army_moves(state, seat, army, False):
                extras.append(opt(f"move:{army.idx}", f"Move army {army.idx + 1} ({pname(army.location)}, "
                                  f"{army.moves_left} moves)", {"act": "move", "army": army.idx}))
            if gather_count(state, army):
                extras.append(opt(f"gather:{army.idx}", f"Army {army.idx + 1} takes garrison units in {pname(army.location)} "
                                  f"(up to {gather_count(state, army)})", {"act": "gather", "army": army.idx}))
        extras += own_turn_option(state, seat)
        return Prompt(seat=seat, kind="war_move", text="Wage War A: move your armies through your own provinces.",
                      answer=Pick, options=extras + [done], default=done.choice)
    if war.sub == "B":
        for source, force, idx in declare_sources(state, seat):
            if force == "army":
                extras.append(opt(f"army:{idx}", f"Attack with army {idx + 1} from {pname(source)}",
                                  {"act": "source", "province": source, "army": idx}))
            else:
                candidates.append((source, opt(f"garrison:{source}", f"Attack with the garrison of {pname(source)} "
                                       f"({garrison_attackers(state, source)} units)", {"act": "source", "province": source})))
        declared = "; ".join(f"{pname(d.source)}→{pname(d.target)}" for d in war.declarations)
        options = paged(state, seat, candidates, extras + own_turn_option(state, seat) + [done])
        return Prompt(seat=seat, kind="war_declare", text="Wage War B: declare attacks (one per army or garrison)."
                      + (f" Declared: {declared}." if declared else ""), answer=Pick, options=options,
                      default=done.choice)
    for army in player.armies:
        if not war.d_garrisons and army_moves(state, seat, army, True):
            extras.append(opt(f"move:{army.idx}", f"Move army {army.idx + 1} ({pname(army.location)}, {army.moves_left} moves)",
                              {"act": "move", "army": army.idx}))
        if army.alive and gather_count(state, army):
            extras.append(opt(f"gather:{army.idx}", f"Army {army.idx + 1} takes garrison units in {pname(army.location)} "
                              f"(up to {gather_count(state, army)})", {"act": "gather", "army": army.idx}))
    extras += own_turn_option(state, seat)
    for pid in garrison_sources(state, seat):
        candidates.append((pid, opt(f"garrison:{pid}", f"Move the garrison of {pname(pid)}",
                               {"act": "garrison", "province": pid})))
    options = paged(state, seat, candidates, extras + [done])
    return Prompt(seat=seat, kind="war_final", text="Wage War D: move armies first, then garrisons one step; "
                  "you may claim unoccupied provinces.", answer=Pick, options=options, default=done.choice)
