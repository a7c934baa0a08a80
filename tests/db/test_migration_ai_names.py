"""Migration 0011: AI seats of stored matches named the old way ("AI 1 (heuristic)") read as the
AI names of today, in running matches and in finished matches' records; players keep theirs."""

from __future__ import annotations

from sqlalchemy import text

import engine
from bot.service import MatchService
from db import Store
from tests.db.conftest import downgrade
from tests.service.helpers import BOB, CHANNEL, HOST, lobby
from tests.service.toygame import GAME


async def test_0011_renames_old_ai_seats_and_leaves_players_alone(db_url: str) -> None:
    engine.register(GAME)
    store = await Store.open(db_url)
    try:
        svc = MatchService(store)
        info = await lobby(svc, [HOST, BOB], ais=2, channel=CHANNEL)
        await downgrade(store, "0010")
        async with store.write() as session:
            await session.execute(text("UPDATE seats SET name = 'AI ' || (seat_no - 1) || ' (heuristic)' "
                                       "WHERE ai_policy IS NOT NULL"))
            await session.execute(text("UPDATE seats SET name = 'AI 7 (random)' WHERE user_id = :bob"), {"bob": BOB})
        async with store.read() as session:
            names = (await session.execute(text("SELECT name FROM seats WHERE match_id = :m ORDER BY seat_no"),
                                           {"m": info.id})).scalars().all()
        assert names[2:] == ["AI 1 (heuristic)", "AI 2 (heuristic)"]

        await store.migrate("head")
        names = (await svc.get_match(info.id)).names()
        assert names == ["host", "AI 7 (random)", "AI Ayame", "AI Bruno"]  # a player's own name stays
    finally:
        await store.close()
