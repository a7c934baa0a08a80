"""Engine speed: full all-AI Tiny Big Wars matches per second, heuristic and random play.

Run: python benchmarks/engine.py [--matches N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.simulate import simulate  # noqa: E402


def bench(policy: str, matches: int, seats: int) -> tuple[float, float]:
    """(matches per second, choices per second) over seeds 0..matches-1."""
    start = time.perf_counter()
    choices = 0
    for seed in range(matches):
        choices += simulate("tinybigwars", seats, seed, policy)["choices"]
    elapsed = time.perf_counter() - start
    return matches / elapsed, choices / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args()
    for policy in ("heuristic", "random"):
        per_s, choices_s = bench(policy, args.matches, args.seats)
        print(f"{policy:9s} {args.seats} seats: {per_s:7.2f} matches/s  {choices_s:8.0f} choices/s  ({args.matches} matches)")


if __name__ == "__main__":
    main()
