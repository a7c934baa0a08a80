"""Public and per-seat views (shape documented in docs/design/samurai-view.md).

The public view is built only from public facts: the board, garrisons, army markers (never
their composition), revealed ronin, plans after they are revealed. The seat view adds what
is behind that seat's screen. Each is built into its view model (engine/samurai/view_models.py),
the allow-list; the contract sends the model's dump.
"""

from __future__ import annotations

from typing import Any

from engine.samurai import victory
from engine.samurai.board import garrison_size, held_count
from engine.samurai.content import REGULAR, content
from engine.samurai.phases import prompts as prompts_of
from engine.samurai.state import SamuraiState
from engine.samurai.view_models import (
    ArmyMarker,
    ArmyScreen,
    BattleView,
    CardView,
    DeclarationView,
    HiddenRonin,
    LossesView,
    PlanView,
    ProvinceView,
    PublicView,
    ResultView,
    SeatPublic,
    SeatView,
    SupplyView,
    WarView,
    You,
)

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
    """The land borders and sea lanes of the map, each pair sorted (the same for every match)."""
    c = content()
    borders = sorted({tuple(sorted((p.id, o))) for p in c.map.provinces for o in p.land})
    lanes = sorted({tuple(sorted((p.id, o))) for p in c.map.provinces for o in p.sea})
    return {"borders": [tuple(b) for b in borders], "sea_lanes": [tuple(s) for s in lanes]}


def waiting(state: SamuraiState) -> list[int]:
    return sorted({p.seat for p in prompts_of(state) if not p.answered})


def _war(state: SamuraiState) -> WarView | None:
    if state.war is None or state.war.order_pos >= len(state.order):
        return None
    war = state.war
    battle = war.battle
    return WarView(
        seat=state.order[war.order_pos], phase=war.sub,
        declarations=[DeclarationView(**d.model_dump()) for d in war.declarations],
        battle=None if battle is None else BattleView(
            target=battle.target, attacker=battle.attacker, defender=battle.defender, naval=battle.naval,
            round=battle.rounds, fort_defenders=battle.fort_left,
            losses_pending=None if battle.pending is None else LossesView(
                step=battle.pending.step, hits=dict(battle.pending.hits),
                choosing=sorted(battle.pending.owed.values()))))


def phase_label(state: SamuraiState) -> str:
    """The heading of the phase ``state`` is in ("Round 3 - Bidding for initiative")."""
    return (f"Round {state.round} - " if state.round else "") + PHASE_LABELS.get(state.phase, state.phase)


def _public(state: SamuraiState, own_vp: tuple[int, int] | None = None) -> dict[str, Any]:
    """The public view's fields; `own_vp` (seat, total) puts a seat's full LWTV total on its own row."""
    c = content()
    prompts = prompts_of(state)
    answered = {p.seat for p in prompts if p.secret and p.answered}
    armies_at: dict[str, ArmyMarker] = {}
    armies = []
    for player in state.players:
        for army in player.armies:
            marker = ArmyMarker(seat=player.seat, army=army.idx, alive=army.alive, location=army.location,
                                level=army.level, assassinated=army.assassinated,
                                ronin=army.ronin if army.ronin_revealed else None)
            armies.append(marker)
            if army.alive and army.location:
                armies_at[army.location] = marker
    provinces = []
    for p in c.map.provinces:
        prov = state.provinces[p.id]
        provinces.append(ProvinceView(
            id=p.id, name=p.name, region=p.region, x=p.x, y=p.y,
            owner=prov.owner, neutral=prov.neutral,
            garrison={kind: prov.garrison[kind] for kind in REGULAR},
            garrison_total=garrison_size(prov.garrison),
            fort=FORT[prov.fort],
            ronin=prov.ronin if prov.ronin_revealed else None,
            army=armies_at.get(p.id),
        ))
    lwtv = state.options.mode == "lwtv"
    seats = []
    for player in state.players:
        vp = None
        if own_vp is not None and own_vp[0] == player.seat:
            vp = own_vp[1]
        elif lwtv:
            vp = victory.vp(state, player.seat) if state.phase == "over" else victory.public_vp(state, player.seat)
        seats.append(SeatPublic(
            seat=player.seat, provinces=held_count(state, player.seat), koku=player.koku,
            sword=player.sword, eliminated=player.eliminated,
            armies=sum(1 for army in player.armies if army.alive),
            armies_destroyed=player.armies_destroyed,
            plan=PlanView(**player.plan.model_dump()) if player.plan else None,
            ready=player.seat in answered,
            event_cards=len(player.hand),
            vp=vp,
        ))
    result = None
    if state.phase == "over":
        result = ResultView(winners=state.winners or [], reason=state.reason, scores=state.scores)
    return {
        "game": "samurai", "mode": state.options.mode, "round": state.round,
        "round_limit": state.options.round_limit, "end_round": state.end_round, "phase": state.phase,
        "phase_label": phase_label(state),
        "to_win": None if lwtv else state.options.provinces_to_win,
        "map": "japan68", "canvas": c.map.canvas,
        "seats": seats, "turn_order": list(state.order),
        "provinces": provinces, "armies": armies, **static_map(),
        "supply": SupplyView(castles=state.castles, fortress_bases=state.bases, ronin=state.ronin_pool),
        "ninja": state.ninja, "war": _war(state),
        "waiting": sorted({p.seat for p in prompts if not p.answered}),
        "last_events": list(state.log), "result": result,
    }


def public_view_model(state: SamuraiState) -> PublicView:
    """The public view, typed."""
    return PublicView(**_public(state))


def public_view(state: SamuraiState) -> dict[str, Any]:
    """The public view as the JSON dict the contract sends."""
    return public_view_model(state).model_dump()


def seat_view_model(state: SamuraiState, seat: int) -> SeatView:
    """The public view plus what is behind this seat's screen, typed."""
    player = state.players[seat]
    cards = content().cards
    lwtv = state.options.mode == "lwtv"
    # Only the holder knows whether his objective cards are met: his own total counts them.
    vp = victory.vp(state, seat) if lwtv else None
    you = You(
        seat=seat, koku=player.koku, tray=dict(player.tray),
        armies=[ArmyScreen(army=army.idx, alive=army.alive, location=army.location, level=army.level,
                           units=dict(army.units), ronin=army.ronin, assassinated=army.assassinated)
                for army in player.armies],
        ronin=[HiddenRonin(province=pid, ronin=prov.ronin) for pid, prov in state.provinces.items()
               if prov.owner == seat and prov.ronin],
        sealed=dict(player.draft) or None,
        hand=[CardView(id=cid, title=cards[cid].title, text=cards[cid].text) for cid in player.hand],
        vp=vp,
        objective_vp=victory.objective_vp(state, seat) if lwtv else None,
    )
    return SeatView(**_public(state, (seat, vp) if vp is not None else None), you=you)


def seat_view(state: SamuraiState, seat: int) -> dict[str, Any]:
    """The seat view as the JSON dict the contract sends (`vp` and `objective_vp` in LWTV only)."""
    model = seat_view_model(state, seat)
    if state.options.mode == "lwtv":
        return model.model_dump()
    return model.model_dump(exclude={"you": {"vp", "objective_vp"}})
