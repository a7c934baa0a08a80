"""The drawing pool: maps drawn in worker processes are the maps the bot drew in a thread, a
worker that dies loses no post, size 0 draws in a thread, and a closed pool leaves no process."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import pytest

import render
from bot.service import drawing
from bot.service.history import draw_replay
from bot.settings import Settings
from bot.simulate import simulate
from tests.render import views

NAMES = ["alice", "bob", "carol"]
WAIT = 120.0
"""Seconds a test waits for a worker to show a sign of life (a loaded machine is slow, not broken)."""


def _hangs_the_first_time(marker: str) -> int:
    """The first run writes its process id and hangs (until it is killed); a retry answers at once."""
    path = Path(marker)
    if path.exists():
        return os.getpid()
    partial = path.with_suffix(".partial")
    partial.write_text(str(os.getpid()))
    partial.replace(path)
    time.sleep(600)
    return -1


def _dies_outside(bot_pid: int) -> int:
    """Kills any worker process that runs it; in the bot's own process it simply answers."""
    if os.getpid() != bot_pid:
        os._exit(3)
    return os.getpid()


def children() -> set[int | None]:
    """This process's multiprocessing children (the pool's workers, and any a test run started)."""
    return {child.pid for child in multiprocessing.active_children()}


def alive(pid: int) -> bool:
    """Whether the process runs (an exited one its parent has not reaped yet counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return not stat.parent.parent.is_dir()  # no /proc here: os.kill's answer stands


KILLED_BOT = """
import asyncio, os, signal
from bot.service import drawing

async def main():
    pool = drawing.DrawingPool(1)
    print(await pool.run("pid", os.getpid), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


@pytest.fixture
async def pool() -> AsyncIterator[drawing.DrawingPool]:
    made = drawing.DrawingPool(1)
    yield made
    await made.close()


async def test_a_map_drawn_by_a_worker_is_the_map_drawn_in_process(pool: drawing.DrawingPool) -> None:
    public = views.three_seat_mid()
    private = views.seat_view(public, 1)
    assert await pool.draw("tinybigwars", public, NAMES) == render.draw("tinybigwars", public, names=NAMES)
    assert await pool.draw_private("tinybigwars", private) == render.draw_private("tinybigwars", private)
    assert pool.where == {"pool": 2, "thread": 0}
    assert await pool.run("pid", os.getpid) != os.getpid()
    if hasattr(os, "nice"):  # drawing yields the CPU to the bot's event loop on a busy machine
        assert await pool.run("niceness", os.nice, 0) == min(19, os.nice(0) + drawing.WORKER_NICENESS)


async def test_a_replay_drawn_by_the_process_pool_is_the_replay_drawn_in_process() -> None:
    summary = simulate("tinybigwars", 2, 11, options={"round_limit": 1})
    args = ("tinybigwars", 2, {"round_limit": 1}, 11, summary["log"], ["alice", "bob"])
    configured = await drawing.configure(1)
    try:
        assert drawing.pool() is configured and configured.workers == 1
        replay = await drawing.run("replay", draw_replay, *args)
        assert replay == draw_replay(*args)
        assert configured.where["pool"] == 1
    finally:
        await drawing.close()


async def test_a_worker_killed_mid_draw_loses_no_draw(pool: drawing.DrawingPool, tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    marker = tmp_path / "worker.pid"
    public = views.two_seat_start()
    hanging = asyncio.create_task(pool.run("job", _hangs_the_first_time, str(marker)))
    queued = asyncio.create_task(pool.draw("tinybigwars", public, NAMES))  # waits behind it (one worker)
    loop = asyncio.get_running_loop()
    end = loop.time() + WAIT
    while not marker.exists():
        assert loop.time() < end, "the worker never started the job"
        await asyncio.sleep(0.02)
    killed = int(marker.read_text())
    with caplog.at_level(logging.WARNING, logger=drawing.__name__):
        os.kill(killed, signal.SIGKILL)
        answered = await hanging
        drawn = await queued
    assert answered not in (killed, os.getpid(), -1), "the job ran again in a fresh worker"
    assert drawn == render.draw("tinybigwars", public, names=NAMES)
    assert pool.replaced == 1
    died = [r for r in caplog.records if "drawing worker died" in r.getMessage()]
    assert len(died) == 1, "the two draws broken together are one fault, logged once"
    assert await pool.draw("tinybigwars", public, NAMES) == drawn, "the next draw succeeds too"


async def test_a_pool_that_keeps_dying_draws_in_a_thread(pool: drawing.DrawingPool,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=drawing.__name__):
        answered = await pool.run("job", _dies_outside, os.getpid())
    assert answered == os.getpid()
    assert pool.replaced == 2 and pool.where == {"pool": 0, "thread": 1}
    fallbacks = [r for r in caplog.records if "draw runs in a thread" in r.getMessage()]
    assert len(fallbacks) == 1
    public = views.two_seat_start()
    assert await pool.draw("tinybigwars", public, NAMES) == render.draw("tinybigwars", public, names=NAMES)


async def test_size_zero_draws_in_a_thread_of_this_process() -> None:
    before = children()
    threads = drawing.DrawingPool(0)
    public = views.two_seat_start()
    assert await threads.run("pid", os.getpid) == os.getpid()
    assert await threads.draw("tinybigwars", public, NAMES) == render.draw("tinybigwars", public, names=NAMES)
    assert threads.where == {"pool": 0, "thread": 2}
    assert children() == before
    figures = threads.figures()
    assert figures["draw"].count == 1 and len(figures["draw"].samples) == 1


async def test_no_worker_before_the_first_draw_and_none_after_close() -> None:
    before = children()
    idle = drawing.DrawingPool(1)
    await idle.close()
    assert children() == before
    busy = drawing.DrawingPool(1)
    worker = await busy.run("pid", os.getpid)
    assert alive(worker) and children() == before | {worker}
    await busy.close()
    assert not alive(worker)
    assert children() == before
    assert await busy.run("pid", os.getpid) == os.getpid(), "a closed pool draws in a thread"
    assert children() == before


async def test_a_bot_killed_outright_leaves_no_worker_behind() -> None:
    """SIGKILL gives the bot no chance to close its pool: the workers follow it out on their own."""
    root = Path(__file__).resolve().parents[2]
    ran = await asyncio.to_thread(subprocess.run, [sys.executable, "-c", KILLED_BOT], cwd=root,
                                  capture_output=True, text=True, timeout=WAIT)
    assert ran.returncode == -signal.SIGKILL, ran.stderr
    worker = int(ran.stdout.split()[0])
    loop = asyncio.get_running_loop()
    end = loop.time() + WAIT
    while alive(worker):
        assert loop.time() < end, f"worker {worker} still runs after its bot was killed"
        await asyncio.sleep(0.05)


async def test_an_unconfigured_or_closed_process_draws_in_a_thread() -> None:
    """The terminal table and the command line never configure the pool: they draw as before;
    after the bot's close, a late draw runs in a thread too rather than start a worker again."""
    assert drawing.pool().workers == 0
    assert await drawing.run("pid", os.getpid) == os.getpid()
    before = children()
    configured = await drawing.configure(1)
    worker = await drawing.run("pid", os.getpid)
    assert worker != os.getpid() and configured.where["pool"] == 1
    await drawing.close()
    assert drawing.pool().workers == 0 and not alive(worker) and children() == before
    assert await drawing.run("pid", os.getpid) == os.getpid()


async def test_a_game_registered_at_run_time_draws_here(pool: drawing.DrawingPool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker knows the renderers render/ ships; a stand-in registered in this process alone
    (as tests register a toy game) draws in a thread rather than fail in the worker."""
    monkeypatch.setitem(render.RENDERERS, "toy", SimpleNamespace(draw=lambda view, names: b"toy map",
                                                              draw_private=lambda view, names: b"toy panel"))
    assert await pool.draw("toy", {}, None) == b"toy map"
    assert await pool.draw_private("toy", {}) == b"toy panel"
    assert pool.where == {"pool": 0, "thread": 2}


def test_a_negative_size_is_refused() -> None:
    with pytest.raises(ValueError, match="0 workers"):
        drawing.DrawingPool(-1)


def test_the_size_comes_from_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DRAW_WORKERS", raising=False)
    assert Settings(_env_file=None).draw_workers is None  # type: ignore[call-arg]
    assert drawing.default_workers() >= 1
    monkeypatch.setenv("DRAW_WORKERS", "0")
    assert Settings(_env_file=None).draw_workers == 0  # type: ignore[call-arg]
    monkeypatch.setenv("DRAW_WORKERS", " ")
    assert Settings(_env_file=None).draw_workers is None  # type: ignore[call-arg]


def _thinks_until(release: str) -> int:
    """A long think: holds its worker until the file ``release`` exists, then answers its process id."""
    while not Path(release).exists():
        time.sleep(0.01)
    return os.getpid()


async def test_a_map_is_drawn_while_a_search_ai_thinks(tmp_path: Path) -> None:
    """Thinks have a pool of their own: a phase's map never waits behind a think (with one shared
    worker it did, for as long as the think took)."""
    release = tmp_path / "release"
    configured = await drawing.configure(1)
    try:
        thinking = asyncio.create_task(drawing.think(_thinks_until, str(release)))
        public = views.two_seat_start()
        # the think still holds its worker: in a shared pool this draw would wait for the release
        drawn = await asyncio.wait_for(drawing.draw("tinybigwars", public, NAMES), WAIT)
        assert drawn == render.draw("tinybigwars", public, names=NAMES)
        assert not thinking.done()
        release.write_text("go")
        thinker = await thinking
        assert thinker != os.getpid() and configured.where["pool"] == 1
        assert drawing.thinking_pool().where["pool"] == 1
        assert drawing.thinking_pool().figures()["think"].count == 1
        if hasattr(os, "nice"):
            assert await drawing.think(os.nice, 0) == min(19, os.nice(0) + drawing.WORKER_NICENESS)
    finally:
        release.write_text("go")  # a failed check must not leave the think holding the close
        await drawing.close()
    assert drawing.thinking_pool().workers == 0, "after the bot's close a think runs in a thread"


async def test_a_private_panel_passes_the_maps_queued_for_the_workers(tmp_path: Path) -> None:
    """A player waits on their panel; a phase's maps may wait a moment: with the one worker busy
    and more maps queued, the panel is drawn as soon as the running draw ends, before the queue."""
    first, rest = tmp_path / "first", tmp_path / "rest"
    pool = drawing.DrawingPool(1)
    try:
        running = asyncio.create_task(pool.run("draw", _thinks_until, str(first)))
        queued = [asyncio.create_task(pool.run("draw", _thinks_until, str(rest))) for _ in range(3)]
        await asyncio.sleep(0)
        panel = asyncio.create_task(pool.run("draw_private", os.getpid))
        await asyncio.sleep(0)
        first.write_text("go")  # the running map ends; the queued ones wait for `rest`
        drawer = await asyncio.wait_for(panel, WAIT)
        assert drawer != os.getpid() and await running != os.getpid()
        assert not any(task.done() for task in queued), "the panel went before the queued maps"
        rest.write_text("go")
        await asyncio.gather(*queued)
    finally:
        first.write_text("go")
        rest.write_text("go")
        await pool.close()


async def test_a_warmed_pool_has_its_workers_before_the_first_draw() -> None:
    """The bot warms its pool at its start: the worker runs before any map is asked for, and
    the first draw uses it rather than start another; a closed pool warms nothing."""
    before = children()
    pool = drawing.DrawingPool(1)
    await pool.warm()
    workers = children() - before
    assert len(workers) == 1 and all(alive(pid) for pid in workers)
    assert await pool.run("pid", os.getpid) in workers
    assert children() - before == workers
    await pool.close()
    assert children() == before
    await pool.warm()
    assert children() == before, "a closed pool starts no worker"
    assert await drawing.DrawingPool(0).warm() is None and children() == before
