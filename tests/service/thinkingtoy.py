"""The toy game with a search AI that thinks until a test lets it answer (thinking tests)."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

from engine.contract import Prompt
from engine.kit import GameInfo
from tests.service.toygame import HeuristicPolicy, ToyGame, ToyState

WAIT = 60.0
"""Seconds a test waits on an event that should come at once: only a broken build waits this long."""


class SlowSearch:
    """A search AI that thinks until the test lets it answer. Its first answer to a bid is 0,
    its later ones 1 (so a test sees which think's choice went in); moves are the heuristic's."""

    offload = True

    def __init__(self, started: threading.Event, release: threading.Event) -> None:
        self.started, self.release = started, release
        self.asked: list[tuple[int, str]] = []
        self.on_loop: list[bool] = []
        self.budgets: list[float] = []

    def with_budget(self, budget: float) -> SlowSearch:
        """What the bot's thinking queue gives a decision (CPU ms), kept for the test to read."""
        self.budgets.append(budget)
        return self

    def choose(self, state: ToyState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        self.on_loop.append(threading.current_thread() is threading.main_thread())
        self.asked.append((prompt.seat, prompt.kind))
        self.started.set()
        self.release.wait(timeout=WAIT)
        if prompt.kind == "bid":
            return {"bid": min(len(self.asked) - 1, 1, state.gold[prompt.seat])}
        return HeuristicPolicy().choose(state, prompt, rng)


class ThinkingToy(ToyGame):
    key = "thinktoy"
    title = "Thinking Toy"
    info = GameInfo(key=key, title=title, seats=ToyGame.seats)

    def __init__(self) -> None:
        self.started, self.release = threading.Event(), threading.Event()
        self.search = SlowSearch(self.started, self.release)

    def policies(self) -> dict[str, Any]:
        return {**super().policies(), "search": self.search}


async def started(game: ThinkingToy) -> None:
    """Return once the search AI was asked (it is thinking now)."""
    assert await asyncio.to_thread(game.started.wait, WAIT), "the search AI was never asked"
