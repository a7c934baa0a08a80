"""Dice rolled by `engine.rng.roll_dice` are the numbers ``randint`` draws (stored matches depend on it)."""

from __future__ import annotations

import random

from engine.rng import lazy_rng_for, rng_for, roll_dice


def test_rolls_draw_what_randint_draws() -> None:
    """Every die size the games roll (and the awkward ones), many dice from one generator, the
    generator left where ``randint`` would leave it."""
    for sides in (1, 2, 3, 6, 7, 8, 12, 20, 100):
        for seed in range(20):
            ours, theirs = random.Random(seed), random.Random(seed)
            for count in (0, 1, 5, 37):
                assert roll_dice(ours, sides, count) == [theirs.randint(1, sides) for _ in range(count)]
            assert ours.random() == theirs.random()


def test_a_lazy_rng_draws_what_the_seeded_one_draws() -> None:
    lazy, seeded = lazy_rng_for(7, 3, "step"), rng_for(7, 3, "step")
    assert roll_dice(lazy, 12, 10) == [seeded.randint(1, 12) for _ in range(10)]
    assert lazy.random() == seeded.random()
