"""The reads a match's state is rebuilt from, on a connection without a session (db/lean.py):
the newest snapshot up to a step, the choices after it, the number of seats. Prepared once
(db/prepared.py) and read as tuples: a turn DM's or the board's read that misses the state
cache replays without ORM rows."""

from __future__ import annotations

import functools
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from db.models import Choice, Seat, Snapshot
from db.prepared import prepared, run

NO_LIMIT = 2**62
"""The step a snapshot is read up to when any will do."""


@functools.cache
def _snapshot() -> sa.Select[Any]:
    table = Snapshot.__table__  # type: ignore[attr-defined]
    return (sa.select(table.c.seq, table.c.state)
            .where(table.c.match_id == sa.bindparam("match_id"), table.c.seq <= sa.bindparam("upto"))
            .order_by(table.c.seq.desc()).limit(1))


@functools.cache
def _choices() -> sa.Select[Any]:
    table = Choice.__table__  # type: ignore[attr-defined]
    return (sa.select(table.c.seq, table.c.seat, table.c.payload)
            .where(table.c.match_id == sa.bindparam("match_id"), table.c.seq > sa.bindparam("after"))
            .order_by(table.c.seq))


@functools.cache
def _seat_count() -> sa.Select[Any]:
    table = Seat.__table__  # type: ignore[attr-defined]
    return sa.select(sa.func.count()).select_from(table).where(table.c.match_id == sa.bindparam("match_id"))


async def snapshot_at(connection: Connection, match_id: int, upto: int | None) -> tuple[int, dict[str, Any]] | None:
    """(seq, state) of the match's newest snapshot at or before step ``upto`` (any: None)."""
    rows = (await run(connection, prepared(_snapshot, connection.dialect, _snapshot),
                      {"match_id": match_id, "upto": NO_LIMIT if upto is None else upto})).rows
    return (int(rows[0][0]), rows[0][1]) if rows else None


async def choices_after(connection: Connection, match_id: int, after: int) -> list[tuple[int, int, dict[str, Any]]]:
    """(seq, seat, payload) of the match's choices after step ``after``, in order."""
    rows = (await run(connection, prepared(_choices, connection.dialect, _choices),
                      {"match_id": match_id, "after": after})).rows
    return [(int(seq), int(seat), payload) for seq, seat, payload in rows]


async def seat_count_of(connection: Connection, match_id: int) -> int:
    rows = (await run(connection, prepared(_seat_count, connection.dialect, _seat_count), {"match_id": match_id})).rows
    return int(rows[0][0])
