"""A search AI thinks outside any transaction: other matches write meanwhile, a choice the match
moved past is dropped, all-AI matches go on, and a restart thinks again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

import engine
from bot.service import MatchService
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CHANNEL, GUILD, HOST, log_and_state
from tests.service.thinkingtoy import ThinkingToy, started

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
