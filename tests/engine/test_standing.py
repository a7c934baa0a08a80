"""Each game's standing (whose turn, the turn order, the score) is read from its public view,
and agrees with the prompts: the seat on turn is the one the table waits for."""

from __future__ import annotations

import functools

import pytest

import engine
from tests.games import KEYS, table_of


@functools.cache
def _walk(key: str, seed: int = 4, limit: int = 3000) -> list[tuple[dict, engine.Standing, set[int]]]:
    """Every public view of a heuristic match, its standing, and the seats owing a choice; played
    once per game and module (both tests read the same match, neither changes it)."""
    game = engine.get(key)
    state = game.setup(table_of(key), game.options_model()(), seed)
    policy = game.policies()["heuristic"]
    seen = []
    for step in range(limit):
        if game.result(state) is not None:
            break
        view = game.view(state, None)
        prompts = [p for p in game.prompts(state) if not p.answered]
        seen.append((view, game.standing(view), {p.seat for p in prompts}))
        prompt = prompts[0]
        state = game.submit(state, prompt.seat, engine.decide(game, policy, state, prompt, engine.rng_for(seed, step, "t"))).state
    return seen


@pytest.mark.parametrize("key", KEYS)
def test_the_seat_on_turn_is_the_one_the_table_waits_for(key: str) -> None:
    walked = _walk(key)
    turns = [(standing, owing) for _view, standing, owing in walked if standing.turn is not None]
    assert turns, "the match has phases played in turns"
    for standing, _owing in turns:
        if standing.order:
            assert standing.turn in standing.order and sorted(standing.order) == sorted(set(standing.order))
    # Mostly the seat on turn alone owes; a fight in its turn asks the others too (their energy).
    assert sum(owing == {standing.turn} for standing, owing in turns) >= len(turns) // 2


def test_scores_are_the_public_views_own() -> None:
    for view, standing, _owing in _walk("tinybigwars")[-1:]:
        assert standing.score_name == "influence"
        assert standing.scores == {seat["seat"]: seat["influence"] for seat in view["seats"]}
    for view, standing, _owing in _walk("samurai")[-1:]:
        assert standing.score_name == "provinces"
        assert standing.scores == {seat["seat"]: seat["provinces"] for seat in view["seats"]}
    view, standing, _owing = _walk("defenders")[-1]
    capital = view["capital"]
    assert standing.team_score == f"{capital['name']}'s Threat {capital['threat']} of {capital['destruction']}"
    assert not standing.scores and not standing.order, "the Turn Deck's order is hidden"
