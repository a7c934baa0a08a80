"""Shared bits of the store commands: the --db option and running a coroutine."""

from __future__ import annotations

import argparse
import os

from db import DEFAULT_URL


def add_db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", default=os.environ.get("DATABASE_URL", DEFAULT_URL),
        help="database URL (default: $DATABASE_URL or %(default)s)",
    )
