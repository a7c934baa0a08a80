"""The engine work a DM click makes the service do, counted, and what each piece costs.

Plays ``benchmarks/click_path.py``'s matches (Tiny Big Wars, two players answering every prompt
with the heuristic, one heuristic AI seat) and counts, per click, what the service asks of the
engine inside the submit (its transaction: the player's step and the AI's turns after it, the
prompt versions, the notices) and inside the status board's read: state copies, prompt builds,
views, prompt fingerprints, ``policies()`` calls. Counts do not move with the machine's load,
unlike the CPU of a click on a shared machine. Then the CPU cost of each piece (µs, median of
rounds run in turn) on the states of one heuristic match, beside its floor: one rules step in
place (``play`` on an owned state), the least a choice can cost.

    python benchmarks/click_work.py [--matches 3] [--rounds 7]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bot.service.autoplay as autoplay_module  # noqa: E402
import bot.service.play as play_module  # noqa: E402
import engine  # noqa: E402
import engine.kit.flow as flow_module  # noqa: E402
import engine.working as working_module  # noqa: E402
from benchmarks.click_path import one_match  # noqa: E402
from bot.service import MatchService  # noqa: E402
from db import Store  # noqa: E402
from engine.clone import clone  # noqa: E402
from engine.kit.phases import PhaseTable  # noqa: E402
from engine.tinybigwars import TinyBigWars, views  # noqa: E402

COUNTED = ("submit", "board_of")
"""The service calls of a click whose engine work is counted (click_path's other reads are
the reply's and delivery's, counted under neither)."""


class Counts:
    """What the engine was asked, by the service call it was asked in."""

    def __init__(self) -> None:
        self.inside: str | None = None
        self.seen: collections.Counter[tuple[str | None, str]] = collections.Counter()

    def add(self, what: str) -> None:
        self.seen[(self.inside, what)] += 1

    def counting(self, owner: Any, name: str, what: str) -> None:
        """Count each call of ``owner.name`` as ``what``."""
        original = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.add(what)
            return original(*args, **kwargs)

        setattr(owner, name, counted)

    def within(self, name: str) -> None:
        """Count what is asked inside ``MatchService.name`` under its name."""
        original = getattr(MatchService, name)

        async def call(service: MatchService, *args: Any, **kwargs: Any) -> Any:
            outer = self.inside
            self.inside = self.inside or name
            try:
                return await original(service, *args, **kwargs)
            finally:
                self.inside = outer

        setattr(MatchService, name, call)


async def counted_clicks(matches: int) -> None:
    counts = Counts()
    counts.counting(flow_module, "clone", "state copies")
    counts.counting(working_module, "clone", "state copies")
    counts.counting(PhaseTable, "prompts", "prompt builds")
    counts.counting(views, "view_model", "views")
    counts.counting(play_module, "fingerprint", "fingerprints")
    if hasattr(autoplay_module, "fingerprint"):  # a tree whose AI's turns fingerprint prompts themselves
        counts.counting(autoplay_module, "fingerprint", "fingerprints")
    counts.counting(TinyBigWars, "policies", "policies()")
    for name in COUNTED:
        counts.within(name)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite+aiosqlite:///{Path(folder) / 'work.db'}", migrate=True)
        try:
            svc = MatchService(store, holder="bench")
            spent = {"submit": 0.0, "whole": 0.0}
            clicks = sum([await one_match(svc, 100 + n, seed=n, rng=random.Random(n), spent=spent)
                          for n in range(matches)])
        finally:
            await store.close()
    print(f"{clicks} clicks of {matches} matches; per click:")
    for name in COUNTED:
        line = ", ".join(f"{what} {counts.seen[(name, what)] / clicks:.2f}"
                         for what in ("state copies", "prompt builds", "views", "fingerprints", "policies()"))
        print(f"  in {name}: {line}")


def piece_costs(rounds: int) -> None:
    game = engine.get("tinybigwars")
    heuristic, rng = game.policies()["heuristic"], random.Random(1)
    state = game.setup(3, game.options({}), 7)
    trail: list[tuple[Any, int, dict[str, Any], list[engine.Prompt]]] = []
    while True:
        prompts = game.prompts(state)
        open_prompts = [prompt for prompt in prompts if not prompt.answered]
        if not open_prompts:
            break
        asked = open_prompts[0]
        choice = engine.decide(game, heuristic, state, asked, rng)
        trail.append((state, asked.seat, choice, prompts))
        state = game.submit(state, asked.seat, choice).state
    assert isinstance(game, TinyBigWars)

    def in_place() -> float:
        owned = [clone(state) for state, *_ in trail]
        started = time.process_time()
        for copy, (_state, seat, choice, _prompts) in zip(owned, trail, strict=True):
            game.play(copy, seat, choice)
        return time.process_time() - started

    pieces: dict[str, Callable[[], None]] = {
        "submit (copy + step)": lambda: [game.submit(s, seat, c) for s, seat, c, _p in trail] and None,
        "state copy": lambda: [clone(s) for s, *_ in trail] and None,
        "prompts": lambda: [game.prompts(s) for s, *_ in trail] and None,
        "public view": lambda: [game.view(s, None) for s, *_ in trail] and None,
        **({"public view given the prompts": lambda: [engine.view(game, s, None, p) for s, _seat, _c, p in trail] and None}
           if hasattr(engine, "view") else {}),  # (a tree before engine.view: none)
        "fingerprint of a prompt": lambda: [play_module.fingerprint(p[0]) for *_rest, p in trail] and None,
        "policies()": lambda: [game.policies() for _ in trail] and None,
    }
    spent: dict[str, list[float]] = {name: [] for name in ["step in place (floor)", *pieces]}
    for _ in range(rounds):
        spent["step in place (floor)"].append(in_place())
        for name, piece in pieces.items():
            started = time.process_time()
            piece()
            spent[name].append(time.process_time() - started)
    print(f"CPU µs each, median of {rounds} rounds over the {len(trail)} states of a 3-seat heuristic match:")
    for name, times in spent.items():
        print(f"  {name:32} {statistics.median(times) / len(trail) * 1e6:7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(counted_clicks(args.matches))
    piece_costs(args.rounds)


if __name__ == "__main__":
    main()
