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


async def test_marks_committed_before_the_read_failed_are_written_and_said_so(
        svc: MatchService, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    first = await svc.next_batch(info.id, limit=2)
    write = MarksWrite([Mark(notice.id, "x", svc.clock()) for notice in first.notices])

    async def waiting_notices(*_args: Any, **_kwargs: Any) -> Any:
        raise Gone("mid-read")

    with monkeypatch.context() as patched:
        patched.setattr(store, "waiting_notices", waiting_notices)
        with pytest.raises(Gone):
            await svc.next_batch(info.id, limit=50, marks=write)
    assert write.committed and write.written == 2, "the marks' own statement went before the read"
    left = {notice.id for notice in await svc.outbox(limit=1000)}
    assert not left & {notice.id for notice in first.notices}, "the notices that went are marked"


async def test_marks_whose_statement_failed_are_not_said_committed(
        svc: MatchService, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    first = await svc.next_batch(info.id, limit=2)
    write = MarksWrite([Mark(notice.id, "x", svc.clock()) for notice in first.notices])

    async def mark_all_delivered(*_args: Any, **_kwargs: Any) -> int:
        raise Gone("mid-write")

    with monkeypatch.context() as patched:
        patched.setattr(store, "mark_all_delivered", mark_all_delivered)
        with pytest.raises(Gone):
            await svc.seat_turns(info.id, marks=write)
    assert not write.committed, "nothing was written: the marks wait again"
    left = {notice.id for notice in await svc.outbox(limit=1000)}
    assert {notice.id for notice in first.notices} <= left
