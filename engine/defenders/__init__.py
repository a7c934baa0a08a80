"""Tiny Epic Defenders with The Dark War: 1-4 players defend a capital together.

Modes: `single` (The Great Battle: one battle against an Epic Foe) and `campaign` (The Dark
War: two Generals then an Epic Foe, with Rebuild, Regroup and Reconcile between battles).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.contract import Prompt, Result, State, Step
from engine.defenders import actions, rules, views
from engine.defenders.ai import HeuristicPolicy, RandomPolicy
from engine.defenders.content import content
from engine.defenders.setup import setup_state
from engine.defenders.state import DefendersOptions, DefendersState
from engine.registry import register
from engine.rng import rng_for


class DefendersGame:
    key = "defenders"
    title = "Tiny Epic Defenders"
    seats = range(1, 5)
    modes = ("single", "campaign")
    cooperative = True
    team = "the Defenders"
    """How front-ends name the team that wins or loses together."""

    def options_model(self) -> type[BaseModel]:
        return DefendersOptions

    def state_model(self) -> type[State]:
        return DefendersState

    def setup(self, seats: int, options: BaseModel, seed: int) -> State:
        if seats not in self.seats:
            raise ValueError(f"Tiny Epic Defenders takes 1 to 4 players, not {seats}")
        opts = options if isinstance(options, DefendersOptions) else DefendersOptions.model_validate(
            options.model_dump() if isinstance(options, BaseModel) else options or {})
        content()
        st = setup_state(seats, opts, seed)
        f = rules.Flow(st, rng_for(seed, 0, "advance"))
        rules.advance(f)
        return st

    def prompts(self, state: State) -> list[Prompt]:
        return actions.prompts(self._st(state))

    def submit(self, state: State, seat: int, choice: dict[str, Any]) -> Step:
        return actions.submit(self._st(state), seat, choice)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        st = self._st(state)
        return views.public_view(st) if seat is None else views.seat_view(st, seat)

    def result(self, state: State) -> Result | None:
        st = self._st(state)
        if st.phase != "over":
            return None
        winners = list(range(st.seats)) if st.won else []
        return Result(winners=winners, reason=st.reason, scores={s: int(bool(st.won)) for s in range(st.seats)})

    def policies(self) -> dict[str, Any]:
        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy()}

    @staticmethod
    def _st(state: State) -> DefendersState:
        if not isinstance(state, DefendersState):
            raise TypeError("not a Tiny Epic Defenders state")
        return state


GAME = register(DefendersGame())
