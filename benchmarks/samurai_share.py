"""Samurai Swords: share of seeded 4-seat base heuristic matches that end by a real victory.

A real victory is 35 provinces or the last house standing, not the round limit. The
figure shows whether the heuristic actually conquers; matches per second shows the cost.

Run: python benchmarks/samurai_share.py [--matches 100] [--seats 4] [--mode base]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.simulate import simulate  # noqa: E402


def kind_of(reason: str) -> str:
    """Sort the engine's end text into provinces, elimination, round limit or other."""
    if "becomes Shogun" in reason:
        return "provinces"
    if "standing" in reason or "only one house" in reason:
        return "elimination"
    if "round limit" in reason:
        return "round limit"
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--mode", default="base")
    parser.add_argument("--round-limit", type=int, default=30)
    args = parser.parse_args()
    options = {"mode": args.mode, "round_limit": args.round_limit}
    reasons: Counter[str] = Counter()
    rounds: list[int] = []
    wins: Counter[int] = Counter()
    slowest = 0.0
    start = time.perf_counter()
    for seed in range(args.matches):
        t0 = time.perf_counter()
        out = simulate("samurai", args.seats, seed, "heuristic", options=options)
        slowest = max(slowest, time.perf_counter() - t0)
        reasons[kind_of(out["reason"])] += 1
        rounds.append(out["rounds"])
        for w in out["winner"]:
            wins[w] += 1
    elapsed = time.perf_counter() - start
    real = reasons["provinces"] + reasons["elimination"]
    print(f"{args.matches} seeded {args.seats}-seat {args.mode} heuristic matches")
    print(f"ended by provinces or elimination: {real} ({real / args.matches:.1%})")
    print("end reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    print(f"rounds: mean {sum(rounds) / len(rounds):.2f}, max {max(rounds)}")
    print("wins by seat: " + ", ".join(f"seat {k} {v}" for k, v in sorted(wins.items())))
    print(f"speed: {args.matches / elapsed:.2f} matches/s, slowest match {slowest:.2f} s")


if __name__ == "__main__":
    main()
