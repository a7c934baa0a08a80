"""Statements compiled once per dialect and run straight on the DB-API connection of a session.

SQLAlchemy's Core path costs more Python per statement than SQLite's own work for most of ours:
an execution context, a cache key, ``construct_params``, a result object and, for each call from
async code, a greenlet switch into SQLAlchemy and back. The hot statements of the match
transaction and of the delivery are fixed shapes with the same parameters every time, so they
are compiled once (``Prepared``) and run here (``run``) on the session's own connection, in its
transaction: on SQLite on the store's connection (`db/sqlite_connection.py`: in place when the
statement cannot wait for a lock, else one trip to its thread), on PostgreSQL through the
asyncpg connection with the adapter's cache of prepared statements. Parameters go through the
columns' bind processors and result columns through their result processors, so the rows hold
what a Core execution gives (aware datetimes, parsed JSON).

Nothing is hidden from the listeners: every statement run here is announced to SQLAlchemy's
``before_cursor_execute`` listeners of the connection's engine (the statement counters of the
tests and benchmarks), with the SQL and parameters the database gets; errors become
SQLAlchemy's (``IntegrityError`` for a unique key, ...), as from a Core execution.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.compiler import SQLCompiler
from sqlmodel.ext.asyncio.session import AsyncSession as ModelSession

from db.models import UTCDateTime
from db.sqlite_connection import TRIP, OnceStopped, run_statement

Processor = Callable[[Any], Any] | None

_REMEMBERED: dict[tuple[type, str], Callable[[Any], Any]] = {}
"""The one bind processor of each type in ``REMEMBERING`` on each dialect (see ``remembering``)."""
REMEMBERING = (UTCDateTime,)
"""Column types whose parameters are immutable values (aware datetimes) bound the same way in
every column of the type, equal values alike: a transaction binds its one ``now`` many times
(the match's ``updated_at``, each notice's and choice's ``created_at``, a seat's
``prompt_opened_at``, a deadline's ``started_at``), and each conversion (to UTC, naive, then
SQLite's text) costs more than the rest of a statement's parameters."""
REMEMBERED_VALUES = 32
"""Values a remembering processor keeps with their conversions (all forgotten when full: a
transaction's few, and its neighbours')."""


def remembering(type_: Any, dialect: Dialect, processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The processor shared by every column of ``type_``'s class on ``dialect``: ``processor``
    (the first such column's: each does the same), answering for a value equal to one it
    converted lately without converting it again. Equal aware datetimes are the same instant,
    whose conversion is the same; a naive one equals no aware one, and is refused by
    ``processor`` as before."""
    key = (type(type_), dialect.name)
    found = _REMEMBERED.get(key)
    if found is not None:
        return found
    known: dict[Any, Any] = {}

    def process(value: Any) -> Any:
        converted = known.get(value, known)
        if converted is known:
            converted = processor(value)
            if len(known) >= REMEMBERED_VALUES:
                known.clear()
            known[value] = converted
        return converted

    _REMEMBERED[key] = process
    return process


def _processor(type_: Any, dialect: Dialect, processor: Processor) -> Processor:
    """A bind's processor: the shared one remembering its latest values for the types that may."""
    if processor is None or not isinstance(type_, REMEMBERING):
        return processor
    return remembering(type_, dialect, processor)


class Outcome(NamedTuple):
    """What a statement brought back: its rows (result processors applied) and the rows it changed
    (a named tuple: made for every statement, at a third of a frozen dataclass's cost)."""

    rows: list[tuple[Any, ...]]
    rowcount: int


class Prepared:
    """A Core statement compiled for one dialect: its SQL, the order its parameters go in (each
    with its bind processor and the value it holds when the caller gives none) and its result
    columns' processors. Built once per statement and dialect (see ``prepared``)."""

    def __init__(self, statement: sa.ClauseElement, dialect: Dialect, column_keys: Sequence[str] | None = None) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect, column_keys=column_keys))
        names = compiled.positiontup
        if names is None:
            raise ValueError(f"{dialect.name} does not compile positional parameters")
        binds = compiled.binds
        if any(bind.expanding for bind in binds.values()):
            raise ValueError("an expanding (IN) parameter has no fixed SQL: run it through Core")
        processors = cast(dict[str, Processor], compiled._bind_processors)
        self.sql: str = compiled.string
        self.binds: tuple[tuple[str, Processor, Any], ...] = tuple(
            (binds[name].key, _processor(binds[name].type, dialect, processors.get(name)), binds[name].value)
            for name in names)
        self._types = tuple(column.type for column in compiled._result_columns)
        self._active: tuple[tuple[int, Callable[[Any], Any]], ...] | None = None
        """(column, its result processor) of the columns that have one, known at the first run
        (PostgreSQL's depend on the column types the server describes)."""
        self.dialect = dialect

    def parameters(self, values: Mapping[str, Any]) -> list[Any]:
        """The positional parameters for these named values (a name not given: its default), in
        a plain loop: a generator over the binds cost half as much again, for every statement."""
        get = values.get
        out = []
        for key, processor, default in self.binds:
            value = get(key, default)
            if processor is not None and value is not None:
                value = processor(value)
            out.append(value)
        return out

    def processed(self, rows: Sequence[Sequence[Any]], coltypes: Sequence[Any] | None,
                  each_row: range | None = None) -> list[tuple[Any, ...]]:
        """The rows with each column's result processor applied (``coltypes``: the server's type
        of each column, when it says). With ``each_row``, only those columns are processed in
        the rows after the first: the others repeat the first row's values (the one side of a
        join to many rows) and are left as the database gave them, for no caller to read."""
        active = self._active
        if active is None:
            kinds = coltypes if coltypes is not None else [None] * len(self._types)
            active = self._active = tuple(
                (at, processor) for at, (type_, kind) in enumerate(zip(self._types, kinds, strict=True))
                if (processor := cast(Processor, type_._cached_result_processor(self.dialect, kind))) is not None)
        if not active:
            return [tuple(row) for row in rows]
        later = active if each_row is None or len(rows) < 2 else tuple(
            (at, processor) for at, processor in active if at in each_row)
        out: list[tuple[Any, ...]] = []
        for row in rows:
            values = list(row)
            for at, processor in active if not out else later:
                value = values[at]
                if value is not None:
                    values[at] = processor(value)
            out.append(tuple(values))
        return out


_PREPARED: dict[tuple[Any, str], Prepared] = {}


def prepared(key: Any, dialect: Dialect, build: Callable[[], sa.ClauseElement],
             column_keys: Sequence[str] | None = None) -> Prepared:
    """The statement ``build`` makes, compiled for ``dialect`` once and kept under ``key`` (with
    ``column_keys``: the columns an INSERT or UPDATE sets, its parameters named after them, as
    Core compiles a statement for the keys of its parameters)."""
    found = _PREPARED.get((key, dialect.name))
    if found is None:
        found = _PREPARED[(key, dialect.name)] = Prepared(build(), dialect, column_keys)
    return found


_STATUS = re.compile(r"(?:SELECT|UPDATE|DELETE|INSERT \d+) (\d+)")


Reader = ModelSession | Connection
"""Where a store method runs its statements: a session's transaction, or a connection's without
a session (db/lean.py: ``lean_read``, ``lean_write``, ``read_once``)."""


async def begun(session: Reader) -> Connection:
    """The session's connection, its transaction begun: the first call of a transaction begins it
    (the AsyncSession's ``connection()``, a trip into SQLAlchemy's greenlet); the others find it
    held by the transaction, with no trip (a store method asks for it at every statement). A
    connection (a transaction without a session) is its own."""
    if isinstance(session, Connection):
        return session
    sync_session = session.sync_session
    transaction = sync_session._transaction
    if transaction is not None and transaction._connections and transaction.is_active:
        return sync_session.connection()
    connection = (await session.connection()).sync_connection
    assert connection is not None
    return connection


async def run(connection: Connection | AsyncConnection, statement: Prepared,
              values: Mapping[str, Any] | Sequence[Mapping[str, Any]], each_row: range | None = None) -> Outcome:
    """Run ``statement`` with these named ``values`` (a sequence of mappings: once for each, as
    an executemany) on the connection's DB-API connection, in its transaction; the connection
    must have begun (see ``begun``). ``each_row``: the columns that differ from row to row, the
    only ones processed after the first row (``Prepared.processed``)."""
    sync = connection.sync_connection if isinstance(connection, AsyncConnection) else connection
    assert sync is not None, "the connection has not begun"
    many = not (type(values) is dict or isinstance(values, Mapping))  # a dict mostly: no ABC check
    parameters: Any = ([statement.parameters(each) for each in cast(Sequence[Mapping[str, Any]], values)] if many
                       else statement.parameters(cast(Mapping[str, Any], values)))
    if (sync._has_events or sync.engine._has_events) and (listeners := sync.dispatch.before_cursor_execute):
        listeners(sync, None, statement.sql, parameters, None, many)
    adapted: Any = sync.connection.dbapi_connection
    try:
        if statement.dialect.name == "sqlite":
            rows, rowcount = await _sqlite(adapted._connection, statement, parameters, many)
            coltypes = None
        else:
            rows, rowcount, coltypes = await _asyncpg(adapted, statement, parameters, many)
    except sa.exc.DBAPIError:
        raise
    except Exception as error:
        translated = _translated(sync, statement, parameters, many, error)
        if translated is error:
            raise
        raise translated from error
    return Outcome(statement.processed(rows, coltypes, each_row) if rows else [], rowcount)


async def _sqlite(connection: OnceStopped, statement: Prepared, parameters: Any, many: bool) -> tuple[list[Any], int]:
    arguments = (connection, statement.sql, parameters, many)
    outcome = connection.in_place(run_statement, arguments, {})
    if outcome is TRIP:
        outcome = await connection._execute(run_statement, *arguments)
    elif not connection._locked:
        # the event loop's turn between two statements, as a trip gives (and the store's cursor,
        # db/sqlite_connection.py): a read's Python does not hold the loop from start to end
        # while clicks wait to be acknowledged. A write transaction's statements go on without
        # one: the process's other writers wait for its end, and the loop's other work would
        # stretch its hold of the write turn (db/durability.py has the figures)
        await asyncio.sleep(0)
    rows, _description, rowcount, _lastrowid = outcome
    return rows, rowcount


async def _asyncpg(adapted: Any, statement: Prepared, parameters: Any,
                   many: bool) -> tuple[list[Any], int, list[int] | None]:
    """As SQLAlchemy's asyncpg cursor runs a statement (its lock, its transaction started on the
    first statement, its cache of prepared statements), without the cursor."""
    async with adapted._execute_mutex:
        if adapted._transaction is None:
            await adapted._start_transaction()
        try:
            if many:
                await adapted._connection.executemany(statement.sql, parameters)
                return [], -1, None
            prepared_statement, attributes = await adapted._prepare(
                statement.sql, statement.dialect._invalidate_schema_cache_asof)  # type: ignore[attr-defined]
            rows = await prepared_statement.fetch(*parameters)
            found = _STATUS.match(prepared_statement.get_statusmsg() or "")
            return (rows, int(found.group(1)) if found else -1,
                    [attribute.type.oid for attribute in attributes] if attributes else None)
        except Exception as error:
            adapted._handle_exception(error)  # raises the adapter's DB-API error
            raise


def _translated(sync: Connection, statement: Prepared, parameters: Any, many: bool,
                error: Exception) -> Exception:
    """The DB-API error as SQLAlchemy raises it from a Core execution (parameters hidden as the
    engine hides them)."""
    dialect = statement.dialect
    base = sqlite3.Error if dialect.name == "sqlite" else dialect.loaded_dbapi.Error
    if not isinstance(error, base):
        return error
    return sa.exc.DBAPIError.instance(statement.sql, parameters, error, base,
                                      hide_parameters=sync.engine.hide_parameters, dialect=dialect,
                                      ismulti=many)


async def insert_rows(connection: Connection | AsyncConnection, table: sa.Table, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert these rows (column values; a column a row does not name is NULL) in one statement,
    in their order (their ids keep it): an executemany of one INSERT compiled for their columns."""
    if not rows:
        return
    keys = tuple(sorted(set().union(*rows)))
    statement = prepared(("insert", table.name, keys), connection.dialect, lambda: sa.insert(table), keys)
    await run(connection, statement, rows[0] if len(rows) == 1 else rows)
