"""The SQL of a player's pace on a server (`/game stats`): how long they take to answer and how
many deadlines they let pass. One statement per figure, on SQLite and PostgreSQL alike: the
seconds each answer took are stored with the choice (Choice.waited), so no date arithmetic of
either dialect is needed, and the median comes from window functions both have."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Choice, Match


def _on_server(guild_id: int, user_id: int) -> list[sa.ColumnElement[bool]]:
    return [col(Choice.user_id) == user_id, col(Match.guild_id) == guild_id]


async def median_answer_seconds(session: AsyncSession, guild_id: int, user_id: int) -> tuple[float | None, int]:
    """(median seconds from a decision's opening to the player's own first answer of it, how
    many answers) on this server; None: no answer yet. Choices the AI or a deadline made are not
    the player's answers."""
    waited = col(Choice.waited)
    ranked = (sa.select(waited.label("waited"),
                        sa.func.row_number().over(order_by=waited).label("place"),
                        sa.func.count().over().label("total"))
              .select_from(Choice).join(Match, col(Match.id) == Choice.match_id)
              .where(*_on_server(guild_id, user_id), col(Choice.by) == "player", waited.is_not(None))
              .subquery())
    # The middle one of an odd count, the two middle ones of an even count: 2*place in [total, total + 2].
    stmt = sa.select(sa.func.avg(ranked.c.waited), sa.func.max(ranked.c.total)).where(
        ranked.c.place * 2 >= ranked.c.total, ranked.c.place * 2 <= ranked.c.total + 2)
    median, total = (await (await session.connection()).execute(stmt)).one()
    return (None if median is None else float(median)), int(total or 0)


async def missed_deadlines(session: AsyncSession, guild_id: int, user_id: int) -> tuple[int, int]:
    """(deadlines the player missed, decisions they owed) on this server: a decision is owed
    once, answered by them (their first answer) or by the AI when its deadline passed."""
    missed = col(Choice.by) == "deadline"
    owed = sa.or_(missed, sa.and_(col(Choice.by) == "player", col(Choice.waited).is_not(None)))
    stmt = (sa.select(sa.func.coalesce(sa.func.sum(sa.case((missed, 1), else_=0)), 0), sa.func.count())
            .select_from(Choice).join(Match, col(Match.id) == Choice.match_id)
            .where(*_on_server(guild_id, user_id), owed))
    missed_count, owed_count = (await (await session.connection()).execute(stmt)).one()
    return int(missed_count), int(owed_count)
