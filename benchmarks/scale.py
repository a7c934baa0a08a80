"""Scale benchmark: a SQLite database of 10,000 active matches, and what one more submit, one
deadline tick and the service's memory cost there, each beside its floor measured in the
same run.

    python benchmarks/scale.py [--matches 10000] [--template 100]

`--template` matches are played into being through the service (toy game, 4 seats, a few
choices each, deadlines running); the rest are row-for-row copies of them under new ids and
channels, so building 10,000 takes seconds. Figures are CPU time of this process (the
aiosqlite worker threads included), median of repeats.

Floors: the submit is compared with the same submit in a database of the template alone; the
tick with the raw indexed query for due deadlines through aiosqlite (the least any tick can
read), with the idle tick's own two statements raw, and with the old full scan of every active
deadline through the ORM (seats.away_until is indexed since migration 0008: without the index,
finding seats back from time away scanned every seat: 3.9 ms a tick, 1.5 with it).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite  # noqa: E402
from sqlmodel import select  # noqa: E402

import engine  # noqa: E402
from bot.service import MatchService  # noqa: E402
from db import Deadline, Match, Store  # noqa: E402
from tests.service.toygame import GAME  # noqa: E402

USERS = [1001, 1002, 1003, 1004]
CHANNEL_BASE = 10**12
CLONED = ("seats", "choices", "snapshots", "deadlines")
DUE_RAW = ("SELECT * FROM deadlines WHERE fire_at <= ? AND EXISTS (SELECT 1 FROM matches "
           "WHERE matches.id = deadlines.match_id AND matches.status = 'active') ORDER BY fire_at")
OTHER_WORK_RAW = ("SELECT EXISTS (SELECT 1 FROM undos WHERE status = 'pending' AND due_at <= ?), "
                  "EXISTS (SELECT 1 FROM seats WHERE away_until IS NOT NULL AND away_until <= ? AND EXISTS "
                  "(SELECT 1 FROM matches WHERE matches.id = seats.match_id AND status IN ('active', 'paused'))), "
                  "EXISTS (SELECT 1 FROM match_votes WHERE status = 'pending' AND due_at <= ?), "
                  "EXISTS (SELECT 1 FROM matches WHERE paused_until <= ? AND status = 'paused'), "
                  "EXISTS (SELECT 1 FROM held_reminders WHERE send_at <= ?)")
"""The idle tick's two statements (`due_deadlines`, `other_tick_work`), as SQLite runs them."""
"""Tables copied with a match (each has match_id); notices stay behind: the outbox is empty."""


async def cpu_ms(action: Callable[[], Awaitable[object]], repeat: int = 15) -> float:
    """Median CPU milliseconds of `action`, threads included."""
    samples = []
    for _ in range(repeat):
        started = time.process_time()
        await action()
        samples.append((time.process_time() - started) * 1000)
    return statistics.median(samples)


async def play_template(svc: MatchService, count: int) -> list[int]:
    """`count` started 4-seat toy matches, each with a few choices made."""
    ids = []
    for n in range(count):
        channel = CHANNEL_BASE + n
        info = await svc.create(1, channel, USERS[0], "p0", "toy", {"rounds": 10_000}, seed=n)
        for user in USERS[1:]:
            await svc.join(channel, user, f"p{user}")
        await svc.start(channel, USERS[0])
        for user in USERS[:2]:
            pending = await svc.pending_prompt(info.id, user)
            if pending is not None:
                choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
                await svc.submit(info.id, user, choice, version=pending.version)
        ids.append(info.id)
    return ids


async def clone(path: str, template: int, total: int) -> None:
    """Copy the template's rows until `total` matches exist (new match ids and channels)."""
    async with aiosqlite.connect(path) as db:
        columns = {}
        for table in ("matches", *CLONED):
            rows = await (await db.execute(f"PRAGMA table_info({table})")).fetchall()
            columns[table] = [row[1] for row in rows]
        copies = (total - template + template - 1) // template
        for copy in range(1, copies + 1):
            shift = copy * template
            limit = min(template, total - shift)
            if limit <= 0:
                break
            match_cols = columns["matches"]
            select_cols = [
                f"id + {shift}" if c == "id" else
                f"channel_id + {shift}" if c == "channel_id" else
                f"open_channel + {shift}" if c == "open_channel" else c
                for c in match_cols]
            await db.execute(f"INSERT INTO matches ({', '.join(match_cols)}) SELECT {', '.join(select_cols)} "
                             f"FROM matches WHERE id <= {limit}")
            for table in CLONED:
                cols = [c for c in columns[table] if not (c == "id" and table != "deadlines")]
                picked = [f"match_id + {shift}" if c == "match_id" else c for c in cols]
                await db.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(picked)} "
                                 f"FROM {table} WHERE match_id <= {limit}")
        await db.execute("UPDATE notices SET delivered_at = created_at WHERE delivered_at IS NULL")
        await db.commit()


async def submit_cost(svc: MatchService, match_id: int) -> float:
    """CPU ms of one player's submit (a revisable secret bid, so it can repeat forever)."""
    pending = await svc.pending_prompt(match_id, USERS[2])
    assert pending is not None

    async def once() -> None:
        await svc.submit(match_id, USERS[2], {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"},
                         version=pending.version)

    return await cpu_ms(once)


async def old_full_scan(store: Store) -> None:
    """What the tick read before fire_at: every active deadline through the ORM."""
    async with store.read() as session:
        stmt = select(Deadline).join(Match, Match.id == Deadline.match_id).where(Match.status == "active")
        list((await session.exec(stmt)).all())


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run(total: int, template: int) -> None:
    engine.register(GAME)
    print(f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    with tempfile.TemporaryDirectory() as tmp:
        small_path, big_path = f"{tmp}/small.db", f"{tmp}/big.db"
        small = await Store.open(f"sqlite+aiosqlite:///{small_path}")
        small_ids = await play_template(MatchService(small), template)
        small_submit = await submit_cost(MatchService(small), small_ids[0])
        await small.close()

        started = time.perf_counter()
        big = await Store.open(f"sqlite+aiosqlite:///{big_path}")
        await play_template(MatchService(big), template)
        await big.close()
        await clone(big_path, template, total)
        built = time.perf_counter() - started
        big = await Store.open(f"sqlite+aiosqlite:///{big_path}", migrate=False)
        svc = MatchService(big)
        async with big.read() as session:
            active = len((await session.exec(select(Match.id).where(Match.status == "active"))).all())
        print(f"database: {active} active matches built in {built:.1f} s wall; "
              f"{Path(big_path).stat().st_size / 1024 / 1024:.1f} MiB "
              f"({Path(big_path).stat().st_size / active / 1024:.1f} KiB per match)")

        big_submit = await submit_cost(svc, total // 2)
        print(f"submit       {big_submit:7.2f} ms CPU at {active} matches   floor: {small_submit:6.2f} ms at {template}")

        tick = await cpu_ms(lambda: svc.tick())
        scan = await cpu_ms(lambda: old_full_scan(big), repeat=5)
        now = svc.clock().replace(tzinfo=None).isoformat(" ")
        async with aiosqlite.connect(big_path) as raw:
            async def indexed() -> None:
                await (await raw.execute("SELECT match_id FROM deadlines WHERE fire_at <= ?", (now,))).fetchall()

            async def idle_statements() -> None:
                await raw.execute("BEGIN")
                await (await raw.execute(DUE_RAW, (now,))).fetchall()
                await (await raw.execute(OTHER_WORK_RAW, (now, now, now, now, now))).fetchall()
                await raw.rollback()

            floor = await cpu_ms(indexed)
            statements = await cpu_ms(idle_statements)
        print(f"tick         {tick:7.2f} ms CPU (nothing due)      floor: {floor:6.2f} ms raw indexed query; "
              f"{statements:6.2f} ms the tick's own statements raw; old full scan {scan:7.2f} ms")

        before = rss_mib()
        for match_id in range(1, min(active, 2000) + 1):
            await svc.pending_prompt(match_id, USERS[0])
        print(f"memory       max RSS {rss_mib():6.0f} MiB after touching 2,000 matches (was {before:.0f}); "
              f"states cached {len(svc._cache)} (bound {svc._cache.size}), locks {len(svc._locks)}")
        await big.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--template", type=int, default=100)
    args = parser.parse_args()
    asyncio.run(run(args.matches, args.template))


if __name__ == "__main__":
    main()
