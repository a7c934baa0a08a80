"""The SQL behind a seat's turn DM (mixed into the Store): which message holds the seat's turn
(its newest delivered prompt notice), what the seat chose since, and the reminder DMs it got."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Choice, Notice

TURN_SCAN = 8
"""Prompt notices read back to find the newest one a DM holds (a skipped, superseded one has no
message of its own)."""


class TurnQueries:
    """Reads of one seat's turn, each in the caller's session."""

    async def turn_notice(
        self, session: AsyncSession, match_id: int, seat: int, before_id: int | None = None,
        user_id: int | None = None,
    ) -> tuple[int, str, dict[str, Any]] | None:
        """(id, message id, payload) of the seat's newest prompt notice delivered into a message
        (before ``before_id`` when given; to ``user_id``'s DMs when given, as a seat that changed
        hands has had the DMs of several players): the DM that holds the seat's turn."""
        stmt = select(col(Notice.id), col(Notice.delivery_ref), col(Notice.payload)).where(
            col(Notice.match_id) == match_id, col(Notice.kind) == "prompt", col(Notice.seat) == seat,
            col(Notice.delivery_ref).is_not(None))
        if user_id is not None:
            stmt = stmt.where(col(Notice.user_id) == user_id)
        if before_id is not None:
            stmt = stmt.where(col(Notice.id) < before_id)
        rows = (await session.exec(stmt.order_by(col(Notice.id).desc()).limit(TURN_SCAN))).all()
        for notice_id, ref, payload in rows:
            if ref is not None and str(ref).isdigit():
                return int(notice_id or 0), str(ref), dict(payload)
        return None

    async def claim_prompt_message(self, session: AsyncSession, match_id: int, seat: int, version: int,
                                   message_id: str) -> bool:
        """The seat answered its prompt of ``version`` on DM ``message_id`` before that prompt's notice
        was marked delivered (the delivery stopped between the send and the mark): the message is
        the notice's, so its delivery, whatever it finds then, records it and a later prompt edits
        it instead of sending another. True when a notice took the ref."""
        stmt = select(col(Notice.id), col(Notice.payload)).where(
            col(Notice.match_id) == match_id, col(Notice.kind) == "prompt", col(Notice.seat) == seat,
            col(Notice.delivered_at).is_(None), col(Notice.delivery_ref).is_(None))
        for notice_id, payload in (await session.exec(stmt)).all():
            if (payload or {}).get("version") == version:
                connection = await session.connection()
                await connection.execute(sa.update(Notice).where(
                    col(Notice.id) == notice_id, col(Notice.delivery_ref).is_(None)).values(delivery_ref=message_id))
                return True
        return False

    async def seat_choices(self, session: AsyncSession, match_id: int, seat: int,
                           after: int) -> list[tuple[int, str, str, dict[str, Any]]]:
        """(seq, kind, by, choice) of the seat's choices after log position ``after``, oldest first."""
        stmt = (select(col(Choice.seq), col(Choice.kind), col(Choice.by), col(Choice.payload))
                .where(col(Choice.match_id) == match_id, col(Choice.seat) == seat, col(Choice.seq) > after)
                .order_by(col(Choice.seq)))
        return [(int(seq), str(kind), str(by), dict(payload)) for seq, kind, by, payload in (await session.exec(stmt)).all()]

    async def reminder_refs(self, session: AsyncSession, match_id: int, after_id: int) -> list[str]:
        """Delivery refs of the match's reminder notices after notice ``after_id``."""
        stmt = select(col(Notice.delivery_ref)).where(
            col(Notice.match_id) == match_id, col(Notice.kind) == "reminder", col(Notice.id) > after_id,
            col(Notice.delivery_ref).is_not(None))
        return [str(ref) for ref in (await session.exec(stmt)).all() if ref is not None]
