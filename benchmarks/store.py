"""Store benchmark: submissions per second through the service, and match load times.

    python benchmarks/store.py [--submits 300] [--pg URL]

Runs on a temporary SQLite file and on PostgreSQL (``--pg`` / ``WARHOST_TEST_PG_URL``, else
a throwaway server from the pgserver wheel). Uses the toy game of the service tests, so
the figures measure the store and service, not a game's rules.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bot.service import MatchService  # noqa: E402
from bot.storesim import simulate_stored  # noqa: E402
from db import Match, Store  # noqa: E402
from tests.service.toygame import GAME  # noqa: E402

USERS = [1001, 1002, 1003, 1004]


async def submits_per_second(url: str, n: int, channel: int) -> tuple[float, float]:
    """Sequential player submissions to one 4-seat match (each its own committed transaction).

    Returns (submits per second of submit calls alone, per second including the
    pending_prompt read each seat makes before it submits, as a front-end would)."""
    store = await Store.open(url)
    svc = MatchService(store)
    info = await svc.create(1, channel, USERS[0], "p0", "toy", {"rounds": 10_000}, seed=1)
    for u in USERS[1:]:
        await svc.join(channel, u, f"p{u}")
    await svc.start(channel, USERS[0])
    done = 0
    in_submit = 0.0
    started = time.perf_counter()
    while done < n:
        for u in USERS:
            pending = await svc.pending_prompt(info.id, u)
            if pending is None or pending.prompt.answered:
                continue
            choice = {"bid": 0} if pending.prompt.kind == "bid" else {"action": "gather"}
            t = time.perf_counter()
            await svc.submit(info.id, u, choice, version=pending.version, interaction_id=f"b{done}")
            in_submit += time.perf_counter() - t
            done += 1
    elapsed = time.perf_counter() - started
    await store.close()
    return done / in_submit, done / elapsed


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


async def concurrent_p99(url: str, matches: int = 50, rounds: int = 6) -> tuple[float, float]:
    """p50 and p99 wall ms of a submit while `matches` matches submit at the same moment."""
    store = await Store.open(url)
    svc = MatchService(store)
    ids = []
    for n in range(matches):
        channel = 5_000 + n
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


async def bench(name: str, url: str, submits: int) -> None:
    p50, p99 = await concurrent_p99(url)
    print(f"{name:<10} 50 matches submitting at once: p50 {p50:6.1f} ms, p99 {p99:6.1f} ms (wall)", flush=True)
    rate, with_reads = await submits_per_second(url, submits, channel=42)
    choices, snap, full = await load_times(url)
    print(f"{name:<10} submits/s {rate:6.1f} (with prompt reads {with_reads:5.1f})   load {choices} choices: "
          f"snapshot+tail {snap:6.1f} ms, full replay {full:6.1f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submits", type=int, default=300)
    parser.add_argument("--pg", default=os.environ.get("WARHOST_TEST_PG_URL"))
    args = parser.parse_args()
    engine.register(GAME)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(bench("sqlite", f"sqlite+aiosqlite:///{tmp}/bench.db", args.submits))
        server = None
        url = args.pg
        if not url:
            import pgserver

            server = pgserver.get_server(Path(tmp) / "pg", cleanup_mode="stop")
            url = server.get_uri()
        url = "postgresql+asyncpg://" + url.split("://", 1)[1]
        try:
            asyncio.run(bench("postgresql", url, args.submits))
        finally:
            if server is not None:
                server.cleanup()


if __name__ == "__main__":
    main()
