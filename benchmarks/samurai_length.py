"""Samurai Swords: how long seeded heuristic matches last, and what the AI chose in them.

An AI worth playing against ends its matches: a match that drags on for thirty rounds of
provinces changing hands is a poor opponent and slows every test and benchmark that plays
one. Per mode: choices and rounds (median, 10th and 90th percentile, range), how matches end,
wins by seat, and the AI's war profile per match (attacks declared, battles called off,
koku put in each plan bin). No round limit unless given.

Run: python benchmarks/samurai_length.py [--seeds 20] [--seats 4] [--mode base,quickstart,lwtv]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402


@dataclass
class Played:
    """One match: its length, how it ended and what the AI chose."""

    seed: int
    choices: int
    rounds: int
    ending: str
    winners: list[int]
    cpu: float
    acts: Counter[str] = field(default_factory=Counter)
    plan: Counter[str] = field(default_factory=Counter)


def ending_of(reason: str) -> str:
    if "becomes Shogun" in reason:
        return "provinces"
    if "last round" in reason:
        return "last round"
    return "other"


def play(mode: str, seats: int, seed: int, round_limit: int | None) -> Played:
    """The match as the simulator plays it: the first open prompt answered each step."""
    game = engine.get("samurai")
    policy = game.policies()["heuristic"]
    options = {"mode": mode} | ({"round_limit": round_limit} if round_limit else {})
    started = time.process_time()
    working = engine.Working(game, game.setup(seats, engine.parse_options(game, options), seed), owned=True)
    acts: Counter[str] = Counter()
    plan: Counter[str] = Counter()
    choices = 0
    while game.result(working.state) is None:
        state = working.state
        prompt = next(p for p in game.prompts(state) if not p.answered)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(seed, state.step, f"ai:{prompt.seat}"))
        if prompt.kind in ("declare_target", "chain", "battle"):
            acts[f"{prompt.kind} {choice.get('act')}"] += 1
        if prompt.kind == "plan":
            plan.update({key: value for key, value in choice.items() if isinstance(value, int)})
        working.submit(prompt.seat, choice)
        choices += 1
    result = game.result(working.state)
    assert result is not None
    return Played(seed, choices, int(getattr(working.state, "round", 0)), ending_of(result.reason),
                  list(result.winners), time.process_time() - started, acts, plan)


def spread(values: list[int]) -> str:
    ordered = sorted(values)

    def at(share: float) -> int:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
    return (f"median {statistics.median(ordered):g}, 10th-90th {at(0.1)}-{at(0.9)}, "
            f"range {ordered[0]}-{ordered[-1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--mode", default="base,quickstart,lwtv", help="modes, comma-separated")
    parser.add_argument("--round-limit", type=int, default=None)
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    for mode in args.mode.split(","):
        matches = [play(mode, args.seats, seed, args.round_limit) for seed in seeds]
        count = len(matches)
        wins = Counter(winner for match in matches for winner in match.winners)
        acts = sum((match.acts for match in matches), Counter())
        plan = sum((match.plan for match in matches), Counter())
        print(f"{mode}, {args.seats} seats, seeds {seeds.start}-{seeds.stop - 1}:")
        print(f"  choices: {spread([match.choices for match in matches])}")
        print(f"  rounds:  {spread([match.rounds for match in matches])}")
        print("  ends: " + ", ".join(f"{name} {number}" for name, number in
                                     sorted(Counter(match.ending for match in matches).items())))
        print("  wins by seat: " + ", ".join(f"seat {seat} {wins[seat]}" for seat in range(args.seats)))
        print("  a match, on average: " + ", ".join(f"{name} {number / count:.1f}" for name, number in
                                                     sorted(acts.items())))
        print("  koku in plan bins a match: " + ", ".join(f"{name} {number / count:.1f}" for name, number in
                                                           sorted(plan.items())))
        print(f"  CPU a match: {statistics.mean(match.cpu for match in matches):.2f} s")


if __name__ == "__main__":
    main()
