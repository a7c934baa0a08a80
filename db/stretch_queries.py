"""The SQL of seats that changed hands (`/game replace`): each player's stretch at a seat, read
and written in the caller's session. Functions, not Store methods: the match transaction and the
reads of history and stats call them with the session they hold."""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Notice, SeatStretch
from db.records import MatchRecord

SHARED_LISTED = 5
"""Finished matches `/game stats` lists where the player held a seat only for a stretch."""


async def seat_stretches(session: AsyncSession, match_id: int, seat_no: int) -> list[SeatStretch]:
    """The stretches of one seat, oldest first."""
    stmt = (select(SeatStretch).where(col(SeatStretch.match_id) == match_id, col(SeatStretch.seat_no) == seat_no)
            .order_by(col(SeatStretch.from_step), col(SeatStretch.id)))
    return list((await session.exec(stmt)).all())


async def stretches_of(session: AsyncSession, match_ids: Iterable[int]) -> list[SeatStretch]:
    """The stretches of these matches, by match, seat and start."""
    stmt = (select(SeatStretch).where(col(SeatStretch.match_id).in_(list(match_ids)))
            .order_by(col(SeatStretch.match_id), col(SeatStretch.seat_no), col(SeatStretch.from_step),
                      col(SeatStretch.id)))
    return list((await session.exec(stmt)).all())


async def last_seat_of(session: AsyncSession, match_id: int, user_id: int) -> SeatStretch | None:
    """The user's newest stretch in the match (the seat they held last), or None."""
    stmt = (select(SeatStretch).where(col(SeatStretch.match_id) == match_id, col(SeatStretch.user_id) == user_id)
            .order_by(col(SeatStretch.from_step).desc(), col(SeatStretch.id).desc()).limit(1))
    return (await session.exec(stmt)).first()


async def shared_matches(session: AsyncSession, guild_id: int, user_id: int,
                         limit: int = SHARED_LISTED) -> list[MatchRecord]:
    """The server's finished matches, newest first, where the user played a seat for a stretch."""
    stmt = (select(MatchRecord).where(
        col(MatchRecord.guild_id) == guild_id,
        col(MatchRecord.match_id).in_(select(SeatStretch.match_id).where(col(SeatStretch.user_id) == user_id)))
        .order_by(col(MatchRecord.finished_at).desc(), col(MatchRecord.match_id).desc()).limit(limit))
    return list((await session.exec(stmt)).all())


async def forget_closed_dms(session: AsyncSession, match_id: int, seat_no: int) -> None:
    """Drop the mark that the seat's DMs are closed: they were its former player's DMs."""
    connection = await session.connection()
    await connection.execute(sa.delete(Notice).where(col(Notice.match_id) == match_id,
                                                     col(Notice.key) == f"dms-closed:{seat_no}"))


async def open_posts(session: AsyncSession, match_id: int, seat_no: int) -> list[int]:
    """The channel posts that offered this seat to a replacement (their message ids)."""
    stmt = select(col(Notice.delivery_ref), col(Notice.payload)).where(
        col(Notice.match_id) == match_id, col(Notice.kind) == "seat_open", col(Notice.delivery_ref).is_not(None))
    return [int(ref) for ref, payload in (await session.exec(stmt)).all()
            if ref is not None and str(ref).isdigit() and (payload or {}).get("seat") == seat_no]
