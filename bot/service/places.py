"""Where a match lives: the channel where it was opened (its lobby message), and the thread it
runs in once the front-end started one from that message. Several matches can run from one
channel, one per thread; a channel or thread holds at most one open match of its own.

A command names its match by where it was typed: the match's own thread (or channel) finds it
directly; the channel several matches run from finds the one the user sits in, else the lookup
names the matches (``SeveralMatches``) so the user can go to the right thread."""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service.errors import NoMatch, SeveralMatches
from bot.service.parts import ServiceParts
from bot.service.rows import row_id
from bot.service.types import MatchInfo, Place, Where
from db.models import OPEN_STATUSES, Match


class PlacesService(ServiceParts):
    """Mixed into MatchService: finding a match by channel or thread, and moving it into its thread."""

    async def _channel_match_id(self, where: Where, open_only: bool = True) -> int:
        """The match a command typed at ``where`` is about (see the module docstring)."""
        place = where if isinstance(where, Place) else Place(where)
        if place.match_id is not None:
            return place.match_id
        async with self.store.read() as session:
            match = await self._locate(session, place)
            if match is not None:
                return row_id(match)
            if not open_only:
                newest = await self.store.newest_match_in(session, place.channel_id)
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
            return self._info_of(match, await self.store.seats(session, row_id(match)), eng.get(match.game))

    async def _locate(self, session: AsyncSession, place: Place) -> Match | None:
        own = await self.store.open_in_channel(session, place.channel_id)
        if own is not None:
            return own
        run_here = await self.store.open_matches_from(session, place.channel_id)
        if len(run_here) <= 1:
            return run_here[0] if run_here else None
        if place.user_id is not None:
            seated = await self.store.seated_in(session, place.user_id, [row_id(m) for m in run_here])
            mine = [m for m in run_here if m.id in seated]
            if len(mine) == 1:
                return mine[0]
        raise SeveralMatches([self._info_of(m, await self.store.seats(session, row_id(m)), eng.get(m.game))
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
                await self.store.move_undelivered(session, match_id, lobby_channel, thread_id)
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
                taken = await self.store.open_in_channel(session, match.channel_id)
                if taken is None and match.status in OPEN_STATUSES:
                    values["open_channel"] = match.channel_id
                await self.store.bump(session, match, self.clock(), **values)
            seats = await self.store.seats(session, match_id)
            return self._info_of(match, seats, eng.get(match.game))
