"""Fits the Defenders search's evaluation (engine/defenders/search_eval.py) on heuristic matches.

Seeded 2-seat heuristic matches at ``hard`` are played to the end; every ``--every`` choices the
position's features are read (`search_eval.features`) and labelled with whether the team won. A
logistic regression is fitted by Newton's method on the training seeds, then judged on held-out
seeds by its log loss per position beside two references: the training win rate for every
position, and the hand-set table safety the search used before (refitted as the one feature of
a logistic, so that it is judged as a chance too). The weights printed go into
``search_eval.WEIGHTS``.

Run: python benchmarks/defenders_evaluation.py [--train 1000] [--test 300] [--every 4]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from benchmarks.samurai_evaluation import solve  # noqa: E402  (the same Gaussian elimination)
from engine.defenders import search_eval  # noqa: E402
from engine.defenders.search import table_safety  # noqa: E402
from engine.defenders.state import DefendersState  # noqa: E402

Row = tuple[tuple[float, ...], float, float]
"""A position's features, the old evaluation and whether the team won (1 or 0)."""


def positions(seed: int, every: int) -> list[Row]:
    """A heuristic match's positions every ``every`` choices, labelled once it ends."""
    game = engine.get("defenders")
    policy = game.policies()["heuristic"]
    state = game.setup(2, engine.parse_options(game, {"difficulty": "hard"}), seed)
    taken: list[tuple[tuple[float, ...], float]] = []
    count = 0
    while game.result(state) is None:
        assert isinstance(state, DefendersState)
        if count % every == 0 and state.phase == "play":
            taken.append((search_eval.features(state), table_safety(state, 0)))
        prompt = next(p for p in game.prompts(state) if not p.answered)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(seed, state.step, f"ai:{prompt.seat}"))
        state = game.submit(state, prompt.seat, choice).state
        count += 1
    result = game.result(state)
    assert result is not None
    won = 1.0 if result.winners else 0.0
    return [(values, old, won) for values, old in taken]


def fit(rows: list[tuple[tuple[float, ...], float]], ridge: float = 1e-3, steps: int = 30) -> list[float]:
    """Logistic weights by Newton's method (a small ridge keeps a feature that never varies at 0)."""
    size = len(rows[0][0])
    weights = [0.0] * size
    for _ in range(steps):
        gradient = [-ridge * w for w in weights]
        hessian = [[ridge if i == j else 0.0 for j in range(size)] for i in range(size)]
        for values, won in rows:
            p = search_eval.chance(tuple(weights), values)
            for i in range(size):
                gradient[i] += (won - p) * values[i]
                for j in range(size):
                    hessian[i][j] += p * (1 - p) * values[i] * values[j]
        step = solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return weights


def log_loss(chances: list[float], labels: list[float]) -> float:
    eps = 1e-9
    return -sum(y * math.log(max(eps, p)) + (1 - y) * math.log(max(eps, 1 - p))
                for p, y in zip(chances, labels, strict=True)) / len(labels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", type=int, default=1000, help="training seeds (from 1000)")
    parser.add_argument("--test", type=int, default=300, help="held-out seeds (after the training ones)")
    parser.add_argument("--every", type=int, default=4, help="a position every n choices")
    args = parser.parse_args()
    started = time.process_time()
    train = [row for seed in range(1000, 1000 + args.train) for row in positions(seed, args.every)]
    test = [row for seed in range(1000 + args.train, 1000 + args.train + args.test) for row in positions(seed, args.every)]
    played = time.process_time() - started
    weights = fit([(values, won) for values, _, won in train])
    old = fit([((1.0, old), won) for _, old, won in train])
    rate = sum(won for _, _, won in train) / len(train)
    labels = [won for _, _, won in test]
    fitted = log_loss([search_eval.chance(tuple(weights), values) for values, _, _ in test], labels)
    before = log_loss([search_eval.chance(tuple(old), (1.0, value)) for _, value, _ in test], labels)
    constant = log_loss([rate] * len(test), labels)
    print(f"{args.train} training seeds ({len(train)} positions), {args.test} held out ({len(test)}); "
          f"{played:.0f} s CPU to play")
    print(f"log loss per held-out position: fitted {fitted:.4f}, table safety (refitted) {before:.4f}, "
          f"training win rate {rate:.3f} for all {constant:.4f}")
    for name, weight in zip(search_eval.NAMES, weights, strict=True):
        print(f"  {name}: {weight:+.3f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.3f}" for w in weights) + ")")


if __name__ == "__main__":
    main()
