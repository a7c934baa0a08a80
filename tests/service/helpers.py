"""Small helpers shared by the service tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

import engine
from bot.service import MatchInfo, MatchService
from db import Choice, Match, Store

GUILD, CHANNEL = 10**17 + 1, 10**17 + 2
HOST, BOB, CAROL, DAVE = 2**62 + 11, 2**62 + 12, 2**62 + 13, 2**62 + 14


async def lobby(svc: MatchService, users: list[int], *, ais: int = 0, rounds: int = 3, channel: int = CHANNEL,
                hours: float = 24.0, seed: int = 7) -> MatchInfo:
    """A started toy match: users[0] hosts, the rest join, then ``ais`` AI seats."""
    info = await svc.create(GUILD, channel, users[0], "host", "toy", {"rounds": rounds},
                            deadline_hours=hours, seed=seed)
    for n, user in enumerate(users[1:], 1):
        await svc.join(channel, user, f"player{n}")
    for _ in range(ais):
        await svc.add_ai(channel, users[0])
    await svc.start(channel, users[0])
    return await svc.get_match(info.id)


async def play_choice(svc: MatchService, match_id: int, user: int) -> dict[str, Any] | None:
    """A legal choice for the user's open prompt (the heuristic), or None if they owe nothing."""
    pending = await svc.pending_prompt(match_id, user)
    if pending is None:
        return None
    if pending.prompt.kind == "bid":
        return {"bid": (await svc.seat_view(match_id, user))["gold"][pending.seat] // 2}
    return {"action": "raid"}


async def log_and_state(store: Store, match_id: int) -> tuple[list[Choice], dict[str, Any], dict[str, Any]]:
    """The log, the stored (snapshot + tail) state and the full-replay state of a match."""
    async with store.read() as session:
        match = await session.get(Match, match_id)
        assert match is not None
        log = await store.choices(session, match_id)
        loaded = await store.load_state(session, match)
        replayed = await store.replay_all(session, match)
    assert loaded is not None
    return log, loaded.model_dump(mode="json"), replayed.model_dump(mode="json")


def replay_log(log: list[Choice], seats: int, rounds: int, seed: int) -> dict[str, Any]:
    state = engine.replay("toy", seats, {"rounds": rounds}, seed, [(c.seat, c.payload) for c in log])
    return state.model_dump(mode="json")


@contextmanager
def recorded(store: Store) -> Iterator[list[str]]:
    """The SQL statements sent while the block runs, on the write and the read engine."""
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engines = {store.engine.sync_engine, store.read_engine.sync_engine}  # SQLite reads have their own
    for sync_engine in engines:
        event.listen(sync_engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        for sync_engine in engines:
            event.remove(sync_engine, "before_cursor_execute", record)


def count_views(monkeypatch: pytest.MonkeyPatch, game: engine.Game, built: Counter[Any], kept: list[Any],
                tag: str | None = None) -> None:
    """Count in ``built`` every view ``game`` builds until ``monkeypatch.undo()``: by (state id,
    seat), with ``tag`` first when given; its ``view`` and, where it has one, ``view_given`` (a
    view from the prompts built already, engine.view). Every state asked about stays in ``kept``,
    so no two share an id."""
    view = game.view
    given = getattr(game, "view_given", None)

    def key(state: Any, seat: int | None) -> Hashable:
        kept.append(state)
        return (id(state), seat) if tag is None else (tag, id(state), seat)

    def counted_view(state: Any, seat: int | None) -> dict[str, Any]:
        built[key(state, seat)] += 1
        return view(state, seat)

    monkeypatch.setattr(game, "view", counted_view)
    if given is not None:
        def counted_given(state: Any, seat: int | None, open_prompts: Any) -> dict[str, Any]:
            built[key(state, seat)] += 1
            return dict(given(state, seat, open_prompts))

        monkeypatch.setattr(game, "view_given", counted_given)
