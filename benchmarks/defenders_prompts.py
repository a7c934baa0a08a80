"""Tiny Epic Defenders: how many prompts a seat is sent, per kind, and how many of them offer
nothing but passing (Pass, End, Not now, Ready, Let it through, focus switches).

A prompt counts as sent the way the match service sends it: when a seat's prompt differs from
the one it had before the last choice, or the seat just answered (the service re-issues the
actor's next prompt, except a sealed or optional one it answered that stays open). Matches are
all-AI, driven like `bot.simulate` (first open prompt).

Run: python benchmarks/defenders_prompts.py [--matches 100] [--policy random] [--mode single]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.contract import Prompt  # noqa: E402

PASSING = {"pass", "end", "ready", "decline", "focus", "back"}


def passing_only(prompt: Prompt) -> bool:
    return all(o.choice.get("act") in PASSING for o in prompt.options)


def fingerprint(prompt: Prompt) -> str:
    return engine.canonical_json(prompt.model_dump(mode="json"))


def count(seats: int, seed: int, policy: str, mode: str) -> tuple[Counter[str], Counter[str]]:
    game = engine.get("defenders")
    ai = game.policies()[policy]
    state = game.setup(seats, game.options_model()(mode=mode), seed)
    sent: Counter[str] = Counter()
    idle: Counter[str] = Counter()
    last: dict[int, str | None] = {}
    actor: int | None = None
    while game.result(state) is None:
        prompts = game.prompts(state)
        for p in prompts:
            key = fingerprint(p)
            kept = (p.secret or p.optional) and p.answered and last.get(p.seat) is not None
            if (p.seat == actor and not kept) or (p.seat != actor and last.get(p.seat) != key):
                sent[p.kind] += 1
                idle[p.kind] += passing_only(p)
        last = {s: None for s in range(seats)} | {p.seat: fingerprint(p) for p in prompts}
        open_prompts = [p for p in prompts if not p.answered]
        if not open_prompts:
            raise RuntimeError(f"seed {seed}: no open prompt and no result at step {state.step}")
        prompt = open_prompts[0]
        choice = engine.decide(game, ai, state, prompt, engine.rng_for(seed, state.step, f"ai:{prompt.seat}"))
        state = game.submit(state, prompt.seat, choice).state
        actor = prompt.seat
    return sent, idle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--policy", default="random", choices=["random", "heuristic"])
    parser.add_argument("--mode", default="single", choices=["single", "campaign"])
    args = parser.parse_args()
    sent: Counter[str] = Counter()
    idle: Counter[str] = Counter()
    for seed in range(args.matches):
        s, i = count(1 + seed % 4, seed, args.policy, args.mode)
        sent += s
        idle += i
    print(f"Tiny Epic Defenders, {args.matches} {args.mode} matches, {args.policy} AI, 1-4 seats in turn")
    print(f"{'kind':<10} {'sent':>7} {'pass only':>10} {'share':>7}")
    for kind in sorted(sent):
        print(f"{kind:<10} {sent[kind]:>7} {idle[kind]:>10} {100 * idle[kind] / sent[kind]:>6.1f}%")
    total, none = sum(sent.values()), sum(idle.values())
    print(f"{'total':<10} {total:>7} {none:>10} {100 * none / max(1, total):>6.1f}%")


if __name__ == "__main__":
    main()
