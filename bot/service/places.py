"""Where a match lives: the channel where it was opened (its lobby message), and the thread it
runs in once the front-end started one from that message. Several matches can run from one
channel, one per thread; a channel or thread holds at most one open match of its own.

A command names its match by where it was typed: the match's own thread (or channel) finds it
directly; the channel several matches run from finds the one the user sits in, else the lookup
names the matches (``SeveralMatches``) so the user can go to the right thread."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service.errors import NoMatch, SeveralMatches
from bot.service.memory import MatchLocks
from bot.service.types import MatchInfo, Place, Where
from db.models import OPEN_STATUSES, Match, Seat
from db.models import Notice as NoticeRow
from db.store import Store


class PlacesService:
    """Mixed into MatchService: finding a match by channel or thread, and moving it into its thread."""

    store: Store
    clock: Callable[[], datetime]
    _locks: MatchLocks
    _info_of: Callable[..., MatchInfo]
    _seats: Callable[..., Any]

    async def _channel_match_id(self, where: Where, open_only: bool = True) -> int:
        """The match a command typed at ``where`` is about (see the module docstring)."""
        place = where if isinstance(where, Place) else Place(where)
        if place.match_id is not None:
            return place.match_id
        async with self.store.read() as session:
            match = await self._locate(session, place)
            if match is not None:
                return int(match.id or 0)
            if not open_only:
                stmt = (select(Match.id)
                        .where(or_(Match.channel_id == place.channel_id, Match.lobby_channel_id == place.channel_id))
                        .order_by(Match.id.desc()).limit(1))
                newest = (await session.exec(stmt)).first()
                if newest is not None:
                    return newest
        raise NoMatch("There is no open match in this channel.")

    async def find_match(self, where: Where) -> MatchInfo | None:
        """The open match a command typed at ``where`` is about, or None; SeveralMatches when the
        channel runs several and the user sits in none or several of them."""
        place = where if isinstance(where, Place) else Place(where)
        async with self.store.read() as session:
            if place.match_id is not None:
                match = await session.get(Match, place.match_id)
            else:
                match = await self._locate(session, place)
            if match is None:
                return None
            return self._info_of(match, await self.store.seats(session, match.id), eng.get(match.game))

    async def _locate(self, session: AsyncSession, place: Place) -> Match | None:
        own = (await session.exec(select(Match).where(Match.open_channel == place.channel_id))).first()
        if own is not None:
            return own
        stmt = (select(Match)
                .where(Match.lobby_channel_id == place.channel_id, Match.status.in_(OPEN_STATUSES))
                .order_by(Match.id))
        run_here = list((await session.exec(stmt)).all())
        if len(run_here) <= 1:
            return run_here[0] if run_here else None
        if place.user_id is not None:
            seated = set((await session.exec(
                select(Seat.match_id).where(Seat.user_id == place.user_id,
                                            Seat.match_id.in_([m.id for m in run_here])))).all())
            mine = [m for m in run_here if m.id in seated]
            if len(mine) == 1:
                return mine[0]
        raise SeveralMatches([self._info_of(m, await self.store.seats(session, m.id), eng.get(m.game))
                              for m in run_here])

    async def move_to_thread(self, match_id: int, thread_id: int) -> MatchInfo:
        """The front-end started the match's thread: its posts go there from now on, the thread
        holds the match (one per thread), and notices not yet delivered follow it there."""
        async with self._locks.hold(match_id), self.store.write() as session:
            match = await self.store.lock_match(session, match_id)
            if match is None:
                raise NoMatch(f"There is no match {match_id}.")
            if match.opens_thread and match.channel_id != thread_id:
                lobby_channel = match.channel_id
                values: dict[str, Any] = {"channel_id": thread_id}
                if match.status in OPEN_STATUSES:
                    values["open_channel"] = thread_id
                await (await session.connection()).execute(
                    sa.update(NoticeRow)
                    .where(NoticeRow.match_id == match_id, NoticeRow.delivered_at.is_(None),
                           NoticeRow.channel_id == lobby_channel)
                    .values(channel_id=thread_id))
                await self.store.bump(session, match, self.clock(), **values)
            seats = await self.store.seats(session, match_id)
            return self._info_of(match, seats, eng.get(match.game))

    async def stay_in_channel(self, match_id: int) -> MatchInfo:
        """No thread can be started (the permission went, the channel has none): the match runs in
        its lobby channel, holding it unless another open match already does."""
        async with self._locks.hold(match_id), self.store.write() as session:
            match = await self.store.lock_match(session, match_id)
            if match is None:
                raise NoMatch(f"There is no match {match_id}.")
            if match.opens_thread and match.channel_id == match.lobby_channel_id:
                values: dict[str, Any] = {"opens_thread": False}
                taken = (await session.exec(select(Match.id).where(Match.open_channel == match.channel_id))).first()
                if taken is None and match.status in OPEN_STATUSES:
                    values["open_channel"] = match.channel_id
                await self.store.bump(session, match, self.clock(), **values)
            seats = await self.store.seats(session, match_id)
            return self._info_of(match, seats, eng.get(match.game))
