"""The ninja's assassinations and the target's counter-strike."""

from __future__ import annotations

from engine.contract import Event
from engine.samurai.board import active, army_regulars, player
from engine.samurai.elimination import destroy_army
from engine.samurai.state import Army, SamuraiState

ASSASSIN_HIT = 8


COUNTER_HIT = 9


def ninja_targets(st: SamuraiState, holder: int) -> list[tuple[int, Army]]:
    return [(s, a) for s in active(st) if s != holder for a in player(st, s).armies
            if a.alive and not a.assassinated and a.location]


def ninja_usable(st: SamuraiState) -> bool:
    h = st.ninja
    return h is not None and not player(st, h).eliminated and bool(ninja_targets(st, h))


def assassinate(st: SamuraiState, ev: list[Event], seat: int, a: Army, by: int) -> None:
    """The army lies on its side: no moving, no attacking; its daimyo does not fight. A
    declared attack of that army is cancelled; an army with no other unit is removed."""
    a.assassinated = True
    w = st.war
    if w is not None:
        w.declarations = [d for d in w.declarations if not (d.force == "army" and d.army == a.idx
                                                            and st.order[w.order_pos] == seat)]
        if w.chain_army == a.idx and st.order[w.order_pos] == seat:
            w.chain_army = None
        if w.sel.get("army") == a.idx and st.order[w.order_pos] == seat:
            w.sel = {}
    if army_regulars(a) == 0 and a.ronin == 0:
        destroy_army(st, ev, seat, a, by)
