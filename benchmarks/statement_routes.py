"""What one hot statement and one transaction cost by each route through our stack (CPU time).

One statement (the match row by id, the first read of every match transaction) is run many
times, in one open transaction, by each route a store method can take:

- ``orm``: ``select(Match)`` through the AsyncSession (ORM rows, ``populate_existing``);
- ``core session``: ``session.execute(statement)`` (Core rows through the session);
- ``core connection``: ``connection.execute(statement)`` on the session's AsyncConnection;
- ``exec_driver_sql``: the SQL string with its parameters through the AsyncConnection;
- ``prepared``: compiled once per dialect and run on the session's DB-API connection
  (db/prepared.py: the route the hot paths take);
- the floors: the same SQL straight through aiosqlite, and through plain sqlite3 on the calling
  thread (SQLite), or straight through asyncpg (PostgreSQL).

Then what a session and a transaction cost around one statement: an AsyncSession opened and
closed with nothing in it, a read (the store's ``read()``: session, BEGIN, one statement, close),
a write (``write()``: the write turn, session, BEGIN IMMEDIATE/BEGIN, one statement, COMMIT), the
same without a session (db/lean.py: ``lean_read()``, ``read_once()`` with no BEGIN,
``lean_write()``), and the same transactions raw. Figures are microseconds of CPU (``time.process_time()``, every thread
of the process) per statement or per transaction, the median of ``--repeat`` rounds.

    python benchmarks/statement_routes.py [--rounds 2000] [--repeat 5] [--pg]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from sqlmodel import col, select  # noqa: E402

import engine  # noqa: E402
from bot.service import MatchService  # noqa: E402
from db import Match, Store  # noqa: E402
from db.prepared import begun, prepared, run  # noqa: E402
from tests.service.toygame import GAME  # noqa: E402

USERS = [1001, 1002, 1003]


def _match_row() -> sa.Select[Any]:
    table = Match.__table__  # type: ignore[attr-defined]
    return sa.select(table).where(table.c.id == sa.bindparam("match_id"))


async def _per_call(rounds: int, repeat: int, call: Callable[[], Awaitable[Any]]) -> float:
    """Median CPU microseconds of one ``call`` over ``repeat`` rounds of ``rounds`` calls."""
    figures = []
    for _ in range(repeat):
        started = time.process_time()
        for _ in range(rounds):
            await call()
        figures.append((time.process_time() - started) * 1e6 / rounds)
    return statistics.median(figures)


def _per_call_sync(rounds: int, repeat: int, call: Callable[[], Any]) -> float:
    figures = []
    for _ in range(repeat):
        started = time.process_time()
        for _ in range(rounds):
            call()
        figures.append((time.process_time() - started) * 1e6 / rounds)
    return statistics.median(figures)


async def measure(url: str, rounds: int, repeat: int) -> list[tuple[str, float]]:
    store = await Store.open(url)
    svc = MatchService(store)
    channel = 77
    info = await svc.create(1, channel, USERS[0], "p0", "toy", {"rounds": 10_000}, seed=1)
    for user in USERS[1:]:
        await svc.join(channel, user, f"p{user}")
    await svc.start(channel, USERS[0])
    match_id = info.id
    statement = _match_row()
    dialect = store.engine.dialect
    compiled = prepared("routes.match_row", dialect, _match_row)
    values = {"match_id": match_id}
    figures: list[tuple[str, float]] = []
    async with store.write() as session:
        connection = await session.connection()
        orm = select(Match).where(col(Match.id) == match_id).execution_options(populate_existing=True)

        async def by_orm() -> Any:
            return (await session.exec(orm)).first()

        async def by_session() -> Any:
            return (await session.execute(statement, values)).all()

        async def by_connection() -> Any:
            return (await connection.execute(statement, values)).all()

        async def by_driver_sql() -> Any:
            return (await connection.exec_driver_sql(compiled.sql, compiled.parameters(values))).all()

        async def by_prepared() -> Any:
            return (await run(connection, compiled, values)).rows

        for name, call in (("orm (AsyncSession, select(Match))", by_orm),
                           ("core session.execute", by_session),
                           ("core connection.execute", by_connection),
                           ("connection.exec_driver_sql", by_driver_sql),
                           ("prepared, on the DB-API connection", by_prepared)):
            figures.append((f"statement: {name}", await _per_call(rounds, repeat, call)))
    if store.dialect == "sqlite":
        path = url.split(":///", 1)[1]
        raw = await aiosqlite.connect(path, isolation_level=None)
        await raw.execute("BEGIN IMMEDIATE")

        async def by_aiosqlite() -> Any:
            cursor = await raw.execute(compiled.sql, compiled.parameters(values))
            rows = await cursor.fetchall()
            await cursor.close()
            return rows

        figures.append(("statement: floor, aiosqlite", await _per_call(rounds, repeat, by_aiosqlite)))
        await raw.execute("COMMIT")
        await raw.close()
        plain = sqlite3.connect(path, isolation_level=None)
        plain.execute("BEGIN IMMEDIATE")
        figures.append(("statement: floor, plain sqlite3 on this thread", _per_call_sync(
            rounds, repeat, lambda: plain.execute(compiled.sql, compiled.parameters(values)).fetchall())))
        plain.execute("COMMIT")
    else:
        import asyncpg

        pg = await asyncpg.connect("postgresql://" + url.split("://", 1)[1])
        transaction = pg.transaction()
        await transaction.start()
        figures.append(("statement: floor, asyncpg", await _per_call(
            rounds, repeat, lambda: pg.fetch(compiled.sql, *compiled.parameters(values)))))
        await transaction.rollback()
    small = max(1, rounds // 4)

    async def session_only() -> None:
        async with store.read_sessions():
            pass

    async def read_one() -> None:
        async with store.read() as session:
            await run(await session.connection(), compiled, values)

    async def write_one() -> None:
        async with store.write() as session:
            await run(await session.connection(), compiled, values)

    async def lean_read_one() -> None:
        async with store.lean_read() as connection:
            await run(connection, compiled, values)

    async def read_once_one() -> None:
        async with store.read_once() as connection:
            await run(connection, compiled, values)

    async def lean_write_one() -> None:
        async with store.lean_write() as connection:
            await run(connection, compiled, values)

    async def rows_write_one() -> None:
        async with store.rows_write() as unit:
            await run(await begun(unit.db), compiled, values)

    for label, call in (
        ("session: AsyncSession opened and closed, nothing in it", session_only),
        ("transaction: read(), one prepared statement", read_one),
        ("transaction: write(), one prepared statement, COMMIT", write_one),
        ("transaction: lean_read(), one prepared statement (no session)", lean_read_one),
        ("transaction: read_once(), one prepared statement (no session, no BEGIN)", read_once_one),
        ("transaction: lean_write(), one prepared statement, COMMIT (no session)", lean_write_one),
        ("transaction: rows_write() (the match transaction's), one prepared statement, COMMIT (no session made)",
         rows_write_one),
    ):
        figures.append((label, await _per_call(small, repeat, call)))
    if store.dialect == "sqlite":
        path = url.split(":///", 1)[1]
        plain = sqlite3.connect(path, isolation_level=None)

        def plain_write() -> None:
            plain.execute("BEGIN IMMEDIATE")
            plain.execute(compiled.sql, compiled.parameters(values)).fetchall()
            plain.execute("COMMIT")

        def plain_read() -> None:
            plain.execute("BEGIN")
            plain.execute(compiled.sql, compiled.parameters(values)).fetchall()
            plain.execute("COMMIT")

        figures.append(("transaction: floor, plain sqlite3 read (BEGIN, statement, COMMIT)",
                        _per_call_sync(small, repeat, plain_read)))
        figures.append(("transaction: floor, plain sqlite3 write (BEGIN IMMEDIATE, statement, COMMIT)",
                        _per_call_sync(small, repeat, plain_write)))
        plain.close()
    await store.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pg", nargs="?", const="", default=None,
                        help="also on PostgreSQL (a URL, or none: a throwaway pgserver)")
    args = parser.parse_args()
    engine.register(GAME)
    print(f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        runs = [("sqlite", f"sqlite+aiosqlite:///{tmp}/routes.db")]
        server = None
        if args.pg is not None:
            url = args.pg or os.environ.get("WARHOST_TEST_PG_URL", "")
            if not url:
                import pgserver

                server = pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
                url = server.get_uri()
            runs.append(("postgresql", "postgresql+asyncpg://" + url.split("://", 1)[1]))
        try:
            for name, url in runs:
                for label, micros in asyncio.run(measure(url, args.rounds, args.repeat)):
                    print(f"{name:<10} {label:<78} {micros:8.1f} µs CPU", flush=True)
        finally:
            if server is not None:
                server.cleanup()


if __name__ == "__main__":
    main()
