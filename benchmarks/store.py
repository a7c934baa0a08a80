"""Store benchmark: submissions per second through the service, and match load times.

    python benchmarks/store.py [--submits 300] [--pg URL] [--sqlite-only] [--profile FILE]

Runs on a temporary SQLite file and on PostgreSQL (``--pg`` / ``WARHOST_TEST_PG_URL``, else
a throwaway server from the pgserver wheel). Uses the toy game of the service tests, so
the figures measure the store and service, not a game's rules.

On SQLite the submits are also counted and replayed: a SQLAlchemy event listener records
every statement (with its parameters) and every commit the submits send, and the floor
runs exactly those statements, in the same transactions, straight through aiosqlite on a
copy of the database taken before the submits. The listener is the benchmark's own (the bot
has none) and costs ~0.05 ms a submit, so the statements are recorded in a second run of the
same submits on a database of their own (the same seed: the same statements), not in the timed
one; its CPU is printed too. Rates are by CPU time of this process
(``time.process_time()``, the aiosqlite worker threads included) and by wall time.
``--profile`` writes a cProfile of the SQLite submit loop.

The burst (50 matches submitting at once) runs on SQLite with the store's one queue of writers
and without it (pooled writer connections left to SQLite's busy wait), beside its floor: the
slowest of 50 serialised submits waits for all 50, so 50 x the raw submit's wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite  # noqa: E402
from sqlalchemy import event  # noqa: E402

import engine  # noqa: E402
from bot.service import MatchService  # noqa: E402
from bot.storesim import simulate_stored  # noqa: E402
from db import Match, Store  # noqa: E402
from tests.service.toygame import GAME  # noqa: E402

USERS = [1001, 1002, 1003, 1004]


@dataclass
class Recorder:
    """Every statement and commit sent while `on`, by DB-API connection, in order."""

    on: bool = False
    steps: list[tuple[int, str, Any, bool]] = field(default_factory=list)
    """(connection key, SQL or "COMMIT", parameters, executemany)."""
    kinds: Counter[str] = field(default_factory=Counter)

    def listen(self, store: Store) -> None:
        for engine_ in {store.engine, store.read_engine}:
            event.listen(engine_.sync_engine, "before_cursor_execute", self._statement)
            event.listen(engine_.sync_engine, "commit", self._commit)

    def _statement(self, conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any,
                   executemany: bool) -> None:
        # an "insertmanyvalues" batch reports executemany but is one INSERT with flat parameters
        executemany = executemany and isinstance(parameters, list)
        if self.on:
            self.steps.append((id(conn.connection.dbapi_connection), statement, parameters, executemany))
            self.kinds[statement.lstrip().split(None, 1)[0].upper()] += 1

    def _commit(self, conn: Any) -> None:
        if self.on:
            self.steps.append((id(conn.connection.dbapi_connection), "COMMIT", None, False))
            self.kinds["COMMIT"] += 1


@dataclass
class SubmitRun:
    """What `submits_per_second` measured."""

    done: int
    wall_rate: float
    """Submits per second of wall time in submit calls alone."""
    with_reads: float
    """Per second of wall time including the pending_prompt read before each submit."""
    cpu_ms: float
    """CPU milliseconds per submit call (this process, threads included)."""
    loop_cpu_ms: float
    """Of which the event loop's thread (SQLAlchemy, the service; the rest is aiosqlite's thread)."""
    kinds: Counter[str]
    steps: list[tuple[int, str, Any, bool]]


async def submits_per_second(url: str, n: int, channel: int, copy_to: Path | None = None,
                             profile: str | None = None, record: bool = False) -> SubmitRun:
    """Sequential player submissions to one 4-seat match (each its own committed transaction).

    With `copy_to` (SQLite), the database file is copied there before the first timed submit;
    with `record`, the statements of the submit calls are recorded for `replay_raw`."""
    store = await Store.open(url)
    recorder = Recorder()
    if record:
        recorder.listen(store)
    svc = MatchService(store)
    info = await svc.create(1, channel, USERS[0], "p0", "toy", {"rounds": 10_000}, seed=1)
    for u in USERS[1:]:
        await svc.join(channel, u, f"p{u}")
    await svc.start(channel, USERS[0])
    if copy_to is not None:
        await svc.pending_prompt(info.id, USERS[0])  # warm the state cache before the copy, as the loop does
        path = url.split(":///", 1)[1]
        shutil.copyfile(path, copy_to)  # no write is under way: the file and its WAL are one state
        if Path(path + "-wal").exists():
            shutil.copyfile(path + "-wal", str(copy_to) + "-wal")
    profiler = cProfile.Profile(time.thread_time) if profile else None  # the event loop's own CPU
    done = 0
    in_submit = cpu = loop_cpu = 0.0
    started = time.perf_counter()
    while done < n:
        for u in USERS:
            pending = await svc.pending_prompt(info.id, u)
            if pending is None or pending.prompt.answered:
                continue
            choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
            t, c, m = time.perf_counter(), time.process_time(), time.thread_time()
            recorder.on = True
            if profiler is not None:
                profiler.enable()
            await svc.submit(info.id, u, choice, version=pending.version, interaction_id=f"b{done}")
            if profiler is not None:
                profiler.disable()
            recorder.on = False
            cpu += time.process_time() - c
            loop_cpu += time.thread_time() - m
            in_submit += time.perf_counter() - t
            done += 1
    elapsed = time.perf_counter() - started
    await store.close()
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    return SubmitRun(done, done / in_submit, done / elapsed, 1000 * cpu / done, 1000 * loop_cpu / done,
                     recorder.kinds, recorder.steps)


async def replay_raw(path: Path, steps: list[tuple[int, str, Any, bool]], submits: int) -> tuple[float, float]:
    """The recorded statements straight through aiosqlite (one raw connection per recorded
    one, the store's pragmas, every row fetched): (CPU ms per submit, wall submits/s)."""
    conns: dict[int, aiosqlite.Connection] = {}
    for key in dict.fromkeys(step[0] for step in steps):
        conn = await aiosqlite.connect(path, isolation_level=None, timeout=30)
        for pragma in ("PRAGMA busy_timeout=30000", "PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON"):
            await conn.execute(pragma)
        conns[key] = conn
    try:
        started, cpu = time.perf_counter(), time.process_time()
        for key, statement, parameters, many in steps:
            conn = conns[key]
            if statement == "COMMIT":
                await conn.commit()
            elif many:
                await conn.executemany(statement, parameters)
            else:
                cursor = await conn.execute(statement, parameters or ())
                await cursor.fetchall()
                await cursor.close()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - started
    finally:
        for conn in conns.values():
            await conn.close()
    return 1000 * cpu / submits, submits / wall


def replay_in_place(path: Path, steps: list[tuple[int, str, Any, bool]], submits: int) -> tuple[float, float]:
    """The recorded statements through plain sqlite3 on this thread (no trip to any other):
    the floor under the store's in-place statements (db/sqlite_connection.py)."""
    import sqlite3

    conns: dict[int, sqlite3.Connection] = {}
    for key in dict.fromkeys(step[0] for step in steps):
        conn = sqlite3.connect(path, isolation_level=None, timeout=30)
        for pragma in ("PRAGMA busy_timeout=30000", "PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON"):
            conn.execute(pragma)
        conns[key] = conn
    try:
        started, cpu = time.perf_counter(), time.process_time()
        for key, statement, parameters, many in steps:
            conn = conns[key]
            if statement == "COMMIT":
                conn.commit()
            elif many:
                conn.executemany(statement, parameters)
            else:
                conn.execute(statement, parameters or ()).fetchall()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - started
    finally:
        for conn in conns.values():
            conn.close()
    return 1000 * cpu / submits, submits / wall


async def load_times(url: str, repeat: int = 15) -> tuple[int, float, float]:
    """Median ms to load a ~1,000-choice match: snapshot + tail, and full replay from setup."""
    summary = await simulate_stored(url, "toy", 3, 9, "random", {"rounds": 167})
    store = await Store.open(url, migrate=False)
    snap_ms, full_ms = [], []
    for _ in range(repeat):
        async with store.read() as s:
            t = time.perf_counter()
            match = await s.get(Match, summary["match_id"])
            state = await store.load_state(s, match)
            snap_ms.append((time.perf_counter() - t) * 1000)
        async with store.read() as s:
            t = time.perf_counter()
            match = await s.get(Match, summary["match_id"])
            full = await store.replay_all(s, match)
            full_ms.append((time.perf_counter() - t) * 1000)
        assert state is not None and state.model_dump() == full.model_dump()
    await store.close()
    return summary["choices"], statistics.median(snap_ms), statistics.median(full_ms)


async def concurrent_p99(url: str, matches: int = 50, rounds: int = 6, one_writer: bool = True,
                         channels: int = 5_000) -> tuple[float, float]:
    """p50 and p99 wall ms of a submit while `matches` matches submit at the same moment
    (`one_writer`: the store's queue of SQLite writers on or off)."""
    store = await Store.open(url, one_writer=one_writer)
    svc = MatchService(store)
    ids = []
    for n in range(matches):
        channel = channels + n
        info = await svc.create(1, channel, USERS[0], "p0", "toy", {"rounds": 10_000}, seed=n)
        await svc.join(channel, USERS[1], "p1")
        await svc.start(channel, USERS[0])
        ids.append(info.id)
    waits: list[float] = []

    async def one(match_id: int) -> None:
        pending = await svc.pending_prompt(match_id, USERS[0])
        if pending is None or pending.prompt.answered:
            pending = await svc.pending_prompt(match_id, USERS[1])
            user = USERS[1]
        else:
            user = USERS[0]
        if pending is None:
            return
        choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
        started = time.perf_counter()
        await svc.submit(match_id, user, choice, version=pending.version)
        waits.append((time.perf_counter() - started) * 1000)

    for _ in range(rounds):
        await asyncio.gather(*(one(match_id) for match_id in ids))
    await store.close()
    waits.sort()
    return statistics.median(waits), waits[int(len(waits) * 0.99) - 1]


async def bench(name: str, url: str, submits: int, workdir: Path, profile: str | None = None) -> None:
    sqlite = url.startswith("sqlite")
    copy = workdir / "before-submits.db" if sqlite else None
    run = await submits_per_second(url, submits, channel=42, profile=profile if sqlite else None)
    recorded = run
    if copy is not None:  # the same submits again, recorded, on a database of their own
        recorded = await submits_per_second(url.replace("bench.db", "recorded.db"), submits, channel=42,
                                            copy_to=copy, record=True)
    else:
        recorded = await submits_per_second(url, submits, channel=43, record=True)
    per_submit = {kind: count / recorded.done for kind, count in sorted(recorded.kinds.items())}
    statements = sum(count for kind, count in per_submit.items() if kind != "COMMIT")
    print(f"{name:<10} submits/s {run.wall_rate:6.1f} wall (with prompt reads {run.with_reads:5.1f}); "
          f"{run.cpu_ms:5.2f} ms CPU a submit = {1000 / run.cpu_ms:6.0f}/s by CPU ({run.loop_cpu_ms:5.2f} ms in the "
          f"event loop's thread); {statements:.1f} statements "
          f"a submit ({', '.join(f'{kind} {count:.1f}' for kind, count in per_submit.items())}); "
          f"recorded run (the statement listener on) {recorded.cpu_ms:5.2f} ms CPU a submit", flush=True)
    raw_wall_ms = None
    if copy is not None:
        second = workdir / "before-submits-2.db"
        shutil.copyfile(copy, second)
        if Path(str(copy) + "-wal").exists():
            shutil.copyfile(str(copy) + "-wal", str(second) + "-wal")
        floor_cpu, floor_wall = await replay_raw(copy, recorded.steps, recorded.done)
        raw_wall_ms = 1000 / floor_wall
        print(f"{name:<10} floor, the same statements straight through aiosqlite: {floor_cpu:5.2f} ms CPU a submit "
              f"= {1000 / floor_cpu:6.0f}/s by CPU, {floor_wall:6.1f}/s wall; ours {run.cpu_ms / floor_cpu:.2f}x",
              flush=True)
        plain_cpu, plain_wall = replay_in_place(second, recorded.steps, recorded.done)
        print(f"{name:<10} floor, the same statements through plain sqlite3 on this thread: {plain_cpu:5.2f} ms CPU "
              f"a submit = {1000 / plain_cpu:6.0f}/s by CPU, {plain_wall:6.1f}/s wall; ours {run.cpu_ms / plain_cpu:.2f}x",
              flush=True)
    matches = 50
    for one_writer in (True, False) if sqlite else (True,):
        p50, p99 = await concurrent_p99(url, matches, one_writer=one_writer, channels=5_000 if one_writer else 6_000)
        how = ("one writer (the store's queue)" if one_writer else "pooled writers (SQLite's busy wait)") if sqlite else ""
        floor = "" if raw_wall_ms is None else (
            f"; floor: {matches} submits in turn = {matches * raw_wall_ms:6.1f} ms raw, "
            f"{matches * 1000 / run.wall_rate:6.1f} ms at our own sequential wall rate")
        print(f"{name:<10} {matches} matches submitting at once: p50 {p50:6.1f} ms, p99 {p99:6.1f} ms (wall) "
              f"{how}{floor}", flush=True)
    choices, snap, full = await load_times(url)
    print(f"{name:<10} load {choices} choices: snapshot+tail {snap:6.1f} ms, full replay {full:6.1f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submits", type=int, default=300)
    parser.add_argument("--pg", default=os.environ.get("WARHOST_TEST_PG_URL"))
    parser.add_argument("--sqlite-only", action="store_true", help="skip PostgreSQL")
    parser.add_argument("--profile", help="write a cProfile of the SQLite submit calls to this file")
    args = parser.parse_args()
    engine.register(GAME)
    print(f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench("sqlite", f"sqlite+aiosqlite:///{tmp}/bench.db", args.submits, Path(tmp), args.profile))
        if args.sqlite_only:
            return
        server = None
        url = args.pg
        if not url:
            import pgserver

            server = pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
            url = server.get_uri()
        url = "postgresql+asyncpg://" + url.split("://", 1)[1]
        try:
            asyncio.run(bench("postgresql", url, args.submits, Path(tmp)))
        finally:
            if server is not None:
                server.cleanup()


if __name__ == "__main__":
    main()
