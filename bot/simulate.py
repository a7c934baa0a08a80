"""All-AI matches through the engine alone: benchmarks, tests and the `simulate` command.

``simulate`` is deliberately small and callback-driven so other commands can wrap it
(write images, store the match) without copying the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine
from engine.contract import Event, State

StepCallback = Callable[[State, list[Event]], None]


def simulate(
    key: str,
    seats: int,
    seed: int,
    policy: str = "heuristic",
    *,
    options: dict[str, Any] | None = None,
    on_step: StepCallback | None = None,
    max_steps: int = 200_000,
) -> dict[str, Any]:
    """Play one all-AI match; the AI's randomness is derived from (seed, step, seat) exactly as
    the match service derives it, so ``simulate --db`` stores the very same match.

    The match is played on one working copy (engine/working.py), every step in place: the
    state ``on_step`` receives is that copy, changed by the next step, so a callback reads it
    during the call and copies what it keeps.

    Returns the summary (game, seats, seed, winner, rounds, choices, log_sha256, reason)
    plus ``log`` (the choice log), ``phase_ends`` (public phase-end texts) and ``state``.
    """
    game = engine.get(key)
    policies = game.policies()
    if policy not in policies:
        raise ValueError(f"unknown policy {policy!r}; choose from {', '.join(sorted(policies))}")
    ai = policies[policy]
    opts = engine.parse_options(game, options)
    working = engine.Working(game, game.setup(seats, opts, seed), owned=True)
    state = working.state
    log: list[tuple[int, dict[str, Any]]] = []
    phase_ends: list[str] = []
    while game.result(state) is None:
        if len(log) >= max_steps:
            raise RuntimeError(f"{key} seed {seed}: no result after {max_steps} choices")
        prompt = working.next_prompt()  # the first open prompt; only the prompts up to it are built
        if prompt is None:
            raise RuntimeError(f"{key} seed {seed}: no open prompt and no result at step {state.step}")
        choice = engine.decide(game, ai, state, prompt, engine.lazy_rng_for(seed, state.step, f"ai:{prompt.seat}"))
        events = working.submit(prompt.seat, choice)
        log.append((prompt.seat, choice))
        state = working.state
        phase_ends += [e.text for e in events if e.phase_end and e.seats is None]
        if on_step is not None:
            on_step(state, events)
    result = game.result(state)
    assert result is not None
    return {
        "game": key,
        "seats": seats,
        "seed": seed,
        "policy": policy,
        "winner": list(result.winners),
        "draw": result.draw,
        "rounds": getattr(state, "round", None),
        "choices": len(log),
        "log_sha256": engine.log_sha256(log),
        "reason": result.reason,
        "scores": {str(k): v for k, v in sorted(result.scores.items())},
        "log": log,
        "phase_ends": phase_ends,
        "state": state,
    }
