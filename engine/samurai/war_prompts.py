"""The prompt of the seat whose Wage War turn it is: the step it is in (a battle going on, a
chained attack, the next battle, a move's destination, a declaration's target, which units
go) or else its phase menu (A move, B declare, D final moves)."""

from __future__ import annotations

from engine.contract import Option, Prompt
from engine.kit.prompting import opt
from engine.samurai.answers import Pick
from engine.samurai.battle import battle_sides
from engine.samurai.board import MAX_OPTIONS, army_province, paged, paged_lazily, player_of, province_name
from engine.samurai.combat import side_size
from engine.samurai.garrison_forces import (
    force_answer,
    force_prompt,
    force_size_text,
    gather_answer,
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
    has_army_move,
    target_label,
)
from engine.samurai.ninja import own_turn_option
from engine.samurai.state import Army, SamuraiState, War
from engine.words import counted


def war_prompt(state: SamuraiState) -> Prompt | None:
    """The prompt of the seat whose turn it is, or None once every seat has had its turn."""
    war = state.war
    assert war is not None
    if war.order_pos >= len(state.order):
        return None
    seat = state.order[war.order_pos]
    if war.sub == "C":
        return battle_step_prompt(state, war, seat)
    step = selection_prompt(state, war, seat)
    if step is not None:
        return step
    if war.sub == "A":
        return move_menu(state, seat)
    if war.sub == "B":
        return declare_menu(state, war, seat)
    return final_menu(state, war, seat)


MENU_KINDS = {"A": "war_move", "B": "war_declare", "D": "war_final"}


def war_kind(state: SamuraiState) -> str | None:
    """The kind of `war_prompt`'s prompt, read without building it (an answer needs only its
    kind): the same branches, on the same fields."""
    war = state.war
    assert war is not None
    if war.order_pos >= len(state.order):
        return None
    if war.sub == "C":
        if war.battle is not None:
            return "battle"
        return "war_order" if war.chain_army is None else "chain"
    return selection_kind(war) or MENU_KINDS[war.sub]


def selection_kind(war: War) -> str | None:
    """The kind of the step after a menu choice (`selection_prompt`), None without one."""
    sel, sub = war.sel, war.sub
    if "gather" in sel:
        return "gather"
    if sub == "D" and "to" in sel:
        return "garrison_move"
    if sub == "B" and "target" in sel:
        return "garrison_force"
    if sub in ("A", "D") and "army" in sel:
        return "move_to"
    if sub == "D" and "garrison" in sel:
        return "garrison_to"
    if sub == "B" and sel:
        return "declare_target"
    return None


# ---------------------------------------------------------------- phase C


def battle_step_prompt(state: SamuraiState, war: War, seat: int) -> Prompt:
    """A battle going on, else a chained attack, else the choice of the next battle."""
    if war.battle is not None:
        battle = war.battle
        attackers, defenders = battle_sides(state, battle)
        options = [opt("continue", "Fight another round", {"act": "continue"}),
                   opt("fight_on", "Fight to the end without asking again", {"act": "fight_on"}),
                   opt("calloff", "Call off the attack", {"act": "calloff"})]
        text = (f"Battle for {province_name(battle.target)} after round {battle.rounds}: "
                f"your {counted(side_size(attackers), 'unit')} against {side_size(defenders)}. Go on?")
        return Prompt(seat=seat, kind="battle", text=text, answer=Pick, options=options,
                      default=options[0].choice)
    if war.chain_army is not None:
        army = player_of(state, seat).armies[war.chain_army]
        assert army.location is not None
        options = [opt(f"attack:{target}", target_label(state, seat, army.location, target),
                       {"act": "attack", "target": target})
                   for target in attack_targets(state, seat, army.location)]
        stop = opt("stop", "Stop attacking with this army", {"act": "stop"})
        text = (f"Army {army.idx + 1} (level {army.level}) may attack again from "
                f"{province_name(army.location)} ({counted(army.level - army.attacks_used, 'attack')} left).")
        return Prompt(seat=seat, kind="chain", text=text, answer=Pick, options=(options[:MAX_OPTIONS - 1] + [stop]),
                      default=stop.choice)
    targets = sorted({declaration.target for declaration in war.declarations})
    options = [opt(f"battle:{target}", f"Resolve the battle for {province_name(target)}",
                   {"act": "battle", "target": target})
               for target in targets]
    return Prompt(seat=seat, kind="war_order", text="Choose the next battle to resolve.", answer=Pick,
                  options=options[:MAX_OPTIONS], default=options[0].choice)


# ---------------------------------------------------------------- a selection in phases A, B, D


def units_answer(state: SamuraiState, war: War, seat: int, kind: str) -> dict[str, int]:
    """The default of the units prompt `selection_prompt` gives for ``kind`` (gather,
    garrison_move or garrison_force), worked out without building it: the heuristic takes
    the default of all three."""
    if kind == "gather":
        return gather_answer(state, player_of(state, seat).armies[war.sel["gather"]])
    if kind == "garrison_move":
        source, destination = war.sel["garrison"], war.sel["to"]
        return force_answer(state, source, garrison_targets(state, seat, source)[destination])
    source = war.sel["source"]
    return force_answer(state, source, garrison_attackers(state, source))


def selection_prompt(state: SamuraiState, war: War, seat: int) -> Prompt | None:
    """The step after a menu choice (war.sel): where to, which target, which units go."""
    kind = selection_kind(war)
    if kind is None:
        return None
    cancel = opt("cancel", "Back", {"act": "cancel"})
    player = player_of(state, seat)
    if kind == "gather":
        return gather_prompt(state, seat, player.armies[war.sel["gather"]])
    if kind == "garrison_move":
        source, destination = war.sel["garrison"], war.sel["to"]
        return force_prompt(state, seat, source, garrison_targets(state, seat, source)[destination],
                            "garrison_move", f"Move garrison units from {province_name(source)} to "
                            f"{province_name(destination)}: which go?")
    if kind == "garrison_force":
        source, target = war.sel["source"], war.sel["target"]
        return force_prompt(state, seat, source, garrison_attackers(state, source), "garrison_force",
                            f"The garrison of {province_name(source)} attacks {province_name(target)}: "
                            "which units go?")
    if kind == "move_to":
        return move_to_prompt(state, war, seat, player.armies[war.sel["army"]], cancel)
    if kind == "garrison_to":
        source = war.sel["garrison"]
        candidates = [(pid, opt(f"to:{pid}", f"To {province_name(pid)} (up to {counted(count, 'unit')})"
                                + (" - claim" if state.provinces[pid].owner is None else ""),
                                {"act": "to", "province": pid}))
                      for pid, count in garrison_targets(state, seat, source).items()]
        options = paged(state, seat, candidates, [cancel])
        text = (f"Move units of the garrison of {province_name(source)} "
                "to an adjacent province you own or an unoccupied one:")
        return Prompt(seat=seat, kind="garrison_to", text=text, answer=Pick, options=options,
                      default=cancel.choice)
    source = war.sel["source"]
    candidates = [(target, opt(f"attack:{target}", target_label(state, seat, source, target),
                               {"act": "attack", "target": target}))
                  for target in attack_targets(state, seat, source)]
    options = paged(state, seat, candidates, [cancel])
    force = f"army {war.sel['army'] + 1}" if war.sel.get("army") is not None else "the garrison"
    return Prompt(seat=seat, kind="declare_target", text=f"Declare an attack by {force} from "
                  f"{province_name(source)}:", answer=Pick, options=options, default=cancel.choice)


def move_to_prompt(state: SamuraiState, war: War, seat: int, army: Army, cancel: Option) -> Prompt:
    """Where the selected army may move: its own provinces, and in phase D unoccupied ones."""
    destinations = army_moves(state, seat, army, claim=war.sub == "D")
    candidates = [(pid, opt(f"to:{pid}", f"{province_name(pid)} ({steps} step{'s' if steps > 1 else ''})"
                            + (" - claim" if state.provinces[pid].owner is None else ""),
                            {"act": "to", "province": pid})) for pid, steps in destinations.items()]
    options = paged(state, seat, candidates, [cancel])
    text = f"Move army {army.idx + 1} from {province_name(army_province(army))} ({counted(army.moves_left, 'move')} left) to:"
    return Prompt(seat=seat, kind="move_to", text=text, answer=Pick, options=options, default=cancel.choice)


# ---------------------------------------------------------------- the phase menus


def move_option(army: Army) -> Option:
    return opt(f"move:{army.idx}", f"Move army {army.idx + 1} ({province_name(army_province(army))}, "
               f"{counted(army.moves_left, 'move')})", {"act": "move", "army": army.idx})


def gather_option(state: SamuraiState, army: Army) -> Option:
    return opt(f"gather:{army.idx}", f"Army {army.idx + 1} takes garrison units in "
               f"{province_name(army_province(army))} (up to {gather_count(state, army)})",
               {"act": "gather", "army": army.idx})


def done_option() -> Option:
    return opt("done", "Done with this phase", {"act": "done"})


def move_menu(state: SamuraiState, seat: int) -> Prompt:
    done = done_option()
    extras: list[Option] = []
    for army in player_of(state, seat).armies:
        if has_army_move(state, seat, army, False):
            extras.append(move_option(army))
        if gather_count(state, army):
            extras.append(gather_option(state, army))
    extras += own_turn_option(state, seat)
    return Prompt(seat=seat, kind="war_move", text="Wage War A: move your armies through your own provinces.",
                  answer=Pick, options=extras + [done], default=done.choice)


def declare_menu(state: SamuraiState, war: War, seat: int) -> Prompt:
    done = done_option()
    extras: list[Option] = []
    garrisons = []
    for source, force, idx in declare_sources(state, seat):
        if force == "army" and idx is not None:
            extras.append(opt(f"army:{idx}", f"Attack with army {idx + 1} from {province_name(source)}",
                              {"act": "source", "province": source, "army": idx}))
        else:
            garrisons.append(source)

    def garrison_option(index: int) -> Option:
        source = garrisons[index]
        return opt(f"garrison:{source}",
                   f"Attack with the garrison of {province_name(source)} ({force_size_text(state, source)})",
                   {"act": "source", "province": source})

    declared = "; ".join(f"{province_name(declaration.source)}→{province_name(declaration.target)}"
                         for declaration in war.declarations)
    options = paged_lazily(state, seat, garrisons, garrison_option, extras + own_turn_option(state, seat) + [done])
    text = "Wage War B: declare attacks (one per army or garrison)." + (f" Declared: {declared}." if declared else "")
    return Prompt(seat=seat, kind="war_declare", text=text, answer=Pick, options=options, default=done.choice)


def final_menu(state: SamuraiState, war: War, seat: int) -> Prompt:
    done = done_option()
    extras: list[Option] = []
    for army in player_of(state, seat).armies:
        if not war.d_garrisons and has_army_move(state, seat, army, True):
            extras.append(move_option(army))
        if army.alive and gather_count(state, army):
            extras.append(gather_option(state, army))
    extras += own_turn_option(state, seat)
    sources = garrison_sources(state, seat)
    options = paged_lazily(state, seat, sources,
                           lambda index: opt(f"garrison:{sources[index]}",
                                             f"Move the garrison of {province_name(sources[index])}",
                                             {"act": "garrison", "province": sources[index]}), extras + [done])
    return Prompt(seat=seat, kind="war_final", text="Wage War D: move armies first, then garrisons one step; "
                  "you may claim unoccupied provinces.", answer=Pick, options=options, default=done.choice)
