"""The SQL of votes to end a match and of concessions (mixed into the Store), each in the caller's session."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Concession, MatchVote, stored_id


async def concessions(session: AsyncSession, match_id: int) -> list[Concession]:
    """The match's concessions, earliest first (ratings.py reads them when a match is recorded)."""
    stmt = select(Concession).where(col(Concession.match_id) == match_id).order_by(col(Concession.id))
    return list((await session.exec(stmt)).all())


class VoteQueries:
    """Vote and concession rows."""

    async def votes(self, session: AsyncSession, match_id: int, status: str | None = None) -> list[MatchVote]:
        """The match's votes (in ``status`` only, if given), oldest first."""
        stmt = select(MatchVote).where(col(MatchVote.match_id) == match_id)
        if status is not None:
            stmt = stmt.where(col(MatchVote.status) == status)
        return list((await session.exec(stmt.order_by(col(MatchVote.id)))).all())

    async def latest_vote(self, session: AsyncSession, match_id: int) -> MatchVote | None:
        """The match's newest vote, whatever became of it."""
        stmt = select(MatchVote).where(col(MatchVote.match_id) == match_id).order_by(col(MatchVote.id).desc())
        return (await session.exec(stmt.limit(1))).first()

    async def due_votes(self, session: AsyncSession, status: str, now: datetime) -> list[tuple[int, int]]:
        """(match id, vote id) of the votes in ``status`` whose time is up."""
        stmt = select(MatchVote.match_id, col(MatchVote.id)).where(col(MatchVote.status) == status,
                                                                    col(MatchVote.due_at) <= now)
        return [(match_id, stored_id(vote_id)) for match_id, vote_id in (await session.exec(stmt)).all()]

    async def concessions(self, session: AsyncSession, match_id: int) -> list[Concession]:
        return await concessions(session, match_id)
