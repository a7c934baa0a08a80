"""Tiny Epic Defenders: the heuristic AI's win rate per difficulty over seeded battles.

Each difficulty plays the same seeds (seat counts 1, 2, 3, 4 in turn) with every seat run by
the heuristic. The acceptance target: normal between 35% and 65%, harder levels lower.

Run: python benchmarks/defenders_balance.py [--matches 200] [--mode single] [--jobs 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.simulate import simulate  # noqa: E402

DIFFICULTIES = ("easy", "normal", "hard", "epic")


def one(job: tuple[int, str, str]) -> tuple[str, int, bool, int, int, str]:
    seed, difficulty, mode = job
    seats = 1 + seed % 4
    out = simulate("defenders", seats, seed, "heuristic", options={"mode": mode, "difficulty": difficulty})
    st = out["state"]
    return difficulty, seats, bool(out["winner"]), st.round, st.battle, out["reason"]


def kind_of(reason: str) -> str:
    if "defeated" in reason:
        return "boss defeated"
    if "Capital City fell" in reason:
        return "capital fell"
    if "round limit" in reason:
        return "round limit"
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--mode", default="single", choices=["single", "campaign"])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    jobs = [(seed, d, args.mode) for d in DIFFICULTIES for seed in range(args.matches)]
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        results = pool.map(one, jobs, chunksize=8)
    elapsed = time.perf_counter() - start
    print(f"Tiny Epic Defenders, mode {args.mode}, heuristic AI, {args.matches} seeded battles per difficulty "
          f"(1-4 seats), {elapsed:.1f} s")
    print(f"{'difficulty':<10} {'wins':>6} {'win %':>6} {'1 seat':>7} {'2':>5} {'3':>5} {'4':>5} "
          f"{'rounds':>7} {'battle':>7}  endings")
    for d in DIFFICULTIES:
        rows = [r for r in results if r[0] == d]
        wins = sum(r[2] for r in rows)
        per_seat = []
        for s in (1, 2, 3, 4):
            mine = [r for r in rows if r[1] == s]
            per_seat.append(f"{100 * sum(r[2] for r in mine) / max(1, len(mine)):.0f}%")
        rounds = sum(r[3] for r in rows) / len(rows)
        battle = sum(r[4] for r in rows) / len(rows)
        endings = Counter(kind_of(r[5]) for r in rows)
        print(f"{d:<10} {wins:>6} {100 * wins / len(rows):>5.1f}% {per_seat[0]:>7} {per_seat[1]:>5} "
              f"{per_seat[2]:>5} {per_seat[3]:>5} {rounds:>7.1f} {battle:>7.2f}  {dict(endings)}")


if __name__ == "__main__":
    main()
