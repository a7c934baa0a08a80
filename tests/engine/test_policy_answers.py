"""Every policy of every game answers in its prompt's own input shape.

Random-policy matches of every registered game, mode and seat count (and the options that
change which prompts are asked) are played to the end; at every step every policy the game
offers is asked for its answer to every prompt open then, and each answer must parse with that
prompt's answer model and use only the prompt's own fields (a `numbers` prompt's field names,
a `multi` prompt's field and option values). An answer of another shape is refused by the
engine, which stops a match the AI drives.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.contract import Prompt
from engine.validate import parse_choice

SEEDS = {"tinybigwars": (1, 2), "defenders": (1, 2)}
"""Two seeds per configuration where a match is quick; Samurai's matches are long enough that one
each (seed 1 or 2 by seat count, so both come up in every mode) meets its prompts."""
SHORT = {"tinybigwars": {"round_limit": 4}, "samurai": {"round_limit": 2}, "defenders": {"round_limit": 6}}
"""Round limits that end every match quickly (the prompts met are those of a whole round)."""
MORE = {"samurai": [{"setup": "classic", "steps": "classic"}]}
"""Options that change which prompts a game asks, played beside each mode's defaults."""


def configurations() -> list[tuple[str, int, dict[str, Any]]]:
    found = []
    for key, game in sorted(engine.games().items()):
        modes: list[dict[str, Any]] = [{"mode": mode} for mode in game.info.modes] or [{}]
        variants = [*modes, *({**modes[0], **extra} for extra in MORE.get(key, []))]
        for seats in game.info.seats:
            for options in variants:
                found.append((key, seats, {**SHORT[key], **options}))
    return found


def shape_problem(prompt: Prompt, choice: dict[str, Any]) -> str | None:
    """Why ``choice`` is not an answer of the prompt's input shape, or None."""
    try:
        parse_choice(prompt.answer, choice)
    except engine.IllegalChoice as exc:
        return f"does not parse with {prompt.answer.__name__}: {exc}"
    if prompt.input == "numbers":
        unknown = set(choice) - {field.name for field in prompt.fields}
        if unknown:
            return f"names fields the prompt does not have: {sorted(unknown)}"
    if prompt.input == "multi":
        if set(choice) != {prompt.field}:
            return f"a multi answer is {{{prompt.field!r}: [...]}}"
        values = {option.value for option in prompt.options}
        if not set(choice[prompt.field]) <= values:
            return "picks values that are not options"
    return None


@pytest.mark.parametrize(("key", "seats", "options"), configurations(),
                         ids=lambda value: value if isinstance(value, str | int) else
                         ",".join(f"{k}={v}" for k, v in value.items()))
def test_every_policy_answers_in_the_prompts_shape(key: str, seats: int, options: dict[str, Any]) -> None:
    game = engine.get(key)
    policies = game.policies()
    # the search AI proposes and tries its candidates in one world each and answers with one of
    # them; asked at every fourth step, since a search on every prompt of whole matches costs minutes
    policies["search"] = policies["search"].bounded(rounds=1, depth=0, width=3)
    for seed in SEEDS.get(key, (1 + seats % 2,)):
        state = game.setup(seats, engine.parse_options(game, options), seed)
        order = random.Random(f"order:{seed}")
        for _ in range(20_000):
            if game.result(state) is not None:
                break
            prompts = game.prompts(state)
            for prompt in prompts:
                for name, policy in policies.items():
                    if name == "search" and state.step % 4:
                        continue
                    choice = engine.decide(game, policy, state, prompt, engine.rng_for(seed, state.step, f"{name}:{prompt.seat}"))
                    problem = shape_problem(prompt, choice)
                    assert problem is None, (f"{key} {name} policy, seed {seed} step {state.step}, "
                                             f"{prompt.kind} ({prompt.input}): {choice} {problem}")
            prompt = order.choice([p for p in prompts if not p.answered] or prompts)
            choice = engine.decide(game, policies["random"], state, prompt, engine.rng_for(seed, state.step, f"ai:{prompt.seat}"))
            state = game.submit(state, prompt.seat, choice).state
        assert game.result(state) is not None, f"{key} seed {seed} did not end"
