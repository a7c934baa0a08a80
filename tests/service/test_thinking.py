"""A search AI thinks outside any transaction: other matches write meanwhile, a choice the match
moved past is dropped, all-AI matches go on, and a restart thinks again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

import engine
from bot.service import MatchService, thinking
from bot.service.think_queue import ThinkQueue
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CHANNEL, GUILD, HOST, log_and_state
from tests.service.test_think_queue import Decision
from tests.service.thinkingtoy import WAIT, ThinkingToy, started

OTHER_CHANNEL = CHANNEL + 1


@pytest.fixture
def db_path(tmp_path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'warhost.db'}"


@pytest.fixture
async def service(db_path: str) -> AsyncIterator[MatchService]:
    store = await Store.open(db_path)
    svc = MatchService(store, clock=Clock())
    yield svc
    await svc.stop_thinking()
    await store.close()


@pytest.fixture
def game() -> ThinkingToy:
    game = ThinkingToy()
    engine.register(game)
    return game


async def ai_choices(service: MatchService, match_id: int) -> list[tuple[int, dict[str, Any]]]:
    log, _loaded, _replayed = await log_and_state(service.store, match_id)
    return [(row.seat, row.payload) for row in log if row.by == "ai"]


async def test_another_match_writes_while_a_search_ai_thinks(service: MatchService, game: ThinkingToy) -> None:
    thinking = await service.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 1}, seed=3)
    await service.add_ai(CHANNEL, HOST, policy="search")
    await service.start(CHANNEL, HOST)  # returns at once: the AI's think is not part of it
    other = await service.create(GUILD, OTHER_CHANNEL, BOB, "bob", "toy", {"rounds": 1}, seed=4)
    await service.add_ai(OTHER_CHANNEL, BOB)
    await service.start(OTHER_CHANNEL, BOB)
    try:
        await started(game)
        # Match A's AI is thinking; on SQLite a think inside A's transaction held every write.
        result = await service.submit(other.id, BOB, {"bid": 2})
        assert not game.release.is_set()
        log, _loaded, _replayed = await log_and_state(service.store, other.id)
        assert (result.seq, 0, {"bid": 2}) in [(row.seq, row.seat, row.payload) for row in log]  # committed
        assert await ai_choices(service, thinking.id) == []  # A's AI has not chosen yet
    finally:
        game.release.set()
    await service.thinking_done(thinking.id)
    assert game.search.on_loop == [False], "the search ran on the event loop"
    assert await ai_choices(service, thinking.id) == [(1, {"bid": 0})]  # the AI's sealed bid is in


async def test_a_choice_the_match_moved_past_is_dropped_and_the_ai_answers_again(
        service: MatchService, game: ThinkingToy) -> None:
    info = await service.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 1}, seed=3)
    await service.add_ai(CHANNEL, HOST, policy="search")
    await service.start(CHANNEL, HOST)
    await started(game)
    # While the AI thinks about its bid, the host seals theirs: the match moves on.
    await service.submit(info.id, HOST, {"bid": 3})
    game.release.set()
    await service.thinking_done(info.id)
    # Its first think (bid 0) came back to a match at a newer version and was dropped; it
    # thought again on the match as it is and that choice (bid 1) is the one in the log.
    assert game.search.asked[:2] == [(1, "bid"), (1, "bid")]
    log, loaded, replayed = await log_and_state(service.store, info.id)
    assert [(row.seat, row.payload) for row in log][:2] == [(0, {"bid": 3}), (1, {"bid": 1})]
    assert loaded == replayed


async def test_an_all_search_ai_match_plays_to_its_end(service: MatchService, game: ThinkingToy) -> None:
    game.release.set()
    info = await service.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 3}, seed=5, host_plays=False)
    for _ in range(3):
        await service.add_ai(CHANNEL, HOST, policy="search")
    await service.start(CHANNEL, HOST)
    await service.thinking_done(info.id)
    final = await service.get_match(info.id)
    assert final.status == "finished" and final.result is not None
    log, loaded, replayed = await log_and_state(service.store, info.id)
    assert len(log) == 3 * (3 + 3)  # three rounds of a bid and a move per seat
    assert len(game.search.asked) == len(log)  # every choice was the search AI's own
    assert loaded == replayed


async def test_a_restart_while_the_ai_thinks_thinks_again(db_path: str, game: ThinkingToy) -> None:
    store = await Store.open(db_path)
    before = MatchService(store, clock=Clock())
    info = await before.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 1}, seed=3)
    await before.add_ai(CHANNEL, HOST, policy="search")
    await before.start(CHANNEL, HOST)
    await started(game)
    await before.stop_thinking()  # the process goes away mid-think: nothing of it was stored
    await store.close()
    store = await Store.open(db_path)
    try:
        after = MatchService(store, clock=Clock())
        assert await ai_choices(after, info.id) == []
        await after.recover()
        game.release.set()
        await after.thinking_done(info.id)
        assert await ai_choices(after, info.id) == [(1, {"bid": 1})]  # the restarted think's choice
        assert (await after.pending_prompt(info.id, HOST)) is not None  # the host's bid is next
        await after.stop_thinking()
    finally:
        await store.close()


async def queued(queue: ThinkQueue, crowd: int) -> None:
    """Return once ``crowd`` decisions think or wait in ``queue`` (a task queues by itself soon)."""
    while queue.crowd < crowd:
        await asyncio.sleep(0.01)


@pytest.fixture
def crowded() -> Iterator[ThinkQueue]:
    """The process's thinking queue, fresh (3 s aimed at, one worker: the tests think in a
    thread), and fresh again for the next test."""
    yield thinking.configure(3.0)
    thinking.configure()


async def test_a_search_ai_thinks_less_while_other_decisions_wait_and_all_of_it_once_they_are_gone(
        service: MatchService, game: ThinkingToy, crowded: ThinkQueue, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARHOST_SEARCH_MS", "1200")
    game.release.set()
    order: list[str] = []
    holding = Decision(crowded, "other match", order)  # another match's AI has the worker
    await holding.turn()
    info = await service.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 1}, seed=3)
    await service.add_ai(CHANNEL, HOST, policy="search")
    await service.start(CHANNEL, HOST)  # the AI's bid waits for the worker, first in line
    await asyncio.wait_for(queued(crowded, 2), WAIT)
    behind = [Decision(crowded, f"later {number}", order) for number in range(3)]  # three more matches' AIs
    await asyncio.sleep(0)
    assert crowded.crowd == 5
    await holding.finish()
    await service.thinking_done(info.id)
    assert game.search.budgets == [3000 / 4]  # it reached the worker with 3 behind it: 3 s for 4
    for decision in behind:
        await decision.finish()
    await service.submit(info.id, HOST, {"bid": 2})  # the host outbids the AI: the host moves first
    await service.submit(info.id, HOST, {"action": "gather"})  # the AI's move is next, with nobody waiting
    await service.thinking_done(info.id)
    assert game.search.budgets == [3000 / 4, 1200.0]
    assert [seat for seat, _kind in game.search.asked] == [1, 1]


async def test_a_search_ai_behind_a_hopeless_queue_is_answered_by_the_heuristic_at_once(
        service: MatchService, game: ThinkingToy, crowded: ThinkQueue, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARHOST_SEARCH_MS", "1000")  # the tests' own is 20 ms, a floor of 20 ms
    order: list[str] = []
    others = [Decision(crowded, f"other {number}", order) for number in range(30)]  # 3 s of 100 ms thinks
    await asyncio.sleep(0)
    assert crowded.crowd == 30
    info = await service.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 1}, seed=3)
    await service.add_ai(CHANNEL, HOST, policy="search")
    await service.start(CHANNEL, HOST)
    await service.thinking_done(info.id)  # no worker came free meanwhile
    assert game.search.asked == [] and crowded.figures.heuristic == 1
    assert await ai_choices(service, info.id) == [(1, {"bid": 1})]  # the heuristic's bid (5 gold // 3)
    assert [decision.turned.is_set() for decision in others] == [True] + [False] * 29
    for decision in others:
        await decision.finish()
