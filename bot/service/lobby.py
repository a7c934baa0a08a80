"""The lobby and the host's table tools: open a match, seat players and AIs, start it; abort,
kick, pause and resume. Each change is one match transaction (see transaction.py)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

import engine as eng
from bot.service import away, hosting, limits
from bot.service.away import SEARCH_TAKEOVER, takeover_level
from bot.service.clock import DEFAULT_PAUSE_DAYS, PAUSE_DAYS, clock_deadline, clock_of
from bot.service.errors import BadChoice, Conflict, NoMatch, NotAllowed, OpenLobby
from bot.service.finishing import close_match
from bot.service.match_transaction import MatchTransaction
from bot.service.notices import LobbyNotice, LobbySeat, PhaseNotice, TimeoutNotice
from bot.service.rows import row_id
from bot.service.transaction import Transactions
from bot.service.types import MatchInfo, Where
from bot.service.wording import ai_name, option_words, seat_name, sentence
from db.lean import RowsWrite
from db.models import OPEN_STATUSES, Deadline, Match, Seat

ABORTED_BY = "aborted_by"
"""The key of an aborted match's stored result that names who aborted it."""
ABANDONED = "abandoned"
"""The key of the stored result of a match its players abandoned by a vote (votes.py)."""


def ending_text(status: str, result: dict[str, Any] | None, finished: str | None, name_text: Callable[[str], str]) -> str | None:
    """How an ended match ended, in one line (``finished``: the result line of a finished one)."""
    if status == "finished":
        return finished
    if status != "aborted":
        return None
    if result and result.get(ABANDONED):
        return "The match is over: the players agreed to abandon it, so it counts for nobody's rating."
    if result and result.get(ABORTED_BY):
        return f"The match was aborted by {name_text(str(result[ABORTED_BY]))}."
    return "The lobby was closed: no player was left in it." if result is not None else "The match was aborted."


class Lobby(Transactions):
    """Mixed into MatchService: the lobby and the host's tools."""

    match_limits: limits.MatchLimits | None = None
    """Open matches per server and per player: the bot sets them from its settings (None: no limit,
    for tools and tests that open many)."""

    async def create(
        self,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options: dict[str, Any] | None = None,
        max_seats: int | None = None,
        deadline_hours: float = 24.0,
        *,
        seed: int | None = None,
        host_plays: bool = True,
        thread: bool = False,
        away_mode: str = "ai",
        deadline_at: str | None = None,
        timezone: str | None = None,
        min_hours: float | None = None,
        takeover_ai: str = "heuristic",
    ) -> MatchInfo:
        """Open a lobby; the host takes seat 0 unless ``host_plays`` is False (all-AI matches).
        With ``thread`` the match will run in a thread the front-end starts from the lobby message
        (``move_to_thread``), so the channel may run other matches; else it holds the channel.
        ``away_mode`` is what `/game away` does in it (see away.py). ``deadline_at`` (with
        ``timezone`` and ``min_hours``) makes each decision due at that time of day (clock.py).
        ``takeover_ai`` is the AI that plays a seat it takes over (autoplay.py's TAKEOVER_LEVELS)."""
        try:
            chosen_game = eng.get(game)
        except KeyError as exc:
            raise NoMatch(str(exc.args[0])) from None
        options = dict(options or {})
        hosting.need_real_host(host_id)
        # deadline_hours is accepted as a match option too; not the game's business
        deadline_hours = limits.deadline_hours(options.pop("deadline_hours", deadline_hours))
        seed = limits.seed(seed)
        away_mode = away.away_mode(away_mode)
        takeover_ai = takeover_level(takeover_ai)
        clock = clock_deadline(deadline_at, timezone, min_hours)
        try:
            opts = eng.parse_options(chosen_game, options).model_dump(mode="json")
        except eng.IllegalChoice as exc:
            raise BadChoice(sentence(str(exc))) from None
        top = max(chosen_game.seats)
        seats_cap = top if max_seats is None else max_seats
        if not min(chosen_game.seats) <= seats_cap <= top:
            raise Conflict(f"{chosen_game.title} takes {min(chosen_game.seats)} to {top} players.")
        now = self.clock()
        try:
            async with self.store.write() as session:
                bounds = self.match_limits
                lobby_id, channel_held, in_guild, of_host = await self.store.opening_checks(
                    session, guild_id, host_id, channel_id, 1 if bounds is None else bounds.per_user + 1)
                if host_plays and lobby_id is not None:
                    open_lobby = await session.get(Match, lobby_id)
                    if open_lobby is not None:
                        seated = await self.store.seats(session, lobby_id)
                        raise OpenLobby(self._info_of(open_lobby, seated, eng.get(open_lobby.game)))
                if not thread and channel_held:
                    raise Conflict("A match is already open in this channel; finish or abort it first.")
                if bounds is not None and guild_id is not None:
                    bounds.server_full(in_guild)
                if bounds is not None and host_plays:
                    bounds.user_full(of_host)
                match = Match(
                    guild_id=guild_id, channel_id=channel_id, open_channel=None if thread else channel_id,
                    lobby_channel_id=channel_id, opens_thread=thread, game=game,
                    options=opts, seed=secrets.randbits(62) if seed is None else seed, status="lobby",
                    host_id=host_id, max_seats=seats_cap, deadline_hours=float(deadline_hours), away_mode=away_mode,
                    takeover_ai=takeover_ai, deadline_clock=clock.clock_text if clock else None, deadline_zone=clock.zone if clock else None,
                    deadline_min_hours=clock.min_hours if clock else None, created_at=now, updated_at=now,
                )
                session.add(match)
                await session.flush()
                seats = []
                if host_plays:
                    seats.append(Seat(match_id=row_id(match), seat_no=0, user_id=host_id, name=host_name))
                    session.add(seats[0])
                ctx = MatchTransaction(RowsWrite(session), match, seats, chosen_game, None, now, changed=True)
                ctx.deadline_is(None)  # a new lobby has none: no read of it
                chosen = ", ".join([*(option_words(key, value) for key, value in options.items()),
                                    *([f"deadline {clock.describe()}"] if clock else []),
                                    *([SEARCH_TAKEOVER] if takeover_ai == "search" else [])])
                self._lobby_notice(ctx, f"{self.name_text(host_name)} opened a {chosen_game.title} lobby" + (f" ({chosen})." if chosen else "."))
                await self._finish(ctx)
        except IntegrityError:
            raise Conflict("A match is already open in this channel; finish or abort it first.") from None
        return self._info(ctx)

    async def join(self, channel_id: Where, user_id: int, name: str) -> MatchInfo:
        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_lobby(ctx)
            if any(s.user_id == user_id for s in ctx.seats):
                raise Conflict("You already have a seat in this match.")
            if self.match_limits is not None:
                bounds = self.match_limits
                bounds.user_full(len(await self.store.open_matches_of(ctx.session, user_id, None, bounds.per_user + 1)),
                                 joining=True)
            self._add_seat(ctx, Seat(match_id=ctx.match_id, seat_no=0, user_id=user_id, name=name))
            self._lobby_notice(ctx, f"{self.name_text(name)} joined.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def leave(self, channel_id: Where, user_id: int) -> MatchInfo:
        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_lobby(ctx, "You can only leave a match in its lobby; ask the host to kick you instead.")
            seat = ctx.seat_of(user_id)
            await self._remove_seat(ctx, seat)
            closing = hosting.lobby_seat_dropped(ctx, seat, lambda: self._close_empty(ctx))
            self._lobby_notice(ctx, f"{self.name_text(seat.name)} left.{closing}")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def add_ai(
        self, channel_id: Where, by_user: int, policy: str = "heuristic", *, is_manager: bool = False
    ) -> MatchInfo:
        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            self._need_lobby(ctx)
            if policy not in ctx.game.policies():
                raise Conflict(f"Unknown AI {policy!r}; choose one of {', '.join(sorted(ctx.game.policies()))}.")
            taken = {seat_name(s.name) for s in ctx.seats}
            name = next(ai_name(n) for n in range(1, len(ctx.seats) + 2) if ai_name(n) not in taken)
            self._add_seat(ctx, Seat(match_id=ctx.match_id, seat_no=0, ai_policy=policy, name=name))
            self._lobby_notice(ctx, f"{name} joined.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def remove_ai(self, channel_id: Where, by_user: int, seat: int, *, is_manager: bool = False) -> MatchInfo:
        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            self._need_lobby(ctx)
            row = ctx.seat(seat)
            if row.ai_policy is None:
                raise Conflict(f"{row.name} is not an AI player.")
            await self._remove_seat(ctx, row)
            self._lobby_notice(ctx, f"{self.name_text(row.name)} left.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def start(self, channel_id: Where, by_user: int, *, is_manager: bool = False) -> MatchInfo:
        """Set the game up from the match seed, then let the AI seats play their first turns."""

        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            self._need_lobby(ctx)
            players = len(ctx.seats)
            if players not in ctx.game.seats:
                raise Conflict(f"{ctx.game.title} needs {min(ctx.game.seats)} to {max(ctx.game.seats)} players; "
                               f"there are {players}.")
            try:
                ctx.state = ctx.game.setup(players, eng.parse_options(ctx.game, ctx.match.options), ctx.match.seed)
            except eng.IllegalChoice as exc:
                raise Conflict(sentence(str(exc))) from None
            ctx.set_up = ctx.state
            ctx.match.status = "active"
            ctx.values["status"] = "active"
            ctx.snapshot = True
            await self.store.save_snapshot(ctx.db, ctx.match_id, 0, ctx.state, ctx.now)
            self._lobby_notice(ctx, f"{ctx.game.title} starts with {players} player{'s' if players != 1 else ''}.")
            ctx.notice("phase", PhaseNotice(text=f"{ctx.game.title} begins.", label=f"{ctx.game.title} begins",
                                            game=ctx.match.game, view=ctx.view(ctx.state, None), events=[]))
            await self._settle(ctx)
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def abort(self, channel_id: Where, by_user: int, is_manager: bool = False,
                    by_name: str | None = None) -> MatchInfo:
        """End the match for good. Who did it is kept with the match (its lobby post says so) and
        told in the match's own channel or thread, where its players look; ``by_name`` is the
        name of a manager with no seat (a seated player is named by their seat)."""

        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            seated = next((s.name for s in ctx.seats if s.user_id == by_user), None)
            name = seated or by_name or "a server manager"
            started = ctx.match.status != "lobby"
            close_match(ctx, "aborted")
            ctx.values["result"] = {ABORTED_BY: name}
            line = f"{self.name_text(name)} aborted the match."
            self._lobby_notice(ctx, line)
            if started or ctx.match.opens_thread:  # else the lobby post is the match's only message
                ctx.notice("timeout", TimeoutNotice(text=line))
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def kick(self, channel_id: Where, by_user: int, seat: int, is_manager: bool = False) -> MatchInfo:
        """In the lobby the seat is removed; in a running match the AI plays it from now on."""

        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            row = ctx.seat(seat)
            if ctx.match.status == "lobby":
                await self._remove_seat(ctx, row)
                closing = hosting.lobby_seat_dropped(ctx, row, lambda: self._close_empty(ctx))
                self._lobby_notice(ctx, f"{self.name_text(row.name)} was removed.{closing}")
                return lambda: self._info(ctx)
            if row.user_id is None:
                raise Conflict(f"{row.name}'s seat is already played by the AI.")
            await self._end_stretch(ctx, row)  # kept, so `/game replace` can open the seat they left
            name, was_host = row.name, row.user_id == ctx.match.host_id
            row.user_id = None
            row.ai_policy = "heuristic" if "heuristic" in ctx.game.policies() else next(iter(ctx.game.policies()))
            row.ai_takeover = False
            row.name = f"{name} (AI)"[:100]
            row.prompt_version = None
            row.prompt_key = None
            ctx.changed = True
            ctx.notice("timeout", TimeoutNotice(
                text=f"{self.name_text(name)} was removed; the AI plays their seat from now on, "
                     f"as {self.name_text(row.name)}."))
            if was_host:
                hosting.hand_over(ctx, name, hosting.successor(ctx.seats, row), self.wording)
            await self._settle(ctx)
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def pause(self, channel_id: Where, by_user: int, is_manager: bool = False,
                    days: float = DEFAULT_PAUSE_DAYS) -> MatchInfo:
        """Stop the deadlines for ``days``; then the match goes on by itself (the tick's `end_pauses`)."""
        length = limits.number(days, *PAUSE_DAYS, "days", " days")

        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            if ctx.match.status != "active":
                raise Conflict("Only a running match can be paused.")
            ctx.match.status = ctx.values["status"] = "paused"
            ctx.match.paused_until = ctx.now + timedelta(days=length)
            deadline = await ctx.session.get(Deadline, ctx.match_id)
            if deadline is not None:
                deadline.paused_at = ctx.now
            self._lobby_notice(ctx, f"The match is paused until {self.wording.moment(ctx.match.paused_until)}; "
                                    "deadlines are stopped. It goes on by itself then, or sooner with /game resume.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def resume(self, channel_id: Where, by_user: int, is_manager: bool = False) -> MatchInfo:
        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            if ctx.match.status != "paused":
                raise Conflict("The match is not paused.")
            await self._go_on(ctx, "The match goes on.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def _go_on(self, ctx: MatchTransaction, text: str) -> None:
        """End the pause: the deadline gets the time it had left (under a clock deadline, up to
        the next due time of day that leaves at least that much)."""
        ctx.match.status = ctx.values["status"] = "active"
        ctx.match.paused_until = None
        deadline = await ctx.session.get(Deadline, ctx.match_id)
        if deadline is not None and deadline.paused_at is not None:
            left = max(deadline.due_at - max(deadline.paused_at, deadline.started_at), timedelta(0))
            shift = ctx.now - deadline.paused_at
            deadline.started_at += shift
            clock = clock_of(ctx.match)
            deadline.due_at = clock.due(max(ctx.now, deadline.started_at), left) if clock else deadline.due_at + shift
            deadline.paused_at = None
        self._lobby_notice(ctx, text)
        await self._settle(ctx)

    def _close_empty(self, ctx: MatchTransaction) -> None:
        """Close a lobby no human is left in (its stored result, empty, says it was not aborted)."""
        close_match(ctx, "aborted")
        ctx.values["result"] = {}

    def _need_lobby(self, ctx: MatchTransaction, message: str = "The match has already started.") -> None:
        if ctx.match.status != "lobby":
            raise Conflict(message)

    def _need_host(self, ctx: MatchTransaction, user_id: int, is_manager: bool) -> None:
        if not hosting.may_act(ctx.match.host_id, user_id, is_manager):
            raise NotAllowed(hosting.refusal(ctx.match.host_id, ctx.seats, self.wording))
        if ctx.match.status not in OPEN_STATUSES:
            raise NoMatch("This match is over.")

    def _add_seat(self, ctx: MatchTransaction, seat: Seat) -> None:
        if len(ctx.seats) >= ctx.match.max_seats:
            raise Conflict(f"The lobby is full ({ctx.match.max_seats} seats).")
        seat.seat_no = len(ctx.seats)
        ctx.session.add(seat)
        ctx.seats.append(seat)
        ctx.changed = True

    async def _remove_seat(self, ctx: MatchTransaction, seat: Seat) -> None:
        """Drop a lobby seat and close the gap so seats stay numbered 0..n-1."""
        await ctx.session.delete(seat)
        await ctx.session.flush()
        ctx.seats = [s for s in ctx.seats if s is not seat]
        for number, other in enumerate(ctx.seats):
            if other.seat_no != number:
                other.seat_no = number
                await ctx.session.flush()
        ctx.changed = True

    def _lobby_notice(self, ctx: MatchTransaction, text: str) -> None:
        ctx.changed = True
        status = ctx.values.get("status", ctx.match.status)
        ctx.notice("lobby", LobbyNotice(text=text, status=status, seats=[
            LobbySeat(seat=s.seat_no, user_id=s.user_id, name=s.name, ai=s.ai_policy) for s in ctx.seats]))

