"""Migration 0017: the database keeps a match's newest two snapshots itself, pruning as each new
one is inserted (the match transaction sends no DELETE of its own); before it nothing pruned
them but that DELETE, and a database migrated to it prunes from the next snapshot on."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlmodel import col, select

import engine
from bot.service import MatchService
from db import Snapshot, Store
from tests.db.conftest import downgrade
from tests.service.helpers import BOB, CHANNEL, HOST, lobby
from tests.service.toygame import GAME

NOW = datetime(2026, 5, 1, tzinfo=UTC)


async def _put(store: Store, match_id: int, seq: int) -> None:
    async with store.write() as session:
        await session.execute(sa.insert(Snapshot).values(match_id=match_id, seq=seq, state={}, created_at=NOW))


async def _kept(store: Store, match_id: int) -> list[int]:
    async with store.read() as session:
        rows = await session.exec(select(col(Snapshot.seq)).where(col(Snapshot.match_id) == match_id)
                                  .order_by(col(Snapshot.seq)))
        return list(rows.all())


async def test_0017_prunes_from_the_next_snapshot_after_the_upgrade(db_url: str) -> None:
    engine.register(GAME)
    store = await Store.open(db_url)
    try:
        info = await lobby(MatchService(store), [HOST, BOB], ais=1, channel=CHANNEL)
        await downgrade(store, "0016")
        for seq in (1000, 1025, 1050):
            await _put(store, info.id, seq)
        assert (await _kept(store, info.id))[-3:] == [1000, 1025, 1050]  # nothing pruned them

        await store.migrate("head")
        await _put(store, info.id, 1075)
        assert await _kept(store, info.id) == [1050, 1075]
        await _put(store, info.id, 1100)
        assert await _kept(store, info.id) == [1075, 1100]
    finally:
        await store.close()


async def test_a_snapshot_in_the_match_transaction_is_one_statement(db_url: str) -> None:
    """A submit that writes a snapshot (every 25th choice) sends one INSERT for it and no
    DELETE, and the match still keeps its newest two: loading finds the newest."""
    engine.register(GAME)
    store = await Store.open(db_url)
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(" ".join(statement.split()[:3]).upper())

    try:
        svc = MatchService(store)
        info = await lobby(svc, [HOST, BOB], ais=1, rounds=200, channel=CHANNEL)
        event.listen(store.engine.sync_engine, "before_cursor_execute", record)
        submits = 0
        while submits < 60:
            for user in (HOST, BOB):
                pending = await svc.pending_prompt(info.id, user)
                if pending is None or pending.prompt.answered:
                    continue
                choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
                await svc.submit(info.id, user, choice, version=pending.version, interaction_id=f"s{submits}")
                submits += 1
        event.remove(store.engine.sync_engine, "before_cursor_execute", record)
        assert sum(1 for text in statements if text.startswith("INSERT INTO SNAPSHOTS")) >= 2
        assert not [text for text in statements if text.startswith("DELETE FROM SNAPSHOTS")]
        kept = await _kept(store, info.id)
        match = await svc.get_match(info.id)
        assert len(kept) == 2 and kept[-1] <= match.step < kept[-1] + 25
    finally:
        await store.close()
