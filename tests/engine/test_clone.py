"""The fast state copy: equal to the original, and changing the copy never changes the original."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

import engine
from engine.clone import clone
from engine.contract import State
from tests.games import KEYS, table_of


class Leaf(BaseModel):
    name: str
    counts: dict[str, int] = Field(default_factory=dict)


class Sample(State):
    kind: Literal["a", "b"] = "a"
    pairs: list[tuple[str, str]] = Field(default_factory=list)
    numbers: list[int] = Field(default_factory=list)
    leaves: list[Leaf] = Field(default_factory=list)
    by_name: dict[str, Leaf] = Field(default_factory=dict)
    maybe: Leaf | None = None
    loose: dict[str, Any] = Field(default_factory=dict)


def sample() -> Sample:
    return Sample(
        step=3,
        seed=9,
        pairs=[("a", "b")],
        numbers=[1, 2],
        leaves=[Leaf(name="x", counts={"k": 1})],
        by_name={"y": Leaf(name="y")},
        maybe=Leaf(name="z"),
        loose={"plan": {"swords": [1, 2]}, "leaf": Leaf(name="w"), "tuple": (1, [2])},
    )


def test_copy_is_equal_and_serialises_the_same() -> None:
    original = sample()
    copy = clone(original)
    assert copy == original
    assert copy.model_dump_json() == original.model_dump_json()
    assert type(copy) is Sample and copy.maybe is not None and type(copy.maybe) is Leaf


def test_changing_the_copy_leaves_the_original_alone() -> None:
    original = sample()
    before = original.model_dump_json()
    copy = clone(original)
    copy.numbers.append(3)
    copy.leaves[0].counts["k"] = 5
    copy.leaves.append(Leaf(name="new"))
    copy.by_name["y"].name = "renamed"
    assert copy.maybe is not None
    copy.maybe.counts["m"] = 1
    copy.loose["plan"]["swords"].append(3)
    copy.loose["leaf"].name = "changed"
    copy.loose["tuple"][1].append(4)
    copy.step += 1
    assert original.model_dump_json() == before


def test_copy_of_a_copy_that_changed_is_independent_too() -> None:
    first = clone(sample())
    first.leaves[0].counts["k"] = 7
    second = clone(first)
    second.leaves[0].counts["k"] = 8
    assert first.leaves[0].counts["k"] == 7


def test_live_objects_are_refused() -> None:
    state = sample()
    state.loose["rng"] = object()
    with pytest.raises(TypeError, match="plain data"):
        clone(state)


@pytest.mark.parametrize("key", KEYS)
def test_every_game_state_copies_exactly(key: str) -> None:
    game = engine.get(key)
    state = game.setup(table_of(key), engine.parse_options(game, {}), 5)
    policy = game.policies()["random"]
    for _ in range(60):
        if game.result(state) is not None:
            break
        copy = clone(state)
        assert copy == state and copy.model_dump_json() == state.model_dump_json()
        assert type(state).model_validate_json(state.model_dump_json()) == copy
        prompt = next(p for p in game.prompts(state) if not p.answered)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(5, state.step, "test"))
        state = game.submit(state, prompt.seat, choice).state
