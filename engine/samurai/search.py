"""The Samurai search AI: the heuristic plays the rollouts; a match is too long to play out,
so provinces (victory points in LWTV) and living troops score where a rollout stops."""

from __future__ import annotations

from engine.contract import Game
from engine.samurai.board import army_regulars, owned
from engine.samurai.state import SamuraiState
from engine.samurai.victory import public_vp
from engine.search import SearchPolicy, lead


def evaluate(state: SamuraiState, seat: int) -> float:
    """A house's lead in provinces held (public victory points in LWTV), troops counting a little."""

    def score(house: int) -> float:
        player = state.players[house]
        if player.eliminated:
            return -10.0
        held = public_vp(state, house) if state.options.mode == "lwtv" else len(owned(state, house))
        troops = sum(army_regulars(army) for army in player.armies if army.alive)
        return held + 0.05 * troops

    others = [score(house) for house in range(len(state.players)) if house != seat]
    return lead(score(seat), others, scale=4.0)


def search_policy(game: Game) -> SearchPolicy:
    from engine.samurai.ai import HeuristicPolicy, RandomPolicy

    return SearchPolicy(game, HeuristicPolicy(), evaluate, proposers=[RandomPolicy()], depth=80)
