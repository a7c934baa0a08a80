"""Players' DM channels with the bot, by user: a user's DM channel is the same in every match and
never changes, so one opened for any of their seats serves them all, also after a restart.

Opening one is a request under a tight bot-wide limit (Discord paces it per bot, not per user),
so a front-end opens each user's channel once, ahead of need (when they sit down in a lobby),
and finds it here from any seat they ever held. The channel is kept on the seats
(``seats.dm_channel_id``), written outside the match's transaction like the status board's
message: it is not a state change of the match, and db/store.py writes a match's seats without
overwriting it."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import col, select

from db.models import Seat
from db.store import Store


@dataclass(frozen=True)
class SeatedUser:
    """A player seated in a match whose seat has no DM channel stored yet, and the one stored
    for them on another seat (None: never opened)."""

    seat: int
    user_id: int
    known: int | None


class DmChannels:
    """Where players' DM channels are found and kept. It needs only the store: MatchService
    holds one (``svc.dm_channels``) and passes its calls on."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def of_user(self, user_id: int) -> int | None:
        """The user's DM channel as stored on any seat they hold or held (None: never opened)."""
        stmt = select(col(Seat.dm_channel_id)).where(
            col(Seat.user_id) == user_id, col(Seat.dm_channel_id).is_not(None)).limit(1)
        async with self.store.read() as session:
            return (await session.exec(stmt)).first()

    async def unopened(self, match_id: int) -> list[SeatedUser]:
        """The match's players whose seat stores no DM channel, each with the channel stored for
        them elsewhere, if any (one statement: the seats by match, the others by user)."""
        other = sa.orm.aliased(Seat)
        known = (select(col(other.dm_channel_id))
                 .where(col(other.user_id) == col(Seat.user_id), col(other.dm_channel_id).is_not(None))
                 .limit(1).scalar_subquery())
        stmt = (select(col(Seat.seat_no), col(Seat.user_id), known)
                .where(col(Seat.match_id) == match_id, col(Seat.user_id).is_not(None),
                       col(Seat.dm_channel_id).is_(None))
                .order_by(col(Seat.seat_no)))
        async with self.store.read() as session:
            rows = (await session.exec(stmt)).all()
        return [SeatedUser(int(seat), int(user_id), None if channel is None else int(channel))
                for seat, user_id, channel in rows if user_id is not None]

    async def remember(self, user_id: int, dm_channel_id: int) -> None:
        """Store the user's DM channel on every seat of theirs that has none (no version bump:
        not a state change of a match)."""
        async with self.store.write() as session:
            await (await session.connection()).execute(
                sa.update(Seat)
                .where(col(Seat.user_id) == user_id, col(Seat.dm_channel_id).is_(None))
                .values(dm_channel_id=dm_channel_id))
