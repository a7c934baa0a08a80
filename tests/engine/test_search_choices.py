"""How the search AI spends its budget and when it overrules its heuristic: candidates measured
in the same worlds, the clearly worse dropped, the heuristic's choice kept unless beaten clearly."""

from __future__ import annotations

import random

import engine
from engine.defenders.ai import HeuristicPolicy as DefendersHeuristic
from engine.defenders.search import ranked
from engine.search import Candidate, SearchPolicy
from tests.engine.test_honest_ai import mid_match_states


def candidate(name: str, values: list[float]) -> Candidate:
    return Candidate({"name": name}, total=sum(values), tries=len(values), values=dict(enumerate(values)))


def test_a_candidate_worse_in_every_shared_world_is_dropped_though_the_worlds_vary() -> None:
    # The worlds swing the values far more than the choices do; paired, the gap is plain.
    worlds = [0.1, 0.9, 0.3, 0.7, 0.5]
    heuristic = candidate("heuristic", worlds)
    better = candidate("better", [w + 0.05 for w in worlds])
    worse = candidate("worse", [w - 0.04 for w in worlds])
    close = candidate("close", [w + 0.05 + (0.02 if n % 2 else -0.02) for n, w in enumerate(worlds)])
    search = engine.get("tinybigwars").policies()["search"]
    assert isinstance(search, SearchPolicy)
    candidates = [heuristic, better, worse, close]
    search._prune(candidates)
    assert [c.alive for c in candidates] == [True, True, False, True]
    assert SearchPolicy._pick(candidates) is better


def test_the_heuristic_stays_unless_a_gain_is_clear() -> None:
    heuristic = candidate("heuristic", [0.5, 0.2, 0.8])
    lucky = candidate("lucky", [0.9, 0.1, 0.7])  # one big win, two losses: no clear gain
    assert SearchPolicy._pick([heuristic, lucky]) is heuristic
    early = candidate("early", [0.6, 0.3])  # better, but in two worlds only
    assert SearchPolicy._pick([heuristic, early]) is heuristic


def test_defenders_candidates_are_the_heuristics_own_ranking() -> None:
    game = engine.get("defenders")
    heuristic = DefendersHeuristic()
    seen = 0
    for state in mid_match_states(game, 2, {"difficulty": "hard"}, seed=5, steps=150):
        for prompt in [p for p in game.prompts(state) if not p.answered and p.options]:
            info = game.information(state, prompt.seat)
            order = ranked(info, prompt)
            assert order[0] == heuristic.choose(info, prompt, random.Random(0))
            assert sorted(map(repr, order)) == sorted(repr(o.choice) for o in prompt.options)
            seen += len(order) > 2
    assert seen >= 3
