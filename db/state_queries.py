"""The match's state in the store (mixed into the Store): the log of choices, the snapshots
kept of it, and the state loaded from them (in a session, or on a connection without one:
db/lean.py, db/state_reads.py)."""

from __future__ import annotations

import functools
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from db.models import Choice, Match, Seat, Snapshot, stored_id
from db.prepared import Reader, begun, prepared, run
from db.state_reads import choices_after, seat_count_of, snapshot_at

KEEP_SNAPSHOTS = 2
"""Snapshots kept per match: the newest (loading) and the one before it (recent prompt versions).
The database keeps this many (db/migrations/versions/0017_snapshot_pruning.py, which writes the
number down): keeping another needs a migration of its own."""


class StateQueries:
    """The log, the snapshots and the state loaded from them."""

    dialect: str

    async def choices(self, session: AsyncSession, match_id: int, after: int = 0) -> list[Choice]:
        stmt = select(Choice).where(col(Choice.match_id) == match_id, col(Choice.seq) > after).order_by(col(Choice.seq))
        return list((await session.exec(stmt)).all())

    async def latest_snapshot(
        self, session: AsyncSession, match_id: int, upto: int | None = None
    ) -> Snapshot | None:
        stmt = select(Snapshot).where(col(Snapshot.match_id) == match_id)
        if upto is not None:
            stmt = stmt.where(col(Snapshot.seq) <= upto)
        return (await session.exec(stmt.order_by(col(Snapshot.seq).desc()).limit(1))).first()

    async def load_state(self, session: Reader, match: Match, upto: int | None = None) -> eng.State:
        """Latest snapshot + the choices after it, replayed through the engine on one working
        copy (one copy at most, every step in place); ``upto`` stops at an earlier step (the
        state a seat saw when an older prompt was issued). On a connection without a session
        (db/lean.py), read as tuples (db/state_reads.py)."""
        game = eng.get(match.game)
        match_id = stored_id(match.id)
        upto = match.step if upto is None else upto
        if isinstance(session, Connection):
            snap = await snapshot_at(session, match_id, upto)
        else:
            row = await self.latest_snapshot(session, match_id, upto)
            snap = None if row is None else (row.seq, row.state)
        if snap is None:
            seats = (await seat_count_of(session, match_id) if isinstance(session, Connection)
                     else await self.seat_count(session, match_id))
            state = game.setup(seats, eng.parse_options(game, match.options), match.seed)
            after = 0
        else:
            state = game.state_model().model_validate(snap[1])
            after = snap[0]
        # A state from setup is ours; one validated from a snapshot may share nested values
        # with the snapshot row, so its working copy is taken on the first step.
        working = eng.Working(game, state, owned=snap is None)
        log = (await choices_after(session, match_id, after) if isinstance(session, Connection)
               else [(c.seq, c.seat, c.payload) for c in await self.choices(session, match_id, after)])
        for seq, seat, payload in log:
            if seq > upto:
                break
            working.submit(seat, payload)
        return working.state

    async def replay_all(self, session: AsyncSession, match: Match) -> eng.State:
        """The whole log replayed from setup: the audit path, ignores snapshots."""
        match_id = stored_id(match.id)
        seats = await self.seat_count(session, match_id)
        log = [(c.seat, c.payload) for c in await self.choices(session, match_id) if c.seq <= match.step]
        return eng.replay(match.game, seats, match.options, match.seed, log)

    async def seat_count(self, session: AsyncSession, match_id: int) -> int:
        stmt = select(sa.func.count()).select_from(Seat).where(col(Seat.match_id) == match_id)
        return int((await session.exec(stmt)).one())

    async def save_snapshot(
        self, session: Reader, match_id: int, seq: int, state: eng.State, now: datetime
    ) -> None:
        """Store the state after choice ``seq``; the database drops all but the newest
        KEEP_SNAPSHOTS in the same statement (the trigger of migration 0017, after each
        inserted snapshot: no DELETE of our own in the match transaction).

        The log is the truth and loading needs only the newest snapshot; the one before it
        stays so a prompt issued shortly before the newest snapshot still loads from one
        (older prompt versions replay from setup). Kept, a snapshot every 25 choices cost a
        long Samurai match about 1 MB."""
        values = {"match_id": match_id, "seq": seq, "state": state.model_dump(mode="json"), "created_at": now}
        # one statement, in a session's transaction too (no read of the row first: a session
        # holds no snapshot of its own to keep in step, none is ever changed through one)
        connection = await begun(session)
        await run(connection, prepared(_put_snapshot, connection.dialect,
                                       functools.partial(_put_snapshot, self.dialect), tuple(values)), values)


@functools.cache
def _put_snapshot(dialect: str) -> sa.Insert:
    """`save_snapshot`'s write without a session: the snapshot, or its state replaced if the
    match has one at that step already."""
    insert = (sqlite_insert if dialect == "sqlite" else postgresql_insert)(Snapshot)
    return insert.on_conflict_do_update(index_elements=[col(Snapshot.match_id), col(Snapshot.seq)],
                                        set_={"state": insert.excluded.state})
