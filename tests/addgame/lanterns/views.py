"""Step 5: the views built field by field from the state."""

from __future__ import annotations

from typing import Any

from engine.view_model import PromptView
from engine.words import counted
from tests.addgame.lanterns.content import places
from tests.addgame.lanterns.rules import PHASES
from tests.addgame.lanterns.state import LanternState
from tests.addgame.lanterns.view_models import PlaceView, PublicView, ResultView, SeatPublic, SeatView, You

LABELS = {"hide": "Hide the lanterns", "seek": "Search", "reckon": "Reckoning", "over": "The hunt is over"}


def reason(state: LanternState) -> str:
    winners = state.winners or []
    return f"most glow after {counted(state.round, 'round')}" if len(winners) == 1 else "a tie for the most glow"


def public(state: LanternState) -> PublicView:
    return PublicView(
        game="lanterns", round=state.round, round_limit=state.options.round_limit, phase=state.phase,
        phase_label=f"Round {state.round}: {LABELS[state.phase]}",
        places=[PlaceView(id=place.id, name=place.name, glow=place.glow) for place in places().values()],
        seats=[SeatPublic(seat=seat, score=state.score[seat], hidden=state.hidden[seat] is not None,
                          searched=state.searched[seat]) for seat in range(state.seats)],
        turn=state.turn if state.phase == "seek" else None, revealed=list(state.revealed), log=list(state.log),
        prompts=[PromptView(**prompt.public()) for prompt in PHASES.prompts(state)],
        result=None if state.winners is None else ResultView(winners=list(state.winners), reason=reason(state)),
    )


def view(state: LanternState, seat: int | None) -> dict[str, Any]:
    shown = public(state)
    if seat is None:
        return shown.model_dump()
    return SeatView(**dict(shown), you=You(seat=seat, hidden=state.hidden[seat])).model_dump()
