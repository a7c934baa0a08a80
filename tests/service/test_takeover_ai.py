"""The AI that takes a seat over (missed deadlines, time away) is the one the host chose for the
match: the quick heuristic by default, or the search AI; an exported match keeps the choice."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import engine
from bot.service import BadChoice, MatchService
from bot.service.transfer import MatchDocument, export_match, import_match
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CHANNEL, GUILD, HOST, log_and_state
from tests.service.thinkingtoy import ThinkingToy

OTHER_CHANNEL = CHANNEL + 1


@pytest.fixture
async def service(tmp_path) -> AsyncIterator[MatchService]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'warhost.db'}")
    svc = MatchService(store, clock=Clock())
    yield svc
    await svc.stop_thinking()
    await store.close()


@pytest.fixture
def game() -> ThinkingToy:
    game = ThinkingToy()
    game.release.set()  # its search answers at once here
    engine.register(game)
    return game


async def two_players(service: MatchService, level: str | None) -> int:
    levels = {} if level is None else {"takeover_ai": level}
    info = await service.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 4}, deadline_hours=10,
                                seed=3, **levels)
    await service.join(CHANNEL, BOB, "bob")
    await service.start(CHANNEL, HOST)
    return info.id


async def seat_by(service: MatchService, match_id: int, seat: int) -> list[str]:
    log, _loaded, _replayed = await log_and_state(service.store, match_id)
    return [row.by for row in log if row.seat == seat]


async def test_after_missed_deadlines_the_search_ai_plays_the_seat_in_a_match_set_to_search(
        service: MatchService, game: ThinkingToy) -> None:
    clock = service.clock
    assert isinstance(clock, Clock)
    match_id = await two_players(service, "search")
    assert (await service.get_match(match_id)).takeover_ai == "search"
    for _ in range(20):  # the host plays; Bob sleeps through his deadlines
        if next(s for s in (await service.get_match(match_id)).seats if s.user_id == BOB).ai_takeover:
            break
        pending = await service.pending_prompt(match_id, HOST)
        if pending is not None and not pending.prompt.answered:
            choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
            await service.submit(match_id, HOST, choice, version=pending.version)
            continue
        await service.tick(clock.advance(10))
    else:
        raise AssertionError("Bob's seat was never taken over")
    assert game.search.asked == []  # a deadline's own choice is the heuristic's, at once
    await service.thinking_done(match_id)
    for _ in range(20):  # the host plays on: from now on the search AI plays Bob's seat
        if (1, "bid") in game.search.asked and (1, "move") in game.search.asked:
            break
        pending = await service.pending_prompt(match_id, HOST)
        assert pending is not None, "the host owes nothing, yet Bob's seat does not move"
        choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
        await service.submit(match_id, HOST, choice, version=pending.version)
        await service.thinking_done(match_id)
    assert {seat for seat, _kind in game.search.asked} == {1}
    assert (await seat_by(service, match_id, 1)).count("ai") == len(game.search.asked)


async def test_an_away_player_is_played_by_the_level_the_host_chose(service: MatchService,
                                                                   game: ThinkingToy) -> None:
    match_id = await two_players(service, None)  # the default: the heuristic
    await service.go_away(CHANNEL, BOB, 2)
    await service.thinking_done(match_id)
    assert (await seat_by(service, match_id, 1)) == ["ai"] and game.search.asked == []
    await service.abort(CHANNEL, HOST, is_manager=True)

    match_id = await two_players(service, "search")
    await service.go_away(CHANNEL, BOB, 2)
    await service.thinking_done(match_id)
    assert (await seat_by(service, match_id, 1)) == ["ai"] and game.search.asked == [(1, "bid")]


async def test_an_unknown_level_is_refused_and_creates_nothing(service: MatchService, game: ThinkingToy) -> None:
    with pytest.raises(BadChoice, match="late or away seats is heuristic or search"):
        await service.create(GUILD, CHANNEL, HOST, "host", "thinktoy", {"rounds": 1}, takeover_ai="genius")
    assert await service.find_match(CHANNEL) is None


async def test_export_and_import_keep_the_level(service: MatchService, game: ThinkingToy) -> None:
    match_id = await two_players(service, "search")
    document = await export_match(service.store, match_id)
    assert document.takeover_ai == "search"
    await service.abort(CHANNEL, HOST, is_manager=True)
    moved = await import_match(service, MatchDocument.model_validate_json(document.model_dump_json()), OTHER_CHANNEL)
    assert (await service.get_match(moved)).takeover_ai == "search"
    older = document.model_dump(mode="json")
    del older["takeover_ai"]  # a document exported before the level existed
    assert MatchDocument.model_validate(older).takeover_ai == "heuristic"
