"""MatchService: engine + store -> notices, for any transport (Discord, terminal, tests).

Every change of a match runs in one database transaction under the match's lock (an
asyncio lock in this process, BEGIN IMMEDIATE / FOR UPDATE plus a version check across
processes). The choice, the AI turns it triggers, the new prompt versions, the deadline
and the outbox notices are committed together, so a crash leaves either all or nothing.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service import away, hosting, limits, noise, phase_notices
from bot.service.away import AwayService
from bot.service.board import BoardService
from bot.service.errors import BadChoice, Conflict, NoMatch, NotAllowed, NotSeated, ServiceError, StalePrompt
from bot.service.history import REPLAY_NOTICE, HistoryService
from bot.service.memory import MatchLocks, RecentStates
from bot.service.mine import MineService
from bot.service.outbox import OutboxService
from bot.service.places import PlacesService
from bot.service.ratings import RatingService, record_finish
from bot.service.types import MatchInfo, PendingPrompt, SeatInfo, Status, SubmitResult, Where
from bot.service.undo import UndoService
from db.models import OPEN_STATUSES, REMINDER_FRACTIONS, Choice, Deadline, Match, Seat
from db.models import Notice as NoticeRow
from db.store import Store, VersionConflict
from engine.text import fill

T = TypeVar("T")
SNAPSHOT_EVERY = 25
"""A snapshot every this many choices keeps loading a match to a short replay."""
TAKEOVER_AFTER = 2
"""Deadlines missed in a row before the AI plays the seat until its player is back."""
REMINDERS = REMINDER_FRACTIONS
MAX_AI_CHOICES = 100_000
LOST_SHARED = "Someone else answered first; your updated choices are in your DMs (or use `/game act`)."
CLOSED_SHARED = "Someone else answered first; this choice is closed now."


def utcnow() -> datetime:
    return datetime.now(UTC)


def _fingerprint(prompt: eng.Prompt) -> str:
    return hashlib.sha256(eng.canonical_json(prompt.model_dump(mode="json")).encode()).hexdigest()[:32]


DM_REFS = "dm:"
"""A reminder notice's delivery ref when it went to DMs: ``dm:<user id>:<message id>;...``."""
LAST_TO_CHOOSE = "Everyone else has chosen: the table waits for you."
"""Said once per secret step to the one seat still choosing (on its prompt, not as a new DM)."""


@dataclass
class _Ctx:
    """Everything one transaction on one match works with."""

    session: AsyncSession
    match: Match
    seats: list[Seat]
    game: eng.Game
    state: eng.State | None
    now: datetime
    start_version: dict[int, int | None] = field(default_factory=dict)
    start_state: eng.State | None = None
    changed: bool = False
    events: list[eng.Event] = field(default_factory=list)
    notices: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    secret_answered: bool = False
    newly_sealed: bool = False
    """A secret prompt was answered for the first time (not revised) in this transaction."""
    rows: list[Choice] = field(default_factory=list)
    snapshot: bool = False
    values: dict[str, Any] = field(default_factory=dict)
    actor: int | None = None
    """The seat whose own choice this transaction applies (None: AI, deadline, admin)."""
    actor_choice: dict[str, Any] | None = None
    """That choice, so the seat's next prompt can say what it answered."""
    phase_states: list[tuple[int, Any]] = field(default_factory=list)
    """(events so far, state) after each choice that ended a phase: each phase post gets its map."""
    private_in_reply: bool = False
    """The actor's own private lines are in its interaction's reply (a seal still waiting)."""

    def names(self) -> list[str]:
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat_no)]

    def seat(self, seat_no: int) -> Seat:
        for seat in self.seats:
            if seat.seat_no == seat_no:
                return seat
        raise NoMatch(f"seat {seat_no} does not exist")

    def seat_of(self, user_id: int) -> Seat:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        raise NotSeated("You have no seat in this match.")

    def prompts(self) -> list[eng.Prompt]:
        if self.state is None or self.match.status not in ("active", "paused"):
            return []
        return self.game.prompts(self.state)

    def notice(self, kind: str, **fields: Any) -> None:
        self.notices.append((kind, fields))


class MatchService(OutboxService, BoardService, PlacesService, HistoryService, RatingService, UndoService,
                   AwayService, MineService):
    """The match orchestration every front-end calls (see docs/design/service-api.md)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utcnow,
        *,
        holder: str | None = None,
        lease_seconds: float = 60.0,
        name_text: Callable[[str], str] | None = None,
    ) -> None:
        """``name_text`` writes a player's chosen name into notice texts: a chat front-end escapes
        its markup there (a name must not ping or format); names for drawing stay as chosen."""
        self.store = store
        self.clock = clock
        self.name_text = name_text or _as_is
        self.holder = holder or f"svc-{uuid.uuid4().hex[:12]}"
        self.lease_ttl = timedelta(seconds=lease_seconds)
        self._locks = MatchLocks()
        self._cache: RecentStates[eng.State] = RecentStates()

    # ------------------------------------------------------------------ lobby

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
    ) -> MatchInfo:
        """Open a lobby; the host takes seat 0 unless ``host_plays`` is False (all-AI matches).
        With ``thread`` the match will run in a thread the front-end starts from the lobby message
        (``move_to_thread``), so the channel may run other matches; else it holds the channel.
        ``away_mode`` is what `/game away` does in it (see away.py)."""
        try:
            g = eng.get(game)
        except KeyError as exc:
            raise NoMatch(str(exc.args[0])) from None
        options = dict(options or {})
        hosting.need_real_host(host_id)
        # deadline_hours is accepted as a match option too; not the game's business
        deadline_hours = limits.deadline_hours(options.pop("deadline_hours", deadline_hours))
        seed = limits.seed(seed)
        away_mode = away.away_mode(away_mode)
        try:
            opts = eng.parse_options(g, options).model_dump(mode="json")
        except eng.IllegalChoice as exc:
            raise BadChoice(str(exc)) from None
        top = max(g.seats)
        seats_cap = top if max_seats is None else max_seats
        if not min(g.seats) <= seats_cap <= top:
            raise Conflict(f"{g.title} takes {min(g.seats)} to {top} players.")
        now = self.clock()
        try:
            async with self.store.write() as session:
                if not thread and await self._open_in_channel(session, channel_id) is not None:
                    raise Conflict("A match is already open in this channel; finish or abort it first.")
                match = Match(
                    guild_id=guild_id, channel_id=channel_id, open_channel=None if thread else channel_id,
                    lobby_channel_id=channel_id, opens_thread=thread, game=game,
                    options=opts, seed=secrets.randbits(62) if seed is None else seed, status="lobby",
                    host_id=host_id, max_seats=seats_cap, deadline_hours=float(deadline_hours), away_mode=away_mode,
                    created_at=now, updated_at=now,
                )
                session.add(match)
                await session.flush()
                seats = []
                if host_plays:
                    seats.append(Seat(match_id=match.id, seat_no=0, user_id=host_id, name=host_name))
                    session.add(seats[0])
                ctx = _Ctx(session, match, seats, g, None, now, changed=True)
                chosen = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in options.items())
                self._lobby_notice(ctx, f"{self.name_text(host_name)} opened a {g.title} lobby" + (f" ({chosen})." if chosen else "."))
                await self._finish(ctx)
        except IntegrityError:
            raise Conflict("A match is already open in this channel; finish or abort it first.") from None
        return self._info(ctx)

    async def join(self, channel_id: Where, user_id: int, name: str) -> MatchInfo:
        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_lobby(ctx)
            if any(s.user_id == user_id for s in ctx.seats):
                raise Conflict("You already have a seat in this match.")
            self._add_seat(ctx, Seat(match_id=ctx.match.id, seat_no=0, user_id=user_id, name=name))
            self._lobby_notice(ctx, f"{self.name_text(name)} joined.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def leave(self, channel_id: Where, user_id: int) -> MatchInfo:
        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_lobby(ctx, "You can only leave a match in its lobby; ask the host to kick you instead.")
            seat = ctx.seat_of(user_id)
            await self._remove_seat(ctx, seat)
            closing = hosting.lobby_seat_dropped(ctx, seat, lambda: self._close(ctx, "aborted"))
            self._lobby_notice(ctx, f"{self.name_text(seat.name)} left.{closing}")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def add_ai(
        self, channel_id: Where, by_user: int, policy: str = "heuristic", *, is_manager: bool = False
    ) -> MatchInfo:
        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            self._need_lobby(ctx)
            if policy not in ctx.game.policies():
                raise Conflict(f"Unknown AI {policy!r}; choose one of {', '.join(sorted(ctx.game.policies()))}.")
            n = sum(1 for s in ctx.seats if s.ai_policy) + 1
            name = f"AI {n} ({policy})"
            self._add_seat(ctx, Seat(match_id=ctx.match.id, seat_no=0, ai_policy=policy, name=name))
            self._lobby_notice(ctx, f"{name} joined.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def remove_ai(self, channel_id: Where, by_user: int, seat: int, *, is_manager: bool = False) -> MatchInfo:
        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            self._need_lobby(ctx)
            row = ctx.seat(seat)
            if row.ai_policy is None:
                raise Conflict(f"Seat {seat} is not an AI seat.")
            await self._remove_seat(ctx, row)
            self._lobby_notice(ctx, f"{self.name_text(row.name)} left.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def start(self, channel_id: Where, by_user: int, *, is_manager: bool = False) -> MatchInfo:
        """Set the game up from the match seed, then let the AI seats play their first turns."""

        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            self._need_lobby(ctx)
            n = len(ctx.seats)
            if n not in ctx.game.seats:
                raise Conflict(f"{ctx.game.title} needs {min(ctx.game.seats)} to {max(ctx.game.seats)} players; there are {n}.")
            try:
                ctx.state = ctx.game.setup(n, eng.parse_options(ctx.game, ctx.match.options), ctx.match.seed)
            except eng.IllegalChoice as exc:
                raise Conflict(str(exc)) from None
            ctx.match.status = "active"
            ctx.values["status"] = "active"
            ctx.snapshot = True
            await self.store.save_snapshot(ctx.session, ctx.match.id, 0, ctx.state, ctx.now)
            self._lobby_notice(ctx, f"{ctx.game.title} starts with {n} player{'s' if n != 1 else ''}.")
            ctx.notice("phase", text=f"{ctx.game.title} begins.", label=f"{ctx.game.title} begins", game=ctx.match.game,
                       view=ctx.game.view(ctx.state, None), events=[])
            await self._settle(ctx)
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    # ------------------------------------------------------------------ play

    async def submit(
        self,
        match_id: int,
        user_id: int,
        choice: dict[str, Any],
        *,
        version: int | None = None,
        interaction_id: str | None = None,
        in_guild: bool = False,
    ) -> SubmitResult:
        """Validate and apply one choice; committed before this returns. ``in_guild``: the
        answer came from the server (``/game act``), not a DM."""

        if interaction_id is not None and not 0 < len(interaction_id) <= 100:
            raise BadChoice("An interaction id must have 1 to 100 characters.")

        async def fn(ctx: _Ctx) -> SubmitResult:
            if interaction_id is not None:
                stmt = select(Choice).where(Choice.match_id == match_id, Choice.interaction_id == interaction_id)
                seen = (await ctx.session.exec(stmt)).first()
                if seen is not None and seen.outcome is not None:
                    return SubmitResult(**{**seen.outcome, "duplicate": True})
            seat = ctx.seat_of(user_id)
            if ctx.match.status == "paused":
                raise Conflict("The match is paused.")
            if ctx.match.status != "active":
                raise StalePrompt("This match is not running; this choice is no longer open.")
            prompt = next((p for p in ctx.prompts() if p.seat == seat.seat_no), None)
            if prompt is None or (version is not None and version != seat.prompt_version):
                lost = await self._lost_shared(ctx.session, ctx.match, ctx.game, seat.seat_no, version)
                raise StalePrompt((LOST_SHARED if prompt is not None else CLOSED_SHARED) if lost else StalePrompt.DEFAULT)
            self.come_back(seat)  # acting ends an AI takeover and any time away
            reminded, pinged = await self._nudges_of(ctx, user_id, in_guild) if interaction_id is not None else ([], [])
            ctx.actor = seat.seat_no
            row = await self._apply(ctx, seat.seat_no, prompt, choice, "player", interaction_id)
            ctx.actor_choice = row.payload
            await self._settle(ctx)
            still = next((p for p in ctx.prompts() if p.seat == seat.seat_no), None)
            locked = not (prompt.secret and still is not None and still.secret and still.answered
                          and still.kind == prompt.kind)
            private: list[str] = []
            if prompt.secret and not locked and interaction_id is not None:
                # A seal that waits for the others: its own lines (the sealed total) go in the
                # reply that confirms it, not in a second DM.
                written = self._text_names(ctx.names())
                private = [fill(e.text, written) for e in ctx.events if e.seats is not None and seat.seat_no in e.seats]
                ctx.private_in_reply = True
            result = SubmitResult(
                match_id=match_id, seat=seat.seat_no, seq=row.seq,
                version=seat.prompt_version if still is not None else None,
                revision=prompt.answered, locked=locked, finished=ctx.match.status == "finished",
                events=[e.text for e in ctx.events if e.visible_to(seat.seat_no)], private=private,
                reminders=reminded, pings=pinged,
            )
            row.outcome = {k: v for k, v in result.__dict__.items() if k != "duplicate"}
            return result

        return await self._mutate(match_id, fn)

    async def pending_prompt(self, match_id: int, user_id: int) -> PendingPrompt | None:
        """The seat's open prompt (an answered secret one may still be revised).

        Asking is coming back: it ends an AI takeover of the seat (``/game act``)."""
        match, seats, state, deadline = await self._read(match_id)
        seat = self._seat_of(seats, user_id)
        if seat.ai_takeover or seat.missed or seat.away_until is not None:
            async def clear(ctx: _Ctx) -> None:
                row = ctx.seat_of(user_id)
                if row.ai_takeover or row.missed or row.away_until is not None:
                    self.come_back(row)
                    ctx.changed = True

            await self._mutate(match_id, clear)
            match, seats, state, deadline = await self._read(match_id)
            seat = self._seat_of(seats, user_id)
        if state is None or match.status not in ("active", "paused"):
            return None
        game = eng.get(match.game)
        prompt = next((p for p in game.prompts(state) if p.seat == seat.seat_no), None)
        if prompt is None or seat.prompt_version is None:
            return None
        return PendingPrompt(
            match_id=match_id, seat=seat.seat_no, version=seat.prompt_version, prompt=prompt,
            deadline=deadline.due_at if deadline else None, seat_view=game.view(state, seat.seat_no),
            names=[s.name for s in sorted(seats, key=lambda s: s.seat_no)], undo_mark=match.undo_mark,
        )

    async def stale_reason(self, match_id: int, seat: int, version: int) -> str | None:
        """Why a seat's prompt of ``version`` is no longer open, when that is worth saying: its
        shared decision was taken by someone else first. None: the game simply moved on."""
        async with self.store.read() as session:
            match = await session.get(Match, match_id)
            if match is None or match.status not in ("active", "paused"):
                return None
            seats = await self._seats(session, match_id)
            row = next((s for s in seats if s.seat_no == seat), None)
            game = eng.get(match.game)
            if row is None or not await self._lost_shared(session, match, game, seat, version):
                return None
            return LOST_SHARED if row.prompt_version is not None else CLOSED_SHARED

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
        match, seats, state, deadline = await self._read(match_id)
        game = eng.get(match.game)
        prompts = game.prompts(state) if state is not None and match.status in ("active", "paused") else []
        owing = {p.seat for p in prompts if not p.answered and not p.optional}
        optional = {p.seat for p in prompts if not p.answered and p.optional}
        phase = match.status
        if state is not None:
            view = game.view(state, None)
            phase = str(view.get("phase_label") or view.get("phase") or match.status)
        info = self._info_of(match, seats, game)
        return Status(
            match=info, phase=phase, waiting=[s for s in info.seats if s.seat in owing],
            may_act=[s for s in info.seats if s.seat in optional],
            deadline=deadline.due_at if deadline else None, step=match.step,
            prompts=[p.public() for p in prompts], result=match.result,
            blocked=await self.blocked_targets(match.id),
        )

    async def log(self, channel_id: Where, limit: int = 20) -> list[str]:
        """The last public event lines of the channel's newest match."""
        return await self.log_of(await self._channel_match_id(channel_id, open_only=False), limit)

    async def log_of(self, match_id: int, limit: int = 20) -> list[str]:
        """The last public event lines of one match."""
        limit = limits.log_lines(limit)
        async with self.store.read() as session:
            stmt = select(Choice.seq, Choice.public).where(Choice.match_id == match_id).order_by(Choice.seq.desc())
            rows = list((await session.exec(stmt.limit(limit))).all())
            names = self._text_names([s.name for s in await self._seats(session, match_id)])
            undone = await self.undo_lines(session, match_id)  # "alice undid ...", where the log was cut
        lines = [*undone.get(0, [])] if len(rows) < limit else []
        for seq, public in reversed(rows):
            lines += [fill(line, names) for line in public] + undone.get(seq, [])
        return lines[-limit:]

    # ------------------------------------------------------------------ host tools

    async def abort(self, channel_id: Where, by_user: int, is_manager: bool = False) -> MatchInfo:
        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            self._close(ctx, "aborted")
            self._lobby_notice(ctx, "The match was aborted.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def kick(self, channel_id: Where, by_user: int, seat: int, is_manager: bool = False) -> MatchInfo:
        """In the lobby the seat is removed; in a running match the AI plays it from now on."""

        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            row = ctx.seat(seat)
            if ctx.match.status == "lobby":
                await self._remove_seat(ctx, row)
                closing = hosting.lobby_seat_dropped(ctx, row, lambda: self._close(ctx, "aborted"))
                self._lobby_notice(ctx, f"{self.name_text(row.name)} was removed.{closing}")
                return lambda: self._info(ctx)
            if row.user_id is None:
                raise Conflict(f"Seat {seat} is already played by the AI.")
            name, was_host = row.name, row.user_id == ctx.match.host_id
            row.user_id = None
            row.ai_policy = "heuristic" if "heuristic" in ctx.game.policies() else next(iter(ctx.game.policies()))
            row.ai_takeover = False
            row.name = f"{name} (AI)"[:100]
            row.prompt_version = None
            row.prompt_key = None
            ctx.changed = True
            ctx.notice("timeout", text=f"{self.name_text(name)} was removed; the AI plays seat {seat} from now on.")
            if was_host:
                hosting.hand_over(ctx, name, hosting.successor(ctx.seats, row))
            await self._settle(ctx)
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def extend(self, channel_id: Where, by_user: int, hours: float, is_manager: bool = False) -> MatchInfo:
        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            deadline = await ctx.session.get(Deadline, ctx.match.id)
            if deadline is None or ctx.match.status not in ("active", "paused"):
                raise Conflict("No deadline is running in this match.")
            added = limits.extend_hours(hours, deadline.due_at - ctx.now)
            deadline.due_at += timedelta(hours=added)
            for flag, frac in REMINDERS:
                if ctx.now < self._at(deadline, frac):
                    setattr(deadline, flag, False)
            ctx.changed = True
            ctx.notice("timeout", text=f"The deadline was extended by {added:g} h to {deadline.due_at:%Y-%m-%d %H:%M} UTC.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def pause(self, channel_id: Where, by_user: int, is_manager: bool = False) -> MatchInfo:
        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            if ctx.match.status != "active":
                raise Conflict("Only a running match can be paused.")
            ctx.match.status = ctx.values["status"] = "paused"
            deadline = await ctx.session.get(Deadline, ctx.match.id)
            if deadline is not None:
                deadline.paused_at = ctx.now
            self._lobby_notice(ctx, "The match is paused; deadlines are stopped.")
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def resume(self, channel_id: Where, by_user: int, is_manager: bool = False) -> MatchInfo:
        async def fn(ctx: _Ctx) -> Callable[[], MatchInfo]:
            self._need_host(ctx, by_user, is_manager)
            if ctx.match.status != "paused":
                raise Conflict("The match is not paused.")
            ctx.match.status = ctx.values["status"] = "active"
            deadline = await ctx.session.get(Deadline, ctx.match.id)
            if deadline is not None and deadline.paused_at is not None:
                shift = ctx.now - deadline.paused_at
                deadline.started_at += shift
                deadline.due_at += shift
                deadline.paused_at = None
            self._lobby_notice(ctx, "The match goes on.")
            await self._settle(ctx)
            return lambda: self._info(ctx)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    # ------------------------------------------------------------------ time

    async def tick(self, now: datetime | None = None) -> int:
        """Send due reminders and play expired prompts; one process at a time (lease)."""
        now = now or self.clock()
        if not await self.store.acquire_lease("tick", self.holder, now, self.lease_ttl):
            return 0
        try:
            async with self.store.read() as session:
                stmt = (  # only the rows whose next reminder or deadline has come (indexed)
                    select(Deadline)
                    .join(Match, Match.id == Deadline.match_id)
                    .where(Deadline.fire_at <= now, Match.status == "active")
                    .order_by(Deadline.fire_at)
                )
                deadlines = list((await session.exec(stmt)).all())
            work = 0
            for d in deadlines:
                due = now >= d.due_at or any(now >= self._at(d, f) and not getattr(d, k) for k, f in REMINDERS)
                if due:
                    work += await self._mutate(d.match_id, lambda ctx: self._tick_match(ctx, now))
            return work + await self.expire_undos(now) + await self.end_absences(now)
        finally:
            await self.store.release_lease("tick", self.holder, now)

    async def recover(self) -> int:
        """At start-up: let AI seats of active matches play what they owe. Returns matches touched."""
        async with self.store.read() as session:
            ids = list((await session.exec(select(Match.id).where(Match.status == "active"))).all())

        async def fn(ctx: _Ctx) -> int:
            before = ctx.match.step
            await self._settle(ctx)
            return int(ctx.match.step != before)

        return sum([await self._mutate(match_id, fn) for match_id in ids])

    # ------------------------------------------------------------------ outbox and lookups

    async def get_match(self, match_id: int) -> MatchInfo:
        match, seats, _state, _d = await self._read(match_id, with_state=False)
        return self._info_of(match, seats, eng.get(match.game))

    async def set_dm_channel(self, match_id: int, user_id: int, dm_channel_id: int | None) -> None:
        """Remember where the seat's private prompts go (front-ends call it after opening a DM)."""

        async def fn(ctx: _Ctx) -> None:
            ctx.seat_of(user_id).dm_channel_id = dm_channel_id
            ctx.changed = True

        await self._mutate(match_id, fn)

    async def take_lease(self, name: str, holder: str, ttl_seconds: float = 60.0) -> bool:
        """Hold (or renew) a named lease, e.g. the outbox delivery of several bot processes."""
        return await self.store.acquire_lease(name, holder, self.clock(), timedelta(seconds=ttl_seconds))

    async def release_lease(self, name: str, holder: str) -> None:
        """Give a lease up at shutdown so another process takes over at once."""
        await self.store.release_lease(name, holder, self.clock())

    async def notice_ref(self, match_id: int, kind: str) -> str | None:
        """Where the first delivered notice of this kind went (e.g. the lobby message id)."""
        async with self.store.read() as session:
            stmt = (
                select(NoticeRow.delivery_ref)
                .where(NoticeRow.match_id == match_id, NoticeRow.kind == kind, NoticeRow.delivery_ref.is_not(None))
                .order_by(NoticeRow.id)
                .limit(1)
            )
            return (await session.exec(stmt)).first()

    async def previous_prompt(self, match_id: int, seat: int, before_id: int) -> tuple[str, dict[str, Any]] | None:
        """The delivery ref (a message id) and prompt dump of the seat's prompt notice before
        ``before_id``, if it was delivered: front-ends edit it in place or retire its components."""
        found = await self.prompt_notice_before(match_id, seat, before_id)
        return None if found is None else (found[0], dict(found[1].get("prompt") or {}))

    async def prompt_notice_before(self, match_id: int, seat: int, before_id: int) -> tuple[str, dict[str, Any]] | None:
        """The delivery ref and whole payload of the seat's last delivered prompt notice before ``before_id``."""
        async with self.store.read() as session:
            stmt = (
                select(NoticeRow.delivery_ref, NoticeRow.payload)
                .where(NoticeRow.match_id == match_id, NoticeRow.kind == "prompt", NoticeRow.seat == seat,
                       NoticeRow.id < before_id)
                .order_by(NoticeRow.id.desc())
                .limit(1)
            )
            row = (await session.exec(stmt)).first()
        if row is None or row[0] is None or not str(row[0]).isdigit():
            return None
        return str(row[0]), dict(row[1])

    async def dms_closed(self, match_id: int, seat: int) -> bool:
        """Whether a DM to this seat already failed because its DMs are closed."""
        async with self.store.read() as session:
            stmt = select(NoticeRow.id).where(NoticeRow.match_id == match_id, NoticeRow.key == f"dms-closed:{seat}")
            return (await session.exec(stmt)).first() is not None

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool:
        """Record that a seat's DMs are closed; True only the first time (say it once)."""
        async with self.store.write() as session:
            stmt = select(NoticeRow.id).where(NoticeRow.match_id == match_id, NoticeRow.key == f"dms-closed:{seat}")
            if (await session.exec(stmt)).first() is not None:
                return False
            session.add(NoticeRow(match_id=match_id, key=f"dms-closed:{seat}", kind="dms_closed", seat=seat,
                                  payload={}, created_at=self.clock(), delivered_at=self.clock(),
                                  delivery_ref="noted"))
            return True

    # ------------------------------------------------------------------ internals: transactions

    async def _mutate(self, match_id: int, fn: Callable[[_Ctx], Awaitable[T]], retries: int = 8) -> T:
        async with self._locks.hold(match_id):
            for attempt in range(retries):
                try:
                    async with self.store.write() as session:
                        match = await self.store.lock_match(session, match_id)
                        if match is None:
                            raise NoMatch(f"There is no match {match_id}.")
                        ctx = await self._context(session, match)
                        out = await fn(ctx)
                        await self._finish(ctx)
                    if callable(out):
                        out = out()  # built after the commit, so it shows the new version
                    if ctx.state is not None:
                        self._cache.put(match_id, ctx.match.version, ctx.state)
                    return out
                except (VersionConflict, IntegrityError):
                    self._cache.pop(match_id)
                    if attempt == retries - 1:
                        raise
                    await asyncio.sleep(0.005 * (attempt + 1))
                except BaseException:
                    self._cache.pop(match_id)
                    raise
        raise AssertionError("unreachable")

    async def _context(self, session: AsyncSession, match: Match) -> _Ctx:
        seats = await self._seats(session, match.id)
        game = eng.get(match.game)
        state = await self._state(session, match, game)
        ctx = _Ctx(session, match, seats, game, state, self.clock())
        ctx.start_version = {s.seat_no: s.prompt_version for s in seats}
        ctx.start_state = state
        return ctx

    async def _state(self, session: AsyncSession, match: Match, game: eng.Game) -> eng.State | None:
        if match.status == "lobby":
            return None
        cached = self._cache.get(match.id)
        if cached is not None and cached[0] == match.version:
            return cached[1]
        return await self.store.load_state(session, match)

    async def _read(
        self, match_id: int, with_state: bool = True
    ) -> tuple[Match, list[Seat], eng.State | None, Deadline | None]:
        async with self.store.read() as session:
            match = await session.get(Match, match_id)
            if match is None:
                raise NoMatch(f"There is no match {match_id}.")
            seats = await self._seats(session, match_id)
            state = await self._state(session, match, eng.get(match.game)) if with_state else None
            deadline = await session.get(Deadline, match_id)
        if state is not None:
            self._cache.put(match_id, match.version, state)
        return match, seats, state, deadline

    async def _seats(self, session: AsyncSession, match_id: int) -> list[Seat]:
        stmt = select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat_no)
        return list((await session.exec(stmt.execution_options(populate_existing=True))).all())

    async def _open_in_channel(self, session: AsyncSession, channel_id: int) -> Match | None:
        stmt = select(Match).where(Match.open_channel == channel_id)
        return (await session.exec(stmt)).first()

    # ------------------------------------------------------------------ internals: game flow

    async def _apply(
        self, ctx: _Ctx, seat_no: int, prompt: eng.Prompt, choice: dict[str, Any], by: str,
        interaction_id: str | None = None,
    ) -> Choice:
        """Run one choice through the engine and append it to the log."""
        assert ctx.state is not None
        try:
            clean = json.loads(eng.canonical_json(choice))  # exactly what the log will replay
        except (TypeError, ValueError):
            raise BadChoice("A choice must be plain JSON data.") from None
        if not isinstance(clean, dict):
            raise BadChoice("A choice must be a set of named fields.")
        try:
            step = ctx.game.submit(ctx.state, seat_no, clean)
        except eng.IllegalChoice as exc:
            raise BadChoice(str(exc)) from None
        seq = ctx.match.step + 1
        public = [e.text for e in step.events if e.seats is None]
        row = Choice(
            match_id=ctx.match.id, seq=seq, seat=seat_no, kind=prompt.kind, by=by,
            payload=clean, public=public,
            interaction_id=interaction_id, created_at=ctx.now,
        )
        ctx.session.add(row)
        ctx.rows.append(row)
        ctx.state = step.state
        ctx.match.step = ctx.values["step"] = seq
        ctx.events.extend(step.events)
        if any(e.phase_end for e in step.events):
            ctx.phase_states.append((len(ctx.events), step.state))  # states are not changed in place
        ctx.changed = True
        ctx.secret_answered = ctx.secret_answered or prompt.secret
        ctx.newly_sealed = ctx.newly_sealed or (prompt.secret and not prompt.answered)
        if seq % SNAPSHOT_EVERY == 0:
            await self.store.save_snapshot(ctx.session, ctx.match.id, seq, ctx.state, ctx.now)
        self._reissue(ctx, actor=seat_no)
        return row

    async def _lost_shared(
        self, session: AsyncSession, match: Match, game: eng.Game, seat_no: int, version: int | None,
    ) -> bool:
        """Whether the seat's prompt of ``version`` was shared and another seat answered first
        (the first choice after it is someone else's). Replays from the nearest kept snapshot (the store keeps the newest two) or from setup."""
        if version is None or not 0 <= version < match.step:
            return False
        stmt = select(Choice.seat).where(Choice.match_id == match.id, Choice.seq > version).order_by(Choice.seq).limit(1)
        first = (await session.exec(stmt)).first()
        if first is None or first == seat_no:
            return False
        state = await self.store.load_state(session, match, upto=version)
        old = next((p for p in game.prompts(state) if p.seat == seat_no), None)
        return old is not None and old.shared

    def _reissue(self, ctx: _Ctx, actor: int | None) -> None:
        """Give each seat's open prompt its version: unchanged prompts keep theirs."""
        by_seat = {p.seat: p for p in ctx.prompts()}
        for seat in ctx.seats:
            prompt = by_seat.get(seat.seat_no)
            if prompt is None:
                seat.prompt_version = seat.prompt_key = None
                continue
            key = _fingerprint(prompt)
            if seat.seat_no == actor:
                # A sealed choice being revised, or an optional prompt passed on that stays open
                # (Defenders' any-turn skills): the same DM stays live, nothing is sent again.
                keep = (prompt.secret or prompt.optional) and prompt.answered and seat.prompt_version is not None
            else:
                keep = seat.prompt_key == key and seat.prompt_version is not None
            if not keep:
                seat.prompt_version = ctx.match.step
            seat.prompt_key = key

    def _ai_driven(self, seat: Seat) -> bool:
        return seat.ai_policy is not None or seat.ai_takeover

    def _policy_choice(self, ctx: _Ctx, seat: Seat, prompt: eng.Prompt, salt: str, policy: str | None) -> dict[str, Any]:
        policies = ctx.game.policies()
        chooser = policies.get(policy or "heuristic") or policies.get("heuristic")
        if chooser is None and policies:
            chooser = next(iter(policies.values()))
        if chooser is None:
            return dict(prompt.default)
        rng = eng.rng_for(ctx.match.seed, ctx.match.step, f"{salt}:{seat.seat_no}")
        return dict(chooser.choose(ctx.state, prompt, rng))

    async def _play(self, ctx: _Ctx, seat: Seat, prompt: eng.Prompt, by: str, policy: str | None) -> None:
        """An AI or deadline choice; falls back to the prompt's default if the policy errs."""
        try:
            choice = self._policy_choice(ctx, seat, prompt, by, policy)
            await self._apply(ctx, seat.seat_no, prompt, choice, by)
        except BadChoice:
            await self._apply(ctx, seat.seat_no, prompt, dict(prompt.default), by)

    async def _settle(self, ctx: _Ctx) -> None:
        """Let AI-driven seats play until a human owes a choice or the game ends."""
        if ctx.state is None or ctx.match.status != "active":
            return
        answered_at: dict[tuple[int, str], int] = {}
        owed = 0
        for _ in range(MAX_AI_CHOICES):
            if ctx.game.result(ctx.state) is not None:
                break
            seats = {s.seat_no: s for s in ctx.seats}
            todo = [p for p in ctx.prompts() if not p.answered and self._ai_driven(seats[p.seat])
                    and not (p.optional and answered_at.get((p.seat, _fingerprint(p))) == owed)]
            if not todo:
                break
            if todo[0].optional:
                # Not owed. The AI answers the same optional prompt again only after an owed choice
                # moved the game on; a game that keeps offering it with nothing else happening
                # leaves it open instead of looping on it.
                answered_at[(todo[0].seat, _fingerprint(todo[0]))] = owed
            else:
                owed += 1
            seat = seats[todo[0].seat]
            await self._play(ctx, seat, todo[0], "ai", seat.ai_policy)
        else:
            raise ServiceError("The AI did not finish its turns; the match is stuck.")
        self._reissue(ctx, actor=None)

    async def _tick_match(self, ctx: _Ctx, now: datetime) -> int:
        if ctx.match.status != "active":
            return 0
        deadline = await ctx.session.get(Deadline, ctx.match.id)
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
                users = [s.user_id for s in self._owing(ctx) if s.user_id is not None]
                names = ", ".join(self.name_text(s.name) for s in self._owing(ctx))
                left = deadline.due_at - now
                ctx.changed = True
                ctx.notice("reminder", text=f"Reminder: {names} still owe a choice ({_hours(left)} left).",
                           user_ids=users, deadline=deadline.due_at.isoformat())
                return 1
        return 0

    async def _expire(self, ctx: _Ctx, deadline: Deadline) -> int:
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
            ctx.notice("timeout", text=text, seat=seat.seat_no, user_ids=[])  # news, not a call to act: no ping
            done += 1
            await self._settle(ctx)
        return done

    def _owing(self, ctx: _Ctx) -> list[Seat]:
        """Human-played seats with an unanswered open prompt that is owed (not optional)."""
        seats = {s.seat_no: s for s in ctx.seats}
        return [seats[p.seat] for p in ctx.prompts()
                if not p.answered and not p.optional and not self._ai_driven(seats[p.seat])]

    @staticmethod
    def _at(deadline: Deadline, frac: float) -> datetime:
        return deadline.started_at + (deadline.due_at - deadline.started_at) * frac

    # ------------------------------------------------------------------ internals: commit

    async def _finish(self, ctx: _Ctx) -> None:
        """Result, deadline, notices, snapshot and the version bump: all in the caller's transaction."""
        if not ctx.changed:
            return
        if ctx.state is not None and ctx.match.status == "active":
            result = ctx.game.result(ctx.state)
            if result is not None:
                self._close(ctx, "finished")
                ctx.values["result"] = result.model_dump(mode="json")
                ctx.snapshot = True
                ctx.notice("result", text=result_text(ctx.game, result, self._text_names(ctx.names())),
                           game=ctx.match.game,
                           names=ctx.names(),
                           view=ctx.game.view(ctx.state, None), result=ctx.values["result"])
                await record_finish(ctx.session, ctx.match, ctx.seats, ctx.game, ctx.state, result, ctx.now)
                ctx.notice(REPLAY_NOTICE, text=f"Replay of this {ctx.game.title} match, phase by phase.")
            else:
                self._reissue(ctx, actor=None)
        await self._sync_deadline(ctx)
        deadline = await ctx.session.get(Deadline, ctx.match.id)
        self._event_notices(ctx, deadline.due_at if deadline is not None else None)
        if ctx.snapshot and ctx.state is not None:
            await self.store.save_snapshot(ctx.session, ctx.match.id, ctx.match.step, ctx.state, ctx.now)
        new_version = ctx.match.version + 1
        for n, (kind, fields) in enumerate(ctx.notices):
            user_id = fields.pop("_user_id", None)
            seat = fields.pop("_seat", None)
            ctx.session.add(NoticeRow(
                match_id=ctx.match.id, key=f"v{new_version}:{n}:{kind}", kind=kind,
                channel_id=ctx.match.channel_id, user_id=user_id, seat=seat, payload=fields, created_at=ctx.now,
            ))
        await ctx.session.flush()
        await self.store.bump(ctx.session, ctx.match, ctx.now, **ctx.values)

    async def _sync_deadline(self, ctx: _Ctx) -> None:
        """One deadline per match, restarted whenever a new prompt opens."""
        deadline = await ctx.session.get(Deadline, ctx.match.id)
        owing = self._owing(ctx) if ctx.match.status in ("active", "paused") else []
        if not owing:
            if deadline is not None:
                await ctx.session.delete(deadline)
            return
        newest = max(s.prompt_version or 0 for s in owing)
        if deadline is not None and deadline.step == newest:
            return
        owing_seats = {s.seat_no for s in owing}
        own = [p.deadline_hours for p in ctx.prompts() if p.seat in owing_seats and p.deadline_hours]
        # Capped: a lobby stored with an endless deadline (before the limits were checked) still starts.
        start = away.deadline_start(ctx.seats, owing_seats, ctx.match.away_mode, ctx.now)  # a seat away waits
        due = start + timedelta(hours=min(min(own) if own else ctx.match.deadline_hours, limits.DEADLINE_HOURS[1]))
        if deadline is None:
            ctx.session.add(Deadline(match_id=ctx.match.id, step=newest, started_at=start, due_at=due,
                                     paused_at=ctx.now if ctx.match.status == "paused" else None))
        else:
            deadline.step, deadline.started_at, deadline.due_at = newest, start, due
            deadline.reminded_50 = deadline.reminded_90 = False

    def _event_notices(self, ctx: _Ctx, due_at: datetime | None = None) -> None:
        """Public posts from public events, private lines and prompts to their seats."""
        private: dict[int, list[str]] = {}
        if ctx.state is not None and ctx.events:
            names = ctx.names()
            written = self._text_names(names)
            shown = {id(e) for e in noise.channel_lines(ctx.events)}
            end_label = self._phase_label(ctx, ctx.state, written)
            parts = phase_notices.stretches(
                ctx.events, lambda e: fill(e.text, written) if id(e) in shown else None,
                self._phase_label(ctx, ctx.start_state, written), end_label)
            public = phase_notices.public_notices(parts, ctx.match.game, names, lambda end: self._view_at(ctx, end))
            ctx.notices[0:0] = public
            for seat in ctx.seats:
                lines = [fill(e.text, written) for e in ctx.events if e.seats is not None and seat.seat_no in e.seats]
                if lines and seat.user_id is not None and not self._ai_driven(seat):
                    private[seat.seat_no] = lines
        prompts = {p.seat: p for p in ctx.prompts()} if ctx.match.status == "active" and ctx.state is not None else {}
        told: Seat | None = None
        if ctx.secret_answered and prompts:
            secret = [p for p in prompts.values() if p.secret]
            line = noise.progress_line(secret, {s.seat_no: s.name for s in ctx.seats}, ctx.newly_sealed,
                                       self.name_text)
            last_seat = next((p.seat for p in secret if not p.answered), None)
            start = [] if ctx.start_state is None or line is None else ctx.game.prompts(ctx.start_state)
            if line is not None and {p.seat for p in start if p.secret and not p.answered} == {last_seat}:
                line = None  # the table already waited for that seat alone: it moved on in its own sequence
            if line is not None and last_seat is not None:
                ctx.notice("progress", text=line, events=[line],
                           label=self._phase_label(ctx, ctx.state, self._text_names(ctx.names())))
                told = ctx.seat(last_seat)
        turn_users: list[int] = []
        before: dict[int, eng.Prompt] | None = None

        def start_prompts() -> dict[int, eng.Prompt]:
            nonlocal before
            if before is None:
                start = [] if ctx.start_state is None else ctx.game.prompts(ctx.start_state)
                before = {p.seat: p for p in start}
            return before

        for seat in ctx.seats:
            prompt = prompts.get(seat.seat_no)
            if prompt is None or seat.user_id is None or self._ai_driven(seat):
                continue
            if seat.prompt_version == ctx.start_version.get(seat.seat_no) and seat.prompt_version is not None:
                continue
            old = start_prompts().get(seat.seat_no)
            # The seat's own next decision, or a prompt that replaces one it had not answered yet:
            # the same DM shows it (edited in place). A decision after others acted is a new DM.
            in_place = seat.seat_no == ctx.actor or (old is not None and not old.answered)
            due = due_at.isoformat() if due_at and not prompt.optional else None  # nothing waits for it
            ctx.notice("prompt", text="", version=seat.prompt_version, game=ctx.match.game, title=ctx.game.title,
                       names=ctx.names(), deadline=due, shared=prompt.shared, optional=prompt.optional,
                       prompt=prompt.model_dump(mode="json"), view=ctx.game.view(ctx.state, seat.seat_no),
                       in_place=in_place, news=private.pop(seat.seat_no, []),
                       choice=ctx.actor_choice if seat.seat_no == ctx.actor else None,
                       _user_id=seat.user_id, _seat=seat.seat_no)
            if prompt.optional or seat.seat_no == ctx.actor:
                continue  # nothing waits for it, or the actor's own next prompt (one mention per turn)
            if prompt.shared and old is not None and old.shared and old.kind == prompt.kind:
                continue  # the same shared decision, re-issued after a teammate's answer: the DM is enough
            turn_users.append(seat.user_id)
        if told is not None and told.user_id is not None and not self._ai_driven(told):
            # After the prompts: the DM it edits is the seat's newest prompt.
            ctx.notice("last_to_choose", text=LAST_TO_CHOOSE, _user_id=told.user_id, _seat=told.seat_no)
        for seat_no, lines in private.items():
            if seat_no == ctx.actor and ctx.private_in_reply:
                continue  # the reply to its seal shows them
            seat = ctx.seat(seat_no)
            ctx.notice("private", text=lines[-1], events=lines, _user_id=seat.user_id, _seat=seat_no)
        if turn_users:
            # The front-end mentions only those of them whose DMs could not reach them.
            ctx.notice("turn", text="your turn: your DMs do not reach you, so use `/game act` to choose.",
                       user_ids=turn_users)

    async def _nudges_of(self, ctx: _Ctx, user_id: int, in_guild: bool) -> tuple[list[int], list[int]]:
        """The reminder DMs and the channel "your turn" mention this user got while the match
        waited for this answer: front-ends take them back once it is given (a "still waits for
        you" left standing would be untrue). A mention happens only for closed DMs, whose player
        answers in the server (``in_guild``); reminders only after a reminder time."""
        deadline = await ctx.session.get(Deadline, ctx.match.id)
        reminded = deadline is not None and (deadline.reminded_50 or deadline.reminded_90)
        if deadline is None or not (reminded or in_guild):
            return [], []
        stmt = select(NoticeRow.kind, NoticeRow.delivery_ref, NoticeRow.payload).where(
            NoticeRow.match_id == ctx.match.id, NoticeRow.kind.in_(("reminder", "turn")),
            NoticeRow.created_at >= deadline.started_at, NoticeRow.delivery_ref.is_not(None))
        dms: list[int] = []
        pings: list[int] = []
        for kind, ref, payload in (await ctx.session.exec(stmt)).all():
            ref = str(ref)
            if kind == "turn" and ref.isdigit() and user_id in [int(u) for u in payload.get("user_ids", [])]:
                pings.append(int(ref))
            for part in ref.removeprefix(DM_REFS).split(";") if ref.startswith(DM_REFS) else []:
                user, _, message = part.partition(":")
                if user == str(user_id) and message.isdigit():
                    dms.append(int(message))
        return dms, pings

    def _view_at(self, ctx: _Ctx, event_index: int) -> dict[str, Any]:
        """The public view as the choice holding that event left it (each phase post's own map)."""
        for count, state in ctx.phase_states:
            if count > event_index:
                return ctx.game.view(state, None)
        return ctx.game.view(ctx.state, None)

    def _phase_label(self, ctx: _Ctx, state: eng.State | None, written: list[str]) -> str:
        """The heading of the phase a state is in ("Round 2 - Hero Activation")."""
        if state is None:
            return ""
        return fill(str(ctx.game.view(state, None).get("phase_label") or ""), written)

    # ------------------------------------------------------------------ internals: helpers

    def _text_names(self, names: list[str]) -> list[str]:
        """Seat names as they are written into texts (see ``name_text``)."""
        return [self.name_text(n) for n in names]

    def _need_lobby(self, ctx: _Ctx, message: str = "The match has already started.") -> None:
        if ctx.match.status != "lobby":
            raise Conflict(message)

    def _need_host(self, ctx: _Ctx, user_id: int, is_manager: bool) -> None:
        if not hosting.may_act(ctx.match.host_id, user_id, is_manager):
            raise NotAllowed(hosting.refusal(ctx.match.host_id, ctx.seats))
        if ctx.match.status not in OPEN_STATUSES:
            raise NoMatch("This match is over.")

    def _add_seat(self, ctx: _Ctx, seat: Seat) -> None:
        if len(ctx.seats) >= ctx.match.max_seats:
            raise Conflict(f"The lobby is full ({ctx.match.max_seats} seats).")
        seat.seat_no = len(ctx.seats)
        ctx.session.add(seat)
        ctx.seats.append(seat)
        ctx.changed = True

    async def _remove_seat(self, ctx: _Ctx, seat: Seat) -> None:
        """Drop a lobby seat and close the gap so seats stay numbered 0..n-1."""
        await ctx.session.delete(seat)
        await ctx.session.flush()
        ctx.seats = [s for s in ctx.seats if s is not seat]
        for n, other in enumerate(ctx.seats):
            if other.seat_no != n:
                other.seat_no = n
                await ctx.session.flush()
        ctx.changed = True

    def _close(self, ctx: _Ctx, status: str) -> None:
        ctx.match.status = ctx.values["status"] = status
        ctx.values["open_channel"] = None
        ctx.changed = True
        for seat in ctx.seats:
            seat.prompt_version = seat.prompt_key = None

    def _lobby_notice(self, ctx: _Ctx, text: str) -> None:
        ctx.changed = True
        status = ctx.values.get("status", ctx.match.status)
        ctx.notice("lobby", text=text, status=status,
                   seats=[{"seat": s.seat_no, "user_id": s.user_id, "name": s.name, "ai": s.ai_policy}
                          for s in ctx.seats])

    def _seat_of(self, seats: list[Seat], user_id: int) -> Seat:
        for seat in seats:
            if seat.user_id == user_id:
                return seat
        raise NotSeated("You have no seat in this match.")

    def _info(self, ctx: _Ctx) -> MatchInfo:
        return self._info_of(ctx.match, ctx.seats, ctx.game)

    def _info_of(self, match: Match, seats: list[Seat], game: eng.Game) -> MatchInfo:
        return MatchInfo(
            id=match.id, guild_id=match.guild_id, channel_id=match.channel_id, game=match.game, title=game.title,
            status=match.status, host_id=match.host_id, options=dict(match.options),
            seats=[SeatInfo(seat=s.seat_no, user_id=s.user_id, name=s.name, ai_policy=s.ai_policy,
                            ai_takeover=s.ai_takeover, missed=s.missed, away_until=s.away_until) for s in seats],
            max_seats=match.max_seats, deadline_hours=match.deadline_hours, version=match.version,
            step=match.step, created_at=match.created_at, result=match.result, away_mode=match.away_mode,
            lobby_channel_id=match.lobby_channel_id, opens_thread=match.opens_thread,
        )


def _as_is(name: str) -> str:
    return name


def team_verdict(game: Any, winners: list[int]) -> str | None:
    """"the Defenders won" / "... lost" for a cooperative game (``game.cooperative``, named by
    ``game.team``), whose Result lists every seat on a win and nobody on a loss; else None."""
    if not getattr(game, "cooperative", False):
        return None
    return f"{getattr(game, 'team', 'the players')} {'won' if winners else 'lost'}"


def result_text(game: Any, result: eng.Result, names: list[str]) -> str:
    """The channel's closing line. A cooperative game (``game.cooperative``) is won or lost by
    the whole team: its Result lists every seat on a win and nobody on a loss."""
    reason = fill(result.reason, names).rstrip(".")
    team = team_verdict(game, result.winners)
    if team is not None:
        return f"**The match is over. {team[:1].upper()}{team[1:]}: {reason}.**"
    who = ", ".join(names[w] for w in result.winners) or "nobody"
    verdict = "a draw" if result.draw else f"{who} won"
    return f"**The match is over: {verdict}** ({reason})."


def _hours(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.1f} h" if hours >= 1 else f"{max(delta.total_seconds() / 60, 0):.0f} min"
