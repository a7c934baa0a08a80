"""Store fixtures: every test using ``db_url`` runs once on SQLite and once on PostgreSQL."""

from __future__ import annotations

import pytest

from tests.pgfixture import pg_server_url, pg_url  # noqa: F401  (fixtures)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'warhost.db'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
async def store(db_url: str):
    """A migrated store on the parametrised database."""
    from db import Store

    st = await Store.open(db_url)
    yield st
    await st.close()
