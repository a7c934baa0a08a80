"""`python -m bot backup --db URL --to FILE`: a consistent copy of the SQLite database, taken while
the bot runs and writes, then checked before it is kept.

The copy is SQLite's online backup (one read transaction: in WAL mode the bot's writers go on
meanwhile, and the copy is the database as of one commit). It is checked as a restore would need
it: ``PRAGMA integrity_check``, and every started match replayed from its log against its
snapshots (``replay --verify``). Only a copy that passes becomes FILE (a single file, no WAL
beside it); an existing FILE is never overwritten. PostgreSQL is backed up with pg_dump: the
command says how."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlmodel import col, select

from bot.cli._db import add_db_option
from bot.cli.replay import verify_match
from db import Snapshot, Store

NAME = "backup"
HELP = "copy the SQLite database while the bot runs (--to FILE), then check the copy; PostgreSQL: pg_dump"


class BackupFailed(Exception):
    """The copy could not be taken, or failed its check (the message says which)."""


def configure(parser: argparse.ArgumentParser) -> None:
    add_db_option(parser)
    parser.add_argument("--to", required=True, type=Path, metavar="FILE", help="the backup file to write (must not exist)")


def pg_dump_advice(url: URL, target: Path) -> str:
    """What to run instead for a PostgreSQL database (the password stays out: PGPASSWORD or ~/.pgpass)."""
    plain = URL.create("postgresql", url.username, None, url.host, url.port, url.database).render_as_string()
    return (f"warhost: {url.database} is a PostgreSQL database: back it up with pg_dump, which takes a consistent "
            f"copy while the bot runs:\n"
            f"  pg_dump --format=custom --file {target} '{plain}'\n"
            f"(the password from PGPASSWORD or ~/.pgpass). Restore into an empty database with:\n"
            f"  pg_restore --no-owner --dbname '{plain}' {target}")


def copy_online(source: Path, partial: Path) -> int:
    """SQLite's backup API from ``source`` into ``partial``; returns the pages copied."""
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one read transaction, one commit's database
            return int(dst.execute("PRAGMA page_count").fetchone()[0])
        finally:
            dst.close()
    finally:
        src.close()


def integrity(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        found = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()
    if found != ["ok"]:
        raise BackupFailed("the copy fails SQLite's integrity check: " + "; ".join(found[:5]))


async def replay_all(path: Path) -> int:
    """Every started match of the copy replays like `replay --verify`; returns how many."""
    url = f"sqlite+aiosqlite:///{path}"
    store = await Store.open(url, migrate=False)
    try:
        async with store.read() as session:
            started = sorted(set((await session.exec(select(col(Snapshot.match_id)))).all()))
    except SQLAlchemyError as exc:
        raise BackupFailed(f"the copy cannot be read as a warhost database ({exc.__class__.__name__}: "
                           f"{str(exc.orig if hasattr(exc, 'orig') else exc)})") from None
    finally:
        await store.close()
    for match_id in started:
        code, lines = await verify_match(url, match_id)
        if code != 0:
            raise BackupFailed(f"match {match_id} does not replay in the copy: " + " / ".join(lines[1:]))
    return len(started)


def single_file(path: Path) -> None:
    """Fold the copy's WAL back into it: the backup is one file."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")
    finally:
        conn.close()


def backup(source: Path, target: Path) -> str:
    """Copy, check and keep; returns the summary line (BackupFailed: nothing is kept)."""
    if not source.is_file():
        raise BackupFailed(f"there is no database file {source}")
    if target.exists():
        raise BackupFailed(f"{target} exists already: choose a new file name (a backup never overwrites)")
    partial = target.with_name(target.name + ".partial")
    started = time.perf_counter()
    try:
        for stale in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            stale.unlink(missing_ok=True)
        pages = copy_online(source, partial)
        integrity(partial)
        matches = asyncio.run(replay_all(partial))
        single_file(partial)
        partial.rename(target)
    except (sqlite3.Error, OSError) as exc:
        raise BackupFailed(f"the copy failed: {exc}") from None
    finally:
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            leftover.unlink(missing_ok=True)
    return (f"backed up {source} to {target}: {pages} pages, {target.stat().st_size} bytes, integrity ok, "
            f"{matches} started match{'es' if matches != 1 else ''} replayed like `replay --verify` "
            f"({time.perf_counter() - started:.1f} s)")


def run(args: argparse.Namespace) -> int:
    try:
        url = make_url(args.db)
    except ArgumentError:
        print(f"warhost: {args.db!r} is not a database URL", file=sys.stderr)
        return 2
    if url.get_backend_name() == "postgresql":
        print(pg_dump_advice(url, args.to), file=sys.stderr)
        return 2
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        print(f"warhost: backup copies a SQLite database file; {url.get_backend_name()} is not one", file=sys.stderr)
        return 2
    try:
        print(backup(Path(url.database), args.to))
    except BackupFailed as exc:
        print(f"warhost: {exc}; no backup was written", file=sys.stderr)
        return 1
    return 0
