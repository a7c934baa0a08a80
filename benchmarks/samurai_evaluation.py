"""Fits the Samurai search's evaluation (engine/samurai/search_eval.py) on heuristic matches.

Seeded 4-seat heuristic matches (base mode) are played to the end; every ``--every`` choices
the position of each living house is read (`search_eval.features`) and labelled with who won
the match. A conditional logit (a house's chance is its share of exp(weights . features) over
the living houses) is fitted by Newton's method on the training seeds, then judged on held-out
seeds by its log loss per snapshot beside two references: every living house equally likely,
and the province lead the search used before (its value per house, normalised over the houses).
The weights printed go into ``search_eval.WEIGHTS``.

Run: python benchmarks/samurai_evaluation.py [--train 300] [--test 100] [--every 10]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.samurai import search_eval  # noqa: E402
from engine.samurai.search import lead_evaluate  # noqa: E402
from engine.samurai.state import SamuraiState, owner_index  # noqa: E402


@dataclass
class Snapshot:
    """One position: each living house's features, the old evaluation, and its share of the win."""

    rows: dict[int, tuple[float, ...]]
    old: dict[int, float]
    won: dict[int, float]


def snapshots(seed: int, every: int) -> list[Snapshot]:
    """A heuristic match's positions every ``every`` choices, labelled once it ends."""
    game = engine.get("samurai")
    policy = game.policies()["heuristic"]
    working = engine.Working(game, game.setup(4, engine.parse_options(game, {}), seed), owned=True)
    taken: list[tuple[dict[int, tuple[float, ...]], dict[int, float]]] = []
    count = 0
    while game.result(working.state) is None:
        state = working.state
        assert isinstance(state, SamuraiState)
        if count % every == 0 and state.phase != "setup":
            seats = search_eval.living(state)
            fewest = min(len(owner_index(state).owned.get(seat, ())) for seat in seats)
            taken.append(({seat: search_eval.features(state, seat, fewest) for seat in seats},
                          {seat: lead_evaluate(state, seat) for seat in seats}))
        prompt = next(p for p in game.prompts(state) if not p.answered)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(seed, state.step, f"ai:{prompt.seat}"))
        working.submit(prompt.seat, choice)
        count += 1
    result = game.result(working.state)
    assert result is not None
    won = {seat: 1.0 / len(result.winners) for seat in result.winners}
    return [Snapshot(rows, old, {seat: won.get(seat, 0.0) for seat in rows}) for rows, old in taken]


def chances(rows: dict[int, tuple[float, ...]], weights: list[float]) -> dict[int, float]:
    scores = {seat: sum(w * f for w, f in zip(weights, row, strict=True)) for seat, row in rows.items()}
    top = max(scores.values())
    shares = {seat: math.exp(score - top) for seat, score in scores.items()}
    total = sum(shares.values())
    return {seat: share / total for seat, share in shares.items()}


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` x = ``vector`` by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [row[:] + [vector[n]] for n, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col and rows[col][col]:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[n][size] / rows[n][n] if rows[n][n] else 0.0 for n in range(size)]


def fit(data: list[Snapshot], ridge: float, steps: int = 10) -> list[float]:
    """Newton's method on the conditional logit's log likelihood (a small ridge keeps it solvable)."""
    size = len(search_eval.FEATURES)
    weights = [0.0] * size
    for _ in range(steps):
        gradient = [-ridge * w for w in weights]
        hessian = [[ridge if i == j else 0.0 for j in range(size)] for i in range(size)]
        for snap in data:
            probs = chances(snap.rows, weights)
            mean = [sum(probs[seat] * snap.rows[seat][k] for seat in snap.rows) for k in range(size)]
            for seat, row in snap.rows.items():
                centred = [row[k] - mean[k] for k in range(size)]
                for k in range(size):
                    gradient[k] += (snap.won[seat] - probs[seat]) * row[k]
                    for j in range(size):
                        hessian[k][j] += probs[seat] * centred[k] * centred[j]
        weights = [w + d for w, d in zip(weights, solve(hessian, gradient), strict=True)]
    return weights


def log_loss(data: list[Snapshot], predict: object) -> float:
    total = 0.0
    for snap in data:
        probs = predict(snap)  # type: ignore[operator]
        total -= sum(snap.won[seat] * math.log(max(1e-9, probs[seat])) for seat in snap.rows)
    return total / len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", type=int, default=300, help="training seeds (from --first-seed)")
    parser.add_argument("--test", type=int, default=100, help="held-out seeds, after the training seeds")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args()
    started = time.process_time()
    train = [snap for n in range(args.train) for snap in snapshots(args.first_seed + n, args.every)]
    test = [snap for n in range(args.test) for snap in snapshots(args.first_seed + args.train + n, args.every)]
    played = time.process_time() - started
    weights = fit(train, args.ridge)
    print(f"{args.train} training seeds ({len(train)} positions), {args.test} held-out seeds ({len(test)}); "
          f"seeds from {args.first_seed}; {played:.0f} s CPU to play them")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")  # " + ", ".join(search_eval.FEATURES))

    def fitted(snap: Snapshot) -> dict[int, float]:
        return chances(snap.rows, weights)

    def even(snap: Snapshot) -> dict[int, float]:
        return {seat: 1.0 / len(snap.rows) for seat in snap.rows}

    def old(snap: Snapshot) -> dict[int, float]:
        total = sum(snap.old.values()) or 1.0
        return {seat: value / total for seat, value in snap.old.items()}

    for name, predict in (("fitted", fitted), ("even", even), ("province lead (before)", old)):
        print(f"  held-out log loss per position, {name}: {log_loss(test, predict):.4f} "
              f"(training {log_loss(train, predict):.4f})")


if __name__ == "__main__":
    main()
