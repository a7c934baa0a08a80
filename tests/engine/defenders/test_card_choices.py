"""The heuristic scores an AP card's choices listed from its seat's information state without
building the prompt (`seat_card_choices`): at every step of real matches they are the very
choices of the prompt's options, in order, so the heuristic chooses what it chose from the
options, and an all-AI driver leaves those prompts unbuilt."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from bot.simulate import simulate
from engine.defenders import GAME, DefendersGame
from engine.defenders.card_options import seat_card_choices, seat_card_options
from engine.defenders.state import DefendersState
from engine.kit.on_read import unbuilt


@pytest.mark.parametrize(("seats", "seed", "policy", "options"), [
    (1, 4, "heuristic", {}), (2, 5, "random", {}), (3, 2, "heuristic", {"difficulty": "hard"}),
    (4, 1, "random", {"mode": "campaign"}),
])
def test_card_choices_from_the_information_state_are_the_prompt_options(
        seats: int, seed: int, policy: str, options: dict[str, str]) -> None:
    listed: Counter[bool] = Counter()

    def on_step(state: object, _events: object) -> None:
        assert isinstance(state, DefendersState)
        for prompt in GAME.prompts(state):
            if prompt.kind not in ("turn", "all"):
                continue
            choices = seat_card_choices(GAME.information(state, prompt.seat), prompt.seat)
            offered = [option.choice for option in prompt.options]
            assert offered == [option.choice for option in seat_card_options(state, prompt.seat)]
            if choices is None:
                assert len(offered) == 25, "only a prompt cut to 25 options is left to its options"
            else:
                assert choices == offered, (state.step, prompt.seat)
            listed[choices is not None] += 1

    simulate("defenders", seats, seed, policy, options=options, on_step=on_step)
    assert listed[True] > 20


def test_an_all_ai_driver_leaves_the_ap_card_prompts_unbuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    game = engine.get("defenders")
    policy = game.policies()["heuristic"]
    working = engine.Working(game, game.setup(2, engine.parse_options(game, None), 3), owned=True)
    left: Counter[str] = Counter()
    while game.result(working.state) is None:
        prompt = working.next_prompt()
        assert prompt is not None
        choice = engine.decide(game, policy, working.state, prompt, engine.lazy_rng_for(3, working.state.step, "ai"))
        if unbuilt(prompt):
            left[prompt.kind] += 1
        working.submit(prompt.seat, choice)
    assert left["turn"] > 10 and left["all"] > 10
    eager = simulate("defenders", 2, 3, "heuristic")["log"]
    monkeypatch.setattr(DefendersGame, "prompts_on_read", False)
    assert simulate("defenders", 2, 3, "heuristic")["log"] == eager
