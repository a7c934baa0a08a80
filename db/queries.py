"""The match-flow SQL of the Store (mixed into it): seats, the choice log, deadlines and the
notice rows the service reads back. The service composes no statement of its own."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession
from sqlmodel.sql.expression import SelectOfScalar

from db.models import (
    OPEN_STATUSES,
    Choice,
    Deadline,
    HeldReminder,
    Match,
    MatchVote,
    Notice,
    Seat,
    Undo,
    UTCDateTime,
    stored_id,
)
from db.prepared import Reader, begun, insert_rows, prepared, run


class MatchQueries:
    """Reads of one match's rows, each in the caller's session."""

    rows_written: list[Callable[[int], None]]
    """Called with a match whose rows (matches, seats, deadlines) this process wrote outside the
    match's transaction: what a service keeps of those rows is no longer the database's
    (``KeptRows``; the bump would find that too, after the work of a transaction)."""

    def wrote_rows_of(self, match_id: int) -> None:
        """Tell ``rows_written`` of a write of the match's rows outside its transaction."""
        for forget in self.rows_written:
            forget(match_id)

    async def seats(self, session: AsyncSession, match_id: int) -> list[Seat]:
        """The match's seats in seat order, fresh from the database (a retried transaction
        must not see the rows of the attempt that failed)."""
        stmt = select(Seat).where(col(Seat.match_id) == match_id).order_by(col(Seat.seat_no))
        return list((await session.exec(stmt.execution_options(populate_existing=True))).all())

    async def open_in_channel(self, session: AsyncSession, channel_id: int) -> Match | None:
        """The open match that holds this channel, if any."""
        return (await session.exec(select(Match).where(col(Match.open_channel) == channel_id))).first()

    async def opening_checks(self, session: AsyncSession, guild_id: int | None, host_id: int, channel_id: int,
                             user_cap: int) -> tuple[int | None, bool, int, int]:
        """What opening a lobby checks first, in one statement instead of four: the id of the
        lobby this host has open on this server (None outside a server), whether an open match
        holds the channel (`open_in_channel`), the server's open matches, lobbies included (0
        outside a server), and the host's, counted up to ``user_cap`` (`open_matches_of`, every
        server)."""
        lobby = (select(sa.func.min(col(Match.id)))
                 .where(col(Match.guild_id) == guild_id, col(Match.host_id) == host_id, col(Match.status) == "lobby")
                 .scalar_subquery())
        held = select(sa.func.count()).select_from(Match).where(col(Match.open_channel) == channel_id).scalar_subquery()
        in_guild = (select(sa.func.count()).select_from(Match)
                    .where(col(Match.guild_id) == guild_id, col(Match.status).in_(OPEN_STATUSES)).scalar_subquery())
        mine = (select(col(Match.id)).join(Seat, col(Seat.match_id) == Match.id)
                .where(col(Seat.user_id) == host_id, col(Match.status).in_(OPEN_STATUSES)).limit(user_cap).subquery())
        of_user = select(sa.func.count()).select_from(mine).scalar_subquery()
        row = (await (await session.connection()).execute(sa.select(lobby, held, in_guild, of_user))).one()
        return (None if guild_id is None or row[0] is None else stored_id(row[0]), bool(row[1]),
                0 if guild_id is None else int(row[2]), int(row[3]))

    async def active_match_ids(self, session: AsyncSession) -> list[int]:
        stmt = select(col(Match.id)).where(col(Match.status) == "active")
        return [stored_id(match_id) for match_id in (await session.exec(stmt)).all()]

    async def first_seat_after(self, session: AsyncSession, match_id: int, seq: int) -> int | None:
        """The seat of the first choice after ``seq`` in the log."""
        stmt = (select(Choice.seat).where(col(Choice.match_id) == match_id, col(Choice.seq) > seq)
                .order_by(col(Choice.seq)).limit(1))
        return (await session.exec(stmt)).first()

    async def newest_public_lines(self, session: AsyncSession, match_id: int, limit: int) -> list[tuple[int, list[str]]]:
        """(seq, public lines) of the newest ``limit`` choices, newest first."""
        stmt = (select(Choice.seq, col(Choice.public)).where(col(Choice.match_id) == match_id)
                .order_by(col(Choice.seq).desc()))
        return [(seq, public) for seq, public in (await session.exec(stmt.limit(limit))).all()]

    async def due_deadlines(self, session: AsyncSession, now: datetime) -> list[Deadline]:
        """Deadlines of active matches whose next reminder or end has come, read by the index on
        fire_at (see `_due_deadlines`)."""
        return list((await session.exec(_due_deadlines(), params={"now": now})).all())

    async def other_tick_work(self, session: AsyncSession, now: datetime, undo_status: str,
                              away_statuses: tuple[str, ...]) -> tuple[bool, bool, bool, bool, bool]:
        """Whether an undo request in ``undo_status`` is past its time, whether a seat of a
        match in ``away_statuses`` is back from its time away, whether a vote to end a match (in
        the same status as the undo) is past its time, whether a paused match's pause is over, and
        whether a reminder held back by quiet hours is due: the idle tick's other questions in one
        statement (each reader then reads its own rows only when there is work)."""
        stmt = _other_tick_work(undo_status, away_statuses)
        row = (await (await session.connection()).execute(stmt, {"now": now})).one()
        return bool(row[0]), bool(row[1]), bool(row[2]), bool(row[3]), bool(row[4])

    async def pauses_over(self, session: AsyncSession, now: datetime) -> list[int]:
        """Paused matches whose pause ended by ``now``, in id order (by the index on paused_until)."""
        stmt = select(col(Match.id)).where(col(Match.paused_until) <= now, col(Match.status) == "paused")
        return sorted(stored_id(match_id) for match_id in (await session.exec(stmt)).all())

    async def first_delivery_ref(self, session: Reader, match_id: int, kind: str) -> str | None:
        """Where the first delivered notice of this kind went (one prepared statement: a read of
        it alone needs no BEGIN)."""
        return await _one(session, _first_delivery_ref, {"match_id": match_id, "kind": kind})

    async def prompt_notice_before(
        self, session: AsyncSession, match_id: int, seat: int, before_id: int
    ) -> tuple[str | None, dict[str, Any]] | None:
        """(delivery ref, payload) of the seat's newest prompt notice before ``before_id``."""
        stmt = (
            select(col(Notice.delivery_ref), col(Notice.payload))
            .where(col(Notice.match_id) == match_id, col(Notice.kind) == "prompt", col(Notice.seat) == seat,
                   col(Notice.id) < before_id)
            .order_by(col(Notice.id).desc())
            .limit(1)
        )
        row = (await session.exec(stmt)).first()
        return None if row is None else (row[0], row[1])

    async def has_notice_key(self, session: Reader, match_id: int, key: str) -> bool:
        return await _one(session, _notice_with_key, {"match_id": match_id, "key": key}) is not None

    async def delivered_since(
        self, session: Reader, match_id: int, kinds: tuple[str, ...], since: datetime
    ) -> list[tuple[str, str, dict[str, Any]]]:
        """(kind, delivery ref, payload) of the delivered notices of these kinds made since then."""
        connection = await begun(session)
        statement = prepared(("delivered_since", kinds), connection.dialect, functools.partial(_delivered_since, kinds))
        rows = (await run(connection, statement, {"match_id": match_id, "since": since})).rows
        return [(kind, ref, payload) for kind, ref, payload in rows if ref is not None]

    async def add_notices(self, session: Reader, rows: list[dict[str, Any]]) -> None:
        """Write outbox notices (column values, in order: their ids keep it) in one statement,
        without an ORM row each: a change writes several, and nothing reads them back before
        the commit."""
        if rows:
            await insert_rows(await begun(session), Notice.__table__, rows)  # type: ignore[attr-defined]

    async def add_marker(self, session: AsyncSession, match_id: int, key: str, kind: str, seat: int | None,
                         now: datetime) -> None:
        """A notice row that only records a fact (delivered at once, nothing to send)."""
        session.add(Notice(match_id=match_id, key=key, kind=kind, seat=seat, payload={}, created_at=now,
                           delivered_at=now, delivery_ref="noted"))

    async def newest_match_in(self, session: AsyncSession, channel_id: int) -> int | None:
        """The newest match run in or opened from this channel, over or not."""
        stmt = (select(Match.id)
                .where(or_(col(Match.channel_id) == channel_id, col(Match.lobby_channel_id) == channel_id))
                .order_by(col(Match.id).desc()).limit(1))
        return (await session.exec(stmt)).first()

    async def open_matches_from(self, session: AsyncSession, lobby_channel_id: int) -> list[Match]:
        """The open matches opened from this channel (each in its thread, or the one in the channel)."""
        stmt = (select(Match)
                .where(col(Match.lobby_channel_id) == lobby_channel_id, col(Match.status).in_(OPEN_STATUSES))
                .order_by(col(Match.id)))
        return list((await session.exec(stmt)).all())

    async def seated_in(self, session: AsyncSession, user_id: int, match_ids: list[int]) -> set[int]:
        """Which of these matches the user holds a seat in."""
        stmt = select(Seat.match_id).where(col(Seat.user_id) == user_id, col(Seat.match_id).in_(match_ids))
        return set((await session.exec(stmt)).all())

    async def open_matches_of(self, session: AsyncSession, user_id: int, guild_id: int | None,
                              limit: int) -> list[int]:
        """The open matches the user holds a seat in (on ``guild_id`` only, unless None), newest first."""
        stmt = (select(col(Match.id)).join(Seat, col(Seat.match_id) == Match.id)
                .where(col(Seat.user_id) == user_id, col(Match.status).in_(OPEN_STATUSES)))
        if guild_id is not None:
            stmt = stmt.where(col(Match.guild_id) == guild_id)
        rows = (await session.exec(stmt.order_by(col(Match.id).desc()).limit(limit))).all()
        return [stored_id(match_id) for match_id in rows]

    async def absences_over(self, session: AsyncSession, now: datetime, statuses: tuple[str, ...]) -> list[int]:
        """Matches in these statuses with a seat whose time away ended by ``now``, in id order.
        The status is asked per seat found (EXISTS), not joined: SQLite would otherwise walk every
        open match's seats by the status index (4.7 ms at 10,000 matches against 1.7 for one
        pass over the seats, which have no index on away_until)."""
        open_match = sa.exists().where(col(Match.id) == Seat.match_id, col(Match.status).in_(statuses))
        stmt = select(Seat.match_id).where(col(Seat.away_until).is_not(None), col(Seat.away_until) <= now, open_match)
        return sorted(set((await session.exec(stmt)).all()))

    async def move_undelivered(self, session: AsyncSession, match_id: int, from_channel: int, to_channel: int) -> None:
        """The match's notices not delivered yet that were for one channel go to another."""
        await (await session.connection()).execute(
            sa.update(Notice)
            .where(col(Notice.match_id) == match_id, col(Notice.delivered_at).is_(None),
                   col(Notice.channel_id) == from_channel)
            .values(channel_id=to_channel))

    async def set_board_message(self, session: Reader, match_id: int, message_id: int | None) -> None:
        """Where the match's status board is; no version bump (it is not a state change of the
        match). One statement: written alone, it needs no BEGIN (``Store.write_once``)."""
        connection = await begun(session)
        await run(connection, prepared(_set_board_message, connection.dialect, _set_board_message),
                  {"match_id": match_id, "message_id": message_id})
        self.wrote_rows_of(match_id)

    async def dm_channel_of(self, session: Reader, match_id: int, seat_no: int, user_id: int) -> int | None:
        """The DM channel stored for the seat while this user holds it (None: not opened yet)."""
        return await _one(session, _dm_channel_of, {"match_id": match_id, "seat_no": seat_no, "user_id": user_id})

    async def set_dm_channel_of(self, session: Reader, match_id: int, seat_no: int, user_id: int,
                                dm_channel_id: int) -> None:
        """Remember the seat's DM channel; no version bump (it is not a state change of the match).
        One statement: written alone, it needs no BEGIN (``Store.write_once``)."""
        connection = await begun(session)
        await run(connection, prepared(_set_dm_channel_of, connection.dialect, _set_dm_channel_of),
                  {"match_id": match_id, "seat_no": seat_no, "user_id": user_id, "dm_channel_id": dm_channel_id})
        self.wrote_rows_of(match_id)


async def _one(session: Reader, build: Callable[[], sa.Select[Any]], values: dict[str, Any]) -> Any:
    """The first column of the first row of the prepared statement ``build`` makes (None: no row)."""
    connection = await begun(session)
    rows = (await run(connection, prepared(build, connection.dialect, build), values)).rows
    return rows[0][0] if rows else None


@functools.cache
def _first_delivery_ref() -> sa.Select[Any]:
    return (sa.select(col(Notice.delivery_ref))
            .where(col(Notice.match_id) == sa.bindparam("match_id"), col(Notice.kind) == sa.bindparam("kind", type_=sa.String()),
                   col(Notice.delivery_ref).is_not(None))
            .order_by(col(Notice.id)).limit(1))


@functools.cache
def _notice_with_key() -> sa.Select[Any]:
    return (sa.select(col(Notice.id))
            .where(col(Notice.match_id) == sa.bindparam("match_id"), col(Notice.key) == sa.bindparam("key", type_=sa.String()))
            .limit(1))


@functools.cache
def _dm_channel_of() -> sa.Select[Any]:
    return sa.select(col(Seat.dm_channel_id)).where(
        col(Seat.match_id) == sa.bindparam("match_id"), col(Seat.seat_no) == sa.bindparam("seat_no"),
        col(Seat.user_id) == sa.bindparam("user_id"))


@functools.cache
def _set_board_message() -> sa.Update:
    return (sa.update(Match).where(col(Match.id) == sa.bindparam("match_id"))
            .values(board_message_id=sa.bindparam("message_id", type_=Match.__table__.c.board_message_id.type)))  # type: ignore[attr-defined]


@functools.cache
def _set_dm_channel_of() -> sa.Update:
    return (sa.update(Seat)
            .where(col(Seat.match_id) == sa.bindparam("match_id"), col(Seat.seat_no) == sa.bindparam("seat_no"),
                   col(Seat.user_id) == sa.bindparam("user_id"))
            .values(dm_channel_id=sa.bindparam("dm_channel_id", type_=Seat.__table__.c.dm_channel_id.type)))  # type: ignore[attr-defined]


@functools.cache
def _due_deadlines() -> SelectOfScalar[Deadline]:
    """Built once: the tick asks every few seconds, and building a statement (and its cache key)
    costs more than SQLite's answer. The match's status is asked per due row (EXISTS), not joined:
    without table statistics SQLite would walk every active match by its status index instead
    (0.8 ms at 10,000 matches against 0.004)."""
    active = sa.exists().where(col(Match.id) == Deadline.match_id, col(Match.status) == "active")
    return select(Deadline).where(col(Deadline.fire_at) <= sa.bindparam("now"), active).order_by(col(Deadline.fire_at))


@functools.cache
def _other_tick_work(undo_status: str, away_statuses: tuple[str, ...]) -> sa.Select[bool, bool, bool, bool, bool]:
    """Built once per statuses, as `_due_deadlines`. Seats have no index on away_until, so the
    second question is one pass over the seats (1.7 ms at 40,000), each found seat's match
    asked by its key."""
    now = sa.bindparam("now", type_=UTCDateTime())
    undo_due = sa.exists().where(col(Undo.status) == undo_status, col(Undo.due_at) <= now)
    open_match = sa.exists().where(col(Match.id) == Seat.match_id, col(Match.status).in_(away_statuses))
    seat_back = sa.exists().where(col(Seat.away_until).is_not(None), col(Seat.away_until) <= now, open_match)
    vote_due = sa.exists().where(col(MatchVote.status) == undo_status, col(MatchVote.due_at) <= now)
    pause_over = sa.exists().where(col(Match.paused_until) <= now, col(Match.status) == "paused")
    held_due = sa.exists().where(col(HeldReminder.send_at) <= now)  # by the index on send_at
    return sa.select(undo_due, seat_back, vote_due, pause_over, held_due)


def _delivered_since(kinds: tuple[str, ...]) -> sa.Select[Any]:
    """`delivered_since`'s statement for these kinds (each a fixed parameter of its own)."""
    table = Notice.__table__  # type: ignore[attr-defined]
    return sa.select(table.c.kind, table.c.delivery_ref, table.c.payload).where(
        table.c.match_id == sa.bindparam("match_id"), sa.or_(*(table.c.kind == kind for kind in kinds)),
        table.c.created_at >= sa.bindparam("since"), table.c.delivery_ref.is_not(None))
