"""The SQL of finished matches' records and the ratings (mixed into the Store): what history,
stats and leaderboards read, and the rating rows a finish updates."""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Match, Notice
from db.records import MatchRecord, Rating, RecordSeat


async def ratings_for_update(session: AsyncSession, guild_id: int, game: str, users: list[int]) -> list[Rating]:
    """The players' rating rows, locked for the update in user order (no deadlock between two
    matches of the same players finishing at once). A function: a finish records in the
    transaction it is given, without the Store."""
    stmt = (select(Rating).where(col(Rating.guild_id) == guild_id, col(Rating.game) == game,
                                 col(Rating.user_id).in_(users))
            .order_by(col(Rating.user_id)).with_for_update())
    return list((await session.exec(stmt)).all())


class RecordQueries:
    """Reads and locks of records and ratings, each in the caller's session."""

    async def latest_records(
        self, session: AsyncSession, guild_id: int, game: str | None, limit: int
    ) -> list[tuple[MatchRecord, int]]:
        """(record, the match's channel id) of the server's latest finished matches, newest first."""
        stmt = (select(MatchRecord, Match.channel_id).join(Match, col(Match.id) == MatchRecord.match_id)
                .where(col(MatchRecord.guild_id) == guild_id))
        if game is not None:
            stmt = stmt.where(col(MatchRecord.game) == game)
        stmt = stmt.order_by(col(MatchRecord.finished_at).desc(), col(MatchRecord.match_id).desc()).limit(limit)
        return [(record, channel_id) for record, channel_id in (await session.exec(stmt)).all()]

    async def record_seats(self, session: AsyncSession, match_ids: Iterable[int]) -> list[RecordSeat]:
        """The recorded seats of these matches, in seat order."""
        stmt = (select(RecordSeat).where(col(RecordSeat.match_id).in_(list(match_ids)))
                .order_by(col(RecordSeat.seat_no)))
        return list((await session.exec(stmt)).all())

    async def notice_refs(self, session: AsyncSession, match_ids: Iterable[int], kind: str) -> list[tuple[int, str | None]]:
        """(match id, delivery ref) of these matches' notices of one kind."""
        stmt = select(Notice.match_id, Notice.delivery_ref).where(col(Notice.match_id).in_(list(match_ids)),
                                                                  col(Notice.kind) == kind)
        return [(match_id, ref) for match_id, ref in (await session.exec(stmt)).all()]

    async def player_ratings(self, session: AsyncSession, guild_id: int, user_id: int) -> list[Rating]:
        """The player's standing in every game they finished a match of, by game."""
        stmt = select(Rating).where(col(Rating.guild_id) == guild_id, col(Rating.user_id) == user_id,
                                    col(Rating.games) > 0).order_by(col(Rating.game))
        return list((await session.exec(stmt)).all())

    async def player_picks(self, session: AsyncSession, guild_id: int, user_id: int) -> list[tuple[str, list[str] | None]]:
        """(game, picks) of each recorded seat the player held on this server."""
        stmt = (select(MatchRecord.game, col(RecordSeat.picks))
                .join(MatchRecord, col(MatchRecord.match_id) == RecordSeat.match_id)
                .where(col(RecordSeat.user_id) == user_id, col(MatchRecord.guild_id) == guild_id))
        return [(game, picks) for game, picks in (await session.exec(stmt)).all()]

    async def best_ratings(self, session: AsyncSession, guild_id: int, game: str, limit: int) -> list[Rating]:
        """A game's rated players on this server: by rating (mu - 3 sigma), then wins, then games."""
        order = (col(Rating.mu) - 3 * col(Rating.sigma)).desc()
        stmt = (select(Rating).where(col(Rating.guild_id) == guild_id, col(Rating.game) == game, col(Rating.games) > 0)
                .order_by(order, col(Rating.wins).desc(), col(Rating.games).desc(), col(Rating.user_id))
                .limit(limit))
        return list((await session.exec(stmt)).all())
