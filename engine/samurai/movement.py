"""Where armies and garrisons may go: army paths through own land, gathering garrison units,
garrison steps in Phase D, and which provinces a force may attack."""

from __future__ import annotations

from collections import deque

from engine.contract import Event
from engine.samurai.board import (
    BEST_FIRST,
    CHEAP_FIRST,
    SAMURAI,
    army_at,
    army_regulars,
    army_room,
    emit,
    gsize,
    owned,
    player,
    pname,
    vacate_if_empty,
    who,
)
from engine.samurai.content import content
from engine.samurai.state import Army, SamuraiState, no_units
from engine.text import seat_ref


def army_moves(st: SamuraiState, seat: int, a: Army, claim: bool) -> dict[str, int]:
    """Destinations within the army's moves, through friendly provinces only; with `claim`
    (phase D) also unoccupied provinces at the end of the path. Value = distance."""
    if not a.alive or a.assassinated or a.location is None or a.moves_left <= 0:
        return {}
    if gsize(st.provinces[a.location].garrison) == 0 and army_regulars(a) == 0:
        return {}
    adj = content().adj
    dist = {a.location: 0}
    queue = deque([a.location])
    out: dict[str, int] = {}
    while queue:
        cur = queue.popleft()
        if dist[cur] >= a.moves_left:
            continue
        for nxt in adj[cur]:
            if nxt in dist:
                continue
            prov = st.provinces[nxt]
            if prov.owner == seat:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
                if army_at(st, nxt) is None:
                    out[nxt] = dist[nxt]
            elif claim and prov.owner is None and not prov.neutral and nxt not in out:
                out[nxt] = dist[cur] + 1
    return out


def leave_garrison(st: SamuraiState, a: Army) -> None:
    """An army leaving a province never leaves it empty: its cheapest unit stays behind."""
    src = st.provinces[a.location]
    if gsize(src.garrison) > 0:
        return
    for k in CHEAP_FIRST:
        if a.units[k] > 0:
            a.units[k] -= 1
            src.garrison[k] += 1
            return


def move_army(st: SamuraiState, seat: int, a: Army, dest: str, dist: int, ev: list[Event]) -> None:
    src = a.location
    assert src is not None
    leave_garrison(st, a)
    a.location = dest
    a.moves_left -= dist
    if a.ronin:
        a.ronin_revealed = True
    vacate_if_empty(st, src)
    claimed = st.provinces[dest].owner is None
    if claimed:
        st.provinces[dest].owner = seat
    text = f"{who(seat)} moves army {a.idx + 1} from {pname(src)} to {pname(dest)}"
    if a.ronin:
        text += f" (with {a.ronin} ronin)"
    emit(st, ev, text + (", claiming it." if claimed else "."))


def gather_count(st: SamuraiState, a: Army) -> int:
    if a.location is None or not a.alive:
        return 0
    return gsize(gather_default(st, a))


def gather_default(st: SamuraiState, a: Army) -> dict[str, int]:
    """Every garrison unit the army card has room for, the strongest first."""
    g = st.provinces[a.location].garrison
    room = {"samurai": army_room(a, "bowman"), "ashigaru": army_room(a, "spearman")}
    take = no_units()
    for k in BEST_FIRST:
        slot = "samurai" if k in SAMURAI else "ashigaru"
        take[k] = min(g[k], room[slot])
        room[slot] -= take[k]
    return take


def gather(st: SamuraiState, seat: int, a: Army, ev: list[Event], units: dict[str, int] | None = None) -> None:
    """Garrison units join the army standing in their province (the default: all that fit)."""
    g = st.provinces[a.location].garrison
    moved = gather_default(st, a) if units is None else units
    for k in BEST_FIRST:
        g[k] -= moved[k]
        a.units[k] += moved[k]
    emit(st, ev, f"{who(seat)}'s army {a.idx + 1} takes {gsize(moved)} garrison units in {pname(a.location)}.")


def garrison_movable(st: SamuraiState, pid: str) -> int:
    g = gsize(st.provinces[pid].garrison)
    return g if army_at(st, pid) else g - 1


def garrison_targets(st: SamuraiState, seat: int, pid: str) -> dict[str, int]:
    lim = content().units.limits.garrison
    movable = garrison_movable(st, pid)
    out = {}
    for nxt in content().adj[pid]:
        prov = st.provinces[nxt]
        if prov.owner == seat:
            room = lim - gsize(prov.garrison)
        elif prov.owner is None and not prov.neutral:
            room = lim
        else:
            continue
        n = min(room, movable)
        if n > 0:
            out[nxt] = n
    return out


def attack_targets(st: SamuraiState, seat: int, pid: str) -> list[str]:
    out = []
    for nxt in content().adj[pid]:
        prov = st.provinces[nxt]
        if prov.owner == seat:
            continue
        if st.round == 1 and army_at(st, nxt) is not None:
            continue
        out.append(nxt)
    return out


def garrison_attackers(st: SamuraiState, pid: str) -> int:
    return garrison_movable(st, pid)


def declare_sources(st: SamuraiState, seat: int) -> list[tuple[str, str, int | None]]:
    w = st.war
    assert w is not None
    if len(w.declarations) >= BATTLE_MARKERS:
        return []
    done = {(d.source, d.force) for d in w.declarations}
    out = []
    for a in player(st, seat).armies:
        if (a.alive and not a.assassinated and a.location and (a.location, "army") not in done
                and a.attacks_used < a.level and attack_targets(st, seat, a.location)):
            out.append((a.location, "army", a.idx))
    for pid in owned(st, seat):
        if ((pid, "garrison") not in done and garrison_attackers(st, pid) > 0
                and attack_targets(st, seat, pid)):
            out.append((pid, "garrison", None))
    return out


def target_label(st: SamuraiState, seat: int, src: str, tgt: str) -> str:
    prov = st.provinces[tgt]
    bits = []
    if prov.neutral:
        bits.append("neutral ronin")
    elif prov.owner is None:
        bits.append("unoccupied")
    else:
        bits.append(f"{seat_ref(prov.owner)}, {gsize(prov.garrison)} in garrison")
        if army_at(st, tgt):
            bits.append("army")
    if prov.fort:
        bits.append("fortress" if prov.fort == 2 else "castle")
    if content().is_sea(src, tgt):
        bits.append("naval")
    return f"Attack {pname(tgt)} ({', '.join(bits)})"


def garrison_sources(st: SamuraiState, seat: int) -> list[str]:
    w = st.war
    assert w is not None
    return [pid for pid in owned(st, seat) if pid not in w.d_moved and garrison_movable(st, pid) > 0
            and garrison_targets(st, seat, pid)]


BATTLE_MARKERS = 12
"""Battle markers in the box: at most this many attacks declared in one Phase B."""
