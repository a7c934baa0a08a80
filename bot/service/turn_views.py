"""What a seat's turn DM should show, read from the match as it is now.

A seat's turn lives in one DM: the message of its newest delivered prompt notice (the
"subject"), edited in place while the seat's sequence goes on. Whether that message still asks
for a decision, and what it says once its purpose has ended, follows from the match now: the
seat's open prompt version, whether it sealed, whether the table waits for it alone, who played
the seat, and what the log says the seat chose since the subject opened. Front-ends render the
message from this one read (``SeatTurn``), so it never says more or less than the match does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.engine import Connection

import engine as eng
from bot.service.outbox import MarksWrite, marks_first
from bot.service.play import DM_REFS
from bot.service.rows import row_id
from bot.service.transaction import Transactions
from db.models import Deadline, Match, Seat
from db.turn_queries import WAITS, FenceHold, TurnNotices

R = TypeVar("R")


@dataclass(frozen=True)
class NextDecision:
    """A seat's next decision as its prompt notice holds it, and the seat's turn before it
    (``TurnViews.next_decision``)."""

    notice_id: int
    payload: dict[str, Any]
    previous: SeatTurn


@dataclass(frozen=True)
class TurnChoice:
    """One choice of the seat in the log: its position, prompt kind, who made it, what it was."""

    seq: int
    kind: str
    by: str
    """player | ai | deadline"""
    choice: dict[str, Any]


@dataclass(frozen=True)
class TurnSubject:
    """The prompt notice a turn DM shows: its notice, its message (None: not sent yet), its payload."""

    notice_id: int
    dm: int | None
    payload: dict[str, Any]
    parsed: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    """What readers made of the payload, kept with it for the next reader of this same subject
    (a turn DM's render asks for its prompt several times: bot/discord/turn_dm.py). Neither the
    payload nor what is kept here is ever changed; a copy with another payload (``replace``)
    starts with nothing kept."""

    @property
    def version(self) -> int | None:
        value = self.payload.get("version")
        return None if value is None else int(value)


@dataclass(frozen=True)
class SeatTurn:
    """One seat's turn as the match stands: the facts its DM is rendered from."""

    match_id: int
    seat: int
    user_id: int
    channel_id: int
    title: str
    status: str
    """The match's status: active, paused, finished, aborted."""
    names: list[str]
    version: int | None
    """The seat's open prompt version now (None: it owes nothing)."""
    answered: bool
    """Its open prompt is answered (a sealed choice it may still change, an optional one passed)."""
    secret: bool
    """Its open prompt is a sealed one."""
    waits_alone: bool
    """The table waits for this seat alone in a sealed step."""
    ai_driven: bool
    deadline: datetime | None
    subject: TurnSubject | None
    choices: list[TurnChoice] = field(default_factory=list)
    """The seat's choices since the subject's prompt opened, oldest first."""
    reminders: list[int] = field(default_factory=list)
    """Reminder DMs (message ids) this seat got since the subject was written."""
    newest_prompt: int | None = None
    """The seat's newest prompt notice (delivered or not) when this was read."""

    def newer_prompt(self, notice_id: int) -> bool:
        """Whether a prompt notice of the seat newer than ``notice_id`` was written (then that
        one's delivery edits the turn DM: an older one must not)."""
        return self.newest_prompt is not None and self.newest_prompt > notice_id

    @property
    def live(self) -> bool:
        """Whether the subject still asks this seat for a decision."""
        return (self.subject is not None and self.status in ("active", "paused") and not self.ai_driven
                and self.version is not None and self.subject.version == self.version)

    def about(self, notice_id: int, payload: dict[str, Any], dm: int | None = None) -> SeatTurn:
        """The same facts about another prompt notice of the seat (a newer one, being delivered)."""
        subject = TurnSubject(notice_id, dm, payload)
        after = subject.version if subject.version is not None else -1
        return replace(self, subject=subject, choices=[c for c in self.choices if c.seq > after], reminders=[])


class TurnViews(Transactions):
    """Mixed into MatchService: the read a turn DM is rendered from, and the fence its writers
    take so that, across processes, each reads the match and writes the DM before the next."""

    @asynccontextmanager
    async def seat_fence(self, match_id: int, seat_no: int) -> AsyncIterator[FenceHold]:
        """Read the seat's turn and write its DM with no other process doing so meanwhile (the
        processes' own per-seat locks order their writers within each): the last write shows
        the newest match. Its ``kept`` is False once the block ended if the fence was not held
        throughout: the writer then reads and writes again (a stale write may be the last)."""
        async with self.store.seat_fence(match_id, seat_no) as hold:
            yield hold

    @asynccontextmanager
    async def seats_fence(self, match_id: int, seats: list[int]) -> AsyncIterator[FenceHold]:
        """``seat_fence`` on several seats at once (taken in seat order)."""
        async with self.store.seats_fence(match_id, seats) as hold:
            yield hold

    async def _turn_read(self, marks: MarksWrite | None, read: Callable[[Connection], Awaitable[R]],
                         match_of: Callable[[R], Match | None]) -> tuple[R, eng.State | None]:
        """``read`` (the match rows and the outbox's part of its turns, one statement) without a
        session or a BEGIN (db/lean.py ``read_once``), and the match's state: from the cache when
        it holds the version read. When it does not (another process changed the match, or this
        one has not seen it lately), the rows and the state are read again in one transaction:
        the state must be the one of the rows read. ``marks``: delivered marks written first
        (``marks_first``: by a statement of their own, so the read sees them)."""
        async with marks_first(self.store, marks, self.store.read_once, one_statement=True) as connection:
            found = await read(connection)
        match = match_of(found)
        if match is None:
            return found, None
        known, state = self._known_state(match)
        if known:
            return found, state
        async with self.store.lean_read() as connection:
            found = await read(connection)
            match = match_of(found)
            state = None if match is None else await self._state(connection, match, eng.get(match.game))
        if match is not None and state is not None:
            self._cache.put(row_id(match), match.version, state)
        return found, state

    async def seat_turn(self, match_id: int, seat_no: int, before_id: int | None = None,
                        marks: MarksWrite | None = None) -> SeatTurn | None:
        """The seat's turn now, about its newest prompt DM (before notice ``before_id`` when
        given); None for a seat nobody holds. One statement when the match's state is in memory.
        ``marks``: delivered marks written first (the read sees them)."""
        found, state = await self._turn_read(
            marks, lambda connection: self.store.match_and_turn(connection, match_id, seat_no, before_id),
            lambda read: None if read is None else read[0])
        if found is None:
            return None
        match, seats, deadline, outbox = found
        seat = next((s for s in seats if s.seat_no == seat_no), None)
        if seat is None or seat.user_id is None:
            return None
        return _turn(self, match, seats, deadline, eng.get(match.game), state, seat, outbox)

    async def next_decision(self, match_id: int, seat_no: int, version: int) -> NextDecision | None:
        """The seat's newest prompt notice, when it is the decision of ``version``, waits for
        delivery and can be delivered (its player's DMs are not blocked), with the seat's turn
        before it: what a click's answer shows when its choice led to that decision (delivery
        then finds the DM showing it). None otherwise (delivery writes it). One statement when
        the match's state is in memory."""
        found, state = await self._turn_read(
            None, lambda connection: self.store.match_and_next_turn(connection, match_id, seat_no),
            lambda read: None if read is None else read[0])
        if found is None:
            return None
        match, seats, deadline, outbox, latest = found
        seat = next((s for s in seats if s.seat_no == seat_no), None)
        if seat is None or seat.user_id is None or latest is None:
            return None
        notice_id, waits, payload = latest
        if waits != WAITS or payload.get("version") != version:
            return None
        await self.store.durable()  # nothing is shown of a commit not yet on the disk (db/durability.py)
        previous = _turn(self, match, seats, deadline, eng.get(match.game), state, seat, outbox)
        return NextDecision(notice_id, payload, previous)

    async def seat_turns(self, match_id: int, marks: MarksWrite | None = None) -> dict[int, SeatTurn]:
        """Every held seat's turn now (seat -> its turn), in one read: the match and the
        outbox's part of every seat with their choices since, one statement whatever the seats
        when the match's state is in memory. Only the choices of seats whose turn DM exists are
        read (the others' DMs show nothing). ``marks``: delivered marks written first."""
        found, state = await self._turn_read(
            marks, lambda connection: self.store.match_and_turns(connection, match_id),
            lambda read: None if read is None else read[0])
        if found is None:
            return {}
        match, seats, deadline, outboxes = found
        game = eng.get(match.game)
        return {seat.seat_no: _turn(self, match, seats, deadline, game, state, seat, outboxes[seat.seat_no])
                for seat in seats if seat.seat_no in outboxes}


def _turn(views: TurnViews, match: Match, seats: list[Seat], deadline: Deadline | None, game: eng.Game,
          state: eng.State | None, seat: Seat, outbox: TurnNotices) -> SeatTurn:
    """One seat's ``SeatTurn`` from what was read of the match."""
    seat_no = seat.seat_no
    found = outbox.found
    running = state is not None and match.status in ("active", "paused")
    prompts = views._prompts_of(row_id(match), game, state) if running and state is not None else []
    mine = next((p for p in prompts if p.seat == seat_no), None)
    sealed = [p for p in prompts if p.secret]
    alone = (mine is not None and mine.secret and not mine.answered and len(sealed) > 1
             and all(p.answered for p in sealed if p.seat != seat_no))
    return SeatTurn(
        match_id=row_id(match), seat=seat_no, user_id=int(seat.user_id or 0), channel_id=match.channel_id,
        title=game.title, status=match.status, names=[s.name for s in sorted(seats, key=lambda s: s.seat_no)],
        version=seat.prompt_version if mine is not None else None,
        answered=bool(mine is not None and mine.answered), secret=bool(mine is not None and mine.secret),
        waits_alone=alone, ai_driven=views._ai_driven(seat),
        deadline=deadline.due_at if deadline is not None and mine is not None and not mine.optional else None,
        subject=None if found is None else TurnSubject(found[0], int(found[1]), found[2]),
        choices=[TurnChoice(seq, kind, by, choice) for seq, kind, by, choice in outbox.choices],
        reminders=_reminder_dms(outbox.reminder_refs, int(seat.user_id or 0)),
        newest_prompt=outbox.newest_prompt,
    )


def _reminder_dms(refs: list[str], user_id: int) -> list[int]:
    """The reminder DMs to this user among reminder delivery refs (``dm:<user>:<message>;...``)."""
    found = []
    for ref in refs:
        for part in ref.removeprefix(DM_REFS).split(";") if ref.startswith(DM_REFS) else []:
            user, _, message = part.partition(":")
            if user == str(user_id) and message.isdigit():
                found.append(int(message))
    return found
