"""Concurrent submissions: each applied exactly once, duplicates once, across services and processes."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

from bot.service import MatchService
from db import Choice, Store
from tests.service.helpers import BOB, CAROL, DAVE, HOST, lobby, log_and_state

ROOT = Path(__file__).resolve().parents[2]


async def interaction_log(store: Store, match_id: int) -> list[tuple[int, str | None]]:
    async with store.read() as s:
        rows = (await s.exec(sa.select(Choice.seq, Choice.interaction_id).where(Choice.match_id == match_id)
                             .order_by(Choice.seq))).all()
    return [tuple(r) for r in rows]


async def test_fifty_concurrent_submissions_and_duplicates(db_url: str) -> None:
    # Two service objects on two engines: in-process locks do not help, the database must.
    stores = [await Store.open(db_url), await Store.open(db_url, migrate=False)]
    svcs = [MatchService(s) for s in stores]
    info = await lobby(svcs[0], [HOST, BOB, CAROL, DAVE])  # Dave never bids: the step stays open
    users = [HOST, BOB, CAROL]
    calls = []
    for i in range(50):
        for copy in range(2):  # every interaction arrives twice
            svc = svcs[(i + copy) % 2]
            calls.append(svc.submit(info.id, users[i % 3], {"bid": i % 5}, version=0, interaction_id=f"ix-{i}"))
    results = await asyncio.gather(*calls)
    log = await interaction_log(stores[0], info.id)
    assert [seq for seq, _ in log] == list(range(1, 51))
    assert sorted(ix for _, ix in log) == sorted(f"ix-{i}" for i in range(50))
    assert sum(r.duplicate for r in results) == 50
    for first, second in zip(results[::2], results[1::2], strict=True):
        assert first.seq == second.seq and first.duplicate != second.duplicate
    # A late duplicate still gets the first answer, with no error and no new row.
    again = await svcs[1].submit(info.id, HOST, {"bid": 4}, version=123, interaction_id="ix-0")
    assert again.duplicate and again.seq == results[0].seq
    assert len(await interaction_log(stores[0], info.id)) == 50
    _log, loaded, replayed = await log_and_state(stores[0], info.id)
    assert loaded == replayed
    for s in stores:
        await s.close()


WORKER_SECONDS = 600
"""Generous: 25 submits each take a few seconds on a quiet machine, far longer beside a full suite."""


async def test_two_processes_lose_nothing(db_url: str) -> None:
    store = await Store.open(db_url)
    info = await lobby(MatchService(store), [HOST, BOB, CAROL])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "tests.service.worker", "submit", db_url, str(info.id)]
    procs = [
        await asyncio.create_subprocess_exec(*cmd, str(user), prefix, "25", cwd=ROOT, env=env,
                                             stderr=subprocess.PIPE)
        for user, prefix in ((HOST, "a"), (BOB, "b"))
    ]
    for proc in procs:
        try:  # bounded: a worker stuck on a lock fails this test instead of hanging the suite
            _out, err = await asyncio.wait_for(proc.communicate(), timeout=WORKER_SECONDS)
        except TimeoutError:
            for each in procs:
                if each.returncode is None:
                    each.kill()
            raise AssertionError(f"a submitting process did not finish within {WORKER_SECONDS} s") from None
        assert proc.returncode == 0, err.decode()[-2000:]
    log = await interaction_log(store, info.id)
    assert [seq for seq, _ in log] == list(range(1, 51))
    assert sorted(ix for _, ix in log) == sorted([f"a-{i}" for i in range(25)] + [f"b-{i}" for i in range(25)])
    _log, loaded, replayed = await log_and_state(store, info.id)
    assert loaded == replayed
    await store.close()
