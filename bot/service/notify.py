"""`/game notify`: how each player hears of their turns, for one match or all their matches on
a server (a per-match setting overrides the server-wide one, field by field).

- reminders on or off;
- quiet hours in the player's time zone (quiet_hours.py says what waits and what is dropped);
- where a turn is announced: by DM (the default), or by a mention in the match's thread for a
  player who wants no DMs (their decisions are then answered with `/game act` or the Act
  button of that post);
- a heads-up when the seat just before theirs in a phase played in turns starts its turn.

The settings live in the database (``NotifySetting``), so they survive restarts; reminders
held back by quiet hours too (``HeldReminder``), sent by the deadline tick when they end.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlmodel import col, delete, select

from bot.service import quiet_hours as qh
from bot.service.errors import BadChoice, Conflict
from bot.service.notices import HeadsUpNotice, ReminderNotice
from bot.service.notify_prefs import ANNOUNCE, DM, THREAD, NotifyPrefs, prefs_in
from bot.service.transaction import Transactions
from bot.service.types import Place
from db.models import EVERYWHERE, Deadline, HeldReminder, Match, NotifySetting, Seat

if TYPE_CHECKING:
    from bot.service.match_transaction import MatchTransaction

__all__ = ["DM", "THREAD", "NotifyChange", "NotifyPrefs", "NotifyService"]
"""The settings model and its values live in notify_prefs.py; front-ends name them from here too."""


@dataclass(frozen=True)
class NotifyChange:
    """What `/game notify` changed: where it applies and the settings now in effect there."""

    everywhere: bool
    match_title: str | None
    prefs: NotifyPrefs
    changed: tuple[str, ...]


class NotifyService(Transactions):
    """Mixed into MatchService: the players' notification settings and what they hold back."""

    async def set_notify(self, place: Place, guild_id: int, *, everywhere: bool, reminders: bool | None = None,
                         quiet: str | None = None, time_zone: str | None = None, announce: str | None = None,
                         heads_up: bool | None = None) -> NotifyChange:
        """Change the asking player's settings for the match at ``place`` or, ``everywhere``, for
        all their matches on ``guild_id``; what is not given stays as it was."""
        changes: dict[str, object] = {}
        if reminders is not None:
            changes["reminders"] = reminders
        if quiet is not None:
            changes["quiet"] = qh.parse_quiet(quiet)
        if time_zone is not None:
            changes["time_zone"] = qh.zone_name(time_zone)
        if announce is not None:
            if announce not in ANNOUNCE:
                raise BadChoice(f"Turns are announced by {' or '.join(ANNOUNCE)}, not {announce!r}. Nothing was changed.")
            changes["announce"] = announce
        if heads_up is not None:
            changes["heads_up"] = heads_up
        user_id = place.user_id
        assert user_id is not None  # a command always knows who typed it
        match_id, title = EVERYWHERE, None
        if not everywhere:
            info = await self.find_match(place)
            if info is None or info.seat_of(user_id) is None or info.status not in ("lobby", "active", "paused"):
                raise Conflict("You hold no seat in an open match here. Use this in your match's thread, "
                               "or choose everywhere: yes for all your matches on this server. Nothing was changed.")
            match_id, title = info.id, info.title
        if not changes:  # nothing to change: what is in effect there
            async with self.store.read() as session:
                prefs = await prefs_in(session, guild_id, user_id, match_id)
            return NotifyChange(everywhere, title, prefs, ())
        async with self.store.write() as session:
            row = await session.get(NotifySetting, (guild_id, user_id, match_id))
            if row is None:
                row = NotifySetting(guild_id=guild_id, user_id=user_id, match_id=match_id, updated_at=self.clock())
                session.add(row)
            for name, value in changes.items():
                setattr(row, name, value)
            row.updated_at = self.clock()
            await session.flush()
            prefs = await prefs_in(session, guild_id, user_id, match_id)
        return NotifyChange(everywhere, title, prefs, tuple(changes))

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs:
        """A player's settings in effect for a match (the delivery asks before it sends)."""
        async with self.store.read() as session:
            match = await session.get(Match, match_id)
            return await prefs_in(session, None if match is None else match.guild_id, user_id, match_id)

    async def _remind_now(self, ctx: MatchTransaction, deadline: Deadline, owing: list[Seat]) -> list[Seat]:
        """The owing seats to remind now: not those who turned reminders off; those in quiet
        hours get theirs when the quiet hours end, or none if the deadline comes first."""
        now = ctx.now
        remind = []
        for seat in owing:
            if seat.user_id is None:
                continue
            prefs = await prefs_in(ctx.session, ctx.match.guild_id, seat.user_id, ctx.match_id)
            if not prefs.reminders:
                continue
            plan, until = qh.reminder_plan(prefs.quiet, now, deadline.due_at)
            if plan == qh.SEND:
                remind.append(seat)
            elif plan == qh.HOLD and until is not None:
                held = await ctx.session.get(HeldReminder, (ctx.match_id, seat.user_id))
                if held is None:
                    ctx.session.add(HeldReminder(match_id=ctx.match_id, user_id=seat.user_id, step=deadline.step,
                                                 send_at=until))
                else:
                    held.step, held.send_at = deadline.step, until
        return remind

    async def send_held_reminders(self, now: datetime) -> int:
        """Reminders whose player's quiet hours are over: sent if that player still owes the
        same decision and its deadline has not passed; dropped otherwise (the deadline tick)."""
        async with self.store.read() as session:
            due = list((await session.exec(select(HeldReminder).where(col(HeldReminder.send_at) <= now))).all())
        sent = 0
        for match_id in sorted({held.match_id for held in due}):
            sent += await self._mutate(match_id, lambda ctx: self._send_held(ctx, now))
        return sent

    async def _send_held(self, ctx: MatchTransaction, now: datetime) -> int:
        held = list((await ctx.session.exec(select(HeldReminder).where(
            col(HeldReminder.match_id) == ctx.match_id, col(HeldReminder.send_at) <= now))).all())
        if not held:
            return 0
        await ctx.session.exec(delete(HeldReminder).where(
            col(HeldReminder.match_id) == ctx.match_id, col(HeldReminder.send_at) <= now))
        ctx.changed = True  # the rows went; a reminder may follow
        deadline = await ctx.deadline()
        if ctx.match.status != "active" or deadline is None or now >= deadline.due_at:
            return 0
        owing = {s.user_id: s for s in self._owing(ctx) if s.user_id is not None}
        users = [h.user_id for h in held if h.step == deadline.step and h.user_id in owing]
        if not users:
            return 0
        from bot.service.deadlines import hours_text  # deadlines imports this module

        names = ", ".join(self.name_text(owing[u].name) for u in users)
        ctx.notice("reminder", ReminderNotice(
            text=f"Reminder: {names} still owe a choice ({hours_text(deadline.due_at - now)} left).",
            user_ids=users, deadline=deadline.due_at.isoformat()))
        return 1

    async def _heads_up(self, ctx: MatchTransaction) -> None:
        """When a seat starts its turn in a phase played in turns, the player of the seat after
        it in turn order is told, if they asked for it (and are not in quiet hours)."""
        if ctx.state is None or ctx.start_state is None or ctx.match.status != "active" or ctx.match.guild_id is None:
            return
        # A phase played in turns asks one seat at a time: unless exactly one seat is asked now,
        # and another than before, no turn started. Prompts are cheap beside the public view
        # the turn order is read from (a millisecond or two), which most choices never need.
        asked = ctx.prompts()
        if len(asked) != 1:
            return
        before = ctx.prompts_of(ctx.start_state)
        if len(before) == 1 and before[0].seat == asked[0].seat:
            return
        now_standing = ctx.game.standing(ctx.view(ctx.state, None))
        turn = now_standing.turn
        if turn is None or turn != asked[0].seat:
            return
        if turn == ctx.game.standing(ctx.view(ctx.start_state, None)).turn:
            return  # the same seat's turn goes on (another seat answered in its middle, a fight's energy)
        order = now_standing.order
        if turn not in order or order.index(turn) + 1 >= len(order):
            return
        seats = {s.seat_no: s for s in ctx.seats}
        after, on_turn = seats.get(order[order.index(turn) + 1]), seats.get(turn)
        if after is None or on_turn is None or after.user_id is None or self._ai_driven(after):
            return
        if after.user_id == on_turn.user_id:
            return
        prefs = await prefs_in(ctx.session, ctx.match.guild_id, after.user_id, ctx.match_id)
        if not prefs.heads_up or prefs.quiet_until(ctx.now) is not None:
            return
        names = ctx.names()
        ctx.notice("heads_up", HeadsUpNotice(
            text=f"{self.name_text(names[turn])} has started their turn in your {ctx.game.title} match; "
                 "you are next.", title=ctx.game.title), user_id=after.user_id, seat=after.seat_no)

