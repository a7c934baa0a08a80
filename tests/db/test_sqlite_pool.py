"""The SQLite engines keep the connections they open: a burst of reads past the few the store
keeps checked out used to open overflow connections and close each as it was given back (at 200
busy matches ~500 of them in 150 s, each a thread, the file opened and its pragmas run)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event

from db import Store
from db.store import SQLITE_POOL


async def test_bursts_of_reads_reuse_the_connections_they_opened(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'warhost.db'}")
    opened: list[object] = []
    event.listen(store.read_engine.sync_engine, "connect", lambda connection, record: opened.append(connection))
    inside, release = asyncio.Event(), asyncio.Event()
    together = 12

    async def read() -> None:
        async with store.read() as session:
            assert (await session.execute(sa.text("SELECT 1"))).scalar() == 1
            if sum(1 for task in reads if not task.done()) >= together:
                inside.set()
            await release.wait()

    try:
        for _burst in range(5):
            inside.clear()
            release.clear()
            reads = [asyncio.create_task(read()) for _ in range(together)]
            await asyncio.wait_for(inside.wait(), 60)  # all twelve hold a connection at once
            release.set()
            await asyncio.gather(*reads)
        assert len(opened) == together  # opened in the first burst, used again by the next four
        assert together <= SQLITE_POOL
    finally:
        await store.close()
