"""aiosqlite connections for the SQLite store: each stopped at most once, each statement one trip
to its thread.

SQLAlchemy terminates a pooled connection whose checkout was cancelled (a worker stopped at
shutdown, a request abandoned): it starts a graceful close, shielded, and when its own caller is
cancelled it also stops the connection's thread at once. aiosqlite 0.22's close then asks the
thread to stop a second time and waits for an answer from a thread that has already ended: that
task never finishes, and the event loop's shutdown (asyncio.run, or a test's) waits on it for
ever. A connection here sends its stop once; the second request returns at once.

Every call to an aiosqlite connection is a trip to its thread and back to the event loop, and
SQLAlchemy's adapter made four for each statement (open a cursor, execute, fetch, close): the
trips cost more CPU than SQLite's own work for a submit's statements. A cursor here runs its
statement, reads every row and closes in one trip (`BufferedCursor`); SQLAlchemy reads every
row of a statement at once anyway. A rollback with no transaction open (the pool's, of every
connection given back after a commit) makes no trip.

Most statements make no trip at all (`OnceStopped._execute`): a statement that cannot wait for
a lock runs at once on the event loop's thread, where a trip would have cost more CPU than
SQLite's own work. In WAL mode a reader never waits, and a transaction that holds the write lock
never waits either: so a deferred BEGIN, a rollback and the statements of a transaction that
already holds the lock run in place (reads outside one too, except on the store's read
connections: see `OnceStopped.reads_in_place`). What may wait goes to the thread: BEGIN IMMEDIATE (another
process may hold the lock; it rides along with the transaction's first statement, one trip for
both), COMMIT (now and then a checkpoint; and its fsync, where the store does not sync the log
after the write turn itself: db/durability.py), PRAGMAs, and anything while a trip is
still under way (a caller cancelled mid-trip must not have its statement overlap the next)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
import weakref
from collections import deque
from collections.abc import Generator, Iterable, Sequence
from typing import Any, cast

import aiosqlite
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_connection, AsyncAdapt_aiosqlite_cursor
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util.concurrency import await_

Outcome = tuple[list[Any], Any, int, int | None]
"""What one statement brings back: (rows, description, rowcount, lastrowid)."""


class OnceStopped(aiosqlite.Connection):
    _stop_sent = False

    def stop(self) -> asyncio.Future[Any] | None:
        if self._stop_sent:
            return None
        self._stop_sent = True
        return super().stop()

    _in_transaction = True
    """Whether SQLite had a transaction open when the last call ended; True while not known
    (before the first call, during one, after one that failed)."""
    _sent = 0
    """Calls sent to the thread (counted on the event loop's thread)."""
    _finished = 0
    """Calls the thread has finished (counted on the thread): none is under way when equal."""
    _locked = False
    """Whether this connection's transaction holds the database's write lock."""
    _begin: str | None = None
    """A BEGIN IMMEDIATE not yet sent: it goes with the next statement, in the same trip."""
    _waits = True
    """Whether SQLite's busy wait is on (``BUSY_TIMEOUT_MS``, as the connection opens) rather than
    off. A writer that begins in place turns it off for its BEGIN IMMEDIATE and leaves it off:
    what it runs in place after (in its transaction, holding the lock) waits for nothing, and
    whatever may wait turns it back on first (`_waiting`): an uncontended write transaction sends
    no PRAGMA, where turning it off and on around each BEGIN sent two."""
    begun_outside = False
    """Set while SQLAlchemy is told of a transaction already begun on this connection (db/lean.py
    ``joining``): its begin listener then sends no BEGIN."""
    reads_in_place = True
    """Whether a read outside a write transaction runs in place. The store's read connections
    say no: their reads may be long (the delivery's, a replay's), and on the thread SQLite's work
    runs without the GIL while the event loop acknowledges clicks; the write transaction's own
    reads are short. Even short reads (a few rows by an index) stay on the thread: run in place
    on the read connections they saved 3 % of the bot's CPU an interaction but doubled the
    acknowledgement's p50 (17.6 -> 33.0 ms, docs/benchmarks.md, session 15)."""

    writes_in_place = False
    """Whether a write transaction may begin and commit in place: the store's writer when the
    store syncs the log itself (db/durability.py), so that a COMMIT waits for no disk and the
    log is checkpointed elsewhere (``wal_autocheckpoint`` off). Its BEGIN IMMEDIATE is tried in
    place without a busy wait; only when another process holds the write lock does it go to the
    thread and wait there; a write on its own (autocommit) likewise. A whole write transaction
    then runs in one turn of the event loop, holding the process's write turn for its CPU
    alone, not for two trips to the thread and whatever the loop ran meanwhile."""

    def in_place(self, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The call's value when it cannot wait for a lock (see the module's docstring), run at
        once on this thread; ``TRIP`` when it must go to the connection's thread."""
        if self._sent != self._finished or self._connection is None:
            return TRIP
        if fn is run_statement:  # a statement (most calls): asked about first
            if self.writes_in_place and self._begin is not None and not self._began_here():
                return TRIP  # another process writes: the BEGIN waits on the thread
            sql: str = args[1]
            word = _first_word(sql)
            if word == "BEGIN" and sql.split(None, 2)[1:2] == ["IMMEDIATE"]:
                self._begin, self._in_transaction = sql, True
                return _NOTHING
            if self.writes_in_place and self._begin is None and not self._in_transaction and word in _ALONE:
                return self._alone_in_place(fn, args, kwargs)
            if self._begin is None and (word == "BEGIN" or (self._locked and word in _WRITES)):
                return self._in_place(fn, args, kwargs)
            if self._begin is None and word == "SELECT" and self.reads_in_place:
                self._waiting(True)  # a read without the write lock may (rarely, in WAL) wait for one
                return self._in_place(fn, args, kwargs)
            return TRIP
        if self.writes_in_place and self._locked and _named(fn, self._connection, ("commit",)):
            return self._in_place(fn, args, kwargs)
        if self._begin is not None and _named(fn, self._connection, ("commit", "rollback")):
            self._begin, self._in_transaction = None, False  # an empty transaction: nothing to end
            return None
        if _named(fn, self._connection, ("rollback",)):
            return self._in_place(fn, args, kwargs)
        return TRIP

    def _began_here(self) -> bool:
        """Send the held-back BEGIN IMMEDIATE in place, with no busy wait: False (and the BEGIN
        still held back) when another connection holds the write lock."""
        connection = self._connection
        assert connection is not None and self._begin is not None
        if self._without_busy_wait(connection.execute, (self._begin,), {}) is TRIP:
            return False
        self._begin, self._locked, self._in_transaction = None, True, True
        return True

    def _alone_in_place(self, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """A write with no transaction around it (autocommit: its own transaction) run in place
        with no busy wait; ``TRIP`` (nothing written) when another connection holds the write lock."""
        assert self._connection is not None
        return self._without_busy_wait(self._in_place, (fn, args, kwargs), {})

    def _without_busy_wait(self, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """``fn(*args, **kwargs)`` on this thread with SQLite's busy wait off: its value, or ``TRIP``
        (nothing done) when another connection holds the write lock. The wait stays off (see
        ``_waits``)."""
        self._waiting(False)
        try:
            return fn(*args, **kwargs)
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
            return TRIP

    def _waiting(self, on: bool) -> None:
        """SQLite's busy wait on or off for what runs next (a PRAGMA only when that changes it),
        on whichever thread runs the connection's calls now."""
        if self._waits is not on and self._connection is not None:
            self._connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS if on else 0}")
            self._waits = on

    async def _execute(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run ``fn`` in place when it can, else in a trip to the thread."""
        value = self.in_place(fn, args, kwargs)
        if value is not TRIP:
            return value
        begin, self._begin = self._begin, None
        self._in_transaction = True
        self._sent += 1
        value, self._in_transaction = await super()._execute(self._on_thread, begin, fn, args, kwargs)
        return value

    def _in_place(self, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            return fn(*args, **kwargs)
        finally:
            self._after(self._connection)

    def _on_thread(self, begin: str | None, fn: Any, args: tuple[Any, ...],
                   kwargs: dict[str, Any]) -> tuple[Any, bool]:
        """On the thread: the BEGIN waiting (if any), then the call; its value and whether a
        transaction is open after it."""
        connection = self._connection
        try:
            self._waiting(True)  # what goes to the thread may wait for a lock
            if begin is not None and connection is not None:
                connection.execute(begin)
                self._locked = True
            return fn(*args, **kwargs), self._after(connection)
        except BaseException:
            self._after(connection)
            raise
        finally:
            self._finished += 1

    def _after(self, connection: sqlite3.Connection | None) -> bool:
        """Whether a transaction is open now; the write lock goes with it."""
        try:
            open_now = connection is not None and connection.in_transaction
        except sqlite3.ProgrammingError:  # closed by this call
            open_now = False
        if not open_now:
            self._locked = False
        self._in_transaction = open_now
        return open_now

    async def rollback(self) -> None:
        """Roll back, only when a transaction is open: the pool rolls back every connection given
        back to it, mostly just after a commit."""
        if self._in_transaction:
            await super().rollback()

    def cursor(self) -> BufferedCursor:  # type: ignore[override]
        """A cursor that runs each statement to its end at once (see above)."""
        return BufferedCursor(self)


_ALONE = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE"})
"""Writes that may run in place on their own, outside a transaction (``writes_in_place``)."""
BUSY_TIMEOUT_MS = 30_000
"""How long a statement waits for another process's write lock (SQLite's busy wait), on the thread."""

_WRITES = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "SAVEPOINT", "RELEASE", "ROLLBACK"})
"""Statements that wait for nothing once their transaction holds the write lock."""
_NOTHING: Outcome = ([], None, -1, None)
TRIP = object()
"""What `OnceStopped.in_place` answers for a call that must go to the connection's thread."""


_FIRST_WORDS: dict[str, str] = {}
"""Each statement's first word, by its SQL (a prepared statement's is the same string each run)."""
KNOWN_STATEMENTS = 1024
"""Statements whose first word is kept (all forgotten when full: Core's SQL of a varying IN
list is new text each time)."""


def _first_word(sql: str) -> str:
    word = _FIRST_WORDS.get(sql)
    if word is None:
        head = sql.lstrip()[:10].split(None, 1)
        word = head[0].upper() if head else ""
        if len(_FIRST_WORDS) >= KNOWN_STATEMENTS:
            _FIRST_WORDS.clear()
        _FIRST_WORDS[sql] = word
    return word


def _named(fn: Any, connection: sqlite3.Connection | None, names: tuple[str, ...]) -> bool:
    """Whether ``fn`` is one of the connection's own methods ``names``."""
    return connection is not None and getattr(fn, "__self__", None) is connection and getattr(fn, "__name__", "") in names


def run_statement(connection: OnceStopped, sql: str, parameters: Any, many: bool) -> Outcome:
    """The statement run, all its rows read, its cursor closed."""
    cursor = connection._conn.cursor()
    try:
        if many:
            cursor.executemany(sql, parameters)
        else:
            cursor.execute(sql, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description is not None else []
        return rows, description, cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


class BufferedCursor:
    """An aiosqlite cursor whose ``execute`` runs the statement, reads its rows and closes the
    SQLite cursor in one trip to the connection's thread; fetching and closing then answer from
    the rows read, at once. What a caller sees is what aiosqlite's cursor gives."""

    arraysize = 1

    def __init__(self, connection: OnceStopped) -> None:
        self._connection = connection
        self._rows: deque[Any] = deque()
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None

    def __await__(self) -> Generator[Any, None, BufferedCursor]:
        """``await connection.cursor()`` works as with aiosqlite's own."""
        if False:
            yield
        return self

    async def __aenter__(self) -> BufferedCursor:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> BufferedCursor:
        self._take(await self._connection._execute(run_statement, self._connection, sql,
                                                   () if parameters is None else parameters, False))
        return self

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> BufferedCursor:
        self._take(await self._connection._execute(run_statement, self._connection, sql, parameters, True))
        return self

    def _take(self, outcome: Outcome) -> None:
        rows, self.description, self.rowcount, self.lastrowid = outcome
        self._rows = deque(rows)

    async def fetchone(self) -> Any:
        return self._rows.popleft() if self._rows else None

    async def fetchmany(self, size: int | None = None) -> Sequence[Any]:
        count = self.arraysize if size is None else size
        return [self._rows.popleft() for _ in range(min(count, len(self._rows)))]

    async def fetchall(self) -> Sequence[Any]:
        rows = list(self._rows)
        self._rows.clear()
        return rows

    async def close(self) -> None:
        self._rows.clear()


def connect_once_stopped(database: str, reads_in_place: bool = True, writes_in_place: bool = False,
                         **kwargs: Any) -> OnceStopped:
    """What ``aiosqlite.connect`` makes, as a ``OnceStopped`` (await it to open it). Its thread is a
    daemon, as SQLAlchemy makes aiosqlite's own: a connection never closed cannot keep the
    process alive."""

    def connector() -> sqlite3.Connection:
        # made on the connection's thread, used on the event loop's too (never both at once)
        return sqlite3.connect(database, **{**kwargs, "check_same_thread": False})

    connection = OnceStopped(connector, 64)
    connection.reads_in_place = reads_in_place
    connection.writes_in_place = writes_in_place
    connection._thread.daemon = True
    return connection


class InPlaceCursor(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's cursor over a `BufferedCursor`: a statement that can run in place does so
    without leaving SQLAlchemy's greenlet (its own cursor made three switches to the event loop
    and back a statement, one to open the cursor, one to run it, one to close it: more CPU than
    SQLite's work for most of ours); any other goes the usual way, to the thread."""

    __slots__ = ()

    def _aenter_cursor(self, cursor: Any) -> Any:
        return cursor  # a BufferedCursor has nothing to open

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        return self._statement(operation, () if parameters is None else parameters, False)

    def executemany(self, operation: Any, seq_of_parameters: Any) -> Any:
        return self._statement(operation, seq_of_parameters, True)

    def _statement(self, operation: Any, parameters: Any, many: bool) -> Any:
        connection = cast(OnceStopped, self._connection)
        try:
            outcome = connection.in_place(run_statement, (connection, operation, parameters, many), {})
        except Exception as error:
            self._adapt_connection._handle_exception(error)
        if outcome is TRIP:
            return super().executemany(operation, parameters) if many else super().execute(operation, parameters)
        # The event loop's turn between two statements, as a trip gave: a transaction's Python does
        # not hold the loop from start to end while clicks wait to be acknowledged. (SQLAlchemy's
        # AsyncConnection.execute also insists on one switch: its check that the driver is async.)
        await_(asyncio.sleep(0))
        cursor = cast(BufferedCursor, self._cursor)
        cursor._take(outcome)
        self._rows = deque(cursor._rows) if cursor.description else deque()
        cursor._rows.clear()
        return None

    def close(self) -> None:
        self._rows.clear()  # a BufferedCursor holds nothing else to close


class InPlaceConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's connection over a `OnceStopped`, with `InPlaceCursor`s; its rollback runs at
    once, its commit in a trip (it may wait for the disk), each only when there is something to end."""

    __slots__ = ()
    _cursor_cls = InPlaceCursor

    def rollback(self) -> None:
        self._end("rollback")

    def commit(self) -> None:
        self._end("commit")

    def _end(self, name: str) -> None:
        connection = cast(OnceStopped, self._connection)
        if connection._connection is None or not connection._in_transaction:
            return
        fn = getattr(connection._connection, name)
        try:
            if connection.in_place(fn, (), {}) is TRIP:
                await_(connection._execute(fn))
        except Exception as error:
            self._handle_exception(error)

    @property
    def isolation_level(self) -> str | None:
        return cast("str | None", self._connection.isolation_level)

    @isolation_level.setter
    def isolation_level(self, value: str | None) -> None:
        """Set on the connection's thread, counted as a trip like any other call (SQLAlchemy's
        own setter queues it behind the connection's back)."""
        connection = cast(OnceStopped, self._connection)

        def set_level() -> None:
            if connection._connection is not None:
                connection._connection.isolation_level = value  # type: ignore[assignment]

        try:
            await_(connection._execute(set_level))
        except Exception as error:
            self._handle_exception(error)


def adapted(dbapi: Any, connection: Any) -> InPlaceConnection:
    """The SQLAlchemy connection over an opening `OnceStopped` (in SQLAlchemy's greenlet)."""
    return InPlaceConnection(dbapi, await_(connection))


def _wal(cur: Any, attempts: int = 100) -> None:
    """Switch a new file to WAL. The switch needs the file to itself and SQLite may answer "locked"
    at once, without its busy wait, while another connection opens the same new file (several bot
    processes or stores starting together): try again for up to ~10 s."""
    for attempt in range(attempts):
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as exc:  # the driver's OperationalError
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.1)


def sqlite_setup(engine: AsyncEngine, *, immediate: bool, live: weakref.WeakSet[OnceStopped] | None = None,
                 synced_by_store: bool = False) -> None:
    """WAL, a busy wait, foreign keys, and (for writers) the write lock taken at BEGIN IMMEDIATE;
    each connection opened is kept in ``live`` (weakly) for the store's close. ``synced_by_store``:
    commits do not sync the log; the store syncs it after each write turn (db/durability.py)."""

    def connect(*args: Any, **kwargs: Any) -> OnceStopped:
        connection = connect_once_stopped(*args, **{**kwargs, "reads_in_place": immediate,
                                                    "writes_in_place": synced_by_store})
        if live is not None:
            live.add(connection)
        return connection

    @event.listens_for(engine.sync_engine, "do_connect")
    def _do_connect(dialect: Any, _record: Any, cargs: list[Any], cparams: dict[str, Any]) -> Any:
        # the dialect's own parsing of the URL, our connection class (sqlite_connection.py)
        return adapted(dialect.dbapi, connect(*cargs, **cparams))

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        _wal(cur)
        if synced_by_store:  # the store syncs and checkpoints the log itself (db/durability.py)
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()
        dbapi_conn.isolation_level = None

    begin = "BEGIN IMMEDIATE" if immediate else "BEGIN"

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Straight to the connection (a BEGIN IMMEDIATE waits there to go with the first
        # statement; a deferred BEGIN runs in place), announced to the statement listeners as
        # a Core execution would be: a full execution cost more than the BEGIN itself.
        connection = conn.connection.dbapi_connection._connection
        if connection.begun_outside:
            return  # begun (and announced) already, on the connection itself
        if conn._has_events or conn.engine._has_events:
            conn.dispatch.before_cursor_execute(conn, None, begin, (), None, False)
        try:
            if connection.in_place(run_statement, (connection, begin, (), False), {}) is TRIP:
                await_(connection._execute(run_statement, connection, begin, (), False))
        except sqlite3.Error as error:
            raise sa.exc.DBAPIError.instance(begin, (), error, sqlite3.Error, dialect=conn.dialect) from error
