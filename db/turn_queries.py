"""The SQL behind a seat's turn DM (mixed into the Store): which message holds the seat's turn
(its newest delivered prompt notice), what the seat chose since, the reminder DMs it got, and
the fence that lets one process at a time write the seat's turn DM."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import Choice, Deadline, DeliveryBlock, Match, Notice, Seat
from db.outbox import USER as USER_TARGET
from db.prepared import Reader, begun, prepared, run

log = logging.getLogger(__name__)

TURN_SCAN = 8
"""Prompt notices looked back through to find the newest one a DM holds (a skipped, superseded
one has no message of its own): the statements find it among them (`_message_ref`), and only
its row is read."""


FENCE_WAIT = "20s"
"""How long a writer waits for another process's fence on a seat's turn DM before it writes
without it (a holder never keeps it longer than PostgreSQL lets a transaction idle, 10 s)."""


@dataclass
class FenceHold:
    """What a writer learns of its fence once the block ends: ``kept`` is False when the fence
    was not held throughout (not granted within FENCE_WAIT, or the server ended its transaction
    meanwhile, as it does past 10 s idle). Another process may then have written the seat's turn
    DM between this writer's read and its write: what it wrote may show an older match."""

    kept: bool = True


PROMPT, REMINDER, NEWEST, CHOICE = "p", "r", "n", "c"
"""The parts of `_turn_notices`' rows: a prompt notice of the seat, a reminder, the newest
prompt, a choice of the seat."""


@dataclass(frozen=True)
class TurnNotices:
    """The outbox's part of a seat's turn (``TurnQueries.turn_notices``)."""

    found: tuple[int, str, dict[str, Any]] | None
    """(id, message id, payload) of the prompt notice whose DM holds the seat's turn (see ``turn_notice``)."""
    reminder_refs: list[str]
    """Delivery refs of the match's reminders after that notice, oldest first."""
    newest_prompt: int | None
    """The id of the seat's newest prompt notice, delivered or not."""
    choices: list[tuple[int, str, str, dict[str, Any]]] = field(default_factory=list)
    """(seq, kind, by, choice) of the seat's choices since the prompt of ``found`` opened, oldest
    first (all of them when it has no version)."""


def _version(payload: sa.ColumnElement[Any]) -> sa.ColumnElement[int]:
    """A prompt notice's version (the log position its prompt opened at), -1 when it has none."""
    return sa.func.coalesce(payload["version"].as_integer(), -1)


def _message_ref(ref: sa.ColumnElement[Any]) -> sa.ColumnElement[bool]:
    """Whether a delivery ref is a message id (digits only): a notice delivered into a message
    of its own, not skipped, superseded or parked (refs that name no message)."""
    return sa.and_(ref != "", sa.func.ltrim(ref, "0123456789") == "")  # ltrim(text, characters): both databases


BEFORE_ID, BEFORE_NEWEST = "id", "newest"
"""`_turn_notices`' ``before``: the candidate prompts before notice ``before_id``, or before the
seat's newest prompt notice (the one whose DM is about to be written)."""
LATEST = "x"
"""The part of a next decision's rows (``TurnQueries.match_and_next_turn``): the seat's newest
prompt notice itself, with whether it waits for delivery."""
WAITS, WENT, BLOCKED = "waits", "went", "blocked"
"""What `LATEST`'s row says of that notice: it waits for delivery, it went (delivered or parked),
or it waits but its player's DMs are blocked (delivery parks it)."""


def _seat_user(match_id: sa.BindParameter[int], seat: sa.BindParameter[int]) -> sa.ScalarSelect[Any]:
    """The player of the seat now (as the match rows read beside it say)."""
    seats = Seat.__table__.alias("turn_seat")  # type: ignore[attr-defined]
    return (sa.select(seats.c.user_id).where(seats.c.match_id == match_id, seats.c.seat_no == seat)
            .correlate(None).scalar_subquery())


def _newest_prompt(match_id: sa.BindParameter[int], seat: sa.BindParameter[int]) -> sa.ScalarSelect[Any]:
    """The id of the seat's newest prompt notice (delivered or not)."""
    table = Notice.__table__.alias("newest_prompt")  # type: ignore[attr-defined]
    return (sa.select(sa.func.max(table.c.id))
            .where(table.c.match_id == match_id, table.c.kind == "prompt", table.c.seat == seat)
            .correlate(None).scalar_subquery())


@functools.cache
def _turn_notices(before: str | None, user_from_seat: bool = False) -> sa.CompoundSelect:
    """`match_and_turn`'s part of the outbox, built once for each shape: the prompt notice whose
    DM holds the seat's turn (the newest of its TURN_SCAN newest candidates a message holds:
    `_message_ref`), the reminders after it, the seat's newest prompt notice, and the
    seat's choices since that DM's prompt (rows: id, part, seat, ref, payload, by). The player
    is the parameter ``user_id``, or with ``user_from_seat`` the seat's player now. Before
    `BEFORE_NEWEST`, a row of part `LATEST` gives that newest notice's payload and whether it waits.
    The held notice is a common table expression: found once, whatever the parts that ask."""
    table = Notice.__table__  # type: ignore[attr-defined]
    match_id: sa.BindParameter[int] = sa.bindparam("match_id")
    seat: sa.BindParameter[int] = sa.bindparam("seat")
    user = _seat_user(match_id, seat) if user_from_seat else sa.bindparam("user_id")
    no_seat = sa.type_coerce(sa.null(), table.c.seat.type)
    no_by = sa.type_coerce(sa.null(), Choice.__table__.c.by.type)  # type: ignore[attr-defined]

    def prompts(notices: sa.TableClause) -> list[sa.ColumnElement[bool]]:
        """The candidates among ``notices``: the seat's prompt notices delivered to its player."""
        where = [notices.c.match_id == match_id, notices.c.kind == "prompt", notices.c.seat == seat,
                 notices.c.delivery_ref.is_not(None), notices.c.user_id == user]
        if before == BEFORE_ID:
            where.append(notices.c.id < sa.bindparam("before_id"))
        elif before == BEFORE_NEWEST:
            where.append(notices.c.id < _newest_prompt(match_id, seat))
        return where

    # the newest candidate a message holds, read back to it and no further; it counts when fewer
    # than TURN_SCAN candidates are newer (as the newest held among the TURN_SCAN newest)
    first = (sa.select(table.c.id, table.c.delivery_ref, table.c.payload)
             .where(*prompts(table), _message_ref(table.c.delivery_ref))
             .order_by(table.c.id.desc()).limit(1).subquery("first_held"))
    newer_table = Notice.__table__.alias("newer_prompt")  # type: ignore[attr-defined]
    newer = (sa.select(sa.func.count()).select_from(newer_table)
             .where(*prompts(newer_table), newer_table.c.id > first.c.id).scalar_subquery())
    held = sa.select(*first.c).where(newer < TURN_SCAN).cte("held")
    candidates = (sa.select(table.c.payload).where(*prompts(table))
                  .order_by(table.c.id.desc()).limit(TURN_SCAN).subquery("candidates"))
    found = sa.select(held.c.id, sa.literal(PROMPT).label("part"), no_seat.label("seat"), held.c.delivery_ref,
                      held.c.payload, no_by.label("by"))
    reminders = sa.select(table.c.id, sa.literal(REMINDER), no_seat, table.c.delivery_ref,
                          sa.type_coerce(sa.null(), table.c.payload.type), no_by).where(
        table.c.match_id == match_id, table.c.kind == "reminder", table.c.delivery_ref.is_not(None),
        table.c.id > sa.select(held.c.id).scalar_subquery())
    newest = sa.select(sa.func.max(table.c.id), sa.literal(NEWEST), no_seat,
                       sa.type_coerce(sa.null(), table.c.delivery_ref.type),
                       sa.type_coerce(sa.null(), table.c.payload.type), no_by).where(
        table.c.match_id == match_id, table.c.kind == "prompt", table.c.seat == seat)
    # since the held DM's prompt (all of them when it has no version); with none held, since the
    # oldest candidate's (all of them before the seat's first DM)
    since = sa.func.coalesce(sa.select(_version(held.c.payload)).scalar_subquery(),
                             sa.select(sa.func.min(_version(candidates.c.payload))).scalar_subquery(), -1)
    choices = Choice.__table__  # type: ignore[attr-defined]
    chosen = sa.select(choices.c.seq, sa.literal(CHOICE), no_seat, choices.c.kind, choices.c.payload, choices.c.by).where(
        choices.c.match_id == match_id, choices.c.seat == seat, choices.c.seq > since)
    parts: list[sa.Select[Any]] = [found, reminders, newest, chosen]
    if before == BEFORE_NEWEST:
        blocks = DeliveryBlock.__table__  # type: ignore[attr-defined]
        blocked = sa.exists().where(blocks.c.match_id == match_id, blocks.c.target_kind == USER_TARGET,
                                    blocks.c.target_id == table.c.user_id)
        state = sa.case((sa.or_(table.c.delivered_at.is_not(None), table.c.parked_reason.is_not(None)), WENT),
                        (blocked, BLOCKED), else_=WAITS)
        parts.append(sa.select(table.c.id, sa.literal(LATEST), no_seat, sa.type_coerce(state, table.c.delivery_ref.type),
                               table.c.payload, no_by)
                     .where(table.c.id == _newest_prompt(match_id, seat)))
    return sa.union_all(*parts)


@functools.cache
def _match_turn_notices() -> sa.CompoundSelect:
    """`match_turn_notices`' statement, built once: `_turn_notices` for every seat of the match
    at once (the prompt notice whose DM holds each seat's turn, to its player now; the reminders
    after the oldest of those; each seat's newest prompt; the choices of each seat with such a
    DM since its prompt), each row with its seat and user."""
    table = Notice.__table__  # type: ignore[attr-defined]
    choices = Choice.__table__  # type: ignore[attr-defined]
    seats = Seat.__table__.alias("held_seat")  # type: ignore[attr-defined]
    match_id: sa.BindParameter[int] = sa.bindparam("match_id")
    no_by = sa.type_coerce(sa.null(), choices.c.by.type)
    no_user = sa.type_coerce(sa.null(), table.c.user_id.type)
    rank = sa.func.row_number().over(partition_by=(table.c.seat, table.c.user_id), order_by=table.c.id.desc())
    ranked = (sa.select(table.c.id, table.c.seat, table.c.user_id, table.c.delivery_ref, table.c.payload,
                        rank.label("rank"))
              .where(table.c.match_id == match_id, table.c.kind == "prompt", table.c.delivery_ref.is_not(None))
              .subquery("ranked"))
    pick = sa.func.row_number().over(partition_by=ranked.c.seat, order_by=ranked.c.id.desc())
    messages = (sa.select(ranked.c.id, ranked.c.seat, ranked.c.user_id, ranked.c.delivery_ref, ranked.c.payload,
                          pick.label("pick"))
                .select_from(ranked.join(seats, sa.and_(seats.c.match_id == match_id, seats.c.seat_no == ranked.c.seat,
                                                        seats.c.user_id == ranked.c.user_id)))
                .where(ranked.c.rank <= TURN_SCAN, _message_ref(ranked.c.delivery_ref))
                .subquery("messages"))
    held = sa.select(*(column for column in messages.c if column.key != "pick")).where(messages.c.pick == 1).cte("held")
    found = sa.select(held.c.id, sa.literal(PROMPT).label("part"), held.c.seat, held.c.user_id, held.c.delivery_ref,
                      held.c.payload, no_by.label("by"))
    reminders = sa.select(table.c.id, sa.literal(REMINDER), sa.type_coerce(sa.null(), table.c.seat.type),
                          no_user, table.c.delivery_ref,
                          sa.type_coerce(sa.null(), table.c.payload.type), no_by).where(
        table.c.match_id == match_id, table.c.kind == "reminder", table.c.delivery_ref.is_not(None),
        table.c.id > sa.select(sa.func.min(held.c.id)).scalar_subquery())
    newest = (sa.select(sa.func.max(table.c.id), sa.literal(NEWEST), table.c.seat, no_user,
                        sa.type_coerce(sa.null(), table.c.delivery_ref.type), sa.type_coerce(sa.null(), table.c.payload.type),
                        no_by)
              .where(table.c.match_id == match_id, table.c.kind == "prompt").group_by(table.c.seat))
    oldest = sa.select(sa.func.min(_version(held.c.payload))).scalar_subquery()
    since = sa.select(_version(held.c.payload)).where(held.c.seat == choices.c.seat).scalar_subquery()
    chosen = sa.select(choices.c.seq, sa.literal(CHOICE), choices.c.seat, no_user, choices.c.kind, choices.c.payload,
                       choices.c.by).where(  # none of a seat without a DM
        choices.c.match_id == match_id, choices.c.seq > oldest, choices.c.seq > since)
    return sa.union_all(found, reminders, newest, chosen)


Chosen = tuple[int, str, str, dict[str, Any]]
"""(seq, kind, by, choice): one choice of a seat in the log."""


def _found(prompts: list[tuple[int, str, dict[str, Any]]], reminders: list[tuple[int, str]],
           newest: int | None, chosen: list[Chosen]) -> TurnNotices:
    """A seat's `TurnNotices` from the prompt notice whose DM holds its turn (none or one, as
    the statement found it), the match's reminders and the seat's choices read: the reminders
    and choices after that notice."""
    found = max(prompts, key=lambda prompt: prompt[0], default=None)
    refs = [ref for notice_id, ref in sorted(reminders) if found is not None and notice_id > found[0]]
    version = None if found is None else found[2].get("version")
    since = -1 if version is None else int(version)
    return TurnNotices(found, refs, newest, sorted(c for c in chosen if c[0] > since))


def _seat_notices(rows: Sequence[Sequence[Any]]) -> tuple[TurnNotices, tuple[int, str, dict[str, Any]] | None]:
    """A seat's `TurnNotices` from `_turn_notices`' rows, and its `LATEST` row (id, state,
    payload) when there is one."""
    newest = None
    latest = None
    reminders: list[tuple[int, str]] = []
    prompts: list[tuple[int, str, dict[str, Any]]] = []
    chosen: list[Chosen] = []
    for notice_id, part, _seat, ref, payload, by in rows:
        if part == NEWEST:
            newest = None if notice_id is None else int(notice_id)
        elif part == REMINDER:
            reminders.append((int(notice_id), str(ref)))
        elif part == CHOICE:
            chosen.append((int(notice_id), str(ref), str(by), dict(payload)))
        elif part == LATEST:
            latest = (int(notice_id), str(ref), dict(payload))
        else:
            prompts.append((int(notice_id), str(ref), dict(payload)))
    return _found(prompts, reminders, newest, chosen), latest


def _match_notices(rows: Sequence[Sequence[Any]], users: dict[int, int]) -> dict[int, TurnNotices]:
    """Each held seat's `TurnNotices` (``users``: seat -> its player now) from
    `_match_turn_notices`' rows; a seat whose DM is not found has no choices (its DM shows nothing)."""
    newest: dict[int, int] = {}
    reminders: list[tuple[int, str]] = []
    prompts: dict[int, list[tuple[int, str, dict[str, Any]]]] = {seat: [] for seat in users}
    chosen: dict[int, list[Chosen]] = {seat: [] for seat in users}
    for notice_id, part, seat, user_id, ref, payload, by in rows:
        if part == NEWEST:
            if notice_id is not None and seat is not None:
                newest[int(seat)] = int(notice_id)
        elif part == REMINDER:
            reminders.append((int(notice_id), str(ref)))
        elif part == CHOICE:
            if int(seat) in chosen:
                chosen[int(seat)].append((int(notice_id), str(ref), str(by), dict(payload)))
        elif seat is not None and users.get(int(seat)) == user_id:
            prompts[int(seat)].append((int(notice_id), str(ref), dict(payload)))
    found = {seat: _found(prompts[seat], reminders, newest.get(seat), chosen[seat]) for seat in users}
    return {seat: turn if turn.found is not None else replace(turn, choices=[]) for seat, turn in found.items()}


def _aggregated(union: sa.CompoundSelect, dialect: str) -> sa.ScalarSelect[Any]:
    """The rows of ``union`` as one JSON array of arrays: a column of the match rows' statement,
    so the match and the outbox's part of its turns are one read (one snapshot, no BEGIN). It
    comes as text, parsed once (`_parsed`): the statement has a row per seat, each with it."""
    rows = union.subquery("turn_rows")
    if dialect == "postgresql":
        value: sa.ColumnElement[Any] = sa.cast(sa.func.json_agg(sa.func.json_build_array(*rows.c)), sa.Text())
    else:  # the payloads are JSON text on SQLite: json() embeds them as JSON, not as strings
        value = sa.type_coerce(sa.func.json_group_array(sa.func.json_array(
            *(sa.func.json(column) if column.key == "payload" else column for column in rows.c))), sa.Text())
    return sa.select(value).correlate(None).scalar_subquery()


def _parsed(aggregated: str | None) -> list[list[Any]]:
    """The rows `_aggregated` gave (none: PostgreSQL's json_agg of no row is NULL)."""
    return json.loads(aggregated) if aggregated else []


@functools.cache
def _turn_columns(dialect: str, before: str | None) -> Callable[[], Sequence[Any]]:
    """The column `match_and_turn` adds to the match rows (one builder per shape: the prepared
    statement is kept by it)."""
    return lambda: [_aggregated(_turn_notices(before, user_from_seat=True), dialect)]


@functools.cache
def _turns_columns(dialect: str) -> Callable[[], Sequence[Any]]:
    """The column `match_and_turns` adds to the match rows."""
    return lambda: [_aggregated(_match_turn_notices(), dialect)]


class TurnQueries:
    """Reads of one seat's turn (or all of a match's), each in the caller's session; the seats' fences."""

    engine: AsyncEngine
    dialect: str
    took: Callable[[Sequence[tuple[Any, ...]]], None]
    match_rows_and: Callable[[Reader, int, Callable[[], Sequence[Any]], dict[str, Any]], Awaitable[
        tuple[Match, list[Seat], Deadline | None, tuple[Any, ...]] | None]]
    _fences: asyncio.Semaphore | None = None

    @asynccontextmanager
    async def seat_fence(self, match_id: int, seat: int) -> AsyncIterator[FenceHold]:
        """Hold the seat's turn DM against every other process while reading the match and
        writing the DM: a PostgreSQL advisory lock on (match, seat) in a transaction of its own,
        held until the block ends (the two-key lock space; the single-key one is the migrations').
        A paused holder loses it when the server ends its idle transaction; the ``FenceHold``
        says afterwards whether it was held throughout. On SQLite, one process has the
        database: its own per-seat lock (bot/discord/seat_turns.py) is enough. At most half the
        pool holds fences at once, so the reads and writes done under them always find a
        connection."""
        async with self.seats_fence(match_id, [seat]) as hold:
            yield hold

    @asynccontextmanager
    async def seats_fence(self, match_id: int, seats: list[int]) -> AsyncIterator[FenceHold]:
        """``seat_fence`` on several seats of a match at once, on one connection, taken in seat
        order (as every holder of several takes them: none waits in a circle)."""
        hold = FenceHold()
        if self.dialect != "postgresql":
            yield hold
            return
        if self._fences is None:
            size = getattr(self.engine.pool, "size", lambda: 2)()
            self._fences = asyncio.Semaphore(max(1, int(size) // 2))
        async with self._fences, self.engine.connect() as connection:
            try:
                await connection.execute(sa.text(f"SET LOCAL lock_timeout = '{FENCE_WAIT}'"))
                for seat in sorted(set(seats)):
                    await connection.execute(sa.text("SELECT pg_advisory_xact_lock(:match_id, :seat)"),
                                             {"match_id": match_id, "seat": seat})
            except sa.exc.DBAPIError as exc:
                log.warning("no fence on the turn DMs of match %s seats %s within %s; writing without it: %s",
                            match_id, seats, FENCE_WAIT, type(exc).__name__)
                hold.kept = False
                await connection.rollback()
            try:
                yield hold
            finally:
                try:
                    # Ends the transaction, and the locks with it. It ends without error only if
                    # the transaction lived on: then the locks were held all along.
                    await connection.rollback()
                except sa.exc.DBAPIError as exc:  # the server ended it (held past its idle time)
                    log.info("the fence on match %s seats %s had ended: %s", match_id, seats, type(exc).__name__)
                    hold.kept = False
                    await connection.invalidate()

    async def turn_notice(
        self, session: AsyncSession, match_id: int, seat: int, before_id: int | None = None,
        user_id: int | None = None,
    ) -> tuple[int, str, dict[str, Any]] | None:
        """(id, message id, payload) of the seat's newest prompt notice delivered into a message
        (before ``before_id`` when given; to ``user_id``'s DMs when given, as a seat that changed
        hands has had the DMs of several players): the DM that holds the seat's turn."""
        stmt = select(col(Notice.id), col(Notice.delivery_ref), col(Notice.payload)).where(
            col(Notice.match_id) == match_id, col(Notice.kind) == "prompt", col(Notice.seat) == seat,
            col(Notice.delivery_ref).is_not(None))
        if user_id is not None:
            stmt = stmt.where(col(Notice.user_id) == user_id)
        if before_id is not None:
            stmt = stmt.where(col(Notice.id) < before_id)
        rows = (await session.exec(stmt.order_by(col(Notice.id).desc()).limit(TURN_SCAN))).all()
        for notice_id, ref, payload in rows:
            if ref is not None and str(ref).isdigit():
                return int(notice_id or 0), str(ref), dict(payload)
        return None

    async def match_and_turn(self, session: Reader, match_id: int, seat: int, before_id: int | None = None,
                             ) -> tuple[Match, list[Seat], Deadline | None, TurnNotices] | None:
        """The match rows (`match_rows`) and what the seat's turn DM needs of the outbox, in one
        statement (a read of one statement needs no BEGIN): the prompt notice whose DM holds the
        seat's turn (its player's now; before ``before_id`` when given), the refs of the reminders
        written after it, the seat's newest prompt notice (a prompt about to be delivered that
        is not the newest must not edit the DM the newest one will), and the seat's choices since
        that DM's prompt (all of them when there is none). None: no such match."""
        connection = await begun(session)
        shape = BEFORE_ID if before_id is not None else None
        found = await self.match_rows_and(connection, match_id, _turn_columns(connection.dialect.name, shape),
                                          {"seat": seat, "before_id": before_id})
        if found is None:
            return None
        match, seats, deadline, (rows,) = found
        return match, seats, deadline, _seat_notices(_parsed(rows))[0]

    async def match_and_next_turn(self, session: Reader, match_id: int, seat: int) -> tuple[
            Match, list[Seat], Deadline | None, TurnNotices, tuple[int, str, dict[str, Any]] | None] | None:
        """`match_and_turn` before the seat's newest prompt notice, and that notice: (id, whether it
        waits for delivery (`WAITS`, `WENT`, `BLOCKED`), payload), None when the seat has none.
        One statement: what a click's answer needs to show the decision its choice led to."""
        connection = await begun(session)
        found = await self.match_rows_and(connection, match_id, _turn_columns(connection.dialect.name, BEFORE_NEWEST),
                                          {"seat": seat})
        if found is None:
            return None
        match, seats, deadline, (rows,) = found
        turn, latest = _seat_notices(_parsed(rows))
        return match, seats, deadline, turn, latest

    async def match_and_turns(self, session: Reader, match_id: int,
                              ) -> tuple[Match, list[Seat], Deadline | None, dict[int, TurnNotices]] | None:
        """The match rows and `match_and_turn`'s part of every seat a player holds, in one
        statement whatever the seats (seat -> its part; a seat whose DM is not found has no
        choices: its DM shows nothing)."""
        connection = await begun(session)
        found = await self.match_rows_and(connection, match_id, _turns_columns(connection.dialect.name), {})
        if found is None:
            return None
        match, seats, deadline, (rows,) = found
        users = {s.seat_no: int(s.user_id) for s in seats if s.user_id is not None}
        return match, seats, deadline, _match_notices(_parsed(rows), users)

    async def claim_prompt_message(self, session: Reader, notice_id: int, message_id: str) -> bool:
        """The seat answered its prompt on DM ``message_id`` before that prompt's notice was
        marked delivered (the delivery stopped between the send and the mark): the message is
        the notice's (``notice_id``, found by the match transaction's first read:
        `claimable_prompt`), so its delivery, whatever it finds then, records it and a later
        prompt edits it instead of sending another. True when the notice took the ref."""
        connection = await begun(session)
        result = await run(connection, prepared(_claim_found, connection.dialect, _claim_found),
                           {"notice_id": notice_id, "message_id": message_id})
        return result.rowcount > 0

    async def claim_prompt_message_of(self, session: Reader, match_id: int, user_id: int, message_id: str) -> int | None:
        """`claim_prompt_message` of the notice `claimable_prompt` finds for ``user_id``'s seat,
        in the same statement (a transaction that did not read it: on kept rows); the id of the
        notice that took the ref, None when none did."""
        connection = await begun(session)
        result = await run(connection, prepared(_claim_any, connection.dialect, _claim_any),
                           {"match_id": match_id, "claim_user": user_id, "message_id": message_id})
        self.took([row[1:] for row in result.rows])
        return int(result.rows[0][0]) if result.rows else None


def claimable_prompt(of_match: Any = None) -> sa.ScalarSelect[Any]:
    """The id of the oldest undelivered, unclaimed prompt notice of the seat of user
    ``claim_user`` in the match read (``Match.id``; ``of_match``: that match id instead, a
    statement of its own) whose prompt is the seat's open one (its version): what the seat's
    click on a DM claims (`claim_prompt_message`). A column of the match transaction's first
    read: most clicks find none and send no statement for it."""
    table = Notice.__table__  # type: ignore[attr-defined]
    matches = Match.__table__  # type: ignore[attr-defined]
    match_id = matches.c.id if of_match is None else of_match
    seats = Seat.__table__.alias("claim_seat")  # type: ignore[attr-defined]
    users = Seat.__table__.alias("claim_users")  # type: ignore[attr-defined]
    first_seat = (sa.select(sa.func.min(users.c.seat_no))  # the user's seat, as `MatchTransaction.seat_of` finds it
                  .where(users.c.match_id == match_id, users.c.user_id == sa.bindparam("claim_user")))
    found = (sa.select(sa.func.min(table.c.id))
             .select_from(table.join(seats, sa.and_(seats.c.match_id == table.c.match_id, seats.c.seat_no == table.c.seat)))
             .where(table.c.match_id == match_id, seats.c.seat_no == (
                 first_seat.correlate(matches) if of_match is None else first_seat).scalar_subquery(),
                    table.c.kind == "prompt", table.c.delivered_at.is_(None), table.c.delivery_ref.is_(None),
                    _version(table.c.payload) == seats.c.prompt_version))
    return (found.correlate(matches) if of_match is None else found).scalar_subquery()


@functools.cache
def _claim_any() -> sa.Update:
    """`claim_prompt_message_of`'s statement: `_claim_found` of the notice `claimable_prompt` finds."""
    table = Notice.__table__  # type: ignore[attr-defined]
    claimable = claimable_prompt(sa.bindparam("match_id", type_=sa.Integer()))
    return (sa.update(table).where(table.c.id == claimable, table.c.delivery_ref.is_(None))
            .values(delivery_ref=sa.bindparam("message_id")).returning(table.c.id, table.c.match_id, table.c.kind,
                                                                       table.c.key))


@functools.cache
def _claim_found() -> sa.Update:
    """`claim_prompt_message`'s statement."""
    table = Notice.__table__  # type: ignore[attr-defined]
    return (sa.update(table).where(table.c.id == sa.bindparam("notice_id"), table.c.delivery_ref.is_(None))
            .values(delivery_ref=sa.bindparam("message_id")))
