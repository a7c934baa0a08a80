"""Deadlines: one per match, restarted whenever a new prompt opens. The tick reminds the seats
that owe at REMINDERS fractions of the time and, when it is up, the AI chooses for them; after
TAKEOVER_AFTER misses in a row it plays the seat until its player is back."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from bot.service import away, limits
from bot.service.clock import DatabaseClock, clock_of
from bot.service.errors import Conflict
from bot.service.match_transaction import MatchTransaction
from bot.service.notices import ReminderNotice, TimeoutNotice
from bot.service.transaction import Transactions
from bot.service.types import MatchInfo, Where
from bot.service.undo import PENDING
from db.models import REMINDER_FRACTIONS, Deadline, Seat

TAKEOVER_AFTER = 2
"""Deadlines missed in a row before the AI plays the seat until its player is back."""
REMINDERS = REMINDER_FRACTIONS
TICK_LEASE = "tick"
"""The lease of the deadline tick: one process at a time fires deadlines."""


def hours_text(delta: timedelta) -> str:
    """Time left as a reminder says it ("2.5 h", "40 min")."""
    hours = delta.total_seconds() / 3600
    return f"{hours:.1f} h" if hours >= 1 else f"{max(delta.total_seconds() / 60, 0):.0f} min"


class Deadlines(Transactions):
    """Mixed into MatchService: deadlines, reminders and the tick."""

    async def extend(self, channel_id: Where, by_user: int, hours: float, is_manager: bool = False) -> MatchInfo:
        async def fn(ctx: MatchTransaction) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            deadline = await ctx.deadline()
            if deadline is None or ctx.match.status not in ("active", "paused"):
                raise Conflict("No deadline is running in this match.")
            added = limits.extend_hours(hours, deadline.due_at - ctx.now)
            deadline.due_at += timedelta(hours=added)
            for flag, frac in REMINDERS:
                if ctx.now < self._at(deadline, frac):
                    setattr(deadline, flag, False)
            ctx.changed = True
            ctx.notice("timeout", TimeoutNotice(
                text=f"The deadline was extended by {added:g} h to {deadline.due_at:%Y-%m-%d %H:%M} UTC."))
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    tick_fresh_until: datetime | None = None
    """Until when this service holds the tick lease without asking the database: half the lease's
    life after it took or renewed it. Nobody else may take the lease before it expires, so a tick
    that finds nothing due sends no write at all."""

    async def tick(self, now: datetime | None = None) -> int:
        """Send due reminders and play expired prompts; one process at a time (lease). A tick that
        did work lets the lease go, so any process's next tick may take it (as a killed one's
        expires); an idle one keeps it, renewing it only past half its life."""
        if now is None and isinstance(self.clock, DatabaseClock):
            await self.clock.resync()
        now = now or self.clock()
        if not await self._hold_tick_lease(now):
            return 0
        work = 0
        try:
            async with self.store.read() as session:
                deadlines = await self.store.due_deadlines(session, now)
                undos_due, absences_due, votes_due, pauses_due, held_due = await self.store.other_tick_work(
                    session, now, PENDING, away.RUNNING)
            for deadline in deadlines:
                due = now >= deadline.due_at or any(now >= self._at(deadline, fraction) and not getattr(deadline, flag)
                                                    for flag, fraction in REMINDERS)
                if due:
                    work += await self._mutate(deadline.match_id, lambda ctx: self._tick_match(ctx, now))
            if undos_due:
                work += await self.expire_undos(now)
            if absences_due:
                work += await self.end_absences(now)
            if votes_due:
                work += await self.expire_votes(now)
            if pauses_due:
                work += await self.end_pauses(now)
            if held_due:
                work += await self.send_held_reminders(now)
        except BaseException:
            await self._let_tick_lease_go(now)
            raise
        if work:
            await self._let_tick_lease_go(now)
        return work

    async def _hold_tick_lease(self, now: datetime) -> bool:
        """Whether this service may tick now: the lease is fresh in memory, or free (or ours) in the
        database and taken. Another process's live lease costs one read, never a write."""
        fresh = self.tick_fresh_until
        if fresh is not None and now < fresh:
            return True
        self.tick_fresh_until = None
        if fresh is None:
            async with self.store.read() as session:
                lease = await self.store.lease(session, TICK_LEASE)
            if lease is not None and lease.holder != self.holder and lease.expires_at > now:
                return False
        if not await self.store.acquire_lease(TICK_LEASE, self.holder, now, self.lease_ttl):
            return False
        self.tick_fresh_until = now + self.lease_ttl / 2
        return True

    async def _let_tick_lease_go(self, now: datetime) -> None:
        self.tick_fresh_until = None
        await self.store.release_lease(TICK_LEASE, self.holder, now)

    async def _tick_match(self, ctx: MatchTransaction, now: datetime) -> int:
        if ctx.match.status != "active":
            return 0
        deadline = await ctx.deadline()
        if deadline is None:
            return 0
        ctx.now = now
        if now >= deadline.due_at:
            return await self._expire(ctx, deadline)
        for flag, frac in reversed(REMINDERS):
            if now >= self._at(deadline, frac) and not getattr(deadline, flag):
                for other, other_frac in REMINDERS:
                    if other_frac <= frac:
                        setattr(deadline, other, True)
                ctx.changed = True
                # reminders off: none; in quiet hours: held until they end (notify.py)
                reminded = await self._remind_now(ctx, deadline, self._owing(ctx))
                if not reminded:
                    return 1
                users = [s.user_id for s in reminded if s.user_id is not None]
                names = ", ".join(self.name_text(s.name) for s in reminded)
                left = deadline.due_at - now
                ctx.notice("reminder", ReminderNotice(
                    text=f"Reminder: {names} still owe a choice ({hours_text(left)} left).",
                    user_ids=users, deadline=deadline.due_at.isoformat()))
                return 1
        return 0

    async def _expire(self, ctx: MatchTransaction, deadline: Deadline) -> int:
        """The deadline passed: the heuristic AI (or the prompt default) chooses for each late seat."""
        done = 0
        handled: set[int] = set()
        prompts = {p.seat: p for p in ctx.prompts()}
        late_kind = {s.seat_no: prompts[s.seat_no].kind for s in self._owing(ctx)
                     if s.prompt_version is not None and s.prompt_version <= deadline.step}
        while True:
            # A late seat is played at most once per expiry, so this always ends. A shared prompt
            # is re-versioned whenever another seat answers it: when that was the deadline AI
            # answering for a late teammate, the seat is still late for the same shared decision.
            prompts = {p.seat: p for p in ctx.prompts()}
            late = [s for s in self._owing(ctx)
                    if s.seat_no in late_kind and s.seat_no not in handled
                    and ((s.prompt_version is not None and s.prompt_version <= deadline.step)
                         or (prompts[s.seat_no].shared and prompts[s.seat_no].kind == late_kind[s.seat_no]))]
            if not late:
                break
            seat = late[0]
            handled.add(seat.seat_no)
            await self._play(ctx, seat, prompts[seat.seat_no], "deadline", "heuristic")
            seat.missed += 1
            text = f"Time is up for {self.name_text(seat.name)}: the AI chose for them."
            if seat.missed >= TAKEOVER_AFTER and not seat.ai_takeover:
                seat.ai_takeover = True
                text += f" After {seat.missed} missed deadlines in a row the AI plays for them until they are back."
            ctx.notice("timeout", TimeoutNotice(text=text, seat=seat.seat_no, user_ids=[]))  # news, not a call to act: no ping
            done += 1
            await self._settle(ctx)
        return done

    def _owing(self, ctx: MatchTransaction) -> list[Seat]:
        """Human-played seats with an unanswered open prompt that is owed (not optional)."""
        seats = {s.seat_no: s for s in ctx.seats}
        return [seats[p.seat] for p in ctx.prompts()
                if not p.answered and not p.optional and not self._ai_driven(seats[p.seat])]

    @staticmethod
    def _at(deadline: Deadline, frac: float) -> datetime:
        return deadline.started_at + (deadline.due_at - deadline.started_at) * frac

    async def _sync_deadline(self, ctx: MatchTransaction) -> None:
        """One deadline per match, restarted whenever a new prompt opens."""
        deadline = await ctx.deadline()
        owing = self._owing(ctx) if ctx.match.status in ("active", "paused") else []
        if not owing:
            if deadline is not None:
                await ctx.delete(deadline)
                ctx.deadline_is(None)
            return
        newest = max(s.prompt_version or 0 for s in owing)
        if deadline is not None and deadline.step == newest:
            return
        owing_seats = {s.seat_no for s in owing}
        own = [p.deadline_hours for p in ctx.prompts() if p.seat in owing_seats and p.deadline_hours]
        # Capped: a lobby stored with an endless deadline (before the limits were checked) still starts.
        start = away.deadline_start(ctx.seats, owing_seats, ctx.match.away_mode, ctx.now)  # a seat away waits
        clock = clock_of(ctx.match)
        if clock is not None and not own:  # a decision with a time of its own keeps it
            due = clock.due(start)
        else:
            due = start + timedelta(hours=min(min(own) if own else ctx.match.deadline_hours, limits.DEADLINE_HOURS[1]))
        if deadline is None:
            deadline = Deadline(match_id=ctx.match_id, step=newest, started_at=start, due_at=due,
                                paused_at=ctx.now if ctx.match.status == "paused" else None)
            ctx.add(deadline)
            ctx.deadline_is(deadline)
        else:
            deadline.step, deadline.started_at, deadline.due_at = newest, start, due
            deadline.reminded_50 = deadline.reminded_90 = False

