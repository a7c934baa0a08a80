"""``prompts(state, only=seat)``, what submit builds, is exactly that seat's part of ``prompts(state)``."""

from __future__ import annotations

import pytest

import engine
from engine.defenders import actions as defenders_rules
from engine.samurai import phases as samurai_rules
from engine.tinybigwars import rules as tinybigwars_rules

SEAT_PROMPTS = {"tinybigwars": tinybigwars_rules.prompts, "samurai": samurai_rules.prompts,
                "defenders": defenders_rules.prompts}


@pytest.mark.parametrize(("key", "seats", "options"), [
    ("tinybigwars", 4, {}),
    ("samurai", 4, {"round_limit": 2}),
    ("samurai", 3, {"mode": "lwtv", "round_limit": 2}),
    ("defenders", 3, {}),
])
def test_one_seats_prompts_equal_its_share_of_all(key: str, seats: int, options: dict[str, object]) -> None:
    game = engine.get(key)
    state = game.setup(seats, engine.parse_options(game, options), 11)
    policy = game.policies()["heuristic"]
    for _ in range(3000):
        if game.result(state) is not None:
            break
        every = game.prompts(state)
        for seat in range(seats):
            mine = SEAT_PROMPTS[key](state, only=seat)
            assert [(p.answer, p.model_dump()) for p in mine] == [(p.answer, p.model_dump()) for p in every if p.seat == seat]
        prompt = next(p for p in every if not p.answered)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(11, state.step, f"ai:{prompt.seat}"))
        state = game.submit(state, prompt.seat, choice).state
    assert game.result(state) is not None


def test_tinybigwars_owed_kinds_are_the_prompts_kinds() -> None:
    """Submit builds only the answering seat's prompt, found through ``owed``: both must agree."""
    game = engine.get("tinybigwars")
    for seed, policy in ((21, "heuristic"), (22, "random")):
        state = game.setup(3, engine.parse_options(game, {}), seed)
        while game.result(state) is None:
            every = game.prompts(state)
            assert [(p.seat, p.kind) for p in every] == tinybigwars_rules.owed(state)
            prompt = next(p for p in every if not p.answered)
            choice = engine.decide(game, game.policies()[policy], state, prompt, engine.rng_for(seed, state.step, "test"))
            state = game.submit(state, prompt.seat, choice).state
