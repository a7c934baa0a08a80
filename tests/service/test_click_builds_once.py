"""A DM click costs the bot process no work done twice (issue 32, the cost of a click): judging
it builds no view of the clicking seat (nothing judging a click reads one), and the open prompts
of a state are built once, by the transaction that left that state, not again by the next
transaction starting from it nor by each turn DM read of it in between (``KeptPrompts``). What
those reads give must still be what a process with nothing in memory reads from the database."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import engine
from bot.service import MatchService
from bot.service.types import MatchInfo, PendingPrompt
from db import Store
from tests.games import KEYS, short, table_of
from tests.service.helpers import count_views

HOST = 1


async def _facts(svc: MatchService, match_id: int, seats: int) -> list[Any]:
    """What the front-ends read of the match: each seat's turn and the host's open prompt."""
    turns = [await svc.seat_turn(match_id, seat) for seat in range(seats)]
    pending = await svc.pending_prompt(match_id, HOST)
    return [turns, None if pending is None else (pending.seat, pending.version, pending.prompt, pending.names,
                                                 pending.deadline, pending.undo_mark)]


async def _started(svc: MatchService, key: str, channel: int, seed: int) -> MatchInfo:
    """A short match of ``key`` started in ``channel``: the host and an AI in every other seat."""
    seats = table_of(key)
    info = await svc.create(None, channel, HOST, "host", key, short(key, rounds=2), max_seats=seats, seed=seed)
    for _ in range(seats - 1):
        await svc.add_ai(channel, HOST)
    await svc.start(channel, HOST)
    return info


@pytest.mark.parametrize("key", KEYS)
async def test_a_dm_click_builds_no_seat_view_and_no_prompts_built_before(
        tmp_path: Any, key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = engine.get(key)
    prompts = game.prompts
    built: Counter[tuple[str, int, int | None]] = Counter()
    kept: list[Any] = []  # every state asked about stays alive, so no two share an id

    def counted_prompts(state: Any) -> list[engine.Prompt]:
        kept.append(state)
        built[("prompts", id(state), None)] += 1
        return prompts(state)

    path = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"
    store = await Store.open(path, migrate=True)
    other = await Store.open(path, migrate=False)
    try:
        svc = MatchService(store, holder="test")
        seats = table_of(key)
        info = await _started(svc, key, 77, 5)
        heuristic, rng = game.policies()["heuristic"], random.Random(5)
        clicks = 0
        for n in range(12):
            pending = await svc.pending_prompt(info.id, HOST)
            if pending is None:
                break
            seat = pending.seat
            _match, _seats, before, _deadline = await svc._read(info.id)
            choice = engine.decide(game, heuristic, before, pending.prompt, rng)

            def choose(found: PendingPrompt, choice: dict[str, Any] = choice) -> dict[str, Any]:
                return choice

            built.clear()
            monkeypatch.setattr(game, "prompts", counted_prompts)
            count_views(monkeypatch, game, built, kept, tag="view")
            await svc.submit(info.id, HOST, {}, version=pending.version, interaction_id=f"click-{n}",
                             message_id=900 + n, choose=choose)
            _match, _seats, after, _deadline = await svc._read(info.id)
            made = dict(built)
            built.clear()
            mine = await _facts(svc, info.id, seats)
            read = dict(built)
            monkeypatch.undo()
            clicks += 1
            assert ("view", id(before), seat) not in made, "judging the click built a view of the seat"
            assert ("prompts", id(before), None) not in made, "the prompts the last transaction built, again"
            assert not [k for k in read if k[0] == "prompts" and k[1] == id(after)], \
                "the turn reads built again the prompts the click's transaction built"
            fresh = MatchService(other, holder="fresh")  # nothing in memory: everything from the database
            assert mine == await _facts(fresh, info.id, seats)
    finally:
        await other.close()
        await store.close()
    assert clicks >= 3


@pytest.mark.parametrize("key", KEYS)
async def test_status_boards_build_the_public_view_once_per_state(
        tmp_path: Any, key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each status board refresh and lobby post reads the match's status (its phase and
    standing come from the public view): the view of a state is built at most once, by the
    change that left it or by the first board after it, and the boards say what a process with
    nothing in memory says."""
    game = engine.get(key)
    built: Counter[tuple[int, int | None]] = Counter()
    kept: list[Any] = []

    path = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    store = await Store.open(path, migrate=True)
    other = await Store.open(path, migrate=False)
    try:
        svc = MatchService(store, holder="test")
        info = await _started(svc, key, 78, 6)
        heuristic, rng = game.policies()["heuristic"], random.Random(6)
        boards = 0
        for _ in range(8):
            pending = await svc.pending_prompt(info.id, HOST)
            if pending is None:
                break
            _match, _seats, before, _deadline = await svc._read(info.id)
            await svc.submit(info.id, HOST, engine.decide(game, heuristic, before, pending.prompt, rng),
                             version=pending.version)
            _match, _seats, after, _deadline = await svc._read(info.id)
            built.clear()
            count_views(monkeypatch, game, built, kept)
            first = await svc.board_of(info.id)
            again = await svc.board_of(info.id)
            status = await svc.status_of(info.id)
            monkeypatch.undo()
            boards += 1
            assert built[(id(after), None)] <= 1, "the boards built the same public view again"
            assert sum(built.values()) == built[(id(after), None)], "a board built a view of another state"
            fresh = MatchService(other, holder="fresh")
            assert first == again == await fresh.board_of(info.id)
            assert status == await fresh.status_of(info.id)
    finally:
        await other.close()
        await store.close()
    assert boards >= 3
