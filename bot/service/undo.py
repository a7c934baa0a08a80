"""Undo with consent: the host rolls a match back to before its last player choices.

The log is the truth and the state its replay, so an undo is a truncation of the log (and of the
snapshots past the cut). The RNG of every step is derived from (seed, step), so the same choice
made again after an undo rolls the same dice: an undo cannot re-roll luck.

Who must agree: every other player whose own choice would be undone, and, when hidden
information was revealed since the cut (see reveals.py), every other player of the match. When
nobody has to agree (the host's own last choice, nothing revealed since, or nobody else to ask)
the undo happens at once. Each player asked gets Agree / Refuse in their DMs, where their
prompts already go; one refusal, a timeout or any other change of the match cancels it. Every
request stays in the ``undos`` table, whatever became of it: the audit trail. How players are
asked and answer is consents.py's, shared with the votes to end a match.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service import consents, hosting
from bot.service.consents import ANSWERED as ANSWERED  # what delivery compares undo_closed with
from bot.service.consents import EXPIRED, PENDING, REFUSED, VOID, join_names, names_of
from bot.service.errors import BadChoice, Conflict
from bot.service.notices import ConsentNotice, PhaseNotice
from bot.service.reveals import reveal
from bot.service.rows import row_id
from bot.service.transaction import Transactions
from db.models import Choice, Deadline, Match, Seat, Undo

if TYPE_CHECKING:
    from bot.service.match_transaction import MatchTransaction

MAX_BACK = 50
"""Player choices one undo may take back."""
CONSENT_HOURS_MAX = 24.0
"""Players asked to agree have the match's decision time, at most this long."""
DONE = "done"
"""The status of an undo carried out (the others are consents.py's)."""
AT_ONCE = "only the host's own choices, and nothing hidden was revealed since"
NOBODY_TO_ASK = "nobody else plays a seat here"
REFUSALS = consents.AnswerRefusals(
    gone="This undo request is not part of an open match, so nothing was done.",
    not_yours="This undo is not yours to answer: only the players whose choices it takes back "
              "(or everyone, after a reveal) are asked.",
    closed="This undo request is closed ({why}), so nothing was done.",
    already="You already agreed to this undo; it waits for the others.",
)


@dataclass(frozen=True)
class UndoOutcome:
    """An undo request as a front-end shows it."""

    id: int
    match_id: int
    status: str
    """pending | done | refused | expired | void"""
    summary: str
    why: str
    to_step: int
    waiting: list[int] = field(default_factory=list)
    """User ids still to answer (pending only)."""
    asked: list[str] = field(default_factory=list)
    """Names of the players still to answer (pending only)."""
    agreed: list[str] = field(default_factory=list)
    """Names of the players who agreed."""
    due_at: datetime | None = None
    log_sha_before: str = ""
    log_sha_after: str | None = None


class UndoService(Transactions):
    """Mixed into MatchService: asking for, agreeing to and applying undos."""

    async def request_undo(self, channel_id: int, by_user: int, back: int = 1, *,
                           is_manager: bool = False) -> UndoOutcome:
        """Ask to take the last ``back`` player choices back (AI choices after them go too)."""
        if not isinstance(back, int) or not 1 <= back <= MAX_BACK:
            raise BadChoice(f"An undo takes back 1 to {MAX_BACK} choices; nothing was changed.")

        async def fn(ctx: MatchTransaction) -> Callable[[], UndoOutcome]:
            self._need_host(ctx, by_user, is_manager)
            if ctx.match.status == "lobby":
                raise Conflict("The match has not started, so there is nothing to undo.")
            pending = _first_pending(ctx, await self.store.undos(ctx.session, ctx.match_id, PENDING))
            if pending is not None:
                raise Conflict(f"An undo is already waiting for agreement (until {pending.due_at:%Y-%m-%d %H:%M} "
                               "UTC); wait for it to be answered or to expire.")
            rows = await self.store.choices(ctx.session, ctx.match_id)
            players = [r for r in rows if r.by == "player"]
            if back > len(players):
                made = f"only {len(players)} player choice{'' if len(players) == 1 else 's'} have" if players \
                    else "no player choice has"
                raise Conflict(f"An undo cannot go back past the start of the match: {made} been made. "
                               "Nothing was changed.")
            to_step = players[-back].seq - 1
            removed = [r for r in rows if r.seq > to_step]
            requester = next((s.seat_no for s in ctx.seats if s.user_id == by_user and hosting.is_human(s)), None)
            humans = {s.seat_no for s in ctx.seats if hosting.is_human(s)}
            own = {r.seat for r in removed if r.by == "player" and r.seat in humans}
            # The replay costs 10-25 ms a choice (reveals.py); not needed when everyone is asked anyway.
            everyone = own - {requester} == humans - {requester} and len(humans - {requester}) > 0
            revealed = None if everyone else await self._revealed(ctx, to_step, removed)
            consent = sorted((humans if revealed else own) - {requester})
            why = (f"{revealed} since" if revealed else "other players' choices would be undone") if consent \
                else (NOBODY_TO_ASK if revealed else AT_ONCE)
            row = Undo(
                match_id=ctx.match_id, requested_by=by_user, from_step=ctx.match.step, to_step=to_step,
                status=PENDING, consent=consent, agreed=[], why=why[:200], summary=self._undo_summary(ctx, removed),
                undone=[{"seq": r.seq, "seat": r.seat, "kind": r.kind, "by": r.by} for r in removed],
                log_sha_before=eng.log_sha256([(r.seat, r.payload) for r in rows]), created_at=ctx.now,
                due_at=ctx.now + timedelta(hours=min(ctx.match.deadline_hours, CONSENT_HOURS_MAX)),
            )
            ctx.session.add(row)
            await ctx.session.flush()
            if consent:
                self._ask_consent(ctx, row)
            else:
                await self._apply_undo(ctx, row)
            return lambda: self._undo_outcome(row, ctx.seats)

        return await self._mutate(await self._channel_match_id(channel_id), fn)

    async def answer_undo(self, match_id: int, undo_id: int, user_id: int, agree: bool) -> UndoOutcome:
        """A player asked to agree answers; the last agreement applies the undo."""

        async def fn(ctx: MatchTransaction) -> Callable[[], UndoOutcome]:
            found = await ctx.session.get(Undo, undo_id)
            seat = consents.answering_seat(ctx, found, user_id, found.consent if found else [], _said, REFUSALS)
            assert found is not None  # answering_seat refuses a missing request
            row = found
            if ctx.now >= row.due_at:
                self._close_undo(ctx, row, EXPIRED, "it was not agreed to in time")
            elif ctx.match.step != row.from_step or ctx.match.status not in consents.RUNNING:
                self._close_undo(ctx, row, VOID, "the match moved on since it was asked")
            elif not agree:
                consents.refuse(row, seat)
                self._close_undo(ctx, row, REFUSED, f"{self.name_text(seat.name)} refused")
            elif consents.agree(ctx, row, seat, row.consent):
                await self._apply_undo(ctx, row)
            return lambda: self._undo_outcome(row, ctx.seats)

        return await self._mutate(match_id, fn)

    async def undo_closed(self, match_id: int, undo_id: int, seat: int) -> str | None:
        """Why ``seat`` can no longer answer an undo request (None: it still can; ANSWERED: it
        did, and its DM already says so), read without changing anything: the consent DMs of
        the seats that never answered then lose their buttons (delivery's reconcile)."""
        async with self.store.read() as session:
            row = await session.get(Undo, undo_id)
            match = await session.get(Match, match_id)

        def moved_on(match: Match) -> str | None:
            if match.status not in consents.RUNNING:
                return "the match is over" if match.status == "finished" else "the match was aborted"
            return _said(VOID) if row is not None and match.step != row.from_step else None

        return consents.why_closed(row, match, match_id, seat, self.clock(), _said, moved_on)

    async def expire_undos(self, now: datetime) -> int:
        """Cancel the requests nobody finished answering in time (the deadline tick calls it)."""
        async with self.store.read() as session:
            due = await self.store.due_undos(session, PENDING, now)

        async def expire(ctx: MatchTransaction, undo_id: int) -> int:
            row = await ctx.session.get(Undo, undo_id)
            if row is None or row.status != PENDING or row.due_at > now:
                return 0
            self._close_undo(ctx, row, EXPIRED, "not everyone agreed in time")
            return 1

        return await consents.expire_all(self._mutate, due, expire)

    async def prompt_retired(self, match_id: int, message_id: int) -> bool:
        """Whether a prompt DM was sent before the match's last undo: its buttons are stale then,
        even when the undo brought the game back to a prompt of the same version."""
        async with self.store.read() as session:
            mark = await self.store.undo_mark(session, match_id)
            if mark is None:
                return False
            return await self.store.prompt_sent_by(session, match_id, message_id, mark)

    async def undo_trail(self, match_id: int) -> list[UndoOutcome]:
        """Every undo of the match, oldest first, whatever became of it."""
        async with self.store.read() as session:
            rows = await self.store.undos(session, match_id)
            seats = await self.store.seats(session, match_id)
        return [self._undo_outcome(row, seats) for row in rows]

    async def undo_lines(self, session: AsyncSession, match_id: int,
                         seats: list[Seat] | None = None) -> dict[int, list[str]]:
        """The public lines of the undos still in the log's history, by the step they cut back to
        (a later undo to an earlier step takes the earlier undo's line away with its choices)."""
        rows = await self.store.undos(session, match_id, DONE)
        if not rows:
            return {}
        seats = seats if seats is not None else await self.store.seats(session, match_id)
        kept: list[tuple[int, str]] = []
        for row in rows:
            kept = [(step, line) for step, line in kept if step < row.to_step]
            kept.append((row.to_step, _undid_line(self._requester(seats, row.requested_by), row.summary,
                                                  names_of(seats, row.agreed), self.name_text)))
        lines: dict[int, list[str]] = {}
        for step, line in kept:
            lines.setdefault(step, []).append(line)
        return lines

    # ------------------------------------------------------------------ internals

    async def _revealed(self, ctx: MatchTransaction, to_step: int, removed: list[Choice]) -> str | None:
        """The first reveal among the choices an undo to ``to_step`` would cut, replayed."""
        state = await self.store.load_state(ctx.session, ctx.match, upto=to_step)
        for row in removed:
            step = ctx.game.submit(state, row.seat, row.payload)
            found = reveal(ctx.game, state, row.seat, row.payload, step)
            if found is not None:
                return found
            state = step.state
        return None

    def _undo_summary(self, ctx: MatchTransaction, removed: list[Choice]) -> str:
        """"alice's force and bob's recruit (and 2 AI choices)": whose decisions go, never what they were."""
        seats = {s.seat_no: s for s in ctx.seats}
        parts = [f"{self.name_text(seats[r.seat].name)}'s {r.kind.replace('_', ' ')}" for r in removed
                 if r.by == "player"]
        counted = Counter(parts)
        words = [f"{part} ×{n}" if n > 1 else part for part, n in counted.items()]
        text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
        machine = sum(1 for r in removed if r.by != "player")
        if machine:
            text += f" (and {machine} AI or deadline choice{'' if machine == 1 else 's'} after)"
        return text[:300]

    def _ask_consent(self, ctx: MatchTransaction, row: Undo) -> None:
        names = names_of(ctx.seats, row.consent)
        who = self._requester(ctx.seats, row.requested_by)
        consents.ask(ctx, row.consent, (
            f"{self.name_text(who)} asks to undo {row.summary}, because {row.why}. Waiting for "
            f"{join_names([self.name_text(n) for n in names])} to agree (buttons in their DMs) until "
            f"{row.due_at:%Y-%m-%d %H:%M} UTC; one refusal cancels it."),
            "consent", ConsentNotice(undo_id=row_id(row), due=row.due_at.isoformat(), summary=row.summary,
                                     why=row.why, who=who))

    def _close_undo(self, ctx: MatchTransaction, row: Undo, status: str, because: str) -> None:
        who = self.name_text(self._requester(ctx.seats, row.requested_by))
        consents.close(ctx, row, status, f"The undo {who} asked for ({row.summary}) is cancelled: {because}. "
                                         "Nothing was changed.")

    async def _apply_undo(self, ctx: MatchTransaction, row: Undo) -> None:
        """Cut the log back to ``row.to_step`` and send every open prompt again."""
        match, session = ctx.match, ctx.session
        ctx.state = await self.store.load_state(session, match, upto=row.to_step)
        await self.store.cut_log(session, ctx.match_id, row.to_step)
        deadline = await session.get(Deadline, ctx.match_id)
        if deadline is not None:
            await session.delete(deadline)
            await session.flush()
        # Prompt DMs sent so far are retired (the router refuses their buttons as stale); those
        # not sent yet never go out. Every open prompt is sent again, as new notices above the mark.
        mark = await self.store.retire_prompts(session, ctx.match_id, ctx.now)
        ctx.values["undo_mark"] = mark
        for seat in ctx.seats:
            seat.prompt_version = seat.prompt_key = None
        ctx.start_version = {}
        ctx.start_state = None
        match.step = ctx.values["step"] = row.to_step
        kept = await self.store.choices(session, ctx.match_id)
        row.status = DONE
        row.decided_at = ctx.now
        row.log_sha_after = eng.log_sha256([(c.seat, c.payload) for c in kept if c.seq <= row.to_step])
        ctx.changed = True
        self._cache.pop(ctx.match_id)
        self._views.pop(ctx.match_id)
        self._prompts.pop(ctx.match_id)
        line = _undid_line(self._requester(ctx.seats, row.requested_by), row.summary,
                           names_of(ctx.seats, row.agreed), self.name_text)
        luck = "The same choices bring the same dice: an undo cannot re-roll luck."
        ctx.notice("phase", PhaseNotice(text=f"{self.wording.strong(line)}\n{luck}", label=line, events=[luck],
                                        standalone=True, game=match.game, view=ctx.view(ctx.state, None),
                                        names=ctx.names()))
        await self._settle(ctx)

    def _requester(self, seats: list[Seat], user_id: int) -> str:
        seat = next((s for s in seats if s.user_id == user_id), None)
        return seat.name if seat is not None else "A server manager"

    def _undo_outcome(self, row: Undo, seats: list[Seat]) -> UndoOutcome:
        by_seat = {s.seat_no: s for s in seats}
        open_seats = [by_seat[n] for n in consents.still_to_answer(row, row.consent) if n in by_seat]
        waiting = [s.user_id for s in open_seats if s.user_id is not None]
        return UndoOutcome(
            id=row_id(row), match_id=row.match_id, status=row.status, summary=row.summary, why=row.why,
            to_step=row.to_step, waiting=[int(u) for u in waiting if u is not None],
            asked=[s.name for s in open_seats], agreed=names_of(seats, row.agreed), due_at=row.due_at,
            log_sha_before=row.log_sha_before,
            log_sha_after=row.log_sha_after,
        )


def _first_pending(ctx: MatchTransaction, rows: list[Undo]) -> Undo | None:
    """The pending request still open for the match as it is; lapsed ones are closed on the way."""
    for row in rows:
        if row.due_at > ctx.now and row.from_step == ctx.match.step:
            return row
        consents.decide(row, EXPIRED if row.due_at <= ctx.now else VOID, ctx.now)  # lapsed unnoticed: closed now
    return None


def _said(status: str) -> str:
    return {DONE: "it was done", REFUSED: "it was refused", EXPIRED: "it expired",
            VOID: "the match moved on since"}.get(status, status)


def _undid_line(who: str, summary: str, agreed: list[str], name_text: Callable[[str], str]) -> str:
    consent = f" (agreed by {join_names([name_text(n) for n in agreed])})" if agreed else ""
    return f"{name_text(who)} undid {summary}{consent}."
