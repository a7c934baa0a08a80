"""Stopping background tasks: cancel them and wait until each has ended."""

from __future__ import annotations

import asyncio
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
