"""The units a garrison sends when it attacks (Phase B/C) or moves (Phase D), ronin included.

Ronin hired into a garrison go with it: they cannot move or fight on their own, so a force
takes them along only beside its regular units, never as many ronin as regulars (the same
limit as when they were placed: the force becomes a province's garrison if it wins or moves
in). Ronin that stay behind stay hidden only until that province's forces attack, defend or
move: the province's ronin are revealed then, as when the hidden province card is turned.
"""

from __future__ import annotations

from engine.contract import Event, IllegalChoice
from engine.samurai.board import BEST_FIRST, emit, gsize, pname, who
from engine.samurai.casualties import NAMES
from engine.samurai.content import REGULAR
from engine.samurai.movement import garrison_movable
from engine.samurai.state import SamuraiState, no_units
from engine.samurai.victory import check_win


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
    force["ronin"] = ronin_escort(state.provinces[pid].ronin, gsize(force))
    return force


def check_force(state: SamuraiState, pid: str, wanted: dict[str, int], most: int) -> dict[str, int]:
    """The force a player named, if the garrison holds it: at least one regular unit, at most
    `most` of them (one must stay unless an army holds the province), ronin fewer than them."""
    prov = state.provinces[pid]
    force = {kind: wanted.get(kind, 0) for kind in (*REGULAR, "ronin")}
    for kind in REGULAR:
        if force[kind] > prov.garrison[kind]:
            raise IllegalChoice(f"the garrison of {pname(pid)} has only {prov.garrison[kind]} {NAMES[kind]}")
    regulars = gsize(force)
    if regulars < 1:
        raise IllegalChoice("send at least one regular unit: ronin cannot go on their own")
    if regulars > most:
        raise IllegalChoice(f"at most {most} units of the garrison of {pname(pid)} can go "
                            "(one must stay unless an army holds the province)")
    if force["ronin"] > prov.ronin:
        raise IllegalChoice(f"only {prov.ronin} ronin are in {pname(pid)}")
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
    taken["ronin"] = min(force.get("ronin", 0), prov.ronin, ronin_escort(prov.ronin, gsize(taken)))
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


def move_garrison(state: SamuraiState, events: list[Event], seat: int, src: str, dest: str,
                  force: dict[str, int]) -> None:
    """Phase D: a garrison force steps into an adjacent own or unoccupied province (claiming
    it), its ronin with it; each of the two provinces moves no more garrison this turn."""
    war = state.war
    assert war is not None
    moved = take_force(state, src, force)
    target = state.provinces[dest]
    claimed = target.owner is None
    target.owner = seat
    add_force(state, dest, moved)
    war.d_moved += [src, dest]
    war.d_garrisons = True
    war.sel = {}
    ronin = f" and {moved['ronin']} ronin" if moved["ronin"] else ""
    emit(state, events, f"{who(seat)} moves {gsize(moved)} units{ronin} from {pname(src)} to {pname(dest)}"
         + (", claiming it." if claimed else "."))
    check_win(state, events)
