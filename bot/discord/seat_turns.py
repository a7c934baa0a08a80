"""One seat's prompt DM has two writers: the reply to the player's click (the "Done" or "sealed"
text) and delivery, which turns that same message into the seat's next prompt. When another
player's answer opens that next prompt while the click's reply is still on its way, the reply
landed last and the new prompt was lost under it: the player had nothing to answer. Both
writers now hold the seat's turn while they write, so the prompt always comes last.

A lock per seat in this process: the clicks of DMs reach shard 0, and delivery runs in the
process that holds its lease, which is the same process in the single-process setup."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class SeatTurns:
    """Per (match, seat) locks, kept only while someone holds or waits for one."""

    def __init__(self) -> None:
        self._locks: dict[tuple[int, int], tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, match_id: int, seat: int) -> AsyncIterator[None]:
        """Write to the seat's prompt DM with nobody else writing to it."""
        key = (match_id, seat)
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
