"""Stopping background tasks: ask them to end between rounds, cancel what does not, and wait
until each has ended."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any


async def cancel_and_wait(tasks: Iterable[asyncio.Future[Any]]) -> None:
    """Cancel the tasks and wait until each has ended, whatever it raised (its exception is read,
    so none is reported as never retrieved). ``asyncio.wait`` rather than awaiting each task
    under ``suppress(CancelledError)``: that suppress also swallowed a cancellation of the
    waiter itself, which then went on as if it had not been cancelled."""
    tasks = list(tasks)
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks)
    for task in tasks:
        if not task.cancelled():
            task.exception()


async def idle(stopping: asyncio.Event, seconds: float) -> bool:
    """A loop's rest between rounds: ``seconds``, or less once ``stopping`` is set. True: stop now."""
    with contextlib.suppress(TimeoutError):  # asyncio.timeout: wait_for may swallow a cancellation (3.11)
        async with asyncio.timeout(seconds):
            await stopping.wait()
    return stopping.is_set()


async def stop_gently(tasks: Iterable[asyncio.Future[Any]], stopping: asyncio.Event, grace: float) -> None:
    """Set ``stopping`` so the loops end after their current round, give them ``grace`` seconds,
    then cancel the rest. A loop cancelled in the middle of a database write leaves SQLite's
    write lock to the connection's clean-up (seconds under load); one that ends between rounds
    leaves nothing behind."""
    stopping.set()
    tasks = list(tasks)
    if tasks:
        await asyncio.wait(tasks, timeout=grace)
    await cancel_and_wait(tasks)
