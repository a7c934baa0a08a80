"""The units that leave a garrison: a force that attacks (Phase B/C) or moves (Phase D),
ronin included, or units joining the army in the province; the player may name them.

Ronin hired into a garrison go with it: they cannot move or fight on their own, so a force
takes them along only beside its regular units, never as many ronin as regulars (the same
limit as when they were placed: the force becomes a province's garrison if it wins or moves
in). Ronin that stay behind stay hidden only until that province's forces attack, defend or
move: the province's ronin are revealed then, as when the hidden province card is turned.
"""

from __future__ import annotations

from engine.contract import Event, IllegalChoice, NumberField, Prompt
from engine.kit.events import emit
from engine.samurai.answers import UnitCounts
from engine.samurai.board import (
    ASHIGARU,
    BEST_FIRST,
    SAMURAI,
    army_room,
    garrison_size,
    player_of,
    province_name,
    who,
)
from engine.samurai.casualties import NAMES
from engine.samurai.content import REGULAR
from engine.samurai.movement import garrison_movable, garrison_targets, gather, gather_default
from engine.samurai.state import Army, Declaration, SamuraiState, no_units
from engine.samurai.victory import check_win
from engine.words import counted


def ronin_escort(available: int, regulars: int) -> int:
    """How many of `available` ronin may go with `regulars` regular units."""
    return max(0, min(available, regulars - 1))


def default_force(state: SamuraiState, pid: str, most: int | None = None) -> dict[str, int]:
    """The force the project sends unless told otherwise: the strongest units that may leave
    (at most `most` of them), with as many of the garrison's ronin as may go along."""
    garrison = state.provinces[pid].garrison
    left = garrison_movable(state, pid) if most is None else min(most, garrison_movable(state, pid))
    force = no_units()
    for kind in BEST_FIRST:
        take = min(garrison[kind], left)
        force[kind] = take
        left -= take
    force["ronin"] = ronin_escort(state.provinces[pid].ronin, garrison_size(force))
    return force


def check_force(state: SamuraiState, pid: str, wanted: dict[str, int], most: int) -> dict[str, int]:
    """The force a player named, if the garrison holds it: at least one regular unit, at most
    `most` of them (one must stay unless an army holds the province), ronin fewer than them."""
    prov = state.provinces[pid]
    force = {kind: wanted.get(kind, 0) for kind in (*REGULAR, "ronin")}
    for kind in REGULAR:
        if force[kind] > prov.garrison[kind]:
            raise IllegalChoice(f"the garrison of {province_name(pid)} has only {prov.garrison[kind]} {NAMES[kind]}")
    regulars = garrison_size(force)
    if regulars < 1:
        raise IllegalChoice("send at least one regular unit: ronin cannot go on their own")
    if regulars > most:
        raise IllegalChoice(f"at most {counted(most, 'unit')} of the garrison of {province_name(pid)} can go "
                            "(one must stay unless an army holds the province)")
    if force["ronin"] > prov.ronin:
        raise IllegalChoice(f"only {prov.ronin} ronin are in {province_name(pid)}")
    if force["ronin"] > ronin_escort(prov.ronin, regulars):
        raise IllegalChoice(f"{regulars} regular units can take at most {max(0, regulars - 1)} ronin along "
                            "(never as many ronin as regulars)")
    return force


def take_force(state: SamuraiState, pid: str, force: dict[str, int]) -> dict[str, int]:
    """Take the force out of its province (clamped to what is still there) and reveal the
    province's ronin if any of them go."""
    prov = state.provinces[pid]
    taken = no_units()
    for kind in REGULAR:
        taken[kind] = min(force.get(kind, 0), prov.garrison[kind])
        prov.garrison[kind] -= taken[kind]
    taken["ronin"] = min(force.get("ronin", 0), prov.ronin, ronin_escort(prov.ronin, garrison_size(taken)))
    prov.ronin -= taken["ronin"]
    if taken["ronin"]:
        prov.ronin_revealed = True
    return taken


def add_force(state: SamuraiState, pid: str, force: dict[str, int]) -> None:
    """Put a force into a province's garrison; ronin arriving there are in plain sight."""
    prov = state.provinces[pid]
    for kind in REGULAR:
        prov.garrison[kind] += force.get(kind, 0)
    if force.get("ronin", 0):
        prov.ronin += force["ronin"]
        prov.ronin_revealed = True


def move_garrison(state: SamuraiState, events: list[Event], seat: int, source: str, dest: str,
                  force: dict[str, int]) -> None:
    """Phase D: a garrison force steps into an adjacent own or unoccupied province (claiming
    it), its ronin with it; each of the two provinces moves no more garrison this turn."""
    war = state.war
    assert war is not None
    moved = take_force(state, source, force)
    target = state.provinces[dest]
    claimed = target.owner is None
    target.owner = seat
    add_force(state, dest, moved)
    war.d_moved += [source, dest]
    war.d_garrisons = True
    war.sel = {}
    ronin = f" and {moved['ronin']} ronin" if moved["ronin"] else ""
    emit(state, "log", events, "info",
         f"{who(seat)} moves {counted(garrison_size(moved), 'unit')}{ronin} from {province_name(source)} to {province_name(dest)}"
         + (", claiming it." if claimed else "."))
    check_win(state, events)


def _up_to(name: str, here: int, most: int) -> str:
    """A force field's label: how many of a kind may go, and how many are there when fewer may."""
    return f"{name} (up to {most} of the {here} here)" if most < here else f"{name} (up to {here})"


def force_size_text(state: SamuraiState, pid: str) -> str:
    """What a garrison may send to attack, as its declaration option says it: regular units and
    the ronin who may go along (the same limits the force prompt then asks within)."""
    most = garrison_movable(state, pid)
    escort = ronin_escort(state.provinces[pid].ronin, most)
    return f"up to {counted(most, 'unit')}" + (f" and {escort} ronin" if escort else "")


def force_has_choice(state: SamuraiState, pid: str, most: int) -> bool:
    """Whether the player has more than one force to pick from (else it goes without asking)."""
    kinds = sum(1 for kind in REGULAR if state.provinces[pid].garrison[kind])
    return most >= 2 or (most == 1 and kinds >= 2)


def _force_kinds(state: SamuraiState, pid: str, most: int) -> list[str]:
    """The kinds `force_prompt` asks about: each the garrison holds, and its ronin when at
    least two units may go (ronin go only beside more regulars)."""
    prov = state.provinces[pid]
    kinds = [unit for unit in BEST_FIRST if prov.garrison[unit]]
    if prov.ronin and most >= 2:
        kinds.append("ronin")
    return kinds


def force_answer(state: SamuraiState, pid: str, most: int) -> dict[str, int]:
    """`force_prompt`'s default (`default_force` of the kinds it asks about), worked out
    without building the prompt (the heuristic takes it as it is)."""
    default = default_force(state, pid, most)
    return {kind: default[kind] for kind in _force_kinds(state, pid, most)}


def force_prompt(state: SamuraiState, seat: int, pid: str, most: int, kind: str, text: str) -> Prompt:
    """Which units go: a number per kind the garrison holds, and its ronin (0 everywhere = back)."""
    prov = state.provinces[pid]
    fields = [NumberField(name=unit, label=_up_to(NAMES[unit].capitalize(), prov.garrison[unit], most),
                          max=min(prov.garrison[unit], most)) if unit != "ronin"
              else NumberField(name="ronin", label=_up_to("Ronin", prov.ronin, most - 1), max=min(prov.ronin, most - 1))
              for unit in _force_kinds(state, pid, most)]
    return Prompt(seat=seat, kind=kind, text=text + f" At most {counted(most, 'unit')}, and fewer ronin than regular "
                  "units; all 0 = back.", answer=UnitCounts,
                  input="numbers", fields=fields, default=force_answer(state, pid, most))


def _gather_kinds(state: SamuraiState, army: Army) -> list[str]:
    """The kinds `gather_prompt` asks about: each the garrison holds and the card has room for."""
    assert army.location is not None
    garrison = state.provinces[army.location].garrison
    return [unit for unit in BEST_FIRST if garrison[unit] and army_room(army, unit)]


def gather_answer(state: SamuraiState, army: Army) -> dict[str, int]:
    """`gather_prompt`'s default (`gather_default` of the kinds it asks about), worked out
    without building the prompt (the heuristic takes it as it is)."""
    default = gather_default(state, army)
    return {kind: default[kind] for kind in _gather_kinds(state, army)}


def gather_prompt(state: SamuraiState, seat: int, army: Army) -> Prompt:
    """Which garrison units join the army (room on the card: 4 samurai, 10 ashigaru)."""
    assert army.location is not None
    garrison = state.provinces[army.location].garrison
    fields = [NumberField(name=unit, label=_up_to(NAMES[unit].capitalize(), garrison[unit], army_room(army, unit)),
                          max=min(garrison[unit], army_room(army, unit)))
              for unit in _gather_kinds(state, army)]
    return Prompt(seat=seat, kind="gather", text=f"Army {army.idx + 1} takes garrison units in "
                  f"{province_name(army.location)}: how many of each? All 0 = back.", answer=UnitCounts, input="numbers",
                  fields=fields, default=gather_answer(state, army))


def check_gather(state: SamuraiState, army: Army, answer: UnitCounts) -> dict[str, int]:
    """The units named, if the garrison holds them and the army card has room."""
    assert army.location is not None
    garrison = state.provinces[army.location].garrison
    wanted = answer.model_dump()
    if wanted.pop("ronin"):
        raise IllegalChoice("ronin stay with the garrison; only regular units join the army card")
    for kind, count in wanted.items():
        if count > garrison[kind]:
            raise IllegalChoice(f"the garrison of {province_name(army.location)} has only {garrison[kind]} {NAMES[kind]}")
    for slot, kinds, room in (("samurai", SAMURAI, army_room(army, "bowman")),
                              ("ashigaru", ASHIGARU, army_room(army, "spearman"))):
        if sum(wanted[kind] for kind in kinds) > room:
            raise IllegalChoice(f"army {army.idx + 1}'s card has room for only {room} more {slot}")
    return {**no_units(), **wanted}


def choose_units(state: SamuraiState, events: list[Event], seat: int, kind: str, answer: UnitCounts) -> None:
    """The named units of a garrison force (attack or Phase D move) or of a gathering; all 0
    goes back one step."""
    war = state.war
    assert war is not None
    wanted = answer.model_dump()
    back = not any(wanted.values())
    if kind == "gather":
        army = player_of(state, seat).armies[war.sel["gather"]]
        if not back:
            gather(state, seat, army, events, check_gather(state, army, answer))
        war.sel = {}
        return
    if kind == "garrison_force":
        source, target = war.sel["source"], war.sel["target"]
        if back:
            war.sel.pop("target")
            return
        force = check_force(state, source, wanted, garrison_movable(state, source))
        war.declarations.append(Declaration(source=source, force="garrison", target=target, units=force))
        war.sel = {}
        return
    source, dest = war.sel["garrison"], war.sel["to"]
    if back:
        war.sel.pop("to")
        return
    most = garrison_targets(state, seat, source).get(dest, 0)
    move_garrison(state, events, seat, source, dest, check_force(state, source, wanted, most))
