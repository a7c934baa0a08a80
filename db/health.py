"""Is the database usable? Asked once at start, so a read-only, damaged or unreachable database
is one line saying what is wrong and what to do, not a traceback from deep inside the first
migration, and not a bot that runs while every delivery round fails on a bad page."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from db.sqlite_connection import sqlite_setup

DAMAGE = ("malformed", "not a database", "corrupt", "btreeinitpage", "disk image")
"""Words of SQLite's messages for a damaged file."""
READ_ONLY = ("readonly", "read-only", "read only")


class DatabaseUnusable(Exception):
    """The database cannot be used; the message is one line for the person running the bot."""


def where(url: str) -> str:
    """How to name the database in a message: the SQLite file, or the URL without its password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        name = parsed.database or ":memory:"
        return f"the database file {name.removeprefix('file:')}"
    return f"the database at {parsed.render_as_string(hide_password=True)}"


def is_damage(error: BaseException) -> bool:
    """Whether `error` says the database file is damaged."""
    return any(word in str(error).lower() for word in DAMAGE)


def explain(url: str, error: BaseException) -> str:
    """One line for a failure of `url`'s database, naming the likely cause and the way out."""
    detail = str(getattr(error, "orig", None) or error).strip().splitlines()[0] if str(error).strip() else repr(error)
    name = where(url)
    text = detail.lower()
    if is_damage(error):
        return f"{name} is damaged (integrity check failed: {detail}); restore a backup or move it away"
    if any(word in text for word in READ_ONLY):
        return f"{name} is read-only: {detail}; let the bot's user write it (and its directory), or point DATABASE_URL elsewhere"
    if "unable to open" in text:
        return f"cannot open {name}: {detail}; check that its directory exists and the bot may write there"
    if isinstance(error, OSError | TimeoutError) or "connect" in text:
        return f"cannot connect to {name}: {detail}; is the server running and the URL right?"
    if "permission denied" in text:
        return f"{name} refuses this user: {detail}; grant it the right to create and change tables"
    return f"cannot use {name}: {detail}"


async def check_database(url: str) -> None:
    """Read and write once (SQLite: also PRAGMA quick_check); DatabaseUnusable with one line if not.

    The write creates a table in a transaction that is rolled back, so nothing is left behind."""
    kwargs: dict[str, Any] = {"poolclass": NullPool}
    if url.startswith("postgresql"):
        kwargs["connect_args"] = {"timeout": 15}
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        sqlite_setup(engine, immediate=True)  # as the store connects: WAL (a write itself), real BEGINs
    try:
        async with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                problems = [row[0] for row in (await conn.exec_driver_sql("PRAGMA quick_check")).all()]
                if problems != ["ok"]:
                    first = " ".join(str(problems[0]).split())
                    raise DatabaseUnusable(f"{where(url)} is damaged (integrity check failed: {first}); "
                                           "restore a backup or move it away")
                await conn.rollback()  # ends the read transaction the check began
            transaction = await conn.begin()
            try:
                await conn.execute(sa.text("CREATE TABLE warhost_write_check (x INTEGER)"))
            finally:
                await transaction.rollback()
    except DatabaseUnusable:
        raise
    except Exception as exc:  # SQLAlchemy's, the driver's own (asyncpg refusing a login), OSError
        raise DatabaseUnusable(explain(url, exc)) from exc
    finally:
        await engine.dispose()
