"""Digests of whole seeded AI matches, to prove an engine change keeps every replay bit-identical.

A digest covers more than the choice log: every state in between (its JSON), every event and
every prompt a player would have been shown. Speed work may change how these are computed,
never what they are.

Record the table in tests/engine/test_replay_hashes.py again (only after a deliberate rules
change) with: python -m tests.engine.replay_digest
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

import engine


@dataclass(frozen=True)
class Match:
    """One seeded all-AI match: which game, how many seats, which policy, which options."""

    game: str
    seats: int
    seed: int
    policy: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        extra = ",".join(f"{key}={value}" for key, value in self.options)
        return f"{self.game}-{self.seats}-{self.seed}-{self.policy}" + (f"-{extra}" if extra else "")


@dataclass(frozen=True)
class Digest:
    choices: int
    log_sha256: str
    play_sha256: str
    """States, events and prompts of every step, in order."""


def play(match: Match, max_steps: int = 50_000) -> Digest:
    """Play ``match`` by its AI, answering open prompts in a seeded random order (several
    seats' secret prompts are answered in no fixed order, as real players do)."""
    game = engine.get(match.game)
    policy = game.policies()[match.policy]
    state = game.setup(match.seats, engine.parse_options(game, dict(match.options)), match.seed)
    order = random.Random(f"digest:{match.seed}")
    play_hash = hashlib.sha256(state.model_dump_json().encode())
    log: list[tuple[int, dict[str, Any]]] = []
    while game.result(state) is None:
        if len(log) >= max_steps:
            raise RuntimeError(f"{match.label}: no result after {max_steps} choices")
        prompts = game.prompts(state)
        play_hash.update(json.dumps([p.model_dump(mode="json") for p in prompts], sort_keys=True).encode())
        open_prompts = [p for p in prompts if not p.answered]
        prompt = order.choice(open_prompts)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(match.seed, state.step, f"ai:{prompt.seat}"))
        step = game.submit(state, prompt.seat, choice)
        log.append((prompt.seat, choice))
        state = step.state
        play_hash.update(json.dumps([e.model_dump(mode="json") for e in step.events], sort_keys=True).encode())
        play_hash.update(state.model_dump_json().encode())
    result = game.result(state)
    assert result is not None
    play_hash.update(result.model_dump_json().encode())
    return Digest(choices=len(log), log_sha256=engine.log_sha256(log), play_sha256=play_hash.hexdigest())


MATCHES = [
    *(Match("tinybigwars", seats, seed, "heuristic") for seats in (2, 3, 4) for seed in (0, 1, 2)),
    *(Match("tinybigwars", seats, seed, "random") for seats in (2, 4) for seed in (3, 4)),
    Match("tinybigwars", 3, 5, "heuristic", (("point_limit", 40), ("to_win", 14))),
    Match("samurai", 4, 0, "heuristic"),
    Match("samurai", 3, 1, "heuristic", (("round_limit", 4),)),
    Match("samurai", 5, 2, "heuristic", (("mode", "quickstart"), ("round_limit", 3))),
    Match("samurai", 4, 3, "heuristic", (("mode", "lwtv"), ("round_limit", 3))),
    Match("samurai", 4, 4, "heuristic", (("setup", "classic"), ("steps", "classic"), ("round_limit", 2))),
    Match("samurai", 3, 5, "random", (("round_limit", 3),)),
    Match("samurai", 5, 6, "random", (("mode", "lwtv"), ("round_limit", 2))),
    Match("samurai", 4, 10, "heuristic", (("mode", "lwtv"), ("round_limit", 5))),  # a discard as an interrupt
    Match("defenders", 1, 0, "heuristic"),
    Match("defenders", 2, 1, "heuristic", (("difficulty", "hard"),)),
    Match("defenders", 4, 2, "heuristic", (("mode", "campaign"),)),
    Match("defenders", 3, 3, "random"),
]


if __name__ == "__main__":
    for match in MATCHES:
        digest = play(match)
        print(f'    "{match.label}": ({digest.choices}, "{digest.log_sha256}", "{digest.play_sha256}"),')
