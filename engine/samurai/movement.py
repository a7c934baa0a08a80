"""Where armies and garrisons may go: army paths through own land, gathering garrison units,
garrison steps in Phase D, and which provinces a force may attack."""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Iterator

from engine.contract import Event
from engine.kit.events import emit
from engine.samurai.board import (
    BEST_FIRST,
    CHEAP_FIRST,
    SAMURAI,
    army_at,
    army_province,
    army_regulars,
    army_room,
    garrison_size,
    owned,
    player_of,
    province_name,
    vacate_if_empty,
    who,
)
from engine.samurai.content import content
from engine.samurai.state import Army, SamuraiState, army_index, no_units
from engine.text import seat_ref
from engine.words import counted


def army_moves(state: SamuraiState, seat: int, army: Army, claim: bool) -> dict[str, int]:
    """Destinations within the army's moves, through friendly provinces only; with `claim`
    (phase D) also unoccupied provinces at the end of the path. Value = distance."""
    return dict(_army_walk(state, seat, army, claim))


def has_army_move(state: SamuraiState, seat: int, army: Army, claim: bool) -> bool:
    """Whether `army_moves` has a destination, found without listing the rest."""
    return next(_army_walk(state, seat, army, claim), None) is not None


def _army_walk(state: SamuraiState, seat: int, army: Army, claim: bool) -> Iterator[tuple[str, int]]:
    """`army_moves`' destinations and their distances, each once, as a breadth-first walk
    from the army finds them (a caller asking whether there is one stops at the first)."""
    location = army.location
    if not army.alive or army.assassinated or location is None or army.moves_left <= 0:
        return
    provinces = state.provinces
    if garrison_size(provinces[location].garrison) == 0 and army_regulars(army) == 0:
        return
    adj = content().adj
    moves = army.moves_left
    dist = {location: 0}
    queue = deque([location])
    claimed: set[str] = set()
    armies = army_spots(state)  # where `army_at` finds an army, in one pass
    while queue:
        current = queue.popleft()
        here = dist[current]
        if here >= moves:
            continue
        for neighbour in adj[current]:
            if neighbour in dist:
                continue
            prov = provinces[neighbour]
            if prov.owner == seat:
                dist[neighbour] = here + 1
                queue.append(neighbour)
                if neighbour not in armies:
                    yield neighbour, here + 1
            elif claim and prov.owner is None and not prov.neutral and neighbour not in claimed:
                claimed.add(neighbour)
                yield neighbour, here + 1


def leave_garrison(state: SamuraiState, army: Army) -> None:
    """An army leaving a province never leaves it empty: its cheapest unit stays behind."""
    source = state.provinces[army_province(army)]
    if garrison_size(source.garrison) > 0:
        return
    for kind in CHEAP_FIRST:
        if army.units[kind] > 0:
            army.units[kind] -= 1
            source.garrison[kind] += 1
            return


def move_army(state: SamuraiState, seat: int, army: Army, dest: str, dist: int, events: list[Event]) -> None:
    source = army.location
    assert source is not None
    leave_garrison(state, army)
    army.location = dest
    army.moves_left -= dist
    if army.ronin:
        army.ronin_revealed = True
    vacate_if_empty(state, source)
    claimed = state.provinces[dest].owner is None
    if claimed:
        state.provinces[dest].owner = seat
    text = f"{who(seat)} moves army {army.idx + 1} from {province_name(source)} to {province_name(dest)}"
    if army.ronin:
        text += f" (with {army.ronin} ronin)"
    emit(state, "log", events, "info", text + (", claiming it." if claimed else "."))


def gather_count(state: SamuraiState, army: Army) -> int:
    """How many units `gather_default` takes, counted as it takes them (whether an army can
    gather is asked of every army after every move)."""
    location = army.location
    if location is None or not army.alive:
        return 0
    garrison = state.provinces[location].garrison
    units = army.units
    limits = content().units.limits
    samurai = limits.army_samurai - (units["bowman"] + units["swordsman"])
    ashigaru = limits.army_ashigaru - (units["spearman"] + units["gunner"])
    count = 0
    for kind in BEST_FIRST:
        if kind in SAMURAI:
            take = min(garrison[kind], samurai)
            samurai -= take
        else:
            take = min(garrison[kind], ashigaru)
            ashigaru -= take
        count += take
    return count


def gather_default(state: SamuraiState, army: Army) -> dict[str, int]:
    """Every garrison unit the army card has room for, the strongest first."""
    garrison = state.provinces[army_province(army)].garrison
    room = {"samurai": army_room(army, "bowman"), "ashigaru": army_room(army, "spearman")}
    take = no_units()
    for kind in BEST_FIRST:
        slot = "samurai" if kind in SAMURAI else "ashigaru"
        take[kind] = min(garrison[kind], room[slot])
        room[slot] -= take[kind]
    return take


def gather(state: SamuraiState, seat: int, army: Army, events: list[Event],
           units: dict[str, int] | None = None) -> None:
    """Garrison units join the army standing in their province (the default: all that fit)."""
    garrison = state.provinces[army_province(army)].garrison
    moved = gather_default(state, army) if units is None else units
    for kind in BEST_FIRST:
        garrison[kind] -= moved[kind]
        army.units[kind] += moved[kind]
    emit(state, "log", events, "info",
         f"{who(seat)}'s army {army.idx + 1} takes {counted(garrison_size(moved), 'garrison unit')} in {province_name(army_province(army))}.")


def army_spots(state: SamuraiState) -> Container[str]:
    """The provinces a living army stands in (the army index's), for a caller that asks
    `army_at` of many provinces."""
    return army_index(state)


def garrison_movable(state: SamuraiState, pid: str, spots: Container[str] | None = None) -> int:
    """Garrison units that may leave ``pid``: all with an army there, else all but one
    (``spots``: `army_spots`, when the caller has it)."""
    get = state.provinces[pid].garrison.get  # garrison_size, spelled out: asked of every province a menu lists
    size = get("spearman", 0) + get("gunner", 0) + get("swordsman", 0) + get("bowman", 0)
    guarded = pid in spots if spots is not None else army_at(state, pid) is not None
    return size if guarded else size - 1


def garrison_targets(state: SamuraiState, seat: int, pid: str, spots: Container[str] | None = None) -> dict[str, int]:
    limits = content().units.limits.garrison
    movable = garrison_movable(state, pid, spots)
    out = {}
    for neighbour in content().adj[pid]:
        prov = state.provinces[neighbour]
        if prov.owner == seat:
            room = limits - garrison_size(prov.garrison)
        elif prov.owner is None and not prov.neutral:
            room = limits
        else:
            continue
        count = min(room, movable)
        if count > 0:
            out[neighbour] = count
    return out


def attack_targets(state: SamuraiState, seat: int, pid: str, spots: Container[str] | None = None) -> list[str]:
    """The neighbours of ``pid`` not ``seat``'s own (in round 1 nor any with an army in it).
    Asked of every source of every war menu and heuristic decision."""
    provinces = state.provinces
    targets = [neighbour for neighbour in content().adj[pid] if provinces[neighbour].owner != seat]
    if state.round != 1:
        return targets
    if spots is None:
        spots = army_spots(state)
    return [neighbour for neighbour in targets if neighbour not in spots]


def garrison_attackers(state: SamuraiState, pid: str) -> int:
    return garrison_movable(state, pid)


def declare_sources(state: SamuraiState, seat: int) -> list[tuple[str, str, int | None]]:
    """Every army and garrison of ``seat`` that may still declare an attack: (province,
    force, army index)."""
    return list(_declare_sources(state, seat))


def any_declare_source(state: SamuraiState, seat: int) -> bool:
    """Whether `declare_sources` has one, found without listing the rest."""
    return next(_declare_sources(state, seat), None) is not None


def is_declare_source(state: SamuraiState, seat: int, pid: str, army_idx: int | None) -> bool:
    """Whether (``pid``, its force, ``army_idx``) is one of `declare_sources` (an army when
    ``army_idx`` is given, else the garrison), worked out for that one source alone."""
    war = state.war
    assert war is not None
    if len(war.declarations) >= BATTLE_MARKERS:
        return False
    force = "army" if army_idx is not None else "garrison"
    if any(declaration.source == pid and declaration.force == force for declaration in war.declarations):
        return False
    spots = army_spots(state)
    if army_idx is not None:
        return any(army.idx == army_idx and army.location == pid and army.alive and not army.assassinated
                   and army.attacks_used < army.level and bool(attack_targets(state, seat, pid, spots))
                   for army in player_of(state, seat).armies)
    return (state.provinces[pid].owner == seat and garrison_movable(state, pid, spots) > 0
            and bool(attack_targets(state, seat, pid, spots)))


def _declare_sources(state: SamuraiState, seat: int) -> Iterator[tuple[str, str, int | None]]:
    war = state.war
    assert war is not None
    if len(war.declarations) >= BATTLE_MARKERS:
        return
    done = {(declaration.source, declaration.force) for declaration in war.declarations}
    spots = army_spots(state)
    for army in player_of(state, seat).armies:
        if (army.alive and not army.assassinated and army.location and (army.location, "army") not in done
                and army.attacks_used < army.level and attack_targets(state, seat, army.location, spots)):
            yield army.location, "army", army.idx
    for pid in owned(state, seat):
        if ((pid, "garrison") not in done and garrison_movable(state, pid, spots) > 0
                and attack_targets(state, seat, pid, spots)):
            yield pid, "garrison", None


def target_label(state: SamuraiState, seat: int, source: str, target: str) -> str:
    prov = state.provinces[target]
    bits = []
    if prov.neutral:
        bits.append("neutral ronin")
    elif prov.owner is None:
        bits.append("unoccupied")
    else:
        bits.append(f"{seat_ref(prov.owner)}, {garrison_size(prov.garrison)} in garrison")
        if army_at(state, target):
            bits.append("army")
    if prov.fort:
        bits.append("fortress" if prov.fort == 2 else "castle")
    if content().is_sea(source, target):
        bits.append("naval")
    return f"Attack {province_name(target)} ({', '.join(bits)})"


def garrison_sources(state: SamuraiState, seat: int) -> list[str]:
    war = state.war
    assert war is not None
    spots = army_spots(state)
    return [pid for pid in owned(state, seat) if pid not in war.d_moved and garrison_movable(state, pid, spots) > 0
            and garrison_targets(state, seat, pid, spots)]


def any_garrison_source(state: SamuraiState, seat: int) -> bool:
    """Whether `garrison_sources` has one, found without listing the rest."""
    war = state.war
    assert war is not None
    spots = army_spots(state)
    return any(pid not in war.d_moved and garrison_movable(state, pid, spots) > 0
               and garrison_targets(state, seat, pid, spots) for pid in owned(state, seat))


def is_garrison_source(state: SamuraiState, seat: int, pid: str) -> bool:
    """Whether ``pid`` is one of `garrison_sources`, worked out for that province alone."""
    war = state.war
    assert war is not None
    spots = army_spots(state)
    return (state.provinces[pid].owner == seat and pid not in war.d_moved and garrison_movable(state, pid, spots) > 0
            and bool(garrison_targets(state, seat, pid, spots)))


BATTLE_MARKERS = 12
"""Battle markers in the box: at most this many attacks declared in one Phase B."""
