"""The fence on a seat's turn DM tells its holder, once the block ends, whether it held it
throughout: a writer whose fence ended (or never came) writes its DM again from a new read
(bot/discord/dm_replies.py), since another process may have written meanwhile."""

from __future__ import annotations

import asyncio

import pytest

import db.turn_queries
from db import Store


async def _stores(url: str, idle_ms: int = 10_000) -> tuple[Store, Store]:
    """Two processes' stores on one database, migrated by a store of its own (a loaded machine
    may idle between migration statements longer than ``idle_ms``)."""
    await (await Store.open(url)).close()
    first = await Store.open(url, migrate=False, idle_in_transaction_ms=idle_ms)
    return first, await Store.open(url, migrate=False, idle_in_transaction_ms=idle_ms)


async def test_a_fence_held_throughout_is_kept_and_orders_the_other_process(pg_url: str) -> None:
    one, other = await _stores(pg_url)
    try:
        order: list[str] = []
        async with one.seat_fence(7, 1) as hold:
            waiting = asyncio.create_task(_take(other, order))
            await asyncio.sleep(0.3)
            order.append("one wrote")
        await waiting
        assert hold.kept and order == ["one wrote", "other read"]
    finally:
        await one.close()
        await other.close()


async def test_a_fence_the_server_ended_while_its_holder_idled_is_not_kept(pg_url: str) -> None:
    """The server ends a transaction idle past its limit, as for a paused process: the other
    process gets the fence meanwhile, and the holder learns it lost it."""
    one, other = await _stores(pg_url, idle_ms=300)
    try:
        order: list[str] = []
        async with one.seat_fence(7, 1) as hold:
            await asyncio.wait_for(_take(other, order), 30)  # granted once the server ended the holder's
        assert not hold.kept and order == ["other read"]
        async with one.seat_fence(7, 1) as again:
            pass
        assert again.kept, "the next fence is a new one"
    finally:
        await one.close()
        await other.close()


async def test_a_fence_not_granted_in_time_is_not_kept(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    one, other = await _stores(pg_url)
    monkeypatch.setattr(db.turn_queries, "FENCE_WAIT", "200ms")
    try:
        async with one.seat_fence(7, 1) as held, other.seat_fence(7, 1) as waited:
            pass
        assert held.kept and not waited.kept
    finally:
        await one.close()
        await other.close()


async def test_on_sqlite_the_fence_is_always_kept(tmp_path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'warhost.db'}")
    try:
        async with store.seats_fence(7, [0, 1]) as hold:
            pass
        assert hold.kept
    finally:
        await store.close()


async def _take(store: Store, order: list[str]) -> None:
    async with store.seat_fence(7, 1):
        order.append("other read")
