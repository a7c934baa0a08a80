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


async def downgrade(store, revision: str) -> None:
    """Take the store's schema back to ``revision`` (Alembic's downgrades). A migration test
    makes its data with today's service on today's schema, then goes back to the revision before
    the migration it tests: the service of today cannot write to an old schema."""
    from alembic import command

    from db.migration_state import alembic_config

    async with store.engine.begin() as conn:
        await conn.run_sync(lambda sync_conn: command.downgrade(alembic_config(store.url, sync_conn), revision))
