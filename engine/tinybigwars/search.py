"""The Tiny Big Wars search AI: the heuristic plays the rollouts, influence scores where they stop.

A rollout step costs about 0.14 CPU ms and a match of two clans about 200 choices, so rollouts
to the end (30 ms early on) let six candidates meet in one or two worlds at a 100 ms budget and
in three or four at 1000 ms, too few for the search to overrule its heuristic: it played the
heuristic's choice nearly every time. A rollout's length follows the budget instead
(`rollout_depth`), so that a decision sees a dozen worlds or more."""

from __future__ import annotations

from engine.contract import Game
from engine.search import SearchPolicy, budget_ms, lead
from engine.tinybigwars.board import controlled, influence
from engine.tinybigwars.state import TBWState

MS_PER_DEPTH = 10.0
"""Budget milliseconds per choice a rollout plays: six candidates in a dozen worlds or more."""
DEPTH_RANGE = (8, 400)


def evaluate(state: TBWState, seat: int) -> float:
    """A clan's lead in influence (locations held break near ties), as the tie-break of victory does."""

    def score(clan: int) -> float:
        return influence(state, clan) + 0.1 * len(controlled(state, clan))

    others = [score(clan) for clan in range(state.seats_n) if clan != seat]
    return lead(score(seat), others, scale=max(2.0, state.options.to_win / 4))


def rollout_depth(budget: float) -> int:
    """Choices a rollout plays after the candidate, for a CPU budget in milliseconds."""
    low, high = DEPTH_RANGE
    return max(low, min(high, int(budget / MS_PER_DEPTH)))


def search_policy(game: Game) -> SearchPolicy:
    from engine.tinybigwars.ai import HeuristicPolicy, RandomPolicy

    budget = budget_ms()
    return SearchPolicy(game, HeuristicPolicy(), evaluate, proposers=[RandomPolicy()],
                        depth=rollout_depth(budget), budget=budget)
