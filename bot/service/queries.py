"""What front-ends read about a match without changing it: views, status, the log, the match
itself and the delivery refs of its notices. Reads go through the store, outside any transaction."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service import limits
from bot.service.announce import result_text
from bot.service.clock import clock_of
from bot.service.errors import Conflict, NoMatch, NotSeated
from bot.service.lobby import ending_text
from bot.service.match_transaction import MatchTransaction
from bot.service.rows import row_id
from bot.service.transaction import Transactions
from bot.service.types import Blocked, Board, MatchInfo, SeatInfo, Status, Where
from bot.service.undo import DONE as UNDO_DONE
from db.board_queries import board_columns, board_extras, extras_of
from db.models import Deadline, Match, Seat
from db.prepared import Reader
from engine.text import fill


class Queries(Transactions):
    """Mixed into MatchService: the reads and small per-seat settings."""

    async def public_view(self, match_id: int) -> dict[str, Any]:
        match, _seats, state, _d = await self._read(match_id)
        if state is None:
            raise Conflict("The match has not started yet.")
        return eng.get(match.game).view(state, None)

    async def seat_view(self, match_id: int, user_id: int) -> dict[str, Any]:
        match, seats, state, _d = await self._read(match_id)
        seat = self._seat_of(seats, user_id)
        if state is None:
            raise Conflict("The match has not started yet.")
        return eng.get(match.game).view(state, seat.seat_no)

    async def status(self, channel_id: Where) -> Status:
        return await self.status_of(await self._channel_match_id(channel_id))

    async def status_of(self, match_id: int) -> Status:
        """The status of one match, open or over (the status board shows both)."""
        async with self.store.read() as session:
            match, seats, state, deadline = await self._committed(session, match_id)
            blocked = await self.deliveries.blocked_in(session, match_id)
        return self._status(match, seats, state, deadline, blocked)

    async def board_of(self, match_id: int) -> Board:
        """Everything the status board shows, in one read: the status, the newest log line (only
        once the match runs: a lobby has no board) and the board message to edit."""
        async with self.store.read_once() as connection:  # one statement, no session: most boards need no more
            found = await self.store.match_rows_and(connection, match_id, board_columns, {"done": UNDO_DONE})
        if found is None:
            raise NoMatch(f"There is no match {match_id}.")
        match, seats, deadline, values = found
        extras = extras_of(values)
        cached = self._cache.get(match_id)
        if match.status == "lobby" or (cached is not None and cached[0] == match.version):
            state = None if match.status == "lobby" or cached is None else cached[1]
        else:  # the state to replay: read again, the match and its log in one transaction
            async with self.store.lean_read() as connection:
                match, seats, state, deadline = await self._committed(connection, match_id)
                extras = await board_extras(connection, match_id, UNDO_DONE)
        running = match.status in ("active", "paused")
        if not extras.blocked and not (extras.undone and match.status != "lobby") and not (extras.voted and running):
            rows = [] if match.status == "lobby" or extras.newest is None else [extras.newest]
            lines = await self._lines_of(None, match_id, 1, seats, rows, undos=False)
            status = replace(self._status(match, seats, state, deadline, []), vote=self.vote_line(None, match))
            return Board(status=status, latest=lines[-1] if lines else None, message_id=match.board_message_id)
        async with self.store.read() as session:  # a block, an undo or a vote: read them with the rest
            match, seats, state, deadline = await self._committed(session, match_id)
            extras = await board_extras(session, match_id, UNDO_DONE)  # the rest is read only when there is some
            blocked = await self.deliveries.blocked_in(session, match_id) if extras.blocked else []
            lines = []
            if match.status != "lobby":
                rows = [] if extras.newest is None else [extras.newest]
                lines = await self._lines_of(session, match_id, 1, seats, rows, undos=extras.undone)
            vote = (await self.store.latest_vote(session, match_id)
                    if extras.voted and match.status in ("active", "paused") else None)
        status = replace(self._status(match, seats, state, deadline, blocked), vote=self.vote_line(vote, match))
        return Board(status=status, latest=lines[-1] if lines else None, message_id=match.board_message_id)

    async def _committed(
        self, session: Reader, match_id: int
    ) -> tuple[Match, list[Seat], eng.State | None, Deadline | None]:
        """The match as committed, its state from the cache when current."""
        rows = await self.store.match_rows(session, match_id)
        if rows is None:
            raise NoMatch(f"There is no match {match_id}.")
        match, seats, deadline = rows
        state = await self._state(session, match, eng.get(match.game))
        if state is not None:
            self._cache.put(match_id, match.version, state)
        return match, seats, state, deadline

    def _status(self, match: Match, seats: list[Seat], state: eng.State | None, deadline: Deadline | None,
                blocked: list[Blocked]) -> Status:
        game = eng.get(match.game)
        running = state is not None and match.status in ("active", "paused")
        prompts = self._prompts_of(row_id(match), game, state) if running and state is not None else []
        owing = {p.seat for p in prompts if not p.answered and not p.optional}
        optional = {p.seat for p in prompts if not p.answered and p.optional}
        answered = {p.seat for p in prompts if p.answered} - owing - optional
        phase = match.status
        standing = eng.Standing()
        if state is not None:
            view = self._public_view(row_id(match), game, state)
            phase = str(view.get("phase_label") or view.get("phase") or match.status)
            standing = game.standing(view)
        info = self._info_of(match, seats, game)
        finished = None
        if match.status == "finished" and match.result is not None:
            finished = result_text(game, eng.Result.model_validate(match.result), self._text_names(info.names()),
                                   self.wording)
        return Status(
            match=info, phase=phase, waiting=[s for s in info.seats if s.seat in owing],
            may_act=[s for s in info.seats if s.seat in optional],
            deadline=deadline.due_at if deadline else None, step=match.step,
            prompts=[p.public() for p in prompts], result=match.result, blocked=blocked,
            ending=ending_text(match.status, match.result, finished, self.name_text),
            chosen=[s for s in info.seats if s.seat in answered], standing=standing,
        )

    async def log(self, channel_id: Where, limit: int = 20) -> list[str]:
        """The last public event lines of the channel's newest match."""
        return await self.log_of(await self._channel_match_id(channel_id, open_only=False), limit)

    async def log_of(self, match_id: int, limit: int = 20) -> list[str]:
        """The last public event lines of one match."""
        async with self.store.read() as session:
            return await self._log_in(session, match_id, limits.log_lines(limit))

    async def _log_in(self, session: AsyncSession, match_id: int, limit: int, seats: list[Seat] | None = None) -> list[str]:
        rows = await self.store.newest_public_lines(session, match_id, limit)
        seats = seats if seats is not None else await self.store.seats(session, match_id)
        return await self._lines_of(session, match_id, limit, seats, rows)

    async def _lines_of(self, session: AsyncSession | None, match_id: int, limit: int, seats: list[Seat],
                        rows: list[tuple[int, list[str]]], undos: bool = True) -> list[str]:
        """The newest ``limit`` log lines from the newest choices' (seq, public lines), newest
        first, with the lines of the undos done (read only when ``undos``: there are some)."""
        names = self._text_names([s.name for s in seats])
        undone = await self.undo_lines(session, match_id, seats) if undos and session is not None else {}  # "alice undid ...", where the log was cut
        lines = [*undone.get(0, [])] if len(rows) < limit else []
        for seq, public in reversed(rows):
            lines += [fill(line, names) for line in public] + undone.get(seq, [])
        return lines[-limit:]

    async def get_match(self, match_id: int) -> MatchInfo:
        match, seats, _state, _d = await self._read(match_id, with_state=False)
        return self._info_of(match, seats, eng.get(match.game))

    async def set_dm_channel(self, match_id: int, user_id: int, dm_channel_id: int | None) -> None:
        """Remember where the seat's private prompts go (front-ends call it after opening a DM)."""

        async def fn(ctx: MatchTransaction) -> None:
            ctx.seat_of(user_id).dm_channel_id = dm_channel_id
            ctx.changed = True

        await self._mutate(match_id, fn)

    async def take_lease(self, name: str, holder: str, ttl_seconds: float = 60.0) -> int | None:
        """Hold (or renew) a named lease, e.g. the outbox delivery of several bot processes: its
        term (the fencing token of what is done under it), or None when another holds it."""
        return await self.store.acquire_lease(name, holder, self.clock(), timedelta(seconds=ttl_seconds))

    async def release_lease(self, name: str, holder: str) -> None:
        """Give a lease up at shutdown so another process takes over at once."""
        await self.store.release_lease(name, holder, self.clock())

    async def notice_ref(self, match_id: int, kind: str) -> str | None:
        """Where the first delivered notice of this kind went (e.g. the lobby message id)."""
        async with self.store.read_once() as connection:
            return await self.store.first_delivery_ref(connection, match_id, kind)

    async def prompt_notice_before(self, match_id: int, seat: int, before_id: int) -> tuple[str, dict[str, Any]] | None:
        """The delivery ref and whole payload of the seat's last delivered prompt notice before ``before_id``."""
        async with self.store.read() as session:
            row = await self.store.prompt_notice_before(session, match_id, seat, before_id)
        if row is None or row[0] is None or not str(row[0]).isdigit():
            return None
        return str(row[0]), dict(row[1])

    async def dms_closed(self, match_id: int, seat: int) -> bool:
        """Whether a DM to this seat already failed because its DMs are closed."""
        async with self.store.read_once() as connection:
            return await self.store.has_notice_key(connection, match_id, f"dms-closed:{seat}")

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool:
        """Record that a seat's DMs are closed; True only the first time (say it once)."""
        async with self.store.write() as session:
            if await self.store.has_notice_key(session, match_id, f"dms-closed:{seat}"):
                return False
            await self.store.add_marker(session, match_id, f"dms-closed:{seat}", "dms_closed", seat, self.clock())
            return True

    def _seat_of(self, seats: list[Seat], user_id: int) -> Seat:
        for seat in seats:
            if seat.user_id == user_id:
                return seat
        raise NotSeated("You have no seat in this match.")

    def _info(self, ctx: MatchTransaction) -> MatchInfo:
        return self._info_of(ctx.match, ctx.seats, ctx.game)

    def _info_of(self, match: Match, seats: list[Seat], game: eng.Game) -> MatchInfo:
        return MatchInfo(
            id=row_id(match), guild_id=match.guild_id, channel_id=match.channel_id, game=match.game, title=game.title,
            status=match.status, host_id=match.host_id, options=dict(match.options),
            seats=[SeatInfo(seat=s.seat_no, user_id=s.user_id, name=s.name, ai_policy=s.ai_policy,
                            ai_takeover=s.ai_takeover, missed=s.missed, away_until=s.away_until,
                            open_since=s.open_since) for s in seats],
            max_seats=match.max_seats, deadline_hours=match.deadline_hours, version=match.version,
            step=match.step, created_at=match.created_at, result=match.result, away_mode=match.away_mode,
            takeover_ai=match.takeover_ai, lobby_channel_id=match.lobby_channel_id, opens_thread=match.opens_thread,
            clock=clock_of(match), paused_until=match.paused_until,
        )


