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
connection given back after a commit) makes no trip."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import deque
from collections.abc import Generator, Iterable, Sequence
from typing import Any

import aiosqlite


class OnceStopped(aiosqlite.Connection):
    _stop_sent = False

    def stop(self) -> asyncio.Future[Any] | None:
        if self._stop_sent:
            return None
        self._stop_sent = True
        return super().stop()

    _in_transaction = True
    """Whether SQLite had a transaction open when the last call to the thread ended; True while
    not known (before the first call, during one, after one that failed)."""

    async def _execute(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        self._in_transaction = True
        value, self._in_transaction = await super()._execute(_reporting, self, fn, args, kwargs)
        return value

    async def rollback(self) -> None:
        """Roll back, in a trip to the thread only when a transaction is open: the pool rolls
        back every connection given back to it, mostly just after a commit."""
        if self._in_transaction:
            await super().rollback()

    def cursor(self) -> BufferedCursor:  # type: ignore[override]
        """A cursor that runs each statement to its end in one trip to the thread (see above)."""
        return BufferedCursor(self)


Outcome = tuple[list[Any], Any, int, int | None]
"""What one trip brings back: (rows, description, rowcount, lastrowid)."""


def _reporting(connection: OnceStopped, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, bool]:
    """On the connection's thread: the call's value, and whether a transaction is open after it."""
    value = fn(*args, **kwargs)
    try:
        return value, connection._connection is not None and connection._connection.in_transaction
    except sqlite3.ProgrammingError:  # closed by this call
        return value, False


def _run(connection: OnceStopped, sql: str, parameters: Any, many: bool) -> Outcome:
    """On the connection's thread: the statement run, all its rows read, its cursor closed."""
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
        self._take(await self._connection._execute(_run, self._connection, sql,
                                                   () if parameters is None else parameters, False))
        return self

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> BufferedCursor:
        self._take(await self._connection._execute(_run, self._connection, sql, parameters, True))
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


def connect_once_stopped(database: str, **kwargs: Any) -> OnceStopped:
    """What ``aiosqlite.connect`` makes, as a ``OnceStopped`` (await it to open it). Its thread is a
    daemon, as SQLAlchemy makes aiosqlite's own: a connection never closed cannot keep the
    process alive."""

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(database, **kwargs)

    connection = OnceStopped(connector, 64)
    connection._thread.daemon = True
    return connection
