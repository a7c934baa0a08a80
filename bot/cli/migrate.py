"""`python -m bot migrate --db URL`: bring the database schema to the newest migration."""

from __future__ import annotations

import argparse
import asyncio

from bot.cli._db import add_db_option
from db import Store

NAME = "migrate"
HELP = "apply the database migrations (Alembic) up to the newest"


def configure(parser: argparse.ArgumentParser) -> None:
    add_db_option(parser)
    parser.add_argument("--revision", default="head", help="target revision (default: head)")


async def _migrate(url: str, revision: str) -> str:
    from alembic.runtime.migration import MigrationContext

    store = await Store.open(url, migrate=False)
    try:
        await store.migrate(revision)
        async with store.engine.connect() as conn:
            current = await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
    finally:
        await store.close()
    return str(current)


def run(args: argparse.Namespace) -> int:
    current = asyncio.run(_migrate(args.db, args.revision))
    print(f"database is at revision {current}")
    return 0
