"""A real PostgreSQL for the tests: from WARHOST_TEST_PG_URL, else started with the pgserver wheel.

One server per test session; every test gets a fresh database in it, so tests never
see each other's rows: an empty one (`pg_url`, for the migration tests) or a copy of one migrated
once per session (`pg_migrated_url`, for the tests of what runs on the schema).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _asyncpg_url(uri: str) -> str:
    for prefix in ("postgresql+asyncpg://", "postgresql://", "postgres://"):
        if uri.startswith(prefix):
            return "postgresql+asyncpg://" + uri[len(prefix):]
    return uri


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """The admin URL of a running PostgreSQL (asyncpg dialect)."""
    given = os.environ.get("WARHOST_TEST_PG_URL")
    if given:
        yield _asyncpg_url(given)
        return
    try:
        import pgserver
    except ImportError:
        # pgserver comes with the test extra: without it the install is broken, and the
        # PostgreSQL half of the suite must say so rather than go quiet.
        pytest.fail('pgserver is not installed (pip install -e ".[test]") and WARHOST_TEST_PG_URL is not set')
    root = tempfile.mkdtemp(prefix="warhost-pg-")
    server: Any = pgserver.get_server(root, cleanup_mode="stop")
    try:
        yield _asyncpg_url(server.get_uri())
    finally:
        server.cleanup()
        shutil.rmtree(root, ignore_errors=True)


def _with_db(url: str, name: str) -> str:
    head, _, rest = url.partition("://")
    auth_host, slash, tail = rest.partition("/")
    _db, q, query = tail.partition("?")
    return f"{head}://{auth_host}/{name}{q}{query}"


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    plain = "postgresql://" + url.split("://", 1)[1]
    conn = await asyncpg.connect(plain)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture
def pg_url(pg_server_url: str) -> Iterator[str]:
    """A fresh, empty database for one test; dropped afterwards."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    asyncio.run(_admin(pg_server_url, f'CREATE DATABASE "{name}"'))
    try:
        yield _with_db(pg_server_url, name)
    finally:
        asyncio.run(_admin(pg_server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _migrate(url: str) -> None:
    from db import Store

    store = await Store.open(url)
    await store.close()


@pytest.fixture(scope="session")
def pg_migrated_template(pg_server_url: str) -> Iterator[str]:
    """A database migrated to the newest revision once per session (per xdist worker), the
    template `pg_migrated_url` copies: Alembic's sixteen-odd migrations cost seconds a test."""
    name = f"template_{uuid.uuid4().hex[:16]}"
    asyncio.run(_admin(pg_server_url, f'CREATE DATABASE "{name}"'))
    asyncio.run(_migrate(_with_db(pg_server_url, name)))
    try:
        yield name
    finally:
        asyncio.run(_admin(pg_server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _copy_of(url: str, name: str, template: str) -> None:
    """CREATE DATABASE ... TEMPLATE refuses while a session is still on the template (a closed
    pool's connections may take a moment to go): try again a few times."""
    for attempt in range(50):
        try:
            await _admin(url, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            return
        except Exception as exc:  # asyncpg's ObjectInUseError: "being accessed by other users"
            if "being accessed by other users" not in str(exc) or attempt == 49:
                raise
            await asyncio.sleep(0.1)


@pytest.fixture
def pg_migrated_url(pg_server_url: str, pg_migrated_template: str) -> Iterator[str]:
    """A fresh database already at the newest revision (a copy of the template) for one test;
    the test's own `Store.open` still runs the migrations, which find nothing left to do."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    asyncio.run(_copy_of(pg_server_url, name, pg_migrated_template))
    try:
        yield _with_db(pg_server_url, name)
    finally:
        asyncio.run(_admin(pg_server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def sqlite_migrated_template(directory: Path) -> Path:
    """A SQLite file migrated to the newest revision, made once in `directory`."""
    path = directory / "migrated.db"
    if not path.exists():
        asyncio.run(_migrate(f"sqlite+aiosqlite:///{path}"))
    return path


def sqlite_copy(template: Path, path: Path) -> Path:
    """A consistent copy of a SQLite database (the backup API: a WAL file is taken in too)."""
    with sqlite3.connect(template) as source, sqlite3.connect(path) as target:
        source.backup(target)
    source.close()
    target.close()
    return path
