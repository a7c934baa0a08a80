"""Samurai Swords (Shogun): daimyo armies, koku bids behind screens, 68 provinces of Japan.

Modes: `base` (the standard setup), `quickstart` (claims and free army screens) and `lwtv`
(Little Wars TV: neutral Kyoto and Osaka, an event deck, victory points).
"""

from __future__ import annotations

import random
from typing import Any

from engine.contract import Result, Standing, State
from engine.kit import Flow, GameInfo, KitGame
from engine.kit.phases import Asked
from engine.rng import rng_for
from engine.samurai import information, views
from engine.samurai.ai import HeuristicPolicy, RandomPolicy
from engine.samurai.answers import LevyAnswer, Pick, plain_pick
from engine.samurai.content import content
from engine.samurai.muster import muster_stage
from engine.samurai.phases import PHASES
from engine.samurai.setup import setup_state
from engine.samurai.state import SamuraiOptions, SamuraiState
from engine.validate import parse_choice

INFO = GameInfo(key="samurai", title="Samurai Swords", seats=range(3, 6), modes=("base", "quickstart", "lwtv"),
                face_down=("deck",))


class SamuraiGame(KitGame[SamuraiState, SamuraiOptions]):
    info = INFO
    state_class = SamuraiState
    options_class = SamuraiOptions
    phases = PHASES
    nothing_asked = "it is not your turn: nothing is asked of you now"
    prompts_on_read = True
    """The heuristic works most choices out from its information state: a driver's next
    prompt is built only if read (its default, its options)."""

    def start(self, seats: int, options: SamuraiOptions, seed: int) -> SamuraiState:
        content()
        state = setup_state(seats, options, seed)
        self.phases.settle(Flow(state, rng_for(seed, 0, "advance")))
        return state

    def refuse(self, state: SamuraiState, seat: int) -> str | None:
        return "the game is over" if state.phase == "over" else None

    def parse(self, state: SamuraiState, seat: int, asked: Asked, choice: dict[str, Any]) -> object:
        """A levy in the sealed muster is parsed as the levy prompt would parse it, without
        building that prompt (the muster's "levy" kind is also its review once the levy leaves
        nothing to place, which answers with a pick: the phase cannot declare one model). A
        plain pick is built without validation (`plain_pick`), the same `Pick` as validated."""
        if (asked.kind == "levy" and not asked.built and state.phase == "muster"
                and muster_stage(state, seat) == "levy"):
            return parse_choice(LevyAnswer, choice)
        if asked.answer is Pick and type(choice) is dict:
            pick = plain_pick(choice)
            if pick is not None:
                return pick
        return super().parse(state, seat, asked, choice)

    def view_of(self, state: SamuraiState, seat: int | None) -> dict[str, Any]:
        return views.public_view(state) if seat is None else views.seat_view(state, seat)

    def phase_label_of(self, state: SamuraiState) -> str:
        return views.phase_label(state)

    def standing(self, view: dict[str, Any]) -> Standing:
        """Wars are waged daimyo by daimyo in turn order; provinces held are the score."""
        war = view.get("war")
        turn = None if war is None else int(war["seat"])
        return Standing(turn=turn, order=list(view["turn_order"]) if turn is not None else [],
                        scores={int(seat["seat"]): int(seat["provinces"]) for seat in view["seats"]},
                        score_name="provinces")

    def result_of(self, state: SamuraiState) -> Result | None:
        if state.phase != "over":
            return None
        return Result(winners=list(state.winners or []), reason=state.reason,
                      scores={int(seat): score for seat, score in state.scores.items()})

    def information(self, state: State, seat: int) -> SamuraiState:
        return information.information(self.own(state), seat)

    def determinize(self, state: State, seat: int, rng: random.Random) -> SamuraiState:
        return information.determinize(self.own(state), seat, rng)

    def policies(self) -> dict[str, Any]:
        from engine.samurai.search import search_policy

        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy(), "search": search_policy(self)}


GAME = SamuraiGame()
