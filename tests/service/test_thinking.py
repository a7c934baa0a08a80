"""A search AI thinks beside the event loop: the service answers other requests meanwhile."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest

import engine
from bot.service import MatchService
from db import Store
from engine.contract import Prompt
from engine.kit import GameInfo
from tests.service.conftest import Clock
from tests.service.helpers import CHANNEL, GUILD, HOST, log_and_state
from tests.service.toygame import HeuristicPolicy, ToyGame, ToyState


class SlowSearch:
    """A search AI that thinks until the test lets it answer (the heuristic's choice then)."""

    offload = True

    def __init__(self, started: threading.Event, release: threading.Event) -> None:
        self.started, self.release = started, release
        self.loop_threads: list[bool] = []

    def choose(self, state: ToyState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        self.loop_threads.append(threading.current_thread() is threading.main_thread())
        self.started.set()
        self.release.wait(timeout=120)
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


@pytest.fixture
async def service(tmp_path) -> AsyncIterator[MatchService]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'warhost.db'}")
    yield MatchService(store, clock=Clock())
    await store.close()


async def test_the_service_answers_while_a_search_ai_thinks(service: MatchService) -> None:
    game = ThinkingToy()
    engine.register(game)
    info = await service.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 1}, seed=3)
    await service.add_ai(CHANNEL, HOST, policy="search")
    starting = asyncio.create_task(service.start(CHANNEL, HOST))
    try:
        assert await asyncio.to_thread(game.started.wait, 60), "the search AI was never asked"
        # The AI is still thinking: the loop is free to answer another request.
        status = await service.status_of(info.id)
        assert not game.release.is_set() and not starting.done()
        assert status.match.id == info.id
    finally:
        game.release.set()
    await starting
    assert game.search.loop_threads and not any(game.search.loop_threads), "the search ran on the event loop"
    log, _loaded, _replayed = await log_and_state(service.store, info.id)
    assert [(row.seat, row.payload) for row in log] == [(1, {"bid": 1})]  # the AI's sealed bid is in
