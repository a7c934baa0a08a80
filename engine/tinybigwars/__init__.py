"""Tiny Big Wars: hero-and-minion clans fight for a city (registered as "tinybigwars")."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.contract import Prompt, Result, Standing, State
from engine.kit import GameInfo, KitGame
from engine.tinybigwars import information, rules, views
from engine.tinybigwars.board import influence
from engine.tinybigwars.setup import setup as _setup
from engine.tinybigwars.state import Options, TBWState
from engine.tinybigwars.victory import reason_text

INFO = GameInfo(key="tinybigwars", title="Tiny Big Wars", seats=range(2, 5), picks=("heroes", "hero"))


class TinyBigWars(KitGame[TBWState, Options]):
    """The Game object of the engine contract; all rules live in the submodules."""

    info = INFO
    state_class = TBWState
    options_class = Options
    phases = rules.PHASES
    randomness = rules.STEP_RANDOM
    flow_class = rules.TBWFlow
    nothing_asked = "You have no decision to make right now; wait for the other players."
    prompts_on_read = True
    """The heuristic works its Clan Phase, build, energy and force choices out from the state
    and lists a hero's activation and move options as the prompts would (`rules.activatable`,
    `rules.move_targets`): an all-AI driver leaves those prompts unbuilt."""

    def start(self, seats: int, options: Options, seed: int) -> TBWState:
        return _setup(seats, options, seed)

    def refuse(self, state: TBWState, seat: int) -> str | None:
        return rules.refusal(state, seat)

    def view_of(self, state: TBWState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def view_given(self, state: State, seat: int | None, prompts: Sequence[Prompt]) -> dict[str, Any]:
        """``view``, from the open prompts of ``state`` built already (`ViewsGivenPrompts`)."""
        return views.view(self.own(state), seat, prompts)

    def phase_label_of(self, state: TBWState) -> str:
        return views.phase_label(state)

    def standing(self, view: dict[str, Any]) -> Standing:
        """Heroes activate seat by seat in the order the round drew; influence wins."""
        return Standing(turn=view.get("active_seat"), order=list(view.get("turn_order") or []),
                        scores={int(seat["seat"]): int(seat["influence"]) for seat in view["seats"]},
                        score_name="influence")

    def result_of(self, state: TBWState) -> Result | None:
        if state.winners is None:
            return None
        scores = {seat: influence(state, seat) for seat in range(state.seats_n)}
        return Result(winners=list(state.winners), reason=reason_text(state), scores=scores, draw=state.draw)

    def information(self, state: State, seat: int) -> TBWState:
        return information.information(self.own(state), seat)

    def determinize(self, state: State, seat: int, rng: random.Random) -> TBWState:
        return information.determinize(self.own(state), seat, rng)

    def policies(self) -> dict[str, Any]:
        from engine.tinybigwars.ai import HeuristicPolicy, RandomPolicy
        from engine.tinybigwars.search import search_policy

        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy(), "search": search_policy(self)}


GAME = TinyBigWars()
