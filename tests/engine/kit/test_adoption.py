"""The games built on the kit: their RNG derivations are pinned and their tables cover every prompt."""

from __future__ import annotations

import random

import engine
from engine.defenders import actions as defenders_actions
from engine.kit import StepRandom
from engine.tinybigwars import rules as tinybigwars_rules


def test_the_rng_derivations_stay_as_the_stored_matches_were_played() -> None:
    """Changing either would replay every stored match with other dice (engine/kit/flow.py)."""
    assert StepRandom(salt="", counts_first=False) == tinybigwars_rules.STEP_RANDOM
    assert StepRandom(salt="step", counts_first=True) == defenders_actions.STEP_RANDOM


def test_tiny_big_wars_declares_its_phases_sealed_forces_and_clan_end() -> None:
    table = tinybigwars_rules.PHASES
    assert set(table.phases) == {"force", "clan", "activation", "combat", "over"}
    assert table.phases["force"].sealed is not None and table.phases["clan"].done is not None


def _kinds_played(key: str, seats: int, seed: int, options: dict[str, object]) -> set[tuple[str, str]]:
    """(phase, prompt kind) of every prompt in one seeded random match."""
    game = engine.get(key)
    policy = game.policies()["random"]
    state = game.setup(seats, engine.parse_options(game, options), seed)
    rng = random.Random(seed)
    seen: set[tuple[str, str]] = set()
    for _ in range(3_000):
        if game.result(state) is not None:
            break
        prompts = [prompt for prompt in game.prompts(state) if not prompt.answered]
        seen.update((state.phase, prompt.kind) for prompt in prompts)  # type: ignore[attr-defined]
        prompt = prompts[0]
        state = game.submit(state, prompt.seat, engine.decide(game, policy, state, prompt, rng)).state
    return seen


def test_every_prompt_a_defenders_match_asks_has_a_handler_in_its_phase() -> None:
    table = defenders_actions.PHASES
    seen = _kinds_played("defenders", 2, 5, {"mode": "campaign"})
    assert {"skill", "turn", "defend"} <= {kind for _, kind in seen}
    for phase, kind in seen:
        assert kind in table.phases[phase].handlers, (phase, kind)


def test_every_prompt_a_tiny_big_wars_match_asks_has_a_handler_in_its_phase() -> None:
    table = tinybigwars_rules.PHASES
    seen = _kinds_played("tinybigwars", 3, 2, {})
    assert {"force", "clan", "activate", "action"} <= {kind for _, kind in seen}
    for phase, kind in seen:
        assert kind in table.phases[phase].handlers, (phase, kind)
