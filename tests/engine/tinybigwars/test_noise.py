"""The heuristic's noise drawn only where it could change a decision (engine/tinybigwars/ai.py
`_pick_without_noise`, `_clear_winner`, `_sole_top`): a decision's RNG is seeded on its first draw, and a
decision whose noise cannot change its answer is made without it, to the same answer."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
import engine.rng
from bot.simulate import simulate
from engine.tinybigwars import ai


def _play(seats: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[int, dict[str, object]]], int]:
    """The heuristic's choice log of one match and how many of its decisions seeded their RNG."""
    seeded: Counter[str] = Counter()
    make = engine.rng.rng_for

    def counting(seed: int, step: int, salt: str = "") -> object:
        seeded[salt.split(":")[0]] += 1
        return make(seed, step, salt)

    monkeypatch.setattr(engine.rng, "rng_for", counting)
    log = simulate("tinybigwars", seats, seed, "heuristic")["log"]
    monkeypatch.setattr(engine.rng, "rng_for", make)
    return log, seeded["ai"]


def _draw_always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "_pick_without_noise", lambda values, spread, floor: (False, None))
    monkeypatch.setattr(ai, "_clear_winner", lambda values, spread: None)
    monkeypatch.setattr(ai, "_sole_top", lambda ranks: None)


@pytest.mark.parametrize(("seats", "seed"), [(2, 7), (3, 8), (4, 9)])
def test_decisions_made_without_noise_are_those_made_with_it(seats: int, seed: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    quiet, quiet_seeded = _play(seats, seed, monkeypatch)
    _draw_always(monkeypatch)
    drawn, drawn_seeded = _play(seats, seed, monkeypatch)
    assert quiet == drawn
    assert quiet_seeded * 2 < drawn_seeded, "most decisions need no noise"


def test_a_pick_without_noise_holds_only_past_the_noise() -> None:
    assert ai._pick_without_noise([0.5, 0.44], 0.05, 0.15) == (True, 0)
    assert ai._pick_without_noise([0.5, 0.46], 0.05, 0.15) == (False, None), "0.46 + noise may pass 0.5"
    assert ai._pick_without_noise([0.09, 0.0], 0.05, 0.15) == (True, None), "nothing reaches the floor"
    assert ai._pick_without_noise([0.12], 0.05, 0.15) == (False, None), "0.12 + noise may pass 0.15"
    assert ai._pick_without_noise([], 0.05, 0.15) == (True, None)


def _play_on_one_random(seed: int) -> tuple[list[dict[str, object]], object]:
    """A match whose every decision draws from one `random.Random` (as a search AI's playout
    does): its choices and where the RNG ends."""
    game = engine.get("tinybigwars")
    policy = game.policies()["heuristic"]
    rng = random.Random(seed)
    working = engine.Working(game, game.setup(3, engine.parse_options(game, None), seed), owned=True)
    choices = []
    while game.result(working.state) is None:
        prompt = working.next_prompt()
        assert prompt is not None
        choice = engine.decide(game, policy, working.state, prompt, rng)
        working.submit(prompt.seat, choice)
        choices.append(choice)
    return choices, rng.getstate()


def test_a_random_shared_by_many_decisions_draws_all_their_noise(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each decision draws as it always did, so those after it see the same numbers."""
    shared = _play_on_one_random(11)
    _draw_always(monkeypatch)
    assert shared == _play_on_one_random(11)
