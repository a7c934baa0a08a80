"""Store basics on both databases: ids, times, JSON, snapshots vs replay, version check."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

import engine
from db import Choice, Match, Seat, Snapshot, Store, VersionConflict
from tests.db.busy import every_write_turn_held
from tests.service.toygame import GAME

BIG = 2**63 - 1  # Discord snowflakes fill 64 bits


@pytest.fixture(autouse=True)
def _toy() -> None:
    engine.register(GAME)


async def _match(store: Store, steps: int, seed: int = 3) -> int:
    """A started toy match with ``steps`` logged choices (random legal play), snapshots every 10."""
    now = datetime(2026, 5, 1, tzinfo=UTC)
    async with store.write() as s:
        m = Match(guild_id=BIG, channel_id=BIG - 1, open_channel=BIG - 1, game="toy", options={"rounds": 500},
                  seed=seed, status="active", host_id=BIG - 2, max_seats=3, created_at=now, updated_at=now)
        s.add(m)
        await s.flush()
        for n in range(3):
            s.add(Seat(match_id=m.id, seat_no=n, user_id=BIG - 10 - n, name=f"p{n}"))
        state = GAME.setup(3, GAME.options_model()(rounds=500), seed)
        await store.save_snapshot(s, m.id, 0, state, now)
        policy = GAME.policies()["random"]
        for seq in range(1, steps + 1):
            prompt = next(p for p in GAME.prompts(state) if not p.answered)
            choice = engine.decide(GAME, policy, state, prompt, engine.rng_for(seed, seq))
            state = GAME.submit(state, prompt.seat, choice).state
            s.add(Choice(match_id=m.id, seq=seq, seat=prompt.seat, kind=prompt.kind, payload=choice, public=[],
                         created_at=now))
            if seq % 10 == 0:
                await store.save_snapshot(s, m.id, seq, state, now)
        m.step = steps
        return m.id


async def test_ids_times_and_json_round_trip(store: Store) -> None:
    mid = await _match(store, 5)
    async with store.read() as s:
        m = await s.get(Match, mid)
        seats = (await s.exec(sa.select(Seat).where(Seat.match_id == mid))).scalars().all()
    assert m.guild_id == BIG and m.host_id == BIG - 2 and seats[0].user_id == BIG - 10
    assert m.created_at == datetime(2026, 5, 1, tzinfo=UTC) and m.created_at.tzinfo is not None
    assert m.options == {"rounds": 500}


async def test_snapshot_plus_tail_equals_full_replay(store: Store) -> None:
    mid = await _match(store, 57)
    async with store.read() as s:
        m = await s.get(Match, mid)
        snap = await store.latest_snapshot(s, mid, m.step)
        loaded = await store.load_state(s, m)
        replayed = await store.replay_all(s, m)
    assert snap.seq == 50
    assert loaded.model_dump() == replayed.model_dump() and loaded.step == 57


async def test_version_check_refuses_a_stale_writer(store: Store) -> None:
    mid = await _match(store, 1)
    now = datetime.now(UTC)
    async with store.read() as s:
        stale = await s.get(Match, mid)
    async with store.write() as s:
        fresh = await store.lock_match(s, mid)
        await store.bump(s, fresh, now)
    with pytest.raises(VersionConflict):
        async with store.write() as s:
            await store.bump(s, stale, now)
    async with store.read() as s:
        assert (await s.get(Match, mid)).version == 1


async def test_interaction_ids_are_unique_per_match(store: Store) -> None:
    mid = await _match(store, 0)
    now = datetime.now(UTC)
    async with store.write() as s:
        s.add(Choice(match_id=mid, seq=1, seat=0, kind="bid", payload={}, public=[], interaction_id="x",
                     created_at=now))
    with pytest.raises(sa.exc.IntegrityError):
        async with store.write() as s:
            s.add(Choice(match_id=mid, seq=2, seat=0, kind="bid", payload={}, public=[], interaction_id="x",
                         created_at=now))


async def test_only_the_newest_two_snapshots_are_kept_and_every_step_still_loads(store: Store) -> None:
    mid = await _match(store, 57)
    async with store.read() as s:
        m = await s.get(Match, mid)
        kept = (await s.exec(sa.select(Snapshot.seq).where(Snapshot.match_id == mid).order_by(Snapshot.seq))).all()
        replayed = await store.replay_all(s, m)
        loaded = await store.load_state(s, m)
        recent = await store.load_state(s, m, upto=45)
        early = await store.load_state(s, m, upto=12)
    assert [row[0] for row in kept] == [40, 50]
    assert loaded.model_dump() == replayed.model_dump()
    log = [(c.seat, c.payload) for c in await _choices(store, mid)]
    for upto, state in ((45, recent), (12, early)):
        assert state.model_dump() == engine.replay("toy", 3, {"rounds": 500}, 3, log[:upto]).model_dump()


async def _choices(store: Store, mid: int) -> list[Choice]:
    async with store.read() as s:
        return await store.choices(s, mid)


async def test_postgres_ends_a_transaction_left_idle_so_a_paused_process_holds_no_lock(pg_url: str) -> None:
    """A process stopped inside a transaction (SIGSTOP, a frozen VM) must not keep its locks: the
    server ends the idle transaction, another process gets the lock, and the sleeper's next
    statement fails rather than writing on."""
    import asyncio

    import asyncpg

    await (await Store.open(pg_url)).close()  # migrated by a store of its own: a loaded machine idles between migration statements
    store = await Store.open(pg_url, migrate=False, idle_in_transaction_ms=300)
    try:
        with pytest.raises(sa.exc.DBAPIError):
            async with store.write() as session:
                await session.execute(sa.text("SELECT pg_advisory_xact_lock(41)"))
                plain = "postgresql://" + pg_url.split("://", 1)[1]
                other = await asyncpg.connect(plain)
                try:
                    assert not await other.fetchval("SELECT pg_try_advisory_lock(41)"), "held while busy"
                    await asyncio.sleep(1.5)  # the holder sleeps, idle, inside its transaction
                    assert await other.fetchval("SELECT pg_try_advisory_lock(41)"), "the server ended it"
                finally:
                    await other.close()
                await session.execute(sa.text("SELECT 1"))
    finally:
        await store.close()


async def test_a_sqlite_connection_stopped_twice_ends_instead_of_waiting_for_ever(tmp_path: Any) -> None:
    """SQLAlchemy's terminate of a cancelled checkout stops the connection's thread, then its
    graceful close stops it again: the close must end (it hung the event loop's shutdown)."""
    import asyncio
    import threading

    from db.sqlite_connection import OnceStopped, connect_once_stopped

    connection = await connect_once_stopped(str(tmp_path / "twice.db"))
    gate = threading.Event()
    busy = asyncio.ensure_future(connection._execute(gate.wait))  # its thread is busy: the stop waits in line
    await asyncio.sleep(0.05)
    connection.stop()
    closing = asyncio.ensure_future(connection.close())
    await asyncio.sleep(0.05)
    gate.set()
    await busy
    with pytest.raises(ValueError, match="Connection closed"):
        await asyncio.wait_for(closing, 30)
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
    try:
        async with store.engine.connect() as conn:
            raw = await conn.get_raw_connection()
            assert isinstance(raw.driver_connection, OnceStopped), "the store's connections stop once"
    finally:
        await store.close()


async def test_a_closed_sqlite_store_holds_no_lock_even_for_a_connection_never_given_back(tmp_path: Any) -> None:
    """A task cancelled inside a write transaction may leave its connection checked out; once the
    store is closed, another store on the same file (a restarted bot) writes at once."""
    import sqlite3

    path = tmp_path / "held.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    orphan = await store.engine.connect()  # checked out and never given back; its BEGIN IMMEDIATE holds the lock
    await orphan.exec_driver_sql("CREATE TABLE held (x INTEGER)")
    await store.close()
    for _ in range(100):
        try:
            with sqlite3.connect(path, timeout=0.05) as conn:
                conn.execute("BEGIN IMMEDIATE")
                conn.rollback()
            break
        except sqlite3.OperationalError:
            import asyncio

            await asyncio.sleep(0.05)
    else:
        raise AssertionError("the closed store's connection still holds the write lock")


async def test_a_write_that_gets_no_turn_in_time_is_refused_busy_and_writes_nothing(db_url: str) -> None:
    """Overload: the store gives a transaction its connection (and, on SQLite, its write turn)
    within ``wait_seconds`` or refuses it with StoreBusy before anything is written, instead of
    a player's click waiting half a minute and failing with an unexpected error."""
    from db import StoreBusy
    from db.models import Secret

    store = await Store.open(db_url, pool_size=1, wait_seconds=0.3)
    try:
        async with every_write_turn_held(store):
            with pytest.raises(StoreBusy):
                async with store.write() as session:
                    session.add(Secret(name="busy", value="not written", created_at=datetime.now(UTC)))
                    await session.flush()
        async with store.read() as session:
            assert await session.get(Secret, "busy") is None
        async with store.write() as session:  # once the holders are done, writes go through again
            session.add(Secret(name="busy", value="written", created_at=datetime.now(UTC)))
        async with store.read() as session:
            found = await session.get(Secret, "busy")
            assert found is not None and found.value == "written"
    finally:
        await store.close()


async def test_sqlite_transactions_end_as_they_should_with_one_trip_statements(tmp_path: Any,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The SQLite connection's own cursor and rollback (db/sqlite_connection.py): rows, counts
    and new ids read as before; a failed write is rolled back and leaves no write lock (another
    connection takes it at once); a committed one is given back to the pool without a rollback."""
    import sqlite3

    from db.sqlite_connection import OnceStopped

    path = tmp_path / "trips.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    rollbacks: list[bool] = []
    sent = OnceStopped.in_place

    def counted(self: OnceStopped, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if getattr(fn, "__name__", "") == "rollback":
            rollbacks.append(True)
        return sent(self, fn, args, kwargs)

    monkeypatch.setattr(OnceStopped, "in_place", counted)
    now = datetime(2026, 5, 1, tzinfo=UTC)
    try:
        async with store.write() as session:
            connection = await session.connection()
            inserted = await connection.execute(sa.text("INSERT INTO secrets (name, value, created_at) "
                                                        "VALUES ('a', 'x', :now), ('b', 'y', :now)"), {"now": now})
            assert inserted.rowcount == 2
            updated = await connection.execute(sa.text("UPDATE secrets SET value = 'z' WHERE name IN ('a', 'b')"))
            assert updated.rowcount == 2
        assert rollbacks == []  # committed: nothing to roll back on its way back to the pool

        with pytest.raises(RuntimeError):
            async with store.write() as session:
                await (await session.connection()).execute(sa.text("DELETE FROM secrets"))
                raise RuntimeError("the change fails half-way")
        assert rollbacks == [True]
        other = sqlite3.connect(path, timeout=0)  # no busy wait: a lock left behind fails at once
        try:
            other.execute("BEGIN IMMEDIATE")
            other.rollback()
        finally:
            other.close()

        async with store.read() as session:
            rows = (await session.execute(sa.text("SELECT name, value FROM secrets ORDER BY name"))).all()
        assert [tuple(row) for row in rows] == [("a", "z"), ("b", "z")]
    finally:
        await store.close()
