"""Samurai Swords (Shogun): daimyo armies, koku bids behind screens, 68 provinces of Japan.

Modes: `base` (the standard setup), `quickstart` (claims and free army screens) and `lwtv`
(Little Wars TV: neutral Kyoto and Osaka, an event deck, victory points).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.contract import Prompt, Result, State, Step
from engine.registry import register
from engine.samurai import rules, views
from engine.samurai.ai import HeuristicPolicy, RandomPolicy
from engine.samurai.content import content
from engine.samurai.setup import setup_state
from engine.samurai.state import SamuraiOptions, SamuraiState


class SamuraiGame:
    key = "samurai"
    title = "Samurai Swords"
    seats = range(3, 6)
    modes = ("base", "quickstart", "lwtv")

    def options_model(self) -> type[BaseModel]:
        return SamuraiOptions

    def state_model(self) -> type[State]:
        return SamuraiState

    def setup(self, seats: int, options: BaseModel, seed: int) -> State:
        if seats not in self.seats:
            raise ValueError(f"Samurai Swords takes 3 to 5 players, not {seats}")
        opts = options if isinstance(options, SamuraiOptions) else SamuraiOptions.model_validate(
            options.model_dump() if isinstance(options, BaseModel) else options or {})
        content()
        st = setup_state(seats, opts, seed)
        rules.advance(st, [], rules.rng_for(seed, 0, "advance"))
        return st

    def prompts(self, state: State) -> list[Prompt]:
        return rules.prompts(self._st(state))

    def submit(self, state: State, seat: int, choice: dict[str, Any]) -> Step:
        return rules.submit(self._st(state), seat, choice)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        st = self._st(state)
        return views.public_view(st) if seat is None else views.seat_view(st, seat)

    def result(self, state: State) -> Result | None:
        st = self._st(state)
        if st.phase != "over":
            return None
        return Result(winners=list(st.winners or []), reason=st.reason,
                      scores={int(k): v for k, v in st.scores.items()})

    def policies(self) -> dict[str, Any]:
        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy()}

    @staticmethod
    def _st(state: State) -> SamuraiState:
        if not isinstance(state, SamuraiState):
            raise TypeError("not a Samurai Swords state")
        return state


GAME = register(SamuraiGame())
