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


async def test_a_transaction_that_makes_a_session_still_logs_its_choices_by_one_insert(
        store: Store, svc: MatchService) -> None:
    """The start (the AIs' first choices after it) and the choice that ends the match (the AIs'
    last ones, then the record and the ratings, which need a session) each log all their
    choices by one INSERT: a session made in the middle of the transaction used to insert each
    choice by a statement of its own. The start's snapshot needs no read before it, and the
    record's seats are one INSERT too."""
    from tests.service.helpers import CHANNEL, GUILD, HOST

    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 1}, seed=3)
    for _ in range(3):
        await svc.add_ai(CHANNEL, HOST)
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(" ".join(statement.split()[:4]).upper())

    event.listen(store.engine.sync_engine, "before_cursor_execute", record)
    try:
        await svc.start(CHANNEL, HOST)
        started = (await svc.get_match(info.id)).step
        assert started >= 2  # the AIs bid in the start's own transaction
        assert sum(1 for text in statements if text.startswith("INSERT INTO CHOICES")) == 1, statements
        assert not [text for text in statements if "SNAPSHOTS" in text and text.startswith("SELECT")], statements
        while (match := await svc.get_match(info.id)).status == "active":
            pending = await svc.pending_prompt(info.id, HOST)
            assert pending is not None
            gold = (await svc.seat_view(info.id, HOST))["gold"][pending.seat]  # the highest bid: the host moves first, the AIs after
            choice = {"bid": gold} if pending.prompt.kind == "bid" else {"action": "gather"}
            before = match.step
            statements.clear()
            await svc.submit(info.id, HOST, choice, version=pending.version, interaction_id=f"end{before}")
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", record)
    assert match.status == "finished"
    assert match.step - before >= 2, "the last choice is followed by AI choices in its transaction"
    assert any(text.startswith("INSERT INTO MATCH_RECORDS") for text in statements), statements
    assert sum(1 for text in statements if text.startswith("INSERT INTO CHOICES")) == 1, statements
    assert sum(1 for text in statements if text.startswith("INSERT INTO RECORD_SEATS")) == 1, statements


async def test_opening_a_lobby_checks_its_limits_by_one_read(store: Store, svc: MatchService) -> None:
    """`/game new` asks whether the host has a lobby open, whether the channel is taken and how
    many matches the server and the host have open by one SELECT, and reads no deadline (a new
    lobby has none): five reads before."""
    from bot.service.limits import MatchLimits
    from tests.service.helpers import CHANNEL, GUILD, HOST

    svc.match_limits = MatchLimits(per_server=10, per_user=3)
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(" ".join(statement.split()[:3]).upper())

    event.listen(store.engine.sync_engine, "before_cursor_execute", record)
    try:
        await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {"rounds": 1}, seed=3)
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", record)
    assert sum(1 for text in statements if text.startswith("SELECT")) == 1, statements
