"""Public and per-seat views in the shape of docs/design/tinybigwars-view.md.

Built field by field from the state so a sealed force or energy spend can never leak
into the public view or another seat's view.
"""

from __future__ import annotations

from typing import Any

from engine.tinybigwars.board import (
    controlled,
    hero_card,
    income,
    influence,
    loc_card,
    location_coins,
    location_influence,
)
from engine.tinybigwars.content import content
from engine.tinybigwars.rules import active_seat, prompts
from engine.tinybigwars.state import TBWState

PHASE_LABELS = {
    "force": "Force Building",
    "clan": "Clan Phase",
    "activation": "Hero Activation",
    "combat": "Combat",
    "over": "Game Over",
}


def _combat(s: TBWState) -> dict[str, Any] | None:
    cb = s.combat
    if cb is None:
        return None
    waiting = [
        seat
        for seat, need, sp in zip(cb.seats, cb.needs_spend, cb.spend, strict=True)
        if need and sp is None and cb.stage == "energy"
    ]
    return {
        "location": cb.location,
        "seats": list(cb.seats),
        "dice": [[seat, list(d)] for seat, d in zip(cb.seats, cb.dice, strict=True)],
        "hits": [[seat, h] for seat, h in zip(cb.seats, cb.hits, strict=True)],
        "waiting": waiting,
        "attacker": cb.attacker,
        "stage": cb.stage,
    }


def view(s: TBWState, seat: int | None) -> dict[str, Any]:
    """The public view (seat None) or a seat's view with its private ``you`` block."""
    revealed = s.phase != "force"
    open_prompts = prompts(s)
    waiting = sorted({p.seat for p in open_prompts if not p.answered})
    seats = []
    for st in s.seats:
        seats.append(
            {
                "seat": st.seat,
                "influence": influence(s, st.seat) if revealed else 0,
                "coins": st.coins,
                "locations": len(controlled(s, st.seat)) if revealed else 0,
                "minions": sum(loc.minions[st.seat] for loc in s.locations),
                "heroes": len(s.live_heroes(st.seat)),
                "activations": st.activations,
                "passed": st.passed,
                "force_ready": st.force is not None,
                "eliminated": st.eliminated,
                "income": income(s, st.seat) if revealed else 0,
                "charters": list(st.charters),
            }
        )
    locations = []
    presence = s.presence()
    for loc in s.locations:
        card = loc_card(s, loc.id)
        present = presence[loc.id]
        locations.append(
            {
                "id": loc.id,
                "name": card.name,
                "x": loc.x,
                "y": loc.y,
                "coin": card.coin,
                "influence": card.influence,
                "influence_total": location_influence(s, loc.id),
                "coin_total": location_coins(s, loc.id),
                "ability": card.text,
                "infrastructure": loc.infrastructure,
                "controller": present[0] if len(present) == 1 else None,
                "contested": len(present) > 1,
                "start_seat": loc.start_seat,
                "minions": [[i, n] for i, n in enumerate(loc.minions) if n],
                "card": card.id,
            }
        )
    heroes = []
    for h in s.heroes:
        card = hero_card(h)
        heroes.append(
            {
                "id": h.id,
                "card": h.card,
                "name": card.name,
                "seat": h.seat,
                "location": h.location,
                "health": h.health,
                "max_health": card.health,
                "energy": h.energy,
                "max_energy": card.max_energy,
                "power": card.power,
                "activated": h.activated,
                "defeated": h.defeated,
                "ability": card.text,
            }
        )
    label = PHASE_LABELS[s.phase]
    out: dict[str, Any] = {
        "game": "tinybigwars",
        "round": s.round,
        "round_limit": s.options.round_limit,
        "phase": s.phase,
        "phase_label": label if s.round == 0 or s.phase == "over" else f"Round {s.round} - {label}",
        "to_win": s.options.to_win,
        "map": s.map,
        "seats": seats,
        "locations": locations,
        "roads": [[a, b] for a, b in s.roads],
        "heroes": heroes,
        "combat": _combat(s),
        "active_seat": active_seat(s),
        "waiting": waiting,
        "last_events": list(s.last_events),
        "result": None
        if s.winners is None
        else {"winners": list(s.winners), "reason": s.reason, "draw": s.draw},
        "point_limit": s.options.point_limit,
        "prompts": [p.public() for p in open_prompts],
    }
    if seat is not None and 0 <= seat < s.seats_n:
        out["you"] = _you(s, seat)
    return out


def _you(s: TBWState, seat: int) -> dict[str, Any]:
    st = s.seats[seat]
    sealed: dict[str, Any] | None = None
    if s.phase == "force" and st.force is not None:
        sealed = {"kind": "force", **st.force.model_dump()}
    elif s.combat is not None and seat in s.combat.seats and s.combat.stage == "energy":
        sp = s.combat.spend[s.combat.seats.index(seat)]
        if sp is not None:
            sealed = {"kind": "energy", "attack": sp.attack, "guard": sp.guard}
    force = st.force.model_dump() if st.force is not None else None
    if force is not None:
        c = content()
        force["minion_card_names"] = [c.minions[m].name for m in st.force.minion_cards if m in c.minions]
        force["building_names"] = [c.buildings[b].name for b in st.force.buildings if b in c.buildings]
    return {
        "seat": seat,
        "force": force,
        "sealed": sealed,
        "coins": st.coins,
    }
