"""Migration 0007 on a database made before it: a finished and a running match survive, the
finished one enters the history and its players' games, the running one finishes rated."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

import bot.service.finishing as finishing
import engine
from bot.service import MatchService
from db import Match, Store
from tests.db.conftest import downgrade
from tests.service.helpers import BOB, CHANNEL, GUILD, HOST, lobby
from tests.service.test_ratings import play_out
from tests.service.toygame import GAME


async def _no_record(*args: Any, **kwargs: Any) -> None:
    """The service as it was before 0007: a finish writes no record (there is no table for one)."""


async def test_0007_upgrades_a_database_with_a_finished_and_a_running_match(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine.register(GAME)
    store = await Store.open(db_url)
    try:
        monkeypatch.setattr(finishing, "record_finish", _no_record)
        old = MatchService(store)
        finished = await lobby(old, [HOST, BOB], rounds=1, seed=1, channel=CHANNEL)
        result = await play_out(old, finished.id, [HOST, BOB])
        running = await lobby(old, [HOST, BOB], rounds=2, seed=4, channel=CHANNEL + 1)
        async with store.read() as session:
            before = {m.id: (m.status, m.step, m.version) for m in (await session.exec(select(Match))).all()}
        monkeypatch.undo()
        await downgrade(store, "0006")  # the database as it was before 0007

        await store.migrate("head")
        svc = MatchService(store)
        async with store.read() as session:
            after = {m.id: (m.status, m.step, m.version) for m in (await session.exec(select(Match))).all()}
        assert after == before and before[running.id][0] == "active"

        history = await svc.history(GUILD)
        assert [e.match_id for e in history] == [finished.id]
        winner = [HOST, BOB][result["winners"][0]]
        assert [s.user_id for s in history[0].winners] == [winner] and history[0].rounds is None
        stats = {s.game: s for s in await svc.player_stats(GUILD, winner)}
        assert (stats["toy"].games, stats["toy"].wins, stats["toy"].rated) == (1, 1, 0)

        await play_out(svc, running.id, [HOST, BOB])
        history = await svc.history(GUILD)
        assert [e.match_id for e in history] == [running.id, finished.id]
        assert history[0].rated and history[0].rounds == 2
        assert {s.user_id: s.games for s in await svc.leaderboard(GUILD, "toy")} == {HOST: 2, BOB: 2}
    finally:
        await store.close()
