"""The AI policies answer every prompt legally and the heuristic plays to win."""

from __future__ import annotations

from collections import Counter

import engine
from bot.simulate import simulate
from engine.tinybigwars import rules
from engine.tinybigwars.ai import HeuristicPolicy, RandomPolicy
from tests.engine.tinybigwars.helpers import G, new


def test_forces_are_legal_for_many_point_limits() -> None:
    for limit in (10, 20, 30, 40, 75):
        s = new(2, point_limit=limit)
        prompt = G.prompts(s)[0]
        for seed in range(20):
            picks = engine.decide(G, RandomPolicy(), s, prompt, engine.rng_for(seed, 0))["picks"]
            assert rules.force_of(picks, limit).points <= limit
        assert rules.force_of(engine.decide(G, HeuristicPolicy(), s, prompt, engine.rng_for(0, 0))["picks"], limit)


def test_heuristic_beats_random_most_of_the_time() -> None:
    wins = Counter()
    for seed in range(12):
        state = G.setup(2, engine.parse_options(G, None), seed)
        ais = {0: HeuristicPolicy(), 1: RandomPolicy()}
        while G.result(state) is None:
            prompt = next(p for p in G.prompts(state) if not p.answered)
            choice = engine.decide(G, ais[prompt.seat], state, prompt, engine.rng_for(seed, state.step, "ai"))
            state = G.submit(state, prompt.seat, choice).state
        wins[tuple(G.result(state).winners)] += 1
    assert wins[(0,)] >= 10


def test_heuristic_matches_mostly_end_by_influence() -> None:
    reasons = Counter(simulate("tinybigwars", 3, seed)["reason"] for seed in range(20))
    assert sum(n for reason, n in reasons.items() if reason.endswith(" influence") and reason.startswith("first to")) >= 18


def test_heuristic_spends_energy_to_guard_exposed_heroes() -> None:
    from tests.engine.tinybigwars.helpers import activation, blank, hero, put_card, sub

    s = activation(blank(["crane"], ["sage"]), [0, 1])
    for node, card in zip(["w", "c", "e"], ["gate", "counting", "hall"], strict=True):
        put_card(s, node, card)
    hero(s, 1, "sage").location = "c"
    hero(s, 0, "crane").energy = 2
    hero(s, 1, "sage").energy = 3
    s = sub(s, 0, {"hero": "h0-crane"})
    s = sub(s, 0, {"action": "move", "to": "c"})
    assert s.combat is not None
    s.combat.hits = [2, 2]
    prompt = next(p for p in G.prompts(s) if p.seat == 1)
    choice = engine.decide(G, HeuristicPolicy(), s, prompt, engine.rng_for(0, 0))
    assert choice == {"attack": 1, "guard": 2}
