"""Transactions without an AsyncSession, for the hot statements that need no ORM row.

A transaction through the store's ``read()`` or ``write()`` pays for an AsyncSession, its
transaction object, a pool checkout and return, and greenlet trips into SQLAlchemy to begin and
to commit: about 270 µs of CPU around a statement of 20 µs (benchmarks/statement_routes.py), and
the delivery makes several a click. The statements of db/prepared.py need none of it: they run
on a SQLAlchemy ``Connection``'s DB-API connection. So on SQLite the store keeps its connections
checked out (one writer, a few readers) and a transaction here is only its statements: BEGIN
(announced to the listeners, sent by the connection itself, see db/sqlite_connection.py), the
prepared statements, COMMIT or a rollback. What the store's sessions keep, this keeps too: the
process's one queue of writers (``Store.writer``) and ``StoreBusy`` past ``wait_seconds``, BEGIN
IMMEDIATE, SQLAlchemy's errors, and the statement and commit listeners (tests and benchmarks
count through them). On PostgreSQL (and SQLite without the queue) a transaction is a plain
AsyncConnection's, without a session: its row locks and the version check stay as they are.

``read_once`` is a read of one statement with no transaction around it: on SQLite a lone SELECT
in autocommit is its own snapshot (no BEGIN, no end), which only the caller can know is enough.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from db.durability import LogSync
from db.sqlite_connection import OnceStopped, run_statement

WAIT_SECONDS = 10.0
"""How long a transaction waits for its connection or its write turn before ``StoreBusy``: an
overloaded bot tells a player so in seconds instead of leaving them at "thinking" for half a minute."""

KEPT_READERS = 4
"""Read connections the store keeps checked out for ``lean_read`` and ``read_once`` (more at once
are checked out and given back)."""


class StoreBusy(Exception):
    """The database did not give a connection (or, on SQLite, the one write turn) within the
    store's ``wait_seconds``: nothing was read or written; the caller may try again later."""


@asynccontextmanager
async def busy_after(seconds: float) -> AsyncIterator[None]:
    """A pool that gave no connection within ``seconds`` (SQLAlchemy's pool timeout) becomes
    StoreBusy. The connection is taken at the session's first statement, so nothing was done yet."""
    try:
        yield
    except sa.exc.TimeoutError as exc:
        raise StoreBusy(f"no database connection within {seconds:g} s") from exc


def _announce(sync: Connection, sql: str) -> None:
    """Tell the statement listeners, as a Core execution would (see db/prepared.py)."""
    if (sync._has_events or sync.engine._has_events) and (listeners := sync.dispatch.before_cursor_execute):
        listeners(sync, None, sql, (), None, False)


def _raw(sync: Connection) -> OnceStopped:
    return sync.connection.dbapi_connection._connection  # type: ignore[union-attr]


def _raw_as_is(sync: Connection) -> OnceStopped | None:
    """The raw connection without SQLAlchemy's revalidation, which refuses a connection whose
    transaction a cancelled statement invalidated (PendingRollbackError): that is just the one
    a discard must still stop."""
    fairy = getattr(sync, "_dbapi_connection", None)
    adapted = getattr(fairy, "dbapi_connection", None)
    return getattr(adapted, "_connection", None)


def _usable(held: AsyncConnection) -> bool:
    """Whether a kept connection can serve another transaction: not closed, not told to stop,
    and clean (no transaction left open, in SQLAlchemy's eyes or SQLite's, and no trip under
    way: what a caller cancelled mid-trip, or a failed COMMIT, may leave)."""
    sync = held.sync_connection
    if sync is None or sync.closed or sync.invalidated or sync.in_transaction():
        return False
    raw = _raw(sync)
    return (raw._connection is not None and not raw._stop_sent and not raw._in_transaction
            and raw._sent == raw._finished)


async def _discard(held: AsyncConnection) -> None:
    """Stop a kept connection that is not clean (closing it rolls back what it holds, after the
    trip under way, if any) and give its place in the pool back."""
    sync = held.sync_connection
    if sync is not None and not sync.closed:
        raw = _raw_as_is(sync)
        if raw is not None:
            raw.stop()
        with contextlib.suppress(Exception):
            await asyncio.shield(held.invalidate())


async def send_begin(sync: Connection, sql: str) -> None:
    """A BEGIN sent on a kept connection itself, SQLAlchemy keeping no record of a transaction
    (``joining`` makes one when a session must join it): SQLAlchemy's ``begin()`` and its
    ``commit()`` cost more Python than the statements they bracket."""
    await _send(sync, sql)


async def _send(sync: Connection, sql: str) -> None:
    """A BEGIN on the connection itself (in place, or held back to go with the first statement)."""
    _announce(sync, sql)
    raw = _raw(sync)
    try:
        await raw._execute(run_statement, raw, sql, (), False)
    except sqlite3.Error as error:
        raise sa.exc.DBAPIError.instance(sql, (), error, sqlite3.Error, dialect=sync.dialect) from error


async def end_transaction(sync: Connection, name: str, announce: bool = True) -> None:
    """COMMIT (a trip: it may wait for the disk) or a rollback (in place), only when a transaction
    is open; a commit is announced to the ``commit`` listeners as SQLAlchemy's own is (unless
    SQLAlchemy's own follows: ``announce`` False)."""
    raw = _raw(sync)
    connection = raw._connection
    if name == "commit" and announce and (sync._has_events or sync.engine._has_events) and (
            listeners := sync.dispatch.commit):
        listeners(sync)
    if connection is None or not raw._in_transaction:
        return
    try:
        await raw._execute(getattr(connection, name))
    except sqlite3.Error as error:
        raise sa.exc.DBAPIError.instance(name.upper(), (), error, sqlite3.Error, dialect=sync.dialect) from error


async def finish_transaction(sync: Connection, outer: sa.engine.Transaction, session: AsyncSession | None,
                             commit: bool) -> None:
    """End a transaction begun on a kept connection (``outer``, SQLAlchemy's record of it): a
    commit first flushes whatever ``session`` still holds, as a session's commit would; a
    failed commit, or ``commit`` False, rolls back."""
    if not commit:
        await _roll_back(sync, outer)
        return
    try:
        if session is not None and not session.sync_session._is_clean():
            await session.flush()
        await end_transaction(sync, "commit", announce=False)
        if outer.is_active:
            outer.commit()  # SQLAlchemy's bookkeeping and its commit listeners; nothing left to send
    except BaseException:
        with contextlib.suppress(Exception):
            await _roll_back(sync, outer)
        raise


async def _roll_back(sync: Connection, outer: sa.engine.Transaction) -> None:
    await end_transaction(sync, "rollback")
    if outer.is_active:
        outer.rollback()


@asynccontextmanager
async def joined_session(held: AsyncConnection, sessions: async_sessionmaker[AsyncSession],
                         commit: bool) -> AsyncIterator[AsyncSession]:
    """A session in a transaction begun on a kept connection (``commit``: committed at the end,
    else rolled back), which the session joins without owning it: its BEGIN (the engine's begin
    listener, see db/store.py) and its end are sent here, at once or in one trip, instead of in
    greenlet trips through the session's transaction. Whatever the session still holds is
    flushed before the commit, as a session's commit would; the session is closed at the end."""
    sync = held.sync_connection
    assert sync is not None
    outer = sync.begin()  # a clean kept connection: its begin listener sends BEGIN in place, or holds it back
    session = sessions(bind=held, join_transaction_mode="rollback_only")
    try:
        session.sync_session.connection()  # joins the transaction begun: no statement, no trip
        yield session
    except BaseException:
        with contextlib.suppress(Exception):
            await _roll_back(sync, outer)
        raise
    else:
        await finish_transaction(sync, outer, session, commit)
    finally:
        session.sync_session.close()


class RowsWrite:
    """A write transaction whose rows are held outside any session: its statements go straight to
    ``db`` (db/prepared.py, Core), and a session is made only when a step asks for one (the rare
    steps that work with ORM rows of their own: a vote, an undo, a held reminder). Then
    ``on_session`` hands it the rows the transaction holds, so the session sees them as loaded
    (one object a row, its changes written once). On PostgreSQL (and SQLite without the writer
    queue) the session exists from the start and ``db`` is that session, as before."""

    def __init__(self, db: Connection | AsyncSession, make: Callable[[], AsyncSession] | None = None) -> None:
        self._connection = db
        self._make = make
        self._session = db if isinstance(db, AsyncSession) else None
        self.on_session: Callable[[AsyncSession], None] | None = None
        """Called once with the session when it is made (not when it existed from the start)."""

    @property
    def db(self) -> Connection | AsyncSession:
        """Where the transaction's statements run: its connection, or its session once it has
        one (then the session's own rows and statements keep their order with ours)."""
        return self._session if self._session is not None else self._connection

    @property
    def made(self) -> AsyncSession | None:
        """The session, if there is one (asking makes none)."""
        return self._session

    def session(self) -> AsyncSession:
        """The transaction's session, made now if there is none yet (in the same transaction)."""
        if self._session is None:
            assert self._make is not None
            self._session = self._make()
            if self.on_session is not None:
                self.on_session(self._session)
        return self._session


def joining(held: AsyncConnection, sessions: async_sessionmaker[AsyncSession]) -> AsyncSession:
    """A session joined to the transaction begun on ``held`` (no statement, no trip). A
    transaction begun on the connection itself (``_send``, SQLAlchemy knowing nothing of it)
    is first recorded as SQLAlchemy's own, its BEGIN not sent again (see
    `OnceStopped.begun_outside`), so that the session joins it instead of beginning one."""
    sync = held.sync_connection
    assert sync is not None
    if not sync.in_transaction():
        raw = _raw(sync)
        raw.begun_outside = True
        try:
            sync.begin()
        finally:
            raw.begun_outside = False
    session = sessions(bind=held, join_transaction_mode="rollback_only")
    session.sync_session.connection()
    return session


async def finish_rows_write(sync: Connection, session: AsyncSession | None, commit: bool) -> None:
    """End a transaction begun on a kept connection by ``_send`` (``RowsWrite``'s): through
    SQLAlchemy's record of it when a session joined it (``joining``: the session's rows flushed
    first), else straight on the connection, the commit announced to the listeners."""
    outer = sync.get_transaction()
    if outer is not None:
        await finish_transaction(sync, outer, session, commit)
        return
    try:
        await end_transaction(sync, "commit" if commit else "rollback")
    except BaseException:
        if commit:
            with contextlib.suppress(Exception):
                await end_transaction(sync, "rollback")
        raise


class LeanTransactions:
    """The transactions without a session (mixed into the Store, which sets these attributes)."""

    engine: AsyncEngine
    read_engine: AsyncEngine
    dialect: str
    writer: asyncio.Lock | None
    log_sync: LogSync | None
    wait_seconds: float
    _kept_writer: AsyncConnection | None
    _kept_readers: list[AsyncConnection]

    async def _write_turn(self) -> None:
        writer = self.writer
        assert writer is not None
        if not writer.locked() and not getattr(writer, "_waiters", True):
            # free and nobody queued: taken at once, without arming a timer and cancelling it
            await writer.acquire()
            return
        try:
            async with asyncio.timeout(self.wait_seconds):
                await writer.acquire()
        except TimeoutError:
            raise StoreBusy(f"no write turn within {self.wait_seconds:g} s") from None

    async def _checkout(self, engine: AsyncEngine) -> AsyncConnection:
        async with busy_after(self.wait_seconds):
            return await engine.connect()

    @asynccontextmanager
    async def lean_write(self) -> AsyncIterator[Connection]:
        """One write transaction on a connection, without a session: commit on success, roll
        back on any error. For the prepared statements (db/prepared.py ``run``) and Core."""
        if self.writer is None or self.dialect != "sqlite":
            async with busy_after(self.wait_seconds), self.engine.connect() as plain, plain.begin():
                assert plain.sync_connection is not None
                yield plain.sync_connection
            return
        await self._write_turn()
        try:
            sync = (await self.kept_writer()).sync_connection
            assert sync is not None
            await _send(sync, "BEGIN IMMEDIATE")
            try:
                yield sync
            except BaseException:
                await end_transaction(sync, "rollback")
                raise
            await end_transaction(sync, "commit")
        finally:
            await self.after_write()

    @asynccontextmanager
    async def write_once(self) -> AsyncIterator[Connection]:
        """A connection for ONE write statement with no transaction around it: on SQLite a lone
        statement in autocommit is a transaction of its own, written whole or not at all (no
        BEGIN, no COMMIT: one trip instead of two), in the write turn. On PostgreSQL (and SQLite
        without the writer queue), ``lean_write``."""
        if self.writer is None or self.dialect != "sqlite":
            async with self.lean_write() as connection:
                yield connection
            return
        await self._write_turn()
        try:
            sync = (await self.kept_writer()).sync_connection
            assert sync is not None
            yield sync
        finally:
            await self.after_write()

    async def kept_writer(self) -> AsyncConnection:
        """The writer's connection, kept checked out between transactions (the caller holds the
        write turn): a fresh one when the kept one is not clean (see ``_usable``)."""
        held = self._kept_writer
        if held is not None and _usable(held):
            return held
        self._kept_writer = None
        if held is not None:
            await _discard(held)
        held = self._kept_writer = await self._checkout(self.engine)
        return held

    async def after_write(self) -> None:
        """End the write turn; a kept writer left unclean (a COMMIT cancelled or failed mid-trip)
        is stopped now, not at the next write: it may hold the database's write lock. Then, with
        the lock let go, wait until the commit is on the disk (``log_sync``, db/durability.py)."""
        assert self.writer is not None
        held = self._kept_writer
        try:
            if held is not None and not _usable(held):
                self._kept_writer = None
                await _discard(held)
        finally:
            self.writer.release()
            if self.log_sync is not None:
                self.log_sync.ended_turn()
        if self.log_sync is not None:
            await self.log_sync.durable()

    @asynccontextmanager
    async def lean_read(self) -> AsyncIterator[Connection]:
        """One read transaction on a connection, without a session (on SQLite a deferred one on a
        read connection: it blocks no writer), rolled back at its end."""
        if self.dialect != "sqlite":
            async with busy_after(self.wait_seconds), self.read_engine.connect() as plain:
                await plain.begin()  # rolled back as the connection closes: a read commits nothing
                assert plain.sync_connection is not None
                yield plain.sync_connection
            return
        held = await self.kept_reader()
        sync = held.sync_connection
        assert sync is not None
        try:
            await _send(sync, "BEGIN")
            yield sync
        finally:
            await self.give_back(held)

    @asynccontextmanager
    async def read_once(self) -> AsyncIterator[Connection]:
        """A connection for ONE read statement, with no transaction around it (on SQLite a lone
        SELECT in autocommit reads one snapshot of its own; two statements would read two).
        On PostgreSQL, ``lean_read``."""
        if self.dialect != "sqlite":
            async with self.lean_read() as connection:
                yield connection
            return
        held = await self.kept_reader()
        sync = held.sync_connection
        assert sync is not None
        try:
            yield sync
        finally:
            await self.give_back(held)

    async def kept_reader(self) -> AsyncConnection:
        """A read connection the store keeps (a clean one), else one more from the pool."""
        while self._kept_readers:
            held = self._kept_readers.pop()
            if _usable(held):
                return held
        return await self._checkout(self.read_engine)

    async def give_back(self, held: AsyncConnection) -> None:
        """End what is open (in place: a read's rollback waits for nothing) and keep the
        connection, or give it back to the pool past KEPT_READERS or when it is not clean."""
        sync = held.sync_connection
        try:
            if sync is not None and not sync.closed:
                await end_transaction(sync, "rollback")
        except Exception:
            pass  # not clean: discarded below
        if _usable(held) and len(self._kept_readers) < KEPT_READERS:
            self._kept_readers.append(held)
        elif _usable(held):
            await asyncio.shield(held.close())
        else:
            await _discard(held)

    async def close_kept(self) -> None:
        """Give every kept connection back (the store closes)."""
        kept = [*self._kept_readers, *([self._kept_writer] if self._kept_writer is not None else [])]
        self._kept_readers.clear()
        self._kept_writer = None
        for held in kept:
            with contextlib.suppress(Exception):  # stopped with the rest by Store.close
                await held.close()


__all__ = ["KEPT_READERS", "WAIT_SECONDS", "LeanTransactions", "RowsWrite", "end_transaction", "finish_rows_write",
           "joining", "send_begin", "StoreBusy", "busy_after"]
