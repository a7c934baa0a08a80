"""Property tests: random legal play always ends; states round-trip; sealed choices never leak.

A seeded sample of random-policy matches over 2, 3 and 4 seats (`benchmarks/soak.py --game
tinybigwars` plays the same series on, 300 matches and more). After every accepted step the
state must survive a JSON round trip unchanged. Whenever a seat holds a sealed choice, we plant a
distinctive value in its place: the public view and every other seat's view must be identical to
the real ones and must not contain the plant, while the sealing seat's own view must show it.
Each match's log must replay exactly. One answer in ten is the prompt's deadline default, so
every default is proven legal.
"""

from __future__ import annotations

import pytest

from tests.engine.random_matches import tinybigwars_match, tinybigwars_play

SAMPLE = 12
CHUNK = 4
"""Four matches a test: every seat count (with its round limit) comes up in each chunk."""


@pytest.mark.parametrize("chunk", range(SAMPLE // CHUNK))
def test_random_matches_end_round_trip_replay_and_keep_secrets(chunk: int) -> None:
    checks = 0
    for n in range(chunk * CHUNK, (chunk + 1) * CHUNK):
        match = tinybigwars_match(n)
        out = tinybigwars_play(match.seats, match.seed, match.options["round_limit"])
        assert out["reason"] in {"influence", "round_limit", "last_clan"}
        checks += out["sealed_checks"]
    assert checks > 0  # the privacy check really ran
