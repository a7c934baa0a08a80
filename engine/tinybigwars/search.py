"""The Tiny Big Wars search AI: the heuristic plays the rollouts, influence scores where they stop."""

from __future__ import annotations

from engine.contract import Game
from engine.search import SearchPolicy, lead
from engine.tinybigwars.board import controlled, influence
from engine.tinybigwars.state import TBWState


def evaluate(state: TBWState, seat: int) -> float:
    """A clan's lead in influence (locations held break near ties), as the tie-break of victory does."""

    def score(clan: int) -> float:
        return influence(state, clan) + 0.1 * len(controlled(state, clan))

    others = [score(clan) for clan in range(state.seats_n) if clan != seat]
    return lead(score(seat), others, scale=max(2.0, state.options.to_win / 4))


def search_policy(game: Game) -> SearchPolicy:
    """Full-length rollouts fit the budget here (about 200 choices a match)."""
    from engine.tinybigwars.ai import HeuristicPolicy, RandomPolicy

    return SearchPolicy(game, HeuristicPolicy(), evaluate, proposers=[RandomPolicy()], depth=400)
