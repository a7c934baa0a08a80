"""Replacements: the host opens a seat for a new player, and the first member to take it plays it
from where the match stands.

`/game replace` opens the seat of a player who is gone: taken over by the AI after missed
deadlines, kicked, away, or still there but to be replaced. A player still holding the seat
leaves it at once, as with `/game kick`: the AI plays it until someone takes it, so the match
never waits for a seat nobody holds. The player who left keeps nothing of it: their turn DM of
it says the seat passed on and asks nothing any more. The member who takes it gets its private
panel and its open decision in their DMs (the decision keeps its deadline) and the AI stops.

Who played a seat that changed hands, from which step (and round) to which, is kept per
stretch (``SeatStretch``): history and stats show both players. A finished match's rating counts
for whoever holds the seat at the end (ratings.py reads the seats as the match ends); a seat
that never changed hands has no stretch rows at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import engine as eng
from bot.service import hosting, limits
from bot.service.errors import Conflict, NoMatch, NotSeated
from bot.service.match_transaction import MatchTransaction
from bot.service.notices import (
    LobbyNotice,
    LobbySeat,
    SeatOpenNotice,
    SeatPassedNotice,
    SeatTakenNotice,
    SeatWelcomeNotice,
)
from bot.service.transaction import Transactions
from bot.service.wording import ACT
from db.models import Match, Seat, SeatStretch
from db.stretch_queries import (
    forget_closed_dms,
    last_seat_of,
    open_posts,
    seat_stretches,
    shared_matches,
    stretches_of,
)

RUNNING = ("active", "paused")
NOT_OPEN = "This seat is not open for a replacement."
MATCH_OVER = "This match is over: its seats are no longer open."


@dataclass(frozen=True)
class SeatOpened:
    """A seat opened for a replacement: whose it was, and whether they held it until now."""

    match_id: int
    seat: int
    name: str
    was_playing: bool


@dataclass(frozen=True)
class SeatTaken:
    """A seat taken by a new player: whose it was, and the match's title."""

    match_id: int
    seat: int
    before: str
    title: str
    channel_id: int


@dataclass(frozen=True)
class Stretch:
    """One player's stretch at a seat that changed hands (rounds: None in a game without rounds)."""

    seat: int
    user_id: int
    name: str
    from_step: int
    to_step: int | None
    from_round: int | None
    to_round: int | None


@dataclass(frozen=True)
class SharedSeat:
    """A finished match in which a seat changed hands, as `/game stats` lists it for a player."""

    match_id: int
    game: str
    seat: int
    stretches: list[Stretch]


def round_of(view: dict[str, Any]) -> int | None:
    """The round a public view says the game is in (None: the game counts no rounds)."""
    value = view.get("round")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def seat_label(seat_no: int) -> str:
    """A seat as players count them (seat 0 is "seat 1")."""
    return f"seat {seat_no + 1}"


def ended(stretches: list[Stretch], rounds: int | None, steps: int) -> list[Stretch]:
    """The stretches of a finished match: the one still open ran to its end."""
    return [Stretch(s.seat, s.user_id, s.name, s.from_step, steps if s.to_step is None else s.to_step,
                    s.from_round, rounds if s.to_step is None else s.to_round) for s in stretches]


def _stretch(row: SeatStretch) -> Stretch:
    return Stretch(row.seat_no, row.user_id, row.name, row.from_step, row.to_step, row.from_round, row.to_round)


class Replacements(Transactions):
    """Mixed into MatchService: opening a seat for a replacement, taking it, and its stretches."""

    match_limits: limits.MatchLimits | None
    """Open matches per player (lobby.py holds it): taking a seat is joining a match."""

    async def open_seat(self, where: Any, by_user: int, player_id: int, player_name: str, *,
                        is_manager: bool = False) -> SeatOpened:
        """Open the seat ``player_id`` holds (or held last, if the AI plays it now) for a
        replacement; a player still holding it leaves it to the AI until someone takes it."""

        async def fn(ctx: MatchTransaction) -> Callable[[], SeatOpened]:
            self._need_host(ctx, by_user, is_manager)
            if ctx.match.status == "lobby":
                raise Conflict("The match has not started: in a lobby a player leaves (or you kick them) and "
                               "anyone can join in their place.")
            seat, name = await self._seat_left_by(ctx, player_id, player_name)
            if seat.open_since is not None:
                raise Conflict(f"{self.name_text(name)}'s seat is already open for a replacement: anyone not "
                               "seated in this match can take it with its Take seat button.")
            was_playing = seat.user_id == player_id
            if was_playing:
                await self._leave_to_ai(ctx, seat)
            seat.open_since = ctx.now
            ctx.changed = True
            label = seat_label(seat.seat_no)
            told = self.name_text(name)
            line = (f"{told}'s seat ({label}) is open for a replacement; the AI plays it until someone takes it "
                    "with the Take seat button.")
            self._replacement_lobby(ctx, line)
            ctx.notice("seat_open", SeatOpenNotice(text=line, seat=seat.seat_no))
            ctx.notice("seat_passed", SeatPassedNotice(text=(
                f"You no longer play {label} of this {ctx.game.title} match: the host opened it for another "
                "player. This decision is not yours any more.")), user_id=player_id, seat=seat.seat_no)
            await self._settle(ctx)
            return lambda: SeatOpened(ctx.match_id, seat.seat_no, name, was_playing)

        return await self._mutate(await self._channel_match_id(where), fn)

    async def take_seat(self, match_id: int, seat_no: int, user_id: int, name: str) -> SeatTaken:
        """Take an open seat (the first click wins): its private panel and open decision go to
        the taker's DMs, the decision keeps its deadline, and the AI stops playing it."""

        async def fn(ctx: MatchTransaction) -> Callable[[], SeatTaken]:
            if ctx.match.status not in RUNNING:
                raise Conflict(MATCH_OVER)
            seat = next((s for s in ctx.seats if s.seat_no == seat_no), None)
            if seat is None:
                raise NoMatch(NOT_OPEN)
            if seat.open_since is None:
                if seat.user_id == user_id:
                    raise Conflict("You took this seat already: it is yours.")
                rows = await seat_stretches(ctx.session, ctx.match_id, seat.seat_no)
                if seat.user_id is not None and rows and rows[-1].user_id == seat.user_id and rows[-1].to_step is None:
                    raise Conflict(f"{self.name_text(seat.name)} took this seat first; it is not open any more.")
                raise Conflict(NOT_OPEN)
            mine = next((s for s in ctx.seats if s.user_id == user_id), None)
            if mine is not None:
                raise Conflict(f"You already play {seat_label(mine.seat_no)} in this match; one seat each.")
            if self.match_limits is not None:
                bounds = self.match_limits
                bounds.user_full(len(await self.store.open_matches_of(ctx.session, user_id, None, bounds.per_user + 1)),
                                 joining=True)
            before = await self._former_name(ctx, seat)
            seat.user_id, seat.name = user_id, name[:100]
            seat.ai_policy, seat.ai_takeover, seat.missed = None, False, 0
            seat.away_until = seat.open_since = None
            seat.dm_channel_id = None
            ctx.session.add(SeatStretch(match_id=ctx.match_id, seat_no=seat.seat_no, user_id=user_id, name=seat.name,
                                        from_step=ctx.match.step, from_round=self._round_now(ctx), created_at=ctx.now))
            await forget_closed_dms(ctx.session, ctx.match_id, seat.seat_no)
            await self._keep_deadline(ctx, seat)
            ctx.start_version[seat.seat_no] = None  # its open decision goes to the new player's DMs
            ctx.changed = True
            label = seat_label(seat.seat_no)
            taker, former = self.name_text(seat.name), self.name_text(before)
            line = f"{taker} takes over {former}'s seat ({label}) and plays it from here."
            self._replacement_lobby(ctx, line)
            ctx.notice("seat_taken", SeatTakenNotice(text=line, seat=seat.seat_no, closed=(
                f"{former}'s seat ({label}) was open for a replacement: {taker} took it.")))
            assert ctx.state is not None  # a running match has its state
            ctx.notice("seat_welcome", SeatWelcomeNotice(
                text=(f"You now play {label} of this {ctx.game.title} match in <#{ctx.match.channel_id}>, in place "
                      f"of {former}. Your seat's private panel is below; your decisions come here as DMs "
                      f"(or use {self.wording.command(ACT)} in the match's channel)."),
                game=ctx.match.game, names=ctx.names(), view=ctx.view(ctx.state, seat.seat_no)),
                user_id=user_id, seat=seat.seat_no)
            return lambda: SeatTaken(ctx.match_id, seat.seat_no, before, ctx.game.title, ctx.match.channel_id)

        return await self._mutate(match_id, fn)

    async def passed_on(self, match_id: int, seat_no: int, user_id: int) -> str | None:
        """Why a click of ``user_id`` on a component of this seat is refused when they played the
        seat once and left it (None: they never played it, or hold it now)."""
        async with self.store.read() as session:
            match = await session.get(Match, match_id)
            if match is None:
                return None
            seats = await self.store.seats(session, match_id)
            seat = next((s for s in seats if s.seat_no == seat_no), None)
            stretches = await seat_stretches(session, match_id, seat_no)
        if seat is None or seat.user_id == user_id or not any(s.user_id == user_id for s in stretches):
            return None
        if seat.open_since is not None or seat.user_id is None:
            return "You no longer play this seat: it is open for a replacement. This DM asks nothing of you any more."
        return (f"You no longer play this seat: {self.name_text(seat.name)} plays it now. "
                "This DM asks nothing of you any more.")

    async def open_seat_posts(self, match_id: int, seat_no: int) -> list[int]:
        """The channel posts that offered the seat to a replacement (to close once it is taken)."""
        async with self.store.read() as session:
            return await open_posts(session, match_id, seat_no)

    async def former_turn_dm(self, match_id: int, seat_no: int, user_id: int) -> int | None:
        """The turn DM of the seat that ``user_id`` got while they played it (None: they got none)."""
        async with self.store.read() as session:
            found = await self.store.turn_notice(session, match_id, seat_no, user_id=user_id)
        return None if found is None else int(found[1])

    async def stretches(self, match_ids: list[int]) -> dict[int, dict[int, list[Stretch]]]:
        """Match -> seat -> its stretches, for the seats of these matches that changed hands."""
        async with self.store.read() as session:
            rows = await stretches_of(session, match_ids)
        out: dict[int, dict[int, list[Stretch]]] = {}
        for row in rows:
            out.setdefault(row.match_id, {}).setdefault(row.seat_no, []).append(_stretch(row))
        return out

    async def shared_seats(self, guild_id: int, user_id: int) -> list[SharedSeat]:
        """The server's finished matches, newest first, in which the player held a seat for a stretch."""
        async with self.store.read() as session:
            records = await shared_matches(session, guild_id, user_id)
            rows = await stretches_of(session, [r.match_id for r in records])
        out = []
        for record in records:
            mine = {r.seat_no for r in rows if r.match_id == record.match_id and r.user_id == user_id}
            for seat_no in sorted(mine):
                seat_rows = [_stretch(r) for r in rows if r.match_id == record.match_id and r.seat_no == seat_no]
                out.append(SharedSeat(record.match_id, record.game, seat_no,
                                      ended(seat_rows, record.rounds, record.choices)))
        return out

    async def _end_stretch(self, ctx: MatchTransaction, seat: Seat) -> None:
        """The seat's player leaves it now: their stretch ends here (a seat that never changed
        hands gets its first one, from the start)."""
        if seat.user_id is None:
            return
        rows = await seat_stretches(ctx.session, ctx.match_id, seat.seat_no)
        current = rows[-1] if rows and rows[-1].to_step is None and rows[-1].user_id == seat.user_id else None
        if current is None:
            current = SeatStretch(match_id=ctx.match_id, seat_no=seat.seat_no, user_id=seat.user_id,
                                  name=seat.name, from_step=(rows[-1].to_step or 0) if rows else 0,
                                  from_round=None if rows else self._first_round(ctx), created_at=ctx.now)
            ctx.session.add(current)
        current.to_step, current.to_round = ctx.match.step, self._round_now(ctx)

    async def _leave_to_ai(self, ctx: MatchTransaction, seat: Seat) -> None:
        """The player leaves the seat now and the AI plays it (as `/game kick` does); host powers
        pass on if they held them."""
        await self._end_stretch(ctx, seat)
        name, was_host = seat.name, seat.user_id == ctx.match.host_id
        seat.user_id = None
        seat.ai_policy = "heuristic" if "heuristic" in ctx.game.policies() else next(iter(ctx.game.policies()))
        seat.ai_takeover, seat.missed, seat.away_until = False, 0, None
        seat.name = f"{name} (AI)"[:100]
        if was_host:
            hosting.hand_over(ctx, name, hosting.successor(ctx.seats, seat), self.wording)

    async def _seat_left_by(self, ctx: MatchTransaction, player_id: int, player_name: str) -> tuple[Seat, str]:
        """The seat the player holds, or held last (now played by the AI), and their name there."""
        held = next((s for s in ctx.seats if s.user_id == player_id), None)
        if held is not None:
            return held, held.name
        last = await last_seat_of(ctx.session, ctx.match_id, player_id)
        seat = None if last is None else next((s for s in ctx.seats if s.seat_no == last.seat_no), None)
        if last is None or seat is None or seat.user_id is not None:
            raise NotSeated(f"{self.name_text(player_name)} has no seat in this match, and no seat they left waits "
                            "for a replacement.")
        return seat, last.name

    async def _former_name(self, ctx: MatchTransaction, seat: Seat) -> str:
        rows = await seat_stretches(ctx.session, ctx.match_id, seat.seat_no)
        return rows[-1].name if rows else seat.name

    async def _keep_deadline(self, ctx: MatchTransaction, seat: Seat) -> None:
        """The decision the seat owes keeps the deadline already running (the new player does not
        restart the table's clock)."""
        deadline = await ctx.deadline()
        if deadline is not None and seat.prompt_version is not None and seat in self._owing(ctx):
            deadline.step = max(deadline.step, seat.prompt_version)

    def _round_now(self, ctx: MatchTransaction) -> int | None:
        return None if ctx.state is None else round_of(ctx.view(ctx.state, None))

    def _first_round(self, ctx: MatchTransaction) -> int | None:
        """The round the match started in (its setup, from its seed)."""
        state = ctx.game.setup(len(ctx.seats), eng.parse_options(ctx.game, ctx.match.options), ctx.match.seed)
        return round_of(ctx.view(state, None))

    def _replacement_lobby(self, ctx: MatchTransaction, text: str) -> None:
        """The lobby post shows the change at once (its Take seat button comes and goes with it)."""
        ctx.notice("lobby", LobbyNotice(text=text, status=ctx.values.get("status", ctx.match.status), seats=[
            LobbySeat(seat=s.seat_no, user_id=s.user_id, name=s.name, ai=s.ai_policy) for s in ctx.seats]))
