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


def test_tiny_big_wars_worlds_deal_a_rivals_sealed_spend_as_the_heuristic_would() -> None:
    from engine.tinybigwars.ai import HeuristicPolicy as TinyBigWarsHeuristic
    from engine.tinybigwars.combat import energy_of
    from engine.tinybigwars.search import search_worlds

    game = engine.get("tinybigwars")
    worlds = search_worlds(game)
    checked = 0
    for state in (s for seed in (3, 4, 5) for s in mid_match_states(game, 2, {}, seed=seed, steps=400)):
        prompts = game.prompts(state)
        sealed = [p for p in prompts if p.answered and p.secret and p.kind == "energy"]
        waiting = [p for p in prompts if not p.answered]
        if not sealed or not waiting:
            continue
        rival, seat = sealed[0].seat, waiting[0].seat
        assert state.combat is not None
        if energy_of(state, state.combat.location, rival) < 2:
            continue  # at most one energy: a random split would often match the heuristic's too
        expected = TinyBigWarsHeuristic().choose(state, sealed[0], random.Random(0))
        info = game.information(state, seat)
        rng = random.Random(checked)
        dealt = []
        for _ in range(40):
            world = worlds.determinize(info, seat, rng)
            assert world.combat is not None
            spend = world.combat.spend[world.combat.seats.index(rival)]
            dealt.append({"attack": spend.attack, "guard": spend.guard} == expected)
        assert sum(dealt) >= 24, "a rival's sealed spend is dealt as the heuristic's in most worlds"
        checked += 1
    assert checked >= 1
