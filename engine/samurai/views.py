"""Public and per-seat views (shape documented in docs/design/samurai-view.md).

The public view is built only from public facts: the board, garrisons, army markers (never
their composition), revealed ronin, plans after they are revealed. The seat view adds what
is behind that seat's screen.
"""

from __future__ import annotations

from typing import Any

from engine.samurai import rules, victory
from engine.samurai.content import REGULAR, content
from engine.samurai.state import SamuraiState

PHASE_LABELS = {
    "setup": "Setup: spearmen and claims", "screens": "Setup: army screens", "deploy": "Setup: deploy armies",
    "claims": "Setup: claims", "placement": "Setup: spearmen and armies",
    "muster": "Actions 3-6 - Build, levy units, hire ronin",
    "plan": "Action 1 - Plan", "spy": "Action 1 - Plan (ninja spies)", "spy_revise": "Action 1 - Plan (ninja spies)",
    "swords": "Action 2 - Turn order", "build": "Action 3 - Build", "levy": "Action 4 - Levy units",
    "place": "Action 4 - Place levied units", "ronin": "Action 5 - Hire ronin", "war": "Action 7 - Wage War",
    "over": "Game over",
}
FORT = {0: None, 1: "castle", 2: "fortress"}


def static_map() -> dict[str, Any]:
    c = content()
    borders = sorted({tuple(sorted((p.id, o))) for p in c.map.provinces for o in p.land})
    lanes = sorted({tuple(sorted((p.id, o))) for p in c.map.provinces for o in p.sea})
    return {"borders": [list(b) for b in borders], "sea_lanes": [list(s) for s in lanes]}


def waiting(st: SamuraiState) -> list[int]:
    return sorted({p.seat for p in rules.prompts(st) if not p.answered})


def public_view(st: SamuraiState) -> dict[str, Any]:
    c = content()
    prompts = rules.prompts(st)
    answered = {p.seat for p in prompts if p.secret and p.answered}
    armies_at: dict[str, dict[str, Any]] = {}
    armies = []
    for pl in st.players:
        for a in pl.armies:
            marker = {"seat": pl.seat, "army": a.idx, "alive": a.alive, "location": a.location, "level": a.level,
                      "assassinated": a.assassinated, "ronin": a.ronin if a.ronin_revealed else None}
            armies.append(marker)
            if a.alive and a.location:
                armies_at[a.location] = marker
    provinces = []
    for p in c.map.provinces:
        prov = st.provinces[p.id]
        provinces.append({
            "id": p.id, "name": p.name, "region": p.region, "x": p.x, "y": p.y,
            "owner": prov.owner, "neutral": prov.neutral,
            "garrison": {k: prov.garrison[k] for k in REGULAR},
            "garrison_total": rules.gsize(prov.garrison),
            "fort": FORT[prov.fort],
            "ronin": prov.ronin if prov.ronin_revealed else None,
            "army": armies_at.get(p.id),
        })
    lwtv = st.options.mode == "lwtv"
    seats = []
    for pl in st.players:
        seats.append({
            "seat": pl.seat, "provinces": len(rules.owned(st, pl.seat)), "koku": pl.koku,
            "sword": pl.sword, "eliminated": pl.eliminated,
            "armies": sum(1 for a in pl.armies if a.alive),
            "armies_destroyed": pl.armies_destroyed,
            "plan": pl.plan.model_dump() if pl.plan else None,
            "ready": pl.seat in answered,
            "event_cards": len(pl.hand),
            "vp": (victory.vp(st, pl.seat) if st.phase == "over" else victory.public_vp(st, pl.seat))
            if lwtv else None,
        })
    war = None
    if st.war is not None and st.war.order_pos < len(st.order):
        w = st.war
        b = w.battle
        war = {"seat": st.order[w.order_pos], "phase": w.sub,
               "declarations": [d.model_dump() for d in w.declarations],
               "battle": None if b is None else {"target": b.target, "attacker": b.attacker, "defender": b.defender,
                                                 "naval": b.naval, "round": b.rounds, "fort_defenders": b.fort_left,
                                                 "losses_pending": None if b.pending is None else {
                                                     "step": b.pending.step, "hits": dict(b.pending.hits),
                                                     "choosing": sorted(b.pending.owed.values())}}}
    result = None
    if st.phase == "over":
        result = {"winners": st.winners or [], "reason": st.reason, "scores": st.scores}
    return {
        "game": "samurai", "mode": st.options.mode, "round": st.round, "round_limit": st.options.round_limit,
        "end_round": st.end_round, "phase": st.phase,
        "phase_label": (f"Round {st.round} - " if st.round else "") + PHASE_LABELS.get(st.phase, st.phase),
        "to_win": None if lwtv else st.options.provinces_to_win,
        "map": "japan68", "canvas": content().map.canvas,
        "seats": seats, "turn_order": list(st.order),
        "provinces": provinces, "armies": armies, **static_map(),
        "supply": {"castles": st.castles, "fortress_bases": st.bases, "ronin": st.ronin_pool},
        "ninja": st.ninja, "war": war,
        "waiting": sorted({p.seat for p in prompts if not p.answered}),
        "last_events": list(st.log), "result": result,
    }


def seat_view(st: SamuraiState, seat: int) -> dict[str, Any]:
    view = public_view(st)
    pl = st.players[seat]
    cards = content().cards
    hidden = [{"province": pid, "ronin": prov.ronin} for pid, prov in st.provinces.items()
              if prov.owner == seat and prov.ronin]
    view["you"] = {
        "seat": seat, "koku": pl.koku, "tray": dict(pl.tray),
        "armies": [{"army": a.idx, "alive": a.alive, "location": a.location, "level": a.level,
                    "units": dict(a.units), "ronin": a.ronin, "assassinated": a.assassinated} for a in pl.armies],
        "ronin": hidden,
        "sealed": dict(pl.draft) or None,
        "hand": [{"id": cid, "title": cards[cid].title, "text": cards[cid].text} for cid in pl.hand],
    }
    if st.options.mode == "lwtv":
        # Only the holder knows whether his objective cards are met: his own total counts them.
        view["you"]["vp"] = victory.vp(st, seat)
        view["you"]["objective_vp"] = victory.objective_vp(st, seat)
        view["seats"][seat] = {**view["seats"][seat], "vp": view["you"]["vp"]}
    return view
