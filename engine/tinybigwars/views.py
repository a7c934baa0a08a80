"""Public and per-seat views in the shape of docs/design/tinybigwars-view.md.

Built field by field from the state into the view models (engine/tinybigwars/view_models.py),
so a sealed force or energy spend can never leak into the public view or another seat's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.contract import Prompt
from engine.tinybigwars.board import (
    coins_at,
    hero_card,
    income,
    influence,
    influence_at,
    loc_card,
)
from engine.tinybigwars.content import content
from engine.tinybigwars.rules import active_seat, prompts
from engine.tinybigwars.state import Hero, Location, TBWState
from engine.tinybigwars.victory import reason_text
from engine.tinybigwars.view_models import (
    CombatView,
    ForceView,
    HeroView,
    LocationView,
    PublicView,
    ResultView,
    SeatPublic,
    SeatView,
    You,
)
from engine.view_model import PromptView

PHASE_LABELS = {
    "force": "Force Building",
    "clan": "Clan Phase",
    "activation": "Hero Activation",
    "combat": "Combat",
    "over": "Game Over",
}


def _combat(state: TBWState) -> CombatView | None:
    combat = state.combat
    if combat is None:
        return None
    waiting = [
        seat
        for seat, need, spend in zip(combat.seats, combat.needs_spend, combat.spend, strict=True)
        if need and spend is None and combat.stage == "energy"
    ]
    return CombatView(
        location=combat.location,
        seats=list(combat.seats),
        dice=[(seat, list(dice)) for seat, dice in zip(combat.seats, combat.dice, strict=True)],
        hits=[(seat, hits) for seat, hits in zip(combat.seats, combat.hits, strict=True)],
        waiting=waiting,
        attacker=combat.attacker,
        stage=combat.stage,
    )


def _seats(state: TBWState, presence: dict[str, list[int]]) -> list[SeatPublic]:
    """Each clan's public line; the locations a seat controls come from the view's one
    `presence` pass (a seat alone there), not three `controlled` passes a seat."""
    revealed = state.phase != "force"
    held: dict[int, list[str]] = {seat.seat: [] for seat in state.seats}
    if revealed:
        for node, here in presence.items():
            if len(here) == 1:
                held[here[0]].append(node)
    return [
        SeatPublic(
            seat=seat.seat,
            influence=influence(state, seat.seat, held[seat.seat]) if revealed else 0,
            coins=seat.coins,
            locations=len(held[seat.seat]) if revealed else 0,
            minions=sum(location.minions[seat.seat] for location in state.locations),
            heroes=len(state.live_heroes(seat.seat)),
            activations=seat.activations,
            passed=seat.passed,
            force_ready=seat.force is not None,
            eliminated=seat.eliminated,
            income=income(state, seat.seat, held[seat.seat]) if revealed else 0,
            charters=list(seat.charters),
        )
        for seat in state.seats
    ]


def _location(state: TBWState, location: Location, present: list[int]) -> LocationView:
    card = loc_card(state, location.id)
    return LocationView(
        id=location.id,
        name=card.name,
        x=location.x,
        y=location.y,
        coin=card.coin,
        influence=card.influence,
        influence_total=influence_at(card, location),
        coin_total=coins_at(card, location),
        ability=card.text,
        infrastructure=location.infrastructure,
        controller=present[0] if len(present) == 1 else None,
        contested=len(present) > 1,
        start_seat=location.start_seat,
        minions=[(seat, count) for seat, count in enumerate(location.minions) if count],
        card=card.id,
    )


def _hero(hero: Hero) -> HeroView:
    card = hero_card(hero)
    return HeroView(
        id=hero.id,
        card=hero.card,
        name=card.name,
        seat=hero.seat,
        location=hero.location,
        health=hero.health,
        max_health=card.health,
        energy=hero.energy,
        max_energy=card.max_energy,
        power=card.power,
        activated=hero.activated,
        defeated=hero.defeated,
        ability=card.text,
    )


def phase_label(state: TBWState) -> str:
    """The heading of the phase ``state`` is in ("Round 2 - Hero Activation")."""
    label = PHASE_LABELS[state.phase]
    return label if state.round == 0 or state.phase == "over" else f"Round {state.round} - {label}"


def view_model(state: TBWState, seat: int | None, open_prompts: Sequence[Prompt] | None = None) -> PublicView:
    """The public view (seat None) or a seat's view with its private ``you`` block, typed;
    ``open_prompts``: ``prompts(state)``, when the caller built them already."""
    if open_prompts is None:
        open_prompts = prompts(state)
    presence = state.presence()
    public: dict[str, Any] = {
        "game": "tinybigwars",
        "round": state.round,
        "round_limit": state.options.round_limit,
        "phase": state.phase,
        "phase_label": phase_label(state),
        "to_win": state.options.to_win,
        "map": state.map,
        "seats": _seats(state, presence),
        "locations": [_location(state, location, presence[location.id]) for location in state.locations],
        "roads": [(a, b) for a, b in state.roads],
        "heroes": [_hero(hero) for hero in state.heroes],
        "combat": _combat(state),
        "active_seat": active_seat(state),
        "turn_order": list(state.turn.order) if state.phase in ("activation", "combat") else [],
        "waiting": sorted({prompt.seat for prompt in open_prompts if not prompt.answered}),
        "last_events": list(state.last_events),
        "result": None
        if state.winners is None
        else ResultView(winners=list(state.winners), reason=reason_text(state), draw=state.draw),
        "point_limit": state.options.point_limit,
        "prompts": [PromptView(**prompt.public()) for prompt in open_prompts],
    }
    if seat is not None and 0 <= seat < state.seats_n:
        return SeatView(**public, you=_you(state, seat))
    return PublicView(**public)


def view(state: TBWState, seat: int | None, open_prompts: Sequence[Prompt] | None = None) -> dict[str, Any]:
    """The view as the JSON dict the contract sends (the dump of `view_model`)."""
    return view_model(state, seat, open_prompts).model_dump()


def _you(state: TBWState, seat: int) -> You:
    mine = state.seats[seat]
    sealed: dict[str, Any] | None = None
    if state.phase == "force" and mine.force is not None:
        sealed = {"kind": "force", **mine.force.model_dump()}
    elif state.combat is not None and seat in state.combat.seats and state.combat.stage == "energy":
        spend = state.combat.spend[state.combat.seats.index(seat)]
        if spend is not None:
            sealed = {"kind": "energy", "attack": spend.attack, "guard": spend.guard}
    force = None
    if mine.force is not None:
        cards = content()
        force = ForceView(
            **mine.force.model_dump(),
            minion_card_names=[cards.minions[m].name for m in mine.force.minion_cards if m in cards.minions],
            building_names=[cards.buildings[b].name for b in mine.force.buildings if b in cards.buildings],
        )
    return You(seat=seat, force=force, sealed=sealed, coins=mine.coins)
