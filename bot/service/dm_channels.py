"""Players' DM channels with the bot, by user: a user's DM channel is the same in every match and
never changes, so one opened for any of their seats serves them all, also after a restart.

Opening one is a request under a tight bot-wide limit (Discord paces it per bot, not per user),
so a front-end opens each user's channel once, ahead of need (when they sit down in a lobby),
and finds it here from any seat they ever held. The channel is kept on the seats
(``seats.dm_channel_id``), written outside the match's transaction like the status board's
message: it is not a state change of the match, and db/store.py writes a match's seats without
overwriting it."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from db.models import Seat
from db.prepared import prepared, run
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
        async with self.store.read_once() as connection:  # one statement: no BEGIN
            rows = (await run(connection, prepared(_of_user, connection.dialect, _of_user), {"user_id": user_id})).rows
        return None if not rows else rows[0][0]

    async def unopened(self, match_id: int) -> list[SeatedUser]:
        """The match's players whose seat stores no DM channel, each with the channel stored for
        them elsewhere, if any (one statement: the seats by match, the others by user)."""
        async with self.store.read_once() as connection:  # one statement: no BEGIN
            rows = (await run(connection, prepared(_unopened, connection.dialect, _unopened),
                              {"match_id": match_id})).rows
        return [SeatedUser(int(seat), int(user_id), None if channel is None else int(channel))
                for seat, user_id, channel in rows if user_id is not None]

    async def remember(self, user_id: int, dm_channel_id: int) -> None:
        """Store the user's DM channel on every seat of theirs that has none (no version bump:
        not a state change of a match)."""
        async with self.store.write_once() as connection:  # one UPDATE: no BEGIN, no COMMIT
            rows = (await run(connection, prepared(_remember, connection.dialect, _remember),
                              {"user_id": user_id, "dm_channel_id": dm_channel_id})).rows
            for (match_id,) in rows:  # before the write turn goes to anyone else
                self.store.wrote_rows_of(int(match_id))


@functools.cache
def _of_user() -> sa.Select[Any]:
    """`DmChannels.of_user`'s statement (parameter ``user_id``)."""
    seats = Seat.__table__  # type: ignore[attr-defined]
    return (sa.select(seats.c.dm_channel_id)
            .where(seats.c.user_id == sa.bindparam("user_id"), seats.c.dm_channel_id.is_not(None)).limit(1))


@functools.cache
def _unopened() -> sa.Select[Any]:
    """`DmChannels.unopened`'s statement (parameter ``match_id``): the seats by match, the
    channel known for each player by user."""
    seats = Seat.__table__  # type: ignore[attr-defined]
    other = seats.alias("other_seat")
    known = (sa.select(other.c.dm_channel_id)
             .where(other.c.user_id == seats.c.user_id, other.c.dm_channel_id.is_not(None))
             .limit(1).scalar_subquery())
    return (sa.select(seats.c.seat_no, seats.c.user_id, known)
            .where(seats.c.match_id == sa.bindparam("match_id"), seats.c.user_id.is_not(None),
                   seats.c.dm_channel_id.is_(None))
            .order_by(seats.c.seat_no))


@functools.cache
def _remember() -> sa.Update:
    """`DmChannels.remember`'s statement (parameters ``user_id`` and ``dm_channel_id``)."""
    seats = Seat.__table__  # type: ignore[attr-defined]
    return (sa.update(seats).where(seats.c.user_id == sa.bindparam("user_id"), seats.c.dm_channel_id.is_(None))
            .values(dm_channel_id=sa.bindparam("dm_channel_id")).returning(seats.c.match_id))
