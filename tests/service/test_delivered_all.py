"""The delivered marks of a batch in one write (``delivered_all``): each notice keeps its own ref
and the time it went out, a mark is never written twice nor by a process whose lease term is
over, and the batch costs one UPDATE whatever its size."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event
from sqlmodel import select

from bot.service import MatchService
from bot.service.outbox import Fence, Mark
from db import Store
from db.models import Notice
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, HOST, lobby, recorded

TTL = timedelta(seconds=10)


async def rows(store: Store, ids: list[int]) -> dict[int, Notice]:
    async with store.read() as session:
        found = (await session.exec(select(Notice).where(Notice.id.in_(ids)))).all()  # type: ignore[union-attr]
    return {int(row.id or 0): row for row in found}


async def test_a_batch_is_marked_in_one_update_each_with_its_ref_and_time(store: Store, svc: MatchService,
                                                                       clock: Clock) -> None:
    term = await store.acquire_lease("deliver", "a", clock.now, TTL)
    assert term is not None
    fence = Fence("deliver", "a", term)
    await lobby(svc, [HOST, BOB, CAROL])
    waiting = (await svc.outbox(limit=100))[:5]
    assert len(waiting) == 5
    sent = [Mark(n.id, str(900 + i), clock.now + timedelta(seconds=i)) for i, n in enumerate(waiting)]
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(" ".join(statement.split()[:2]).upper())

    event.listen(store.engine.sync_engine, "before_cursor_execute", record)
    try:
        assert await svc.delivered_all(sent, fence) == 5
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", record)
    assert [text for text in statements if not text.startswith(("BEGIN", "SET", "COMMIT"))] == ["UPDATE NOTICES"]

    marked = await rows(store, [n.id for n in waiting])
    for i, notice in enumerate(waiting):
        assert marked[notice.id].delivery_ref == str(900 + i)
        assert marked[notice.id].delivered_at == clock.now + timedelta(seconds=i), "when it went out"
    assert not {n.id for n in await svc.outbox(limit=100)} & {n.id for n in waiting}, "they left the queue"

    assert await svc.delivered_all([Mark(waiting[0].id, "77", clock.now)], fence) == 0, "marked once only"
    assert (await rows(store, [waiting[0].id]))[waiting[0].id].delivery_ref == "900"


async def test_a_term_that_is_over_marks_nothing_of_the_batch(store: Store, svc: MatchService, clock: Clock) -> None:
    term = await store.acquire_lease("deliver", "a", clock.now, TTL)
    assert term is not None
    await lobby(svc, [HOST, BOB])
    waiting = (await svc.outbox(limit=100))[:3]
    assert await store.acquire_lease("deliver", "b", clock.now + timedelta(seconds=11), TTL) == term + 1
    stale = Fence("deliver", "a", term)
    assert await svc.delivered_all([Mark(n.id, "1", clock.now) for n in waiting], stale) == 0
    assert {n.id for n in waiting} <= {n.id for n in await svc.outbox(limit=100)}, "still waiting: the holder sends them"


async def test_a_mark_on_sqlite_is_one_statement_without_begin(svc: MatchService, store: Store) -> None:
    """A delivered mark is one UPDATE: on SQLite it runs in autocommit, with no BEGIN before it
    (a statement of its own is a transaction of its own), and it is written."""
    if store.dialect != "sqlite":
        pytest.skip("PostgreSQL marks in a transaction of their own")
    await lobby(svc, [HOST, BOB], hours=10)
    notice = next(n for n in await svc.outbox(limit=1000) if n.kind == "prompt")
    with recorded(store) as statements:
        assert await svc.delivered(notice.id, "800")
    assert [s.split()[0].upper() for s in statements] == ["UPDATE"], statements
    assert notice.id not in {n.id for n in await svc.outbox(limit=1000)}
