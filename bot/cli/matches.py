"""`python -m bot matches --db URL`: list the stored matches."""

from __future__ import annotations

import argparse
import asyncio

import sqlalchemy as sa
from sqlmodel import col, select

from bot.cli._db import add_db_option
from db import Match, Seat, Store

NAME = "matches"
HELP = "list the matches stored in the database"


def configure(parser: argparse.ArgumentParser) -> None:
    add_db_option(parser)
    parser.add_argument("--status", help="only matches with this status (lobby, active, paused, finished, aborted)")
    parser.add_argument("--limit", type=int, default=50)


async def _rows(url: str, status: str | None, limit: int) -> list[tuple[Match, int]]:
    store = await Store.open(url, migrate=False)
    try:
        async with store.read() as session:
            seats = select(Seat.match_id, sa.func.count().label("n")).group_by(col(Seat.match_id)).subquery()
            stmt = select(Match, sa.func.coalesce(seats.c.n, 0)).outerjoin(seats, seats.c.match_id == Match.id)
            if status:
                stmt = stmt.where(col(Match.status) == status)
            rows = (await session.exec(stmt.order_by(col(Match.id).desc()).limit(limit))).all()
    finally:
        await store.close()
    return [(m, int(n)) for m, n in rows]


def run(args: argparse.Namespace) -> int:
    rows = asyncio.run(_rows(args.db, args.status, args.limit))
    if not rows:
        print("no matches")
        return 0
    print(f"{'id':>6}  {'game':<12} {'status':<9} {'seats':>5} {'choices':>7}  {'channel':<20} updated")
    for m, n in rows:
        print(f"{m.id:>6}  {m.game:<12} {m.status:<9} {n:>5} {m.step:>7}  {m.channel_id:<20} "
              f"{m.updated_at:%Y-%m-%d %H:%M}")
    return 0
