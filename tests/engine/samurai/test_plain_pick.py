"""A pick built without validation (answers.plain_pick, what SamuraiGame.parse takes for a
plain pick) is the very `Pick` validation makes: the same values in the same order, the same
fields set and the same JSON, for every option and default of the pick prompts of seeded
matches; anything not plainly a pick is left to validation, which parses or refuses it."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bot.simulate import simulate
from engine.contract import IllegalChoice
from engine.samurai.answers import Pick, plain_pick
from engine.samurai.state import SamuraiState


def assert_as_validated(choice: dict[str, Any]) -> None:
    built = plain_pick(choice)
    assert built is not None, choice
    validated = Pick.model_validate(choice, strict=False)
    assert built == validated
    assert list(built.__dict__.items()) == list(validated.__dict__.items())
    assert built.model_fields_set == validated.model_fields_set
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_dump(exclude_unset=True) == validated.model_dump(exclude_unset=True)


@pytest.mark.parametrize(("seats", "seed", "mode"), [(4, 3, "base"), (3, 4, "lwtv"), (5, 2, "quickstart")])
def test_every_pick_of_a_match_is_built_as_validation_builds_it(seats: int, seed: int, mode: str) -> None:
    game = engine.get("samurai")
    checked = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal checked
        assert isinstance(state, SamuraiState)
        for prompt in game.prompts(state):
            if prompt.answer is not Pick:
                continue
            for option in prompt.options:
                assert_as_validated(option.choice)
                checked += 1
            if prompt.default:
                assert_as_validated(prompt.default)

    simulate("samurai", seats, seed, "random", options={"mode": mode, "round_limit": 2}, on_step=on_step)
    assert checked > 1000


@pytest.mark.parametrize("choice", [
    {"act": "x", "count": 0}, {"act": "x", "bogus": 1}, {"province": "owari"}, {"act": None},
    {"act": "x", "to": "sea"}, {"act": 3}, {"act": "x", "army": "1"}, {"act": "x", "army": True},
    {"act": "x", "count": 2.0},
])
def test_anything_not_plainly_a_pick_is_left_to_validation(choice: dict[str, Any]) -> None:
    assert plain_pick(choice) is None


def test_a_choice_validation_refuses_is_refused_through_the_game() -> None:
    """A forged war choice reaches the player as validation words it, and changes nothing."""
    game = engine.get("samurai")
    played = simulate("samurai", 4, 3, "heuristic", options={"round_limit": 2})
    state = game.setup(4, engine.parse_options(game, {"round_limit": 2}), 3)
    for seat, choice in played["log"]:
        assert isinstance(state, SamuraiState)
        if state.phase == "war":
            break
        state = game.submit(state, seat, choice).state
    assert isinstance(state, SamuraiState) and state.phase == "war"
    seat = next(prompt.seat for prompt in game.prompts(state) if not prompt.answered)
    before = state.model_dump_json()
    with pytest.raises(IllegalChoice, match="count"):
        game.submit(state, seat, {"act": "done", "count": 0})
    with pytest.raises(IllegalChoice, match="unknown field 'bogus'"):
        game.submit(state, seat, {"act": "done", "bogus": 1})
    assert state.model_dump_json() == before
