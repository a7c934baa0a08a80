"""The async match store on SQLite (default) or PostgreSQL.

Writes of one match are serialised by the database: on SQLite every transaction starts
with ``BEGIN IMMEDIATE`` (SQLite ignores FOR UPDATE, so the write lock is taken at BEGIN);
on PostgreSQL the match row is locked with ``SELECT ... FOR UPDATE``. The match ``version``
column is checked on every update as a second line of defence. On SQLite a process's write
transactions also queue on one asyncio lock (``Store.writer``): SQLite has one writer anyway,
and waiting in turn is far quicker than its busy wait. On SQLite the store keeps its writer's
connection and a few readers checked out (db/lean.py): a session joins a transaction begun on
one, and the hot reads and writes that need no ORM row run there without a session at all.

The statements of the hot paths (the match transaction's reads and writes, leases, the tick's
questions) are built once and sent through SQLAlchemy Core where the ORM's own work per
statement cost more than the statement: see `lock_match_rows`, `bump`, `write_changes`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm.attributes import NO_VALUE, instance_state, set_committed_value
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.durability import LogSync, database_path
from db.kept_rows import DEADLINE_KEYS as _DEADLINE_KEYS
from db.kept_rows import MATCH_KEYS as _MATCH_KEYS
from db.kept_rows import SEAT_KEYS as _SEAT_KEYS
from db.kept_rows import SIDE_TABLES, loading
from db.lean import (
    WAIT_SECONDS,
    LeanTransactions,
    RowsWrite,
    busy_after,
    finish_rows_write,
    joined_session,
    joining,
    send_begin,
)
from db.lean import StoreBusy as StoreBusy
from db.migration_state import alembic_config, at_heads
from db.models import Choice, Deadline, Lease, Match, Seat, Secret, next_fire
from db.outbox import OutboxQueries
from db.prepared import Reader, begun, insert_rows, prepared, run
from db.queries import MatchQueries
from db.record_queries import RecordQueries
from db.sqlite_connection import OnceStopped, sqlite_setup
from db.state_queries import KEEP_SNAPSHOTS as KEEP_SNAPSHOTS
from db.state_queries import StateQueries
from db.store_statements import (
    delete_by_key,
    lock_match_select,
    match_rows_select,
    side_checked_update,
    take_lease,
    update_by_key,
    versioned_update,
)
from db.turn_queries import TurnQueries
from db.undo_queries import UndoQueries
from db.vote_queries import VoteQueries

DEFAULT_URL = "sqlite+aiosqlite:///warhost.db"


def pending_changes(row: Any) -> dict[str, Any]:
    """The columns of an ORM row set since it was loaded or flushed, not yet written: `bump`
    folds a match's into its own UPDATE instead of the flush sending one more. Read from the
    row's record of changed attributes (not each column's history: a match has 20 columns);
    a column set to the value it had is no change (acting "comes back" on every submit)."""
    state = _state(row)
    columns = _column_keys(state.mapper)
    return {key: state.dict[key] for key, was in state.committed_state.items()
            if key in columns and (was is NO_VALUE or was != state.dict[key])}


_state: Callable[[Any], Any] = instance_state
"""An ORM row's state: ``sa.inspect``'s, without its lookup through the inspection registry
(SQLAlchemy's own function, typed loosely as the code here reads it)."""


@functools.cache
def _mapper(model: Any) -> Any:
    """The model's mapper (``sa.inspect``'s lookup through the inspection registry, once)."""
    return sa.inspect(model)


@functools.cache
def _column_keys(mapper: Any) -> frozenset[str]:
    return frozenset(column.key for column in mapper.column_attrs)


_SHARED_COLUMNS = {"seats": frozenset({"dm_channel_id"})}
"""Columns of a table written outside the match's transaction (a seat's DM channel, by the
delivery: `set_dm_channel_of`): `write_changes` writes them only on the rows that changed them,
never with the value a row was read with."""


def _written(row: Any, changes: dict[str, Any]) -> None:
    """Mark the row's values as written (these ``changes``, and every value it holds): the flush
    of its session must not send them again, nor look at the row (a row held outside a
    session: its record of changes starts again)."""
    state = _state(row)
    state.dict.update(changes)
    held = state.session
    state._commit_all(state.dict, None if held is None else held.identity_map)


class VersionConflict(Exception):
    """Another writer changed the match between our read and our write; retry."""


SQLITE_POOL = 15
"""Connections each SQLite engine (the writer's, the readers') keeps open at most; a transaction
past them waits for one, ``wait_seconds`` at most (``StoreBusy``)."""
IDLE_IN_TRANSACTION_MS = 10_000
"""PostgreSQL ends a transaction left idle this long (milliseconds): see Store.open."""


class Store(LeanTransactions, StateQueries, OutboxQueries, MatchQueries, RecordQueries, UndoQueries, TurnQueries, VoteQueries):
    """Owns the engine and session factory; knows how to load and lock matches and read the outbox."""

    def __init__(self, url: str, engine: AsyncEngine, read_engine: AsyncEngine | None = None,
                 one_writer: bool = True, wait_seconds: float = WAIT_SECONDS) -> None:
        self.url = url
        self.wait_seconds = wait_seconds
        """The bound on a transaction's wait for a connection or its write turn (StoreBusy after)."""
        self.engine = engine
        self.read_engine = read_engine or engine
        self.live: weakref.WeakSet[OnceStopped] = weakref.WeakSet()
        """The SQLite connections this store opened (none on PostgreSQL): close stops them all."""
        self.dialect = engine.dialect.name
        self.writer: asyncio.Lock | None = asyncio.Lock() if one_writer and self.dialect == "sqlite" else None
        """SQLite has one writer at a time: the process's write transactions queue here, in turn,
        rather than each holding a pooled connection in SQLite's busy wait, whose growing sleeps
        (up to 100 ms a try) stretched a burst of 50 submits to seconds. None: no queue (the
        database alone serialises, as on PostgreSQL, where writers of different matches run at once)."""
        path = database_path(url) if self.writer is not None else None
        self.log_sync: LogSync | None = LogSync(path) if path is not None else None
        """With the writer queue on a SQLite file, the writer commits without syncing and each
        write turn waits for a shared sync after it lets the write lock go (db/durability.py)."""
        self.rows_written = []
        self.taken = {}
        self.committed_payloads = {}
        self._kept_writer: AsyncConnection | None = None
        self._kept_readers: list[AsyncConnection] = []
        """Connections kept checked out for the transactions without a session (db/lean.py)."""
        self.sessions = async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
        self.read_sessions = async_sessionmaker(self.read_engine, class_=AsyncSession, expire_on_commit=False)

    @classmethod
    async def open(cls, url: str = DEFAULT_URL, *, migrate: bool = True, pool_size: int = 5,
                   one_writer: bool = True, idle_in_transaction_ms: int = IDLE_IN_TRANSACTION_MS,
                   wait_seconds: float = WAIT_SECONDS) -> Store:
        # Parameters stay out of logged SQL and error messages: they include sealed choices.
        kwargs: dict[str, Any] = {"hide_parameters": True, "pool_timeout": wait_seconds}
        if url.startswith("postgresql"):
            kwargs.update(pool_size=pool_size, max_overflow=pool_size, pool_pre_ping=True)
            # A process paused (SIGSTOP, a frozen VM) inside a transaction would hold its row locks
            # (a match, the lease row) for as long as it sleeps, and every other process would wait
            # on them: the server ends such a transaction instead. Ours never idle that long.
            kwargs["connect_args"] = {"server_settings": {
                "idle_in_transaction_session_timeout": str(idle_in_transaction_ms)}}
        else:
            # As many connections as SQLAlchemy's default pool and overflow (5 + 10), all kept: an
            # overflow connection is closed when given back, and at 200 busy matches the reads
            # opened and closed ~500 of them (a thread, the file, the pragmas each) in 150 s.
            kwargs.update(pool_size=SQLITE_POOL, max_overflow=0, connect_args={"timeout": 30})
        engine = create_async_engine(url, **kwargs)
        read_engine = None
        live: weakref.WeakSet[OnceStopped] = weakref.WeakSet()
        if engine.dialect.name == "sqlite":
            synced_by_store = one_writer and database_path(url) is not None  # see Store.log_sync
            sqlite_setup(engine, immediate=True, live=live, synced_by_store=synced_by_store)
            # Reads take no write lock: WAL readers see the last commit without waiting.
            read_engine = create_async_engine(url, **kwargs)
            sqlite_setup(read_engine, immediate=False, live=live)
        store = cls(url, engine, read_engine, one_writer, wait_seconds)
        store.live = live
        if migrate:
            await store.migrate()
        return store

    async def close(self) -> None:
        if self.log_sync is not None:
            await self.log_sync.durable()
            self.log_sync.close()
        await self.close_kept()
        await self.engine.dispose()
        if self.read_engine is not self.engine:
            await self.read_engine.dispose()
        # A connection a cancelled task never gave back (SQLAlchemy closes it in a task of its own,
        # which may wait) would keep its write lock: every SQLite connection this store opened
        # is told to stop, after what is already queued on it; closing rolls its transaction back.
        for connection in list(self.live):
            connection.stop()

    async def migrate(self, revision: str = "head") -> None:
        """Apply Alembic migrations up to ``revision`` on our own connection. A database already
        at the newest revision is left alone without importing Alembic or running its
        environment (which found nothing to do, at every start of the bot and of a test)."""

        def _run(sync_conn: Any) -> None:
            if revision == "head" and at_heads(sync_conn):
                return
            from alembic import command

            if sync_conn.dialect.name == "postgresql":
                # Two processes starting at once: the second waits, then finds the schema at head.
                sync_conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7306917)")
            command.upgrade(alembic_config(self.url, sync_conn), revision)

        async with self.engine.begin() as conn:
            await conn.run_sync(_run)
        if self.log_sync is not None:  # outside the write turn: on the disk before anything else
            self.log_sync.ended_turn()
            await self.log_sync.durable()

    async def durable(self) -> None:
        """Every write this process has ended is on the disk (see db/durability.py): what is
        sent out of the process from a read is never of a commit a power cut could undo."""
        if self.log_sync is not None:
            await self.log_sync.durable()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """A read-only session (on SQLite, a deferred transaction that does not block writers,
        on one of the read connections the store keeps checked out: db/lean.py)."""
        if self.dialect != "sqlite":
            async with self.read_sessions() as session, busy_after(self.wait_seconds):
                yield session
            return
        held = await self.kept_reader()
        try:
            async with joined_session(held, self.read_sessions, commit=False) as session:
                yield session
        finally:
            await self.give_back(held)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """One write transaction: commit on success, roll back on any error (on SQLite, in the
        process's one queue of writers, see `writer`)."""
        if self.writer is None:
            async with busy_after(self.wait_seconds), self.sessions() as session, session.begin():
                yield session
            return
        await self._write_turn()
        try:
            # bound to the writer's kept connection (db/lean.py): no pool checkout and return
            async with joined_session(await self.kept_writer(), self.sessions, commit=True) as session:
                yield session
        finally:
            await self.after_write()

    @asynccontextmanager
    async def rows_write(self) -> AsyncIterator[RowsWrite]:
        """One write transaction for rows held outside a session (``RowsWrite``): on SQLite with
        the writer queue, on the writer's kept connection with no session unless a step asks for
        one (joined then to this transaction, flushed before the commit); elsewhere the store's
        ``write()`` session. Committed on success, rolled back on any error: nothing half written."""
        if self.writer is None or self.dialect != "sqlite":
            async with self.write() as session:
                yield RowsWrite(session)
            return
        await self._write_turn()
        try:
            held = await self.kept_writer()
            sync = held.sync_connection
            assert sync is not None
            # held back for the first statement, SQLAlchemy keeping no record of the transaction
            # unless a session joins it (``joining``)
            await send_begin(sync, "BEGIN IMMEDIATE")
            unit = RowsWrite(sync, lambda: joining(held, self.sessions))
            try:
                try:
                    yield unit
                except BaseException:
                    with contextlib.suppress(Exception):
                        await finish_rows_write(sync, unit.made, commit=False)
                    raise
                await finish_rows_write(sync, unit.made, commit=True)
            finally:
                if unit.made is not None:
                    unit.made.sync_session.close()
        finally:
            await self.after_write()

    async def lock_match_rows(
        self, session: Reader, match_id: int, interaction_id: str | None = None, claim_user: int | None = None,
    ) -> tuple[Match, list[Seat], Deadline | None, int | None, int | None] | None:
        """The match row for writing with its seats (in seat order), its deadline, the id of
        the choice ``interaction_id`` already made in it (None: none; a retried or doubled
        submit finds its first answer) and the id of the prompt notice ``claim_user``'s seat may
        claim (see `claim_prompt_message`; None: none), in one statement instead of five. Fresh from the
        database: a retried transaction must not see the failed one's rows. On SQLite the
        transaction holds the database's write lock from BEGIN IMMEDIATE. On PostgreSQL the
        match row is locked first, by a statement of its own: a statement that waits for a row
        lock sees the locked row as committed meanwhile, but its other rows (the seats) as they
        were when it started."""
        if self.dialect != "sqlite":
            connection = await begun(session)
            await run(connection, prepared(lock_match_select, connection.dialect, lock_match_select), {"match_id": match_id})
        rows = await self._match_rows(session, match_id, interaction_id, claim_user=claim_user)
        return None if rows is None else rows[:5]

    async def match_rows(
        self, session: Reader, match_id: int
    ) -> tuple[Match, list[Seat], Deadline | None] | None:
        """The match with its seats (in seat order) and its deadline, as committed, in one
        statement: the read beside `lock_match_rows` (no lock), for a seat's turn and the
        service's plain reads."""
        rows = await self._match_rows(session, match_id, None)
        return None if rows is None else rows[:3]

    async def match_rows_and(
        self, session: Reader, match_id: int, extra: Callable[[], Sequence[Any]], values: dict[str, Any]
    ) -> tuple[Match, list[Seat], Deadline | None, tuple[Any, ...]] | None:
        """`match_rows` and the one-row questions ``extra`` builds (columns, their parameters in
        ``values``), answered in the same statement: a read of one statement needs no BEGIN."""
        rows = await self._match_rows(session, match_id, None, extra, values)
        return None if rows is None else (*rows[:3], rows[5])

    async def _match_rows(
        self, session: Reader, match_id: int, interaction_id: str | None,
        extra: Callable[[], Sequence[Any]] | None = None, values: dict[str, Any] | None = None,
        claim_user: int | None = None,
    ) -> tuple[Match, list[Seat], Deadline | None, int | None, int | None, tuple[Any, ...]] | None:
        """Read through Core and made into the session's rows here (see `_attached`): the ORM's
        loading of a three-entity join cost more than the statement. The statement has a row per
        seat, each with the match, its deadline and the questions asked of them again: those
        columns are taken from the first row, and only the seats' are processed in the others
        (their datetimes and JSON decoded once a read, not once a seat)."""
        connection = await begun(session)
        statement = (prepared(match_rows_select, connection.dialect, match_rows_select) if extra is None else
                     prepared((match_rows_select, extra), connection.dialect, lambda: match_rows_select().add_columns(*extra())))
        rows = (await run(connection, statement, {"match_id": match_id, "interaction_id": interaction_id,
                                                  "claim_user": claim_user, **(values or {})}, _SEAT_COLUMNS)).rows
        if not rows:
            return None
        first = rows[0]
        added = len(first) - _MATCH_WIDTH - _SEAT_WIDTH - len(_DEADLINE_KEYS) - 2
        match_end, seat_end, deadline_end = _MATCH_WIDTH, _MATCH_WIDTH + _SEAT_WIDTH, len(first) - added - 2
        match = _attached(session, Match, _MATCH_KEYS, first[:match_end])
        seats = [_attached(session, Seat, _SEAT_KEYS, row[match_end:seat_end])
                 for row in rows if row[match_end] is not None]
        deadline = (None if first[seat_end] is None
                    else _attached(session, Deadline, _DEADLINE_KEYS, first[seat_end:deadline_end]))
        return match, seats, deadline, first[deadline_end], first[deadline_end + 1], tuple(first[deadline_end + 2:])

    async def lock_match(self, session: AsyncSession, match_id: int) -> Match | None:
        """Read the match row for writing (FOR UPDATE on PostgreSQL; SQLite holds the db lock)."""
        stmt = select(Match).where(col(Match.id) == match_id).with_for_update()
        return (await session.exec(stmt.execution_options(populate_existing=True))).first()

    async def bump(self, session: Reader, match: Match, now: datetime, *, side: int | None = None,
                   **values: Any) -> None:
        """Write match columns and bump the version, checking nobody else did in between; with
        ``side``, also that the match's rows were written by nobody else since they were known
        (``side_version`` is still ``side``: a transaction on kept rows, see `KeptRows`). The
        bump sets ``side_version`` to 0: the writes of the match's rows after it count from there."""
        old = match.version
        changes = {**pending_changes(match), **values, "version": old + 1, "side_version": 0, "updated_at": now}
        connection = await begun(session)
        keys = tuple(sorted(changes))
        checked = side is not None
        statement = prepared(("bump", keys, checked), connection.dialect,
                             side_checked_update if checked else versioned_update, keys)
        result = await run(connection, statement, {"row_id": match.id, "old_version": old, "old_side": side, **changes})
        if result.rowcount != 1:
            raise VersionConflict(f"match {match.id} changed under us")
        _written(match, changes)

    async def write_changes(self, session: Reader, rows: Sequence[Any | None], added: Sequence[Any] = (),
                            deleted: Sequence[Any] = ()) -> int:
        """Write these ORM rows' changes through Core, so the flush after has nothing left of
        them: one UPDATE by key per table (an executemany over its changed rows, each given the
        columns changed on any of them, see `_SHARED_COLUMNS`), one INSERT for the new choices.
        What they leave (other new rows, deleted ones, rows of other tables) the flush writes as
        before. Each row written, or set only to the values it had, is marked written: the ORM
        sends nothing twice, and a flush with nothing to write returns at once. Rows held
        outside a session (read on a connection, db/lean.py ``RowsWrite``) are written the same
        way; ``deleted`` and ``added`` are such rows (a deadline) to delete or insert first.
        Returns the rows of the match's own tables (seats, deadlines) it changed: what the
        database's triggers add to ``side_version`` for them on SQLite (migration 0018)."""
        connection = await begun(session)
        counted = 0
        for row in deleted:
            mapper = _state(row).mapper
            [key] = mapper.primary_key
            result = await run(connection, prepared(("delete_by_key", mapper.local_table.name), connection.dialect,
                                                    functools.partial(delete_by_key, mapper)),
                               {"row_key": getattr(row, mapper.get_property_by_column(key).key)})
            counted += result.rowcount if mapper.local_table.name in SIDE_TABLES else 0
        for row in added:
            if isinstance(row, Deadline):
                row.fire_at = next_fire(row)  # as the ORM's before_insert listener keeps it
            mapper = _state(row).mapper
            columns = _column_keys(mapper)
            await insert_rows(connection, mapper.local_table,
                              [{key: value for key, value in vars(row).items() if key in columns}])
            counted += 1 if mapper.local_table.name in SIDE_TABLES else 0
            state = _state(row)
            state.key = mapper.identity_key_from_instance(row)
            _written(row, {})
        updates: dict[tuple[Any, frozenset[str]], list[tuple[Any, dict[str, Any]]]] = {}
        choices: list[Choice] = []
        for row in rows:
            if row is None or row in deleted:
                continue
            state = _state(row)
            held = state.session
            if held is not None and row in held.deleted:
                continue
            if state.key is None and isinstance(row, Choice):
                choices.append(row)
            elif (state.persistent or state.detached) and not state.deleted and state.modified:
                changes = pending_changes(row)
                if not changes:
                    _written(row, changes)  # only set to the values it had
                    continue
                if isinstance(row, Deadline):
                    changes["fire_at"] = next_fire(row)  # as the ORM's before_update listener keeps it
                shared = frozenset(changes).intersection(_SHARED_COLUMNS.get(state.mapper.local_table.name, ()))
                updates.setdefault((state.mapper, shared), []).append((row, changes))
        for (mapper, _shared), changed in updates.items():
            # the columns changed on any of these rows (the others given the values they hold)
            keys = tuple(sorted(set().union(*(changes for _row, changes in changed))))
            params = [{"row_key": _state(row).identity[0],
                       **{key: changes[key] if key in changes else _state(row).dict[key] for key in keys}}
                      for row, changes in changed]
            statement = prepared(("by_key", mapper.local_table.name, keys), connection.dialect,
                                 functools.partial(update_by_key, mapper), keys)
            result = await run(connection, statement, params[0] if len(params) == 1 else params)
            counted += result.rowcount if mapper.local_table.name in SIDE_TABLES else 0
            for row, changes in changed:
                _written(row, changes)
        if choices:
            columns = _column_keys(_mapper(Choice))
            values = [{key: value for key, value in vars(row).items() if key in columns and key != "id"}
                      for row in choices]
            for row in choices:
                held = _state(row).session
                if held is not None:
                    held.expunge(row)
            await insert_rows(connection, Choice.__table__, values)  # type: ignore[attr-defined]
        return counted

    async def acquire_lease(self, name: str, holder: str, now: datetime, ttl: timedelta) -> int | None:
        """Take or renew the named lease: its term (the fencing token, see Lease.term), or None if
        someone else holds an unexpired one.

        One statement: an insert that, when the row exists, updates it only if the lease is ours
        or has expired (a new holder starts a new term); the database returns the row it wrote,
        SQLite and PostgreSQL alike."""
        async with self.write_once() as connection:  # one statement: no BEGIN, no COMMIT
            rows = (await run(connection, prepared(take_lease, connection.dialect,
                                                   functools.partial(take_lease, self.dialect)),
                              {"name": name, "holder": holder, "expires_at": now + ttl, "now": now})).rows
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def database_now(self) -> datetime:
        """The database's clock (PostgreSQL's now(); on SQLite, the machine's, as SQLite reads it),
        as an aware UTC datetime: what leases and deadlines are judged by when processes' clocks differ."""
        if self.dialect == "postgresql":
            stmt = sa.text("SELECT clock_timestamp()")
        else:
            stmt = sa.text("SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')")
        async with self.read() as session:
            value = (await (await session.connection()).execute(stmt)).scalar()
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        assert isinstance(value, datetime)
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)

    async def lease(self, session: AsyncSession, name: str) -> Lease | None:
        """The named lease as it stands (whoever holds it)."""
        return (await session.exec(select(Lease).where(col(Lease.name) == name))).first()

    async def secret(self, name: str, make: str, now: datetime) -> str:
        """The stored secret of this name; the first caller stores ``make`` (a race between two
        processes keeps the first one written, and both return it)."""
        insert = (sqlite_insert if self.dialect == "sqlite" else postgresql_insert)(Secret)
        async with self.write() as session:
            await (await session.connection()).execute(
                insert.values(name=name, value=make, created_at=now).on_conflict_do_nothing(
                    index_elements=[col(Secret.name)]))
            found = await session.get(Secret, name)
            assert found is not None
            return found.value

    async def release_lease(self, name: str, holder: str, now: datetime) -> None:
        async with self.write() as session:
            await (await session.connection()).execute(
                sa.update(Lease).where(col(Lease.name) == name, col(Lease.holder) == holder).values(expires_at=now)
            )


_MATCH_WIDTH, _SEAT_WIDTH = len(_MATCH_KEYS), len(_SEAT_KEYS)
_SEAT_COLUMNS = range(_MATCH_WIDTH, _MATCH_WIDTH + _SEAT_WIDTH)
"""The columns of `match_rows_select`'s rows that differ from row to row: a seat's (after the match's)."""



def _attached(session: Reader, model: Any, keys: Sequence[str], values: Sequence[Any]) -> Any:
    """The session's row of ``model`` holding these column values as committed, made as the ORM's
    loading makes one (outside any session when read on a connection, db/lean.py) (no validation: the values come from the database; the row enters the
    identity map as a loaded one) without its work per row. A row of the same key already in
    the session is refreshed instead, as a load with ``populate_existing`` would."""
    mapper, positions = loading(model, tuple(keys))
    key = mapper.identity_key_from_primary_key([values[at] for at in positions])
    if isinstance(session, Connection):  # a read without a session: the row as loaded, in none
        row = mapper.class_manager.new_instance()
        row.__dict__.update(zip(keys, values, strict=True))
        _state(row).key = key  # a loaded row (detached): a session it is added to takes it as such
        return row
    sync_session = session.sync_session
    existing = sync_session.identity_map.get(key)
    if existing is not None:
        for name, value in zip(keys, values, strict=True):
            set_committed_value(existing, name, value)
        return existing
    row = mapper.class_manager.new_instance()
    row.__dict__.update(zip(keys, values, strict=True))
    state = _state(row)
    state.key = key
    state.session_id = sync_session.hash_key
    sync_session.identity_map.add(state)
    return row





