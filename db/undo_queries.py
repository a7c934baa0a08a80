"""The SQL of undos (mixed into the Store): the requests, and cutting a match's log back."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Choice, Match, Notice, Snapshot, Undo, stored_id
from db.outbox import delivered_payload_sql


class UndoQueries:
    """Undo rows and the log cut, each in the caller's session."""

    async def due_undos(self, session: AsyncSession, status: str, now: datetime) -> list[tuple[int, int]]:
        """(match id, undo id) of the requests in ``status`` whose time is up."""
        stmt = select(Undo.match_id, col(Undo.id)).where(col(Undo.status) == status, col(Undo.due_at) <= now)
        return [(match_id, stored_id(undo_id)) for match_id, undo_id in (await session.exec(stmt)).all()]

    async def undos(self, session: AsyncSession, match_id: int, status: str | None = None) -> list[Undo]:
        """The match's undo requests (in ``status`` only, if given), oldest first."""
        stmt = select(Undo).where(col(Undo.match_id) == match_id)
        if status is not None:
            stmt = stmt.where(col(Undo.status) == status)
        return list((await session.exec(stmt.order_by(col(Undo.id)))).all())

    async def undo_mark(self, session: AsyncSession, match_id: int) -> int | None:
        """The newest notice id before the match's last undo (None: never undone)."""
        return (await session.exec(select(Match.undo_mark).where(col(Match.id) == match_id))).first()

    async def prompt_sent_by(self, session: AsyncSession, match_id: int, message_id: int, mark: int) -> bool:
        """Whether that message is a prompt notice of the match at or before notice ``mark``."""
        stmt = select(Notice.id).where(col(Notice.match_id) == match_id, col(Notice.kind) == "prompt",
                                       col(Notice.delivery_ref) == str(message_id), col(Notice.id) <= mark)
        return (await session.exec(stmt.limit(1))).first() is not None

    async def cut_log(self, session: AsyncSession, match_id: int, to_step: int) -> None:
        """Drop the choices and snapshots after ``to_step``: the log is the truth, so this is the undo."""
        connection = await session.connection()
        await connection.execute(sa.delete(Choice).where(col(Choice.match_id) == match_id, col(Choice.seq) > to_step)
                                 .execution_options(synchronize_session=False))
        await connection.execute(sa.delete(Snapshot).where(col(Snapshot.match_id) == match_id, col(Snapshot.seq) > to_step)
                                 .execution_options(synchronize_session=False))

    async def retire_prompts(self, session: AsyncSession, match_id: int, now: datetime) -> int | None:
        """Prompt notices not sent yet never go out (marked delivered as "retired"). Returns the
        match's newest notice id: prompts sent up to it are stale from now on."""
        mark = (await session.exec(select(sa.func.max(Notice.id)).where(col(Notice.match_id) == match_id))).one()
        connection = await session.connection()
        await connection.execute(sa.update(Notice).where(
            col(Notice.match_id) == match_id, col(Notice.kind) == "prompt", col(Notice.delivered_at).is_(None))
            .values(delivered_at=now, delivery_ref="retired", payload=delivered_payload_sql(connection.dialect.name))
            .execution_options(synchronize_session=False))
        return mark
