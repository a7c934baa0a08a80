"""The delivery's read of a match's queue takes the payloads of the notices this process
committed as the objects it wrote, without decoding the stored text (at 200 matches that
decoding was 2.3 % of the event loop's CPU), and nothing else changes: the store still says
which notices wait and in what order, so another process reads the same notices with the same
payloads. Only a committed transaction's payloads are taken (a failed one's keys are written
anew by its retry), and a notice marked delivered is forgotten."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import MatchService
from bot.service.outbox import Mark
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, HOST, lobby, play_choice


async def stored_queue(db_url: str, clock: Clock, match_id: int) -> list[tuple[int, str, dict[str, Any]]]:
    """The match's queue as another process reads it (it committed none of it: every payload is decoded)."""
    other = await Store.open(db_url)
    try:
        batch = await MatchService(other, clock=clock).next_batch(match_id, 50)
    finally:
        await other.close()
    return [(notice.id, notice.key, notice.payload) for notice in batch.notices]


async def answer_all(svc: MatchService, match_id: int) -> None:
    for user in (HOST, BOB):
        choice = await play_choice(svc, match_id, user)
        if choice is not None:
            await svc.submit(match_id, user, choice)


async def test_committed_payloads_are_read_as_written_and_the_queue_is_the_stores(
        svc: MatchService, store: Store, clock: Clock, db_url: str) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    await answer_all(svc, info.id)
    batch = await svc.next_batch(info.id, 50)
    committed = [notice for notice in batch.notices
                 if notice.payload is store.committed_payloads.get((info.id, notice.key))]
    assert len(committed) >= 2, "the answers' notices were not decoded: they are the objects committed"
    assert [(n.id, n.key, n.payload) for n in batch.notices] == await stored_queue(db_url, clock, info.id), \
        "the same notices, in the same order, with the same payloads as the store's"
    await svc.delivered_all([Mark(notice.id, "1", clock()) for notice in batch.notices])
    assert not any((info.id, notice.key) in store.committed_payloads for notice in batch.notices), \
        "a notice marked delivered is not kept"
    assert (await svc.next_batch(info.id, 50)).notices == []


async def test_a_transaction_that_failed_leaves_no_payload_to_take(svc: MatchService, store: Store,
                                                                   clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    kept = dict(store.committed_payloads)
    written = store.add_notices

    async def add_then_fail(session: Any, rows: list[dict[str, Any]]) -> None:
        await written(session, rows)
        assert rows, "the answer writes notices"
        raise RuntimeError("the disk went away before the commit")

    store.add_notices = add_then_fail  # type: ignore[method-assign]
    choice = await play_choice(svc, info.id, HOST)
    assert choice is not None
    with pytest.raises(RuntimeError):
        await svc.submit(info.id, HOST, choice)
    assert store.committed_payloads == kept, "nothing of the rolled back transaction is taken"
    store.add_notices = written  # type: ignore[method-assign]
    await svc.submit(info.id, HOST, choice)
    assert len(store.committed_payloads) > len(kept)


async def test_a_committed_payload_that_reads_back_different_fails_the_tests(store: Store) -> None:
    """Tests compare each committed payload used with the stored one (WARHOST_CHECK_COMMITTED_PAYLOADS):
    a tuple reads back as a list, a number key as a string."""
    store.committed([{"match_id": 1, "key": "v1:0:phase", "payload": {"names": ("Ann",)}}])
    with pytest.raises(AssertionError):
        store.payload_of(1, "v1:0:phase", '{"names":["Ann"]}')
    assert store.payload_of(1, "v2:0:phase", '{"names":["Ann"]}') == {"names": ["Ann"]}, "not committed here: decoded"
