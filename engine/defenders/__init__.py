"""Tiny Epic Defenders with The Dark War: 1-4 players defend a capital together.

Modes: `single` (The Great Battle: one battle against an Epic Foe) and `campaign` (The Dark
War: two Generals then an Epic Foe, with Rebuild, Regroup and Reconcile between battles).
"""

from __future__ import annotations

import random
from typing import Any

from engine.contract import Result, Standing, State
from engine.defenders import actions, information, refusals, rules, views
from engine.defenders.ai import HeuristicPolicy, RandomPolicy
from engine.defenders.content import content
from engine.defenders.setup import setup_state
from engine.defenders.state import DefendersOptions, DefendersState
from engine.kit import Asked, GameInfo, KitGame
from engine.rng import rng_for

INFO = GameInfo(key="defenders", title="Tiny Epic Defenders", seats=range(1, 5), modes=("single", "campaign"),
                cooperative=True, team="the Defenders",
                face_down=("turn_deck", "horde", "leftover_enemies", "leftover_dire", "caravan_pile", "skill_deck",
                           "artifact_deck", "war_unused"),
                picks=("defenders", "defender"))


class DefendersGame(KitGame[DefendersState, DefendersOptions]):
    info = INFO
    state_class = DefendersState
    options_class = DefendersOptions
    phases = actions.PHASES
    randomness = actions.STEP_RANDOM
    prompts_on_read = True
    """The heuristic lists an AP card's choices from its information state: a driver's next
    prompt is built only if read (engine/kit/on_read.py)."""

    def start(self, seats: int, options: DefendersOptions, seed: int) -> DefendersState:
        content()
        state = setup_state(seats, options, seed)
        self.phases.settle(rules.Flow(state, rng_for(seed, 0, "advance")))
        return state

    def refuse(self, state: DefendersState, seat: int) -> str | None:
        """A seat that is not in the match, refused before its prompt is looked up."""
        return refusals.check_seat(state, seat)

    def parse(self, state: DefendersState, seat: int, asked: Asked, choice: dict[str, Any]) -> dict[str, Any]:
        return actions.picked(state, seat, asked, choice)

    def view_of(self, state: DefendersState, seat: int | None) -> dict[str, Any]:
        return views.public_view(state) if seat is None else views.seat_view(state, seat)

    def phase_label_of(self, state: DefendersState) -> str:
        return views.phase_label(state)

    def standing(self, view: dict[str, Any]) -> Standing:
        """The Turn Deck decides who plays next and is hidden, so only whose Turn it is shows;
        the table's score is the Capital's Threat against the Threat that destroys it."""
        active = view.get("active")
        defender = None if active is None else active.get("defender")
        turn = next((int(one["seat"]) for one in view["defenders"] if one["idx"] == defender), None)
        capital = view["capital"]
        return Standing(turn=turn, team_score=f"{capital['name']}'s Threat {capital['threat']} of {capital['destruction']}")

    def result_of(self, state: DefendersState) -> Result | None:
        if state.phase != "over":
            return None
        winners = list(range(state.seats)) if state.won else []
        return Result(winners=winners, reason=state.reason,
                      scores={seat: int(bool(state.won)) for seat in range(state.seats)})

    def information(self, state: State, seat: int) -> DefendersState:
        return information.information(self.own(state), seat)

    def determinize(self, state: State, seat: int, rng: random.Random) -> DefendersState:
        return information.determinize(self.own(state), seat, rng)

    def policies(self) -> dict[str, Any]:
        from engine.defenders.search import search_policy

        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy(), "search": search_policy(self)}


GAME = DefendersGame()
