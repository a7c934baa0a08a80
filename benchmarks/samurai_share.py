"""Samurai Swords: seeded 4-seat heuristic matches: how they end and which seats win.

A real victory is 35 provinces or the last house standing, not the round limit; the share
of those shows whether the heuristic actually conquers. The wins by seat show whether the AI
favours a seat: with every seat played by the same policy each should win about 1/seats of
the matches (the target: within 5 points). CPU time is summed over the worker processes.

Run: python benchmarks/samurai_share.py [--matches 200] [--seats 4] [--mode base] [--processes 2]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

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


def one_match(job: tuple[int, int, dict[str, Any]]) -> dict[str, Any]:
    """Play one seeded match; returns its end, winners, rounds and the CPU seconds it took."""
    seed, seats, options = job
    cpu0, wall0 = time.process_time(), time.perf_counter()
    out = simulate("samurai", seats, seed, "heuristic", options=options)
    return {"seed": seed, "reason": kind_of(out["reason"]), "rounds": out["rounds"], "winners": out["winner"],
            "cpu": time.process_time() - cpu0, "wall": time.perf_counter() - wall0}


def chi_square_p(observed: list[int]) -> float:
    """p-value of a chi-square test that the counts are equal (Wilson-Hilferty approximation)."""
    total = sum(observed)
    k = len(observed)
    if total == 0 or k < 2:
        return 1.0
    expected = total / k
    chi2 = sum((o - expected) ** 2 / expected for o in observed)
    df = k - 1
    z = ((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--mode", default="base")
    parser.add_argument("--round-limit", type=int, default=30)
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    options = {"mode": args.mode, "round_limit": args.round_limit}
    jobs = [(seed, args.seats, options) for seed in range(args.first_seed, args.first_seed + args.matches)]
    start = time.perf_counter()
    if args.processes > 1:
        with ProcessPoolExecutor(max_workers=args.processes) as pool:
            results = list(pool.map(one_match, jobs, chunksize=4))
    else:
        results = [one_match(job) for job in jobs]
    elapsed = time.perf_counter() - start
    reasons = Counter(r["reason"] for r in results)
    rounds = [r["rounds"] for r in results]
    wins: Counter[int] = Counter(w for r in results for w in r["winners"])
    total_wins = sum(wins.values())
    cpu = sum(r["cpu"] for r in results)
    real = reasons["provinces"] + reasons["elimination"]
    print(f"{args.matches} seeded {args.seats}-seat {args.mode} heuristic matches "
          f"(seeds {args.first_seed}-{args.first_seed + args.matches - 1}, {args.processes} processes)")
    print(f"ended by provinces or elimination: {real} ({real / args.matches:.1%})")
    print("end reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    print(f"rounds: mean {sum(rounds) / len(rounds):.2f}, max {max(rounds)}")
    counts = [wins[s] for s in range(args.seats)]
    fair = 100 / args.seats
    shares = [100 * c / total_wins for c in counts] if total_wins else [0.0] * args.seats
    print("wins by seat: " + ", ".join(f"seat {s} {c} ({share:.1f}%)" for s, (c, share) in enumerate(zip(counts, shares,
                                                                                                         strict=True))))
    worst = max(abs(share - fair) for share in shares)
    print(f"largest distance from {fair:.0f}%: {worst:.1f} points "
          f"({'within' if worst <= 5 else 'outside'} 5); chi-square p = {chi_square_p(counts):.3f}")
    print(f"time: {cpu:.1f} s CPU, {elapsed:.1f} s wall, {args.matches / elapsed:.2f} matches/s, "
          f"slowest match {max(r['wall'] for r in results):.2f} s")


if __name__ == "__main__":
    main()
