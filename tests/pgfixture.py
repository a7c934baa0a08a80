"""A real PostgreSQL for the tests: from WARHOST_TEST_PG_URL, else started with the pgserver wheel.

One server per test session; every test gets a fresh database in it, so tests never
see each other's rows.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
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
