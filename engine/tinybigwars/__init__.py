"""Tiny Big Wars: hero-and-minion clans fight for a city (registered as "tinybigwars")."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.contract import IllegalChoice, Prompt, Result, State, Step
from engine.registry import register
from engine.tinybigwars import rules, views
from engine.tinybigwars.board import influence
from engine.tinybigwars.setup import setup as _setup
from engine.tinybigwars.state import Options, TBWState


def _state(state: State) -> TBWState:
    if not isinstance(state, TBWState):
        raise IllegalChoice("This is not a Tiny Big Wars match.")
    return state


class TinyBigWars:
    """The Game object of the engine contract; all rules live in the submodules."""

    key = "tinybigwars"
    title = "Tiny Big Wars"
    seats = range(2, 5)

    def options_model(self) -> type[BaseModel]:
        return Options

    def state_model(self) -> type[State]:
        return TBWState

    def setup(self, seats: int, options: BaseModel, seed: int) -> State:
        opts = options if isinstance(options, Options) else Options.model_validate(options.model_dump())
        return _setup(seats, opts, seed)

    def prompts(self, state: State) -> list[Prompt]:
        return rules.prompts(_state(state))

    def submit(self, state: State, seat: int, choice: dict[str, Any]) -> Step:
        return rules.submit(_state(state), seat, choice)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(_state(state), seat)

    def result(self, state: State) -> Result | None:
        s = _state(state)
        if s.winners is None:
            return None
        scores = {seat: influence(s, seat) for seat in range(s.seats_n)}
        return Result(winners=list(s.winners), reason=s.reason, scores=scores, draw=s.draw)

    def policies(self) -> dict[str, Any]:
        from engine.tinybigwars.ai import HeuristicPolicy, RandomPolicy

        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy()}


GAME = register(TinyBigWars())
