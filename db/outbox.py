"""Outbox queries: per-match queues, parked notices and the targets that refuse them.

A notice's target is the player's DMs when it names a user, else the match's channel. Reading
per match (not "the N oldest notices") keeps one match's backlog from hiding every other match's
notices; parking keeps a refused target's notices out of the queue until it works again.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import DeliveryBlock, Notice

CHANNEL = "channel"
USER = "user"


def target_of(notice: Any) -> tuple[str, int]:
    """(kind, id) of where a notice (a row, or anything with ``user_id`` and ``channel_id``) goes:
    a user's DMs, or the channel."""
    if notice.user_id is not None:
        return USER, int(notice.user_id)
    return CHANNEL, int(notice.channel_id or 0)


def _for_target(kind: str, target_id: int) -> ColumnElement[bool]:
    if kind == USER:
        return Notice.user_id == target_id
    return sa.and_(Notice.user_id.is_(None), Notice.channel_id == target_id)


def _waiting() -> ColumnElement[bool]:
    return sa.and_(Notice.delivered_at.is_(None), Notice.parked_reason.is_(None))


class OutboxQueries:
    """The outbox SQL of the Store (mixed into it)."""

    async def matches_with_notices(self, session: AsyncSession, limit: int) -> list[int]:
        """Matches with notices waiting (not parked), the longest-waiting first."""
        oldest = sa.func.min(Notice.id)
        stmt = (select(Notice.match_id).where(_waiting()).group_by(Notice.match_id)
                .order_by(oldest).limit(limit))
        return [int(m) for m in (await session.exec(stmt)).all()]

    async def waiting_notices(self, session: AsyncSession, match_id: int, limit: int) -> list[Notice]:
        """The match's oldest notices that wait for delivery (parked ones excluded)."""
        stmt = select(Notice).where(Notice.match_id == match_id, _waiting()).order_by(Notice.id).limit(limit)
        return list((await session.exec(stmt)).all())

    async def delivery_blocks(
        self, session: AsyncSession, match_id: int | None = None, due: datetime | None = None
    ) -> list[DeliveryBlock]:
        """Blocked targets of one match (or of all), only those whose probe is due when ``due`` is given."""
        stmt = select(DeliveryBlock)
        if match_id is not None:
            stmt = stmt.where(DeliveryBlock.match_id == match_id)
        if due is not None:
            stmt = stmt.where(DeliveryBlock.next_probe_at <= due)
        stmt = stmt.order_by(DeliveryBlock.next_probe_at, DeliveryBlock.id)
        return list((await session.exec(stmt.execution_options(populate_existing=True))).all())

    async def delivery_block(
        self, session: AsyncSession, match_id: int, kind: str, target_id: int
    ) -> DeliveryBlock | None:
        stmt = select(DeliveryBlock).where(DeliveryBlock.match_id == match_id, DeliveryBlock.target_kind == kind,
                                           DeliveryBlock.target_id == target_id)
        return (await session.exec(stmt.execution_options(populate_existing=True))).first()

    async def park(
        self, session: AsyncSession, match_id: int, kind: str, target_id: int, reason: str,
        spare_kinds: Iterable[str] = (),
    ) -> int:
        """Park every waiting notice of the match for that target (``spare_kinds`` excepted)."""
        cond = sa.and_(Notice.match_id == match_id, _waiting(), _for_target(kind, target_id))
        spare = list(spare_kinds)
        if spare:
            cond = sa.and_(cond, Notice.kind.not_in(spare))
        result = await (await session.connection()).execute(
            sa.update(Notice).where(cond).values(parked_reason=reason[:200]).execution_options(synchronize_session=False)
        )
        return int(result.rowcount or 0)

    async def unpark(self, session: AsyncSession, match_id: int, kind: str, target_id: int) -> int:
        """Put the target's parked notices back in the queue (in their original order: by id)."""
        cond = sa.and_(Notice.match_id == match_id, Notice.delivered_at.is_(None), Notice.parked_reason.is_not(None),
                       _for_target(kind, target_id))
        result = await (await session.connection()).execute(
            sa.update(Notice).where(cond).values(parked_reason=None).execution_options(synchronize_session=False)
        )
        return int(result.rowcount or 0)

    async def parked_notices(
        self, session: AsyncSession, match_id: int, kind: str, target_id: int, limit: int | None = None
    ) -> list[Notice]:
        """The target's parked notices, oldest first (the first is the probe)."""
        stmt = (select(Notice).where(Notice.match_id == match_id, Notice.delivered_at.is_(None),
                                     Notice.parked_reason.is_not(None), _for_target(kind, target_id))
                .order_by(Notice.id))
        if limit is not None:
            stmt = stmt.limit(limit)
        return list((await session.exec(stmt)).all())

    async def parked_count(self, session: AsyncSession, match_id: int, kind: str, target_id: int) -> int:
        stmt = (select(sa.func.count()).select_from(Notice)
                .where(Notice.match_id == match_id, Notice.delivered_at.is_(None), Notice.parked_reason.is_not(None),
                       _for_target(kind, target_id)))
        return int((await session.exec(stmt)).one())
