"""Every write turn of a store held by other transactions: the overload the store must refuse
with StoreBusy within its ``wait_seconds`` instead of making a caller wait."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import sqlalchemy as sa

from db import Store


@asynccontextmanager
async def every_write_turn_held(store: Store) -> AsyncIterator[None]:
    """While inside, transactions hold every way to write: on SQLite the one write turn, on
    PostgreSQL a pool of one and its overflow (open the store with ``pool_size=1``). On leaving,
    they end and writes go through again."""
    release = asyncio.Event()
    holding = asyncio.Event()
    held = 1 if store.dialect == "sqlite" else 2

    async def hold() -> None:
        async with store.write() as session:
            await session.execute(sa.text("SELECT 1"))
            holding.set()
            await release.wait()

    holders: list[asyncio.Task[None]] = []
    try:
        for _ in range(held):
            holding.clear()
            holders.append(asyncio.create_task(hold()))
            await holding.wait()
        yield
    finally:
        release.set()
        await asyncio.gather(*holders, return_exceptions=True)
