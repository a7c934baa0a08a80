"""Time away: a player says they will be gone for some hours, and the match copes without them.

The host chooses per match (`/game new away:`) what away means there:

- ``ai``: the AI plays the seat meanwhile (the same takeover as after missed deadlines);
- ``pause``: the seat's deadlines wait; a decision it owes starts its clock when it is back.

The AI that plays a seat it took over (here, or after missed deadlines) is the match's
``takeover_ai``: the heuristic, or the search (which thinks outside the transaction, autoplay.py).

Either way the status board shows the seat as away until then, and the player takes the seat
back by acting (a choice, `/game act`, the board's Act button) or when the time is over. In a
``pause`` match there is one deadline per match, so the whole table waits for the away seat; a
player back early keeps the later deadline already running (the next decision's is normal).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.service.errors import BadChoice, Conflict
from bot.service.notices import TimeoutNotice
from bot.service.transaction import Transactions
from bot.service.types import AwayOutcome, Where
from bot.service.wording import ACT
from db.models import Seat

if TYPE_CHECKING:
    from bot.service.match_transaction import MatchTransaction

AWAY_MODES = ("ai", "pause")
AWAY_HOURS = (0.5, 336.0)
"""Shortest and longest time away, in hours (two weeks at most)."""
RUNNING = ("active", "paused")


def away_mode(value: str) -> str:
    """A host's choice of what away means in a new match, checked."""
    if value not in AWAY_MODES:
        raise BadChoice(f"Away mode {value!r} is not one of {', '.join(AWAY_MODES)}; nothing was created.")
    return value


TAKEOVER_LEVELS = ("heuristic", "search")
"""The AI that plays a seat it took over (after missed deadlines, or away in an ``ai`` match),
the host's choice per match: the quick heuristic, or the search that plays moves out first."""
SEARCH_TAKEOVER = "the AI that thinks ahead plays late or away seats"
"""How a lobby notice lists the search takeover among the match's settings (the heuristic is the default)."""


def takeover_level(value: str) -> str:
    """A host's choice of the AI that takes seats over, checked."""
    if value not in TAKEOVER_LEVELS:
        raise BadChoice(f"The AI for late or away seats is {' or '.join(TAKEOVER_LEVELS)}, not {value!r}; "
                        "nothing was created.")
    return value


def deadline_start(seats: list[Seat], owing: set[int], mode: str, now: datetime) -> datetime:
    """When a new deadline's clock starts: now, or when the last owing seat that is away (in a
    ``pause`` match) is back."""
    if mode != "pause":
        return now
    back = [s.away_until for s in seats if s.seat_no in owing and s.away_until is not None and s.away_until > now]
    return max([now, *back])


class AwayService(Transactions):
    """Mixed into MatchService: going away and coming back."""

    async def go_away(self, channel_id: Where, user_id: int, hours: float) -> AwayOutcome:
        """Be away from the channel's match for ``hours``; again while away sets a new end."""
        if not isinstance(hours, int | float) or not AWAY_HOURS[0] <= hours <= AWAY_HOURS[1]:
            raise BadChoice(f"Time away is {AWAY_HOURS[0]:g} to {AWAY_HOURS[1]:g} hours; nothing was changed.")

        async def fn(ctx: MatchTransaction) -> Callable[[], AwayOutcome]:
            seat = ctx.seat_of(user_id)
            if ctx.match.status not in RUNNING:
                raise Conflict("The match has not started yet; in a lobby, leave it instead of going away.")
            until = ctx.now + timedelta(hours=float(hours))
            seat.away_until = until
            ctx.changed = True
            name = self.name_text(seat.name)
            if ctx.match.away_mode == "ai":
                seat.ai_takeover = True
                ctx.notice("timeout", TimeoutNotice(user_ids=[], text=(
                    f"{name} is away until {until:%Y-%m-%d %H:%M} UTC: the AI plays for them meanwhile. "
                    f"They take the seat back by acting ({self.wording.command(ACT)}).")))
                await self._settle(ctx)
            else:
                await self._wait_for_return(ctx, seat)
                ctx.notice("timeout", TimeoutNotice(user_ids=[], text=(
                    f"{name} is away until {until:%Y-%m-%d %H:%M} UTC: decisions they owe wait for them "
                    f"(their deadlines are paused). They take the seat back by acting ({self.wording.command(ACT)}).")))
            return lambda: AwayOutcome(ctx.match_id, seat.seat_no, until, ctx.match.away_mode)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def end_absences(self, now: datetime) -> int:
        """Give the seats whose time away is over back to their players (the deadline tick calls it)."""
        async with self.store.read() as session:
            due = await self.store.absences_over(session, now, RUNNING)

        async def back(ctx: MatchTransaction) -> int:
            done = 0
            for seat in ctx.seats:
                if seat.away_until is not None and seat.away_until <= now:
                    self.come_back(seat)
                    ctx.changed = True
                    ctx.notice("timeout", TimeoutNotice(
                        user_ids=[], text=f"{self.name_text(seat.name)}'s time away is over: the seat is theirs again."))
                    done += 1
            return done

        return sum([await self._mutate(match_id, back) for match_id in due])

    @staticmethod
    def come_back(seat: Seat) -> None:
        """The player is back (acting, or the time is over): no AI takeover, no absence."""
        if seat.away_until is not None or seat.ai_takeover or seat.missed:  # set only a change: sets cost
            seat.away_until = None
            seat.ai_takeover = False
            seat.missed = 0

    async def _wait_for_return(self, ctx: MatchTransaction, seat: Seat) -> None:
        """A ``pause`` absence: if the seat owes under the running deadline, that deadline's clock
        stops until the seat is back, with the time that was left then."""
        deadline = await ctx.deadline()
        if deadline is None or seat.away_until is None or seat.seat_no not in {s.seat_no for s in self._owing(ctx)}:
            return
        left = max(deadline.due_at - max(deadline.started_at, ctx.now), timedelta(0))
        deadline.started_at, deadline.due_at = seat.away_until, seat.away_until + left
        deadline.reminded_50 = deadline.reminded_90 = False
