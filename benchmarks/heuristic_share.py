"""Share of seeded 3-seat heuristic-vs-heuristic matches that end by the influence victory.

Run: python benchmarks/heuristic_share.py [--matches 200]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.simulate import simulate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args()
    reasons: Counter[str] = Counter()
    rounds: list[int] = []
    wins: Counter[int] = Counter()
    for seed in range(args.matches):
        out = simulate("tinybigwars", args.seats, seed, "heuristic")
        reasons[out["reason"]] += 1
        rounds.append(out["rounds"])
        for w in out["winner"]:
            wins[w] += 1
    share = reasons["influence"] / args.matches
    print(f"{args.matches} seeded {args.seats}-seat heuristic matches")
    print(f"influence victory: {reasons['influence']} ({share:.1%})")
    print("end reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    print(f"rounds: mean {sum(rounds) / len(rounds):.2f}, max {max(rounds)}")
    print("wins by seat: " + ", ".join(f"seat {k} {v}" for k, v in sorted(wins.items())))


if __name__ == "__main__":
    main()
