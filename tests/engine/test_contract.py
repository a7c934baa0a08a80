"""The shared engine contract: derived RNG, choice parsing, log hashing, registry, replay."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict

import engine
from engine.contract import Game, IllegalChoice


def test_rng_for_is_deterministic_per_seed_step_and_salt() -> None:
    a = [engine.rng_for(7, 3).random() for _ in range(2)]
    assert a[0] == a[1]
    assert engine.rng_for(7, 3).random() != engine.rng_for(7, 4).random()
    assert engine.rng_for(7, 3).random() != engine.rng_for(8, 3).random()
    assert engine.rng_for(7, 3, "ai").random() != engine.rng_for(7, 3).random()
    assert engine.derive_seed(1, 2) == engine.derive_seed(1, 2)


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    count: int


def test_parse_choice_accepts_good_and_explains_bad_choices() -> None:
    assert engine.parse_choice(_Answer, {"count": "3"}).count == 3
    with pytest.raises(IllegalChoice, match="not list"):
        engine.parse_choice(_Answer, [1])
    with pytest.raises(IllegalChoice, match="unknown field 'x'"):
        engine.parse_choice(_Answer, {"count": 1, "x": 2})
    with pytest.raises(IllegalChoice, match="'count' is missing"):
        engine.parse_choice(_Answer, {})
    with pytest.raises(IllegalChoice, match="'count'"):
        engine.parse_choice(_Answer, {"count": "many"})


def test_log_sha256_is_stable_and_order_sensitive() -> None:
    log = [(0, {"b": 1, "a": 2}), (1, {"x": [1, 2]})]
    assert engine.log_sha256(log) == engine.log_sha256([(0, {"a": 2, "b": 1}), (1, {"x": [1, 2]})])
    assert engine.log_sha256(log) != engine.log_sha256(list(reversed(log)))
    assert len(engine.log_sha256([])) == 64


def test_registry_knows_tinybigwars_and_it_meets_the_protocol() -> None:
    game = engine.get("tinybigwars")
    assert isinstance(game, Game)
    assert game.key == "tinybigwars" and game.seats == range(2, 5)
    assert "tinybigwars" in engine.games()
    assert set(game.policies()) == {"random", "heuristic", "search"}
    with pytest.raises(KeyError):
        engine.get("chess")


def test_replay_rebuilds_the_state_bit_for_bit() -> None:
    from bot.simulate import simulate

    out = simulate("tinybigwars", 3, 11, "heuristic")
    rebuilt = engine.replay("tinybigwars", 3, None, 11, out["log"])
    assert rebuilt.model_dump_json() == out["state"].model_dump_json()
    shorter = engine.replay("tinybigwars", 3, None, 11, out["log"][:-1])
    assert shorter.model_dump_json() != out["state"].model_dump_json()


def test_same_seed_same_setup_and_json_round_trip() -> None:
    game = engine.get("tinybigwars")
    opts = engine.parse_options(game, {"point_limit": 20})
    a, b = game.setup(4, opts, 3), game.setup(4, opts, 3)
    assert a == b
    again = game.state_model().model_validate_json(a.model_dump_json())
    assert again == a


def test_same_json_tells_values_equal_in_python_but_not_in_json() -> None:
    """An answer must be an option's choice exactly as JSON writes it: 1 is not True, 1.0
    is not 1, and key order or list against tuple does not matter."""
    from engine.validate import canonical_json, same_json

    pairs = [
        ({"act": "move", "d": 1}, {"d": 1, "act": "move"}),
        ({"act": "move", "d": 1}, {"act": "move", "d": True}),
        ({"act": "move", "d": 1}, {"act": "move", "d": 1.0}),
        ({"to": [1, {"x": False}]}, {"to": [1, {"x": 0}]}),
        ({"d": None}, {"d": None}),
        ({1: "a"}, {1: "a"}),
        ({1: "a"}, {1.0: "a"}),
    ]
    for first, second in pairs:
        assert first == second
        assert same_json(first, second) == (canonical_json(first) == canonical_json(second)), (first, second)
