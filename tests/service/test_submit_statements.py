"""A submit's SQL: the deadline is read once, and the match row is written by one UPDATE."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import event

from bot.service import MatchService
from db import Store

USERS = [1001, 1002, 1003, 1004]
MAX_STATEMENTS = 13
"""Per submit of the toy game, BEGIN and COMMIT included (12.3 now, 3 of them notices; 15.7 before the deadline was read once
per transaction and `Store.bump` carried the match's pending columns)."""


async def test_a_submit_sends_few_statements(store: Store, svc: MatchService) -> None:
    info = await svc.create(1, 500, USERS[0], "p0", "toy", {"rounds": 1000}, seed=1)
    for user in USERS[1:]:
        await svc.join(500, user, f"p{user}")
    await svc.start(500, USERS[0])
    statements: list[str] = []
    recording = False

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if recording:
            statements.append(" ".join(statement.split()[:3]).upper())

    event.listen(store.engine.sync_engine, "before_cursor_execute", record)
    submits = 0
    try:
        while submits < 12:
            for user in USERS:
                pending = await svc.pending_prompt(info.id, user)
                if pending is None or pending.prompt.answered:
                    continue
                choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
                recording = True
                await svc.submit(info.id, user, choice, version=pending.version, interaction_id=f"s{submits}")
                recording = False
                submits += 1
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", record)
    kinds = Counter(statements)
    assert sum(1 for text in statements if text.startswith("UPDATE MATCHES")) == submits
    assert sum(1 for text in statements if "DEADLINES" in text and text.startswith("SELECT")) <= submits
    assert (len(statements) + submits) / submits <= MAX_STATEMENTS, kinds  # + one COMMIT each
