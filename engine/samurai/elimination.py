"""Armies lost and houses eliminated: what the eliminator takes (base/QS: everything; LWTV:
only fortified land) and the armies he may raise anew."""

from __future__ import annotations

from engine.contract import Event, IllegalChoice, Prompt
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai.answers import Pick
from engine.samurai.board import (
    check_province,
    deploy_targets,
    paged,
    player_of,
    province_name,
    region_hint,
    vacate_if_empty,
    who,
)
from engine.samurai.content import REGULAR
from engine.samurai.state import Army, Interrupt, SamuraiState, no_units
from engine.samurai.victory import check_win


def destroy_army(state: SamuraiState, events: list[Event], seat: int, army: Army, by: int | None) -> None:
    player = player_of(state, seat)
    where = army.location
    for kind in REGULAR:
        player.tray[kind] += army.units[kind]
    state.ronin_pool += army.ronin
    army.alive = False
    army.location = None
    army.units = no_units()
    army.ronin = 0
    army.assassinated = False
    emit(state, "log", events, "army_destroyed",
         f"{who(seat)}'s army {army.idx + 1} is destroyed" + (f" in {province_name(where)}." if where else "."))
    if by is not None and by != seat:
        player_of(state, by).armies_destroyed += 1
    if where:
        vacate_if_empty(state, where)
    if not any(other.alive for other in player.armies):
        eliminate(state, events, seat, by)


def eliminate(state: SamuraiState, events: list[Event], victim: int, by: int | None) -> None:
    """A player whose last army falls is out. Base/QS: the eliminator takes everything and
    rebuilds his lost armies; LWTV: the victim's units leave, fortified provinces go to the
    eliminator, one lost army is rebuilt, and the end of the game is triggered."""
    player = player_of(state, victim)
    player.eliminated = True
    player.draft = {}
    emit(state, "log", events, "eliminated",
         f"{who(victim)} has lost the last army and is eliminated"
         + (f" by {who(by)}." if by is not None else "."))
    if state.ninja == victim:
        state.ninja = None
    state.interrupts = [interrupt for interrupt in state.interrupts if interrupt.seat != victim]
    lwtv = state.options.mode == "lwtv"
    for prov in state.provinces.values():
        if prov.owner != victim:
            continue
        if by is not None and not lwtv:
            prov.owner = by
            continue
        state.ronin_pool += prov.ronin
        prov.ronin = 0
        prov.garrison = no_units()
        prov.owner = None
        if by is not None and prov.fort and player_of(state, by).tray["spearman"] > 0:
            prov.owner = by
            prov.garrison["spearman"] = 1
            player_of(state, by).tray["spearman"] -= 1
    if by is not None and not player_of(state, by).eliminated:
        lost = sum(1 for army in player_of(state, by).armies if not army.alive)
        count = min(lost, 1) if lwtv else lost
        for _ in range(count):
            state.interrupts.append(Interrupt(seat=by, kind="rebuild"))
    if lwtv and state.end_round is None:
        state.end_round = state.round + 1
        emit(state, "log", events, "info",
             f"The first daimyo house has fallen: the game ends after round {state.end_round}.")
    check_win(state, events)


def rebuild_prompt(state: SamuraiState, seat: int) -> Prompt:
    """Spoils of war: the eliminator may raise one lost army (asked once per army he may raise)."""
    candidates = [(pid, opt(f"rebuild:{pid}", province_name(pid), {"act": "rebuild", "province": pid}))
                  for pid in deploy_targets(state, seat)]
    decline = opt("decline", "Do not raise this army", {"act": "decline"})
    options = paged(state, seat, candidates, [decline])
    return Prompt(seat=seat, kind="rebuild", text="Spoils of war: you may place a new daimyo (level 1) to raise a "
                  "lost army in a province you own without an army." + region_hint(state, seat, options), answer=Pick, options=options,
                  default=candidates[0][1].choice if candidates else decline.choice)


def rebuild(state: SamuraiState, events: list[Event], seat: int, answer: Pick) -> None:
    """Raise the first lost army in the chosen province, or let it go ("may", not "must")."""
    if answer.act == "decline":
        state.interrupts.pop(0)
        emit(state, "log", events, "info", f"{who(seat)} does not raise a lost army.")
        return
    pid = check_province(answer.province) if answer.act == "rebuild" else None
    if pid is None or pid not in deploy_targets(state, seat):
        raise IllegalChoice("choose a province you own without an army, or do not raise the army")
    state.interrupts.pop(0)
    army = next(lost for lost in player_of(state, seat).armies if not lost.alive)
    army.alive = True
    army.level = 1
    army.units = no_units()
    army.location = pid
    army.assassinated = False
    army.moves_left = 1
    army.attacks_used = 1
    emit(state, "log", events, "info",
         f"{who(seat)} raises army {army.idx + 1} anew in {province_name(pid)}.")
