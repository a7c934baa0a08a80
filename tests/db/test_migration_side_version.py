"""Migration 0018: SQLite counts, on the match row (``side_version``), every write of the
match's rows that is not its match transaction's version bump: seats and deadlines inserted,
updated or deleted, and UPDATEs of the match leaving its version. The bump sets it to 0. A
process trusting the rows it committed checks that count in its next bump (bot/service).
PostgreSQL has the column but no count (its transactions read their rows; a trigger there
would deadlock against them): it stays 0, and writes there take no lock on the match row."""

from __future__ import annotations

import sqlalchemy as sa

import engine
from bot.service import MatchService
from db import Store
from tests.db.conftest import downgrade
from tests.service.helpers import BOB, CHANNEL, HOST, lobby
from tests.service.toygame import GAME


async def _side(store: Store, match_id: int) -> tuple[int, int]:
    async with store.read() as session:
        row = (await session.execute(sa.text("SELECT version, side_version FROM matches WHERE id = :id"),
                                     {"id": match_id})).one()
    return int(row[0]), int(row[1])


async def _write(store: Store, sql: str, **values: object) -> None:
    async with store.write() as session:
        await session.execute(sa.text(sql), values)


async def test_every_write_beside_the_bump_counts_and_the_bump_starts_again(db_url: str) -> None:
    engine.register(GAME)
    store = await Store.open(db_url)
    try:
        svc = MatchService(store)
        info = await lobby(svc, [HOST, BOB], ais=1, channel=CHANNEL)
        version, side = await _side(store, info.id)
        await _write(store, "UPDATE seats SET dm_channel_id = 5 WHERE match_id = :id AND user_id = :u", id=info.id, u=BOB)
        if store.dialect != "sqlite":
            assert await _side(store, info.id) == (version, 0)
            return
        assert await _side(store, info.id) == (version, side + 1)
        await _write(store, "UPDATE seats SET name = name WHERE match_id = :id", id=info.id)  # three seats
        assert await _side(store, info.id) == (version, side + 4)
        await _write(store, "UPDATE matches SET board_message_id = 9 WHERE id = :id", id=info.id)
        assert await _side(store, info.id) == (version, side + 5)
        await _write(store, "DELETE FROM deadlines WHERE match_id = :id", id=info.id)
        assert await _side(store, info.id) == (version, side + 6)
        await _write(store, "UPDATE matches SET version = version + 1, side_version = 0 WHERE id = :id", id=info.id)
        assert await _side(store, info.id) == (version + 1, 0)  # a bump: not counted, and counting starts again
        # the seats a match transaction writes after its bump count from 0 (the service knows how many)
        await _write(store, "UPDATE matches SET version = version + 1, side_version = 0 WHERE id = :id", id=info.id)
        await _write(store, "UPDATE seats SET missed = missed WHERE match_id = :id AND seat_no = 0", id=info.id)
        assert await _side(store, info.id) == (version + 2, 1)
    finally:
        await store.close()


async def test_0018_adds_the_count_at_zero_and_counts_from_the_upgrade(db_url: str) -> None:
    engine.register(GAME)
    store = await Store.open(db_url)
    try:
        info = await lobby(MatchService(store), [HOST, BOB], ais=1, channel=CHANNEL)
        await downgrade(store, "0017")
        await _write(store, "UPDATE seats SET dm_channel_id = 5 WHERE match_id = :id", id=info.id)  # not counted
        await store.migrate("head")
        version, side = await _side(store, info.id)
        assert side == 0
        await _write(store, "UPDATE seats SET dm_channel_id = 6 WHERE match_id = :id AND user_id = :u", id=info.id, u=BOB)
        assert await _side(store, info.id) == (version, int(store.dialect == "sqlite"))
    finally:
        await store.close()
