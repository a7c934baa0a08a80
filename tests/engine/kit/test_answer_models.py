"""A phase that declares its answer models parses answers without building the prompt: the
model it declares must be the very one its prompt asks for, at every decision of a match."""

from __future__ import annotations

import pytest

import engine
from bot.simulate import simulate
from engine.contract import State
from engine.kit import KitGame


@pytest.mark.parametrize(("key", "seats", "policy", "options"), [
    ("tinybigwars", 3, "heuristic", None), ("tinybigwars", 2, "random", None),
    ("samurai", 4, "random", {"round_limit": 2}), ("defenders", 2, "random", None),
])
def test_the_declared_answer_model_is_the_prompts(key: str, seats: int, policy: str,
                                                  options: dict[str, int] | None) -> None:
    game = engine.get(key)
    assert isinstance(game, KitGame)
    checked: list[str] = []

    def check(state: State, _events: object) -> None:
        for prompt in game.prompts(state):
            asked = game.phases.asked_of(state, prompt.seat)
            assert asked is not None and asked.kind in {p.kind for p in game.prompts(state) if p.seat == prompt.seat}
            built = asked.prompt
            assert asked.answer is built.answer, f"{key} {asked.kind}: declared {asked.answer}, asked {built.answer}"
            checked.append(asked.kind)

    simulate(key, seats, 7, policy, options=options, on_step=check)
    assert checked
