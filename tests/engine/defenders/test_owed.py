"""Who owes what in a battle, found without building prompts (actions.play_kind), is exactly
what the prompts say: the same seats, kinds and order at every step, so a driver that answers
the first open prompt builds only the prompts up to it."""

from __future__ import annotations

import pytest

from bot.simulate import simulate
from engine.defenders import actions
from engine.defenders.state import DefendersState


@pytest.mark.parametrize(("seats", "seed", "policy", "options"), [
    (2, 1, "heuristic", {}), (1, 0, "random", {}), (3, 3, "random", {}), (4, 2, "heuristic", {"mode": "campaign"}),
    (2, 5, "random", {"difficulty": "hard"}),
])
def test_owed_is_what_the_prompts_ask(seats: int, seed: int, policy: str, options: dict[str, str]) -> None:
    kinds: set[str] = set()

    def on_step(state: object, _events: object) -> None:
        assert isinstance(state, DefendersState)
        if state.phase != "play":
            return
        built = [(prompt.seat, prompt.kind) for prompt in actions.prompts(state)]
        assert actions.PHASES.owed(state) == built, state.step
        kinds.update(kind for _, kind in built)

    simulate("defenders", seats, seed, policy, options=options, on_step=on_step)
    assert "defend" in kinds and kinds & {"all", "turn"}
