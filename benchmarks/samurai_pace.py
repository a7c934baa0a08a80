"""Samurai Swords pace: how often a match hands the turn to another player.

In asynchronous play every wait for a player costs up to a deadline, so the number of
waits matters more than the number of clicks. A handoff is counted whenever the game starts
waiting for at least one player other than the one who just acted and who was not already
being waited for: a simultaneous step (plans, levies) is one handoff however many players
it waits for, a player's own sequence of choices is none, and optional prompts (the ninja's
standing offer) are never waited for. Open prompts are answered in a seeded random order,
as players answer in no fixed order, by the heuristic AI.

Goal of the round: at most seats + 4 handoffs in at least 99% of rounds.

Run: python benchmarks/samurai_pace.py [--seeds 50] [--seats 3,4,5] [--mode base,quickstart,lwtv]
     [--rounds 6] [--options '{"setup": "classic", "losses": "asked"}']
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402


def waiting(prompts: list[Any]) -> set[int]:
    """Seats the game waits for: open, unanswered prompts that are owed."""
    return {p.seat for p in prompts if not p.answered and not getattr(p, "optional", False)}


def play(seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One seeded heuristic match; handoffs before round 1 and per round, and what caused them."""
    game = engine.get("samurai")
    policy = game.policies()["heuristic"]
    order_rng = random.Random(f"pace:{seed}")
    state = game.setup(seats, engine.parse_options(game, options), seed)
    rounds: Counter[int] = Counter()
    causes: Counter[str] = Counter()
    waited: set[int] = set()
    last: int | None = None
    for _ in range(200_000):
        if game.result(state) is not None:
            break
        prompts = game.prompts(state)
        now = waiting(prompts)
        if now and not now <= waited and now != {last}:
            rounds[state.round] += 1
            causes[sorted({p.kind for p in prompts if p.seat in now - waited - {last}})[0]] += 1
        waited = now
        open_prompts = [p for p in prompts if not p.answered] or prompts
        prompt = order_rng.choice(open_prompts)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(seed, state.step, f"ai:{prompt.seat}"))
        state = game.submit(state, prompt.seat, choice).state
        if not getattr(prompt, "optional", False):
            last = prompt.seat
    return {"setup": rounds.pop(0, 0), "rounds": [rounds[r] for r in sorted(rounds)], "causes": causes}


def report(seats: int, seeds: int, options: dict[str, Any]) -> list[int]:
    """Play and print one configuration; its handoffs per round."""
    results = [play(seats, seed, options) for seed in range(seeds)]
    setup = [r["setup"] for r in results]
    per_round = [n for r in results for n in r["rounds"]]
    causes: Counter[str] = Counter()
    for r in results:
        causes.update(r["causes"])
    goal = seats + 4
    within = sum(n <= goal for n in per_round) / len(per_round)
    print(f"{seeds} seeded {seats}-seat matches, options {options}")
    print(f"  setup handoffs: mean {statistics.mean(setup):.1f}, max {max(setup)} (goal <= 2)")
    print(f"  round handoffs: mean {statistics.mean(per_round):.1f}, median {statistics.median(per_round):.0f}, "
          f"max {max(per_round)} over {len(per_round)} rounds (goal <= {goal}); "
          f"rounds within the goal: {within:.1%} (goal >= 99%)")
    print("  handoffs by the prompt that opened them: " + ", ".join(f"{k} {v}" for k, v in causes.most_common()))
    return [n - goal for n in per_round]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--seats", default="4", help="seat counts, comma-separated (3,4,5)")
    parser.add_argument("--mode", default="base", help="modes, comma-separated (base,quickstart,lwtv)")
    parser.add_argument("--rounds", type=int, default=6, help="round limit of each match")
    parser.add_argument("--options", default="{}", help="more match options as JSON")
    args = parser.parse_args()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    over: list[int] = []
    for mode in args.mode.split(","):
        for seats in (int(count) for count in args.seats.split(",")):
            options = {"mode": mode, "round_limit": args.rounds, **json.loads(args.options)}
            over += report(seats, args.seeds, options)
    print(f"all: {sum(n <= 0 for n in over)} of {len(over)} rounds within seats + 4 "
          f"({sum(n <= 0 for n in over) / len(over):.1%}; goal >= 99%)")
    print(f"time: {time.process_time() - cpu0:.1f} s CPU, {time.perf_counter() - wall0:.1f} s wall")


if __name__ == "__main__":
    main()
