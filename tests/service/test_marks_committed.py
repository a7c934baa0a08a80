"""A read that writes the delivery's waiting marks first by a statement of their own says
whether they were committed, so a read failing after them does not put them back to be written
a second time (bot/discord/waiting_marks.py), and one failing before them does."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import MatchService
from bot.service.outbox import Mark, MarksWrite
from db import Store
from tests.service.helpers import BOB, HOST, lobby


class Gone(Exception):
    """The database went away."""


@pytest.fixture
async def sent(svc: MatchService) -> tuple[int, MarksWrite, set[int]]:
    """A match whose first two notices went out: its id, their marks to write, their ids."""
    info = await lobby(svc, [HOST, BOB], hours=10)
    first = await svc.next_batch(info.id, limit=2)
    return (info.id, MarksWrite([Mark(notice.id, "x", svc.clock()) for notice in first.notices]),
            {notice.id for notice in first.notices})


async def waiting(svc: MatchService) -> set[int]:
    return {notice.id for notice in await svc.outbox(limit=1000)}


async def test_marks_committed_before_the_read_failed_are_written_and_said_so(
        svc: MatchService, store: Store, sent: tuple[int, MarksWrite, set[int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, write, went = sent

    async def waiting_notices(*_args: Any, **_kwargs: Any) -> Any:
        raise Gone("mid-read")

    monkeypatch.setattr(store, "waiting_notices", waiting_notices)
    with pytest.raises(Gone):
        await svc.next_batch(match_id, limit=50, marks=write)
    monkeypatch.undo()
    assert write.committed and write.written == 2, "the marks' own statement went before the read"
    assert not await waiting(svc) & went, "the notices that went are marked"


async def test_marks_whose_statement_failed_are_not_said_committed(
        svc: MatchService, store: Store, sent: tuple[int, MarksWrite, set[int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, write, went = sent

    async def mark_all_delivered(*_args: Any, **_kwargs: Any) -> int:
        raise Gone("mid-write")

    monkeypatch.setattr(store, "mark_all_delivered", mark_all_delivered)
    with pytest.raises(Gone):
        await svc.seat_turns(match_id, marks=write)
    monkeypatch.undo()
    assert not write.committed, "nothing was written: the marks wait again"
    assert went <= await waiting(svc)
