"""Step 7: Lantern Hunt's GameInfo and its KitGame (registered as "lanterns" by registration.py)."""

from __future__ import annotations

import random
from typing import Any

from engine import Result, Standing, State
from engine.kit import GameInfo, KitGame
from tests.addgame.lanterns import information, views
from tests.addgame.lanterns.rules import PHASES
from tests.addgame.lanterns.state import LanternState, Options

INFO = GameInfo(key="lanterns", title="Lantern Hunt", seats=range(2, 5))


class LanternHunt(KitGame[LanternState, Options]):
    info = INFO
    state_class = LanternState
    options_class = Options
    phases = PHASES

    def start(self, seats: int, options: Options, seed: int) -> LanternState:
        return LanternState(seed=seed, seats=seats, options=options, hidden=[None] * seats,
                            searched=[None] * seats, score=[0] * seats)

    def refuse(self, state: LanternState, seat: int) -> str | None:
        return "The hunt is over." if state.phase == "over" else None

    def view_of(self, state: LanternState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def standing(self, view: dict[str, Any]) -> Standing:
        return Standing(turn=view["turn"], order=list(range(len(view["seats"]))) if view["turn"] is not None else [],
                        scores={seat["seat"]: seat["score"] for seat in view["seats"]}, score_name="glow")

    def result_of(self, state: LanternState) -> Result | None:
        if state.winners is None:
            return None
        return Result(winners=list(state.winners), reason=views.reason(state), draw=len(state.winners) > 1,
                      scores=dict(enumerate(state.score)))

    def information(self, state: State, seat: int) -> LanternState:
        return information.information(self.own(state), seat)

    def determinize(self, state: State, seat: int, rng: random.Random) -> LanternState:
        return information.determinize(self.own(state), seat, rng)

    def policies(self) -> dict[str, Any]:
        from tests.addgame.lanterns.ai import HeuristicPolicy, RandomPolicy

        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy()}


GAME = LanternHunt()
