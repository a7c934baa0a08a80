"""Host commands applied once, and their outcome heard once.

Each host command (pause, resume, extend, kick, abort) is noted, keyed by its interaction id,
with what it did: the same interaction seen again, or the same command with the same options
repeated by the same person within REPEAT_WINDOW (a retry after a lost confirmation), answers
"already done" with the first outcome instead of applying it twice. When Discord refused the
confirmation (the interaction token expired: 401/50027), the outcome waits in the match's log
and is told with the person's next command there.

The notes are notice rows delivered at once (kind ``command`` or ``unheard``): the match's own
outbox table, read by the match's index."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import col, select

from db.models import Notice
from db.store import Store

REPEAT_WINDOW = timedelta(minutes=1)
COMMAND, UNHEARD = "command", "unheard"
UNTOLD, TOLD = "untold", "told"


@dataclass(frozen=True)
class Done:
    """A host command already applied: what it did and when."""

    text: str
    at: datetime


class CommandLog:
    """The notes of host commands done and of outcomes not heard yet. It needs only the store
    and the clock: MatchService holds one (``svc.command_log``) and passes its calls on."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock

    async def command_done_before(self, match_id: int, user_id: int, interaction_id: str,
                                  signature: str, version: int | None = None) -> Done | None:
        """The outcome of this interaction, or of the same command by the same person within
        REPEAT_WINDOW; with ``version`` (the match's now), only if the match has not moved since
        that command was done (an undo asked again after a refusal is a new request)."""
        since = self.clock() - REPEAT_WINDOW
        stmt = (select(Notice).where(col(Notice.match_id) == match_id, col(Notice.kind) == COMMAND,
                                     col(Notice.user_id) == user_id)
                .where(sa.or_(col(Notice.key) == f"command:{interaction_id}", col(Notice.created_at) >= since))
                .order_by(col(Notice.id).desc()))
        async with self.store.read() as session:
            rows = (await session.exec(stmt)).all()
        same = next((row for row in rows if row.key == f"command:{interaction_id}"), None)
        newest = rows[0] if rows else None
        if same is None and newest is not None and newest.created_at >= since \
                and newest.payload.get("signature") == signature \
                and (version is None or newest.payload.get("version") == version):
            same = newest  # their newest command was this one: a pause, resume, pause goes through
        return None if same is None else Done(str(same.payload.get("text", "")), same.created_at)

    async def note_command(self, match_id: int, user_id: int, interaction_id: str, signature: str, text: str,
                           version: int | None = None) -> None:
        """Note a command done (``version``: the match's version right after it)."""
        now = self.clock()
        payload: dict[str, object] = {"signature": signature, "text": text}
        if version is not None:
            payload["version"] = version
        async with self.store.write() as session:
            session.add(Notice(match_id=match_id, key=f"command:{interaction_id}"[:100], kind=COMMAND, user_id=user_id,
                               payload=payload, created_at=now, delivered_at=now, delivery_ref="noted"))

    async def note_unheard(self, match_id: int, user_id: int, interaction_id: str, text: str) -> None:
        """Discord refused the confirmation of a command: keep its outcome for the person's next command."""
        now = self.clock()
        async with self.store.write() as session:
            session.add(Notice(match_id=match_id, key=f"unheard:{interaction_id}"[:100], kind=UNHEARD,
                               user_id=user_id, payload={"text": text}, created_at=now, delivered_at=now,
                               delivery_ref=UNTOLD))

    async def take_unheard(self, match_id: int, user_id: int) -> list[str]:
        """The outcomes the person has not heard yet in this match, oldest first (told once)."""
        cond = sa.and_(col(Notice.match_id) == match_id, col(Notice.kind) == UNHEARD, col(Notice.user_id) == user_id,
                       col(Notice.delivery_ref) == UNTOLD)
        async with self.store.read() as session:  # nearly always none: no write transaction for that
            if (await session.exec(select(Notice.id).where(cond).limit(1))).first() is None:
                return []
        async with self.store.write() as session:
            rows = (await session.exec(select(Notice).where(cond).order_by(col(Notice.id)))).all()
            for row in rows:
                row.delivery_ref = TOLD
            return [str(row.payload.get("text", "")) for row in rows]
