"""The instance guard: one live process per instance name, a dead one's heartbeat taken over."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import timedelta

import pytest

from bot.service.instance import HOST, InstanceGuard, InstanceInUse, process_alive
from db import Store
from db.models import utcnow


def dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


async def plant(store: Store, token: str, seconds: float) -> None:
    """A heartbeat as a process with `token` leaves it, fresh for `seconds` more."""
    assert await store.acquire_lease("instance:bot", token, utcnow(), timedelta(seconds=seconds))


async def test_one_live_holder_per_name(store: Store) -> None:
    first = InstanceGuard(store, "bot", 10)
    first.token = f"{HOST}:{os.getppid()}:first"  # as if another live process on this machine
    await first.claim()
    assert await first.renew()
    second = InstanceGuard(store, "bot", 10, poll_seconds=0.05)
    renewing = asyncio.create_task(_renew_every(first, 0.05))
    try:
        with pytest.raises(InstanceInUse, match="INSTANCE_NAME=bot"):
            await asyncio.wait_for(second.claim(), 5)
    finally:
        renewing.cancel()
    await first.release()
    await asyncio.wait_for(second.claim(), 5)  # released at shutdown: free at once
    assert second.held


async def _renew_every(guard: InstanceGuard, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        await guard.renew()


async def test_dead_process_on_this_machine_is_taken_over_at_once(store: Store) -> None:
    assert not process_alive(dead_pid()) and process_alive(os.getpid())
    await plant(store, f"{HOST}:{dead_pid()}:abc", seconds=600)
    guard = InstanceGuard(store, "bot", 10)
    await asyncio.wait_for(guard.claim(), 2)
    assert guard.held


async def test_silent_heartbeat_from_elsewhere_is_waited_out(store: Store) -> None:
    """A fresh heartbeat of a process on another machine is waited out, by the lease's own clock:
    the guard claims nothing while it is fresh, and takes it over once it has expired unrenewed."""
    start = utcnow()
    clock = [start]
    assert await store.acquire_lease("instance:bot", "another-host:4242:abc", start, timedelta(seconds=60))
    guard = InstanceGuard(store, "bot", 10, clock=lambda: clock[0], poll_seconds=0.01)
    looked = asyncio.Event()
    looks = 0
    read_row = guard._row

    async def counted_row() -> object:
        nonlocal looks
        looks += 1
        if looks >= 3:
            looked.set()
        return await read_row()

    guard._row = counted_row  # type: ignore[method-assign]
    claiming = asyncio.create_task(guard.claim())
    await asyncio.wait_for(looked.wait(), 10)
    assert not claiming.done() and not guard.held  # three looks at a fresh heartbeat: still waiting
    clock[0] = start + timedelta(seconds=61)
    await asyncio.wait_for(claiming, 10)
    assert guard.held
    async with store.read() as session:
        lease = await store.lease(session, "instance:bot")
    assert lease is not None and lease.holder == guard.token


async def test_lost_heartbeat_is_reported(store: Store) -> None:
    guard = InstanceGuard(store, "bot", 0.1)
    await guard.claim()
    await asyncio.sleep(0.2)
    await plant(store, "another-host:4242:abc", seconds=600)
    assert not await guard.renew()
    assert not guard.held
