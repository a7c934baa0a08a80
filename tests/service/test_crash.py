"""Crash test: a player process is SIGKILLed at random moments, again and again.

After every restart the match goes on; every acknowledged choice is in the log; at the
end the stored state equals a replay of the whole log.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import engine
from bot.service import MatchService
from db import Store
from tests.service.helpers import BOB, HOST, lobby, log_and_state
from tests.service.toygame import GAME

ROOT = Path(__file__).resolve().parents[2]
KILLS = 22


def _spawn(url: str, match_id: int, errors: IO[str]) -> subprocess.Popen[str]:
    """The worker's stderr goes to a file: a pipe nobody reads while stdout is read line by line
    would block the worker once its buffer filled."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    errors.seek(0)
    errors.truncate()
    return subprocess.Popen(
        [sys.executable, "-m", "tests.service.worker", "play", url, str(match_id), str(HOST), str(BOB)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=errors, text=True,
    )


def _errors(errors: IO[str]) -> str:
    errors.flush()
    errors.seek(0)
    return errors.read()[-3000:]


def _acks(lines: list[str]) -> dict[str, int]:
    return {parts[1]: int(parts[2]) for parts in (line.split() for line in lines) if parts and parts[0] == "ACK"}


def test_sigkill_at_random_moments(tmp_path: Path) -> None:
    engine.register(GAME)
    url = f"sqlite+aiosqlite:///{tmp_path / 'crash.db'}"
    rnd = random.Random(os.environ.get("WARHOST_CRASH_SEED"))

    async def setup() -> int:
        store = await Store.open(url)
        info = await lobby(MatchService(store), [HOST, BOB], ais=1, rounds=90)  # ~340 acks: a worker that runs ahead of its kills under load still leaves the match unfinished
        await store.close()
        return info.id

    match_id = asyncio.run(setup())
    acked: dict[str, int] = {}
    kills = 0
    finished = False
    errors = (tmp_path / "worker.err").open("w+")
    while kills < KILLS:
        proc = _spawn(url, match_id, errors)
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "READY":
            proc.kill()
            proc.wait()
            raise AssertionError(_errors(errors))
        lines: list[str] = []
        for _ in range(rnd.randint(0, 5)):
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
        time.sleep(rnd.uniform(0, 0.03))  # land between acks, often inside a transaction
        proc.send_signal(signal.SIGKILL)
        out, _err = proc.communicate(timeout=120)
        lines.extend(out.splitlines())
        acked.update(_acks(lines))
        if "DONE" in out:
            finished = True
            break
        assert proc.returncode == -signal.SIGKILL
        kills += 1
    assert kills >= 20, f"the match ended after {kills} kills; make it longer"
    assert not finished
    proc = _spawn(url, match_id, errors)
    out, _err = proc.communicate(timeout=120)
    assert proc.returncode == 0, _errors(errors)
    errors.close()
    acked.update(_acks(out.splitlines()))
    assert "DONE" in out

    async def check() -> None:
        store = await Store.open(url, migrate=False)
        log, loaded, replayed = await log_and_state(store, match_id)
        status = (await MatchService(store).get_match(match_id)).status
        await store.close()
        assert status == "finished"
        assert [c.seq for c in log] == list(range(1, len(log) + 1))
        by_ix = {c.interaction_id: c.seq for c in log if c.interaction_id}
        missing = {ix for ix in acked if ix not in by_ix}
        assert not missing, f"acknowledged choices lost: {sorted(missing)[:5]}"
        assert all(by_ix[ix] == seq for ix, seq in acked.items())
        assert loaded == replayed

    asyncio.run(check())
