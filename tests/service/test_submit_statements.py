"""A submit's SQL: the match, its seats, its deadline and the interaction's earlier choice are
read by one statement (PostgreSQL locks the match row by one before it), the match row is written
by one UPDATE, the seats by one, and the notices by one INSERT."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import event

from bot.service import MatchService
from db import Store

USERS = [1001, 1002, 1003, 1004]
MAX_STATEMENTS = 8
"""Per submit of the toy game, BEGIN and COMMIT included: 7.7 now on SQLite (BEGIN, the match
rows with the interaction's earlier choice, UPDATE matches, UPDATE seats, UPDATE deadlines on
most submits, INSERT choices, INSERT notices, COMMIT); 8.5 while the interaction was looked up
by a statement of its own and seats with different changed columns took one UPDATE each; 12.3 before the match rows came in one read and the notices in
one INSERT, 15.7 before the deadline was read once per transaction and `Store.bump` carried the
match's pending columns."""


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
    assert not [text for text in statements if text.startswith(("SELECT SEATS", "SELECT DEADLINES", "SELECT CHOICES"))], kinds
    assert sum(1 for text in statements if text.startswith("UPDATE SEATS")) <= submits, kinds
    assert sum(1 for text in statements if text.startswith("INSERT INTO NOTICES")) == submits
    assert (len(statements) + submits) / submits <= MAX_STATEMENTS, kinds  # + one COMMIT each
