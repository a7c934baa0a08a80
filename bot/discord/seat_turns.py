"""One seat's turn DM is written by one renderer (turn_dm.py) from the match as it stands, by
whoever holds the seat's turn here: delivery (a new prompt, the last-to-choose edit, the
reconciling after a match's notices went out) or the reply to the player's own click. Each
writer reads the match while holding the turn, so the last write always shows the newest
match: a reply still on its way can no longer land over the next prompt.

A lock per seat in this process orders its writers; with several processes (the clicks of DMs
reach shard 0, delivery runs in whichever holds its lease), each writer also takes the seat's
fence (``across``: the service's ``seat_fence``, a database lock on PostgreSQL) from its read to
its write, and the reply to a click never writes over a newer decision (router.py). Beside the
locks, what each turn DM shows (``Shown``): a DM is edited only when that changes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

from bot.discord.clicked_dms import ClickedDms

SHOWN_KEPT = 100_000
"""Turn DMs whose shown form is kept in memory (a bound, not a policy: a forgotten one is
rendered again and edited at most once)."""
CLOSED_KEPT = 10_000
"""Prompt notices closed by a click before their delivery kept in memory (a bound: a forgotten
one's delivery reads the seat's turn and finds the same)."""


@dataclass(frozen=True)
class Shown:
    """What a turn DM shows: the lines above its prompt, the private lines of its answer, the
    digest of its text and components, and whether it is final (its purpose has ended)."""

    head: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    digest: str = ""
    final: bool = False


class SeatTurns:
    """Per (match, seat) locks, kept only while someone holds or waits for one; and what each
    turn DM (by message id) shows."""

    def __init__(self) -> None:
        self._locks: dict[tuple[int, int], tuple[asyncio.Lock, int]] = {}
        self.shown: dict[int, Shown] = {}
        self.closed: dict[int, None] = {}
        """Prompt notices not delivered yet whose decision the seat's own click on their DM
        answered and closed (the click claimed the DM for the notice): their delivery has nothing
        to write (prompt_dms.py). Oldest first; at most CLOSED_KEPT."""
        self.clicks = ClickedDms()
        """The players' newest clicks on turn DMs, which edit them off the global rate limit (clicked_dms.py)."""

    def closed_by_click(self, notice_id: int) -> None:
        """The seat's click on the DM of prompt notice ``notice_id`` (claimed: its delivery was
        not marked) answered its decision, which is closed now."""
        self.closed[notice_id] = None
        while len(self.closed) > CLOSED_KEPT:
            del self.closed[next(iter(self.closed))]

    def take_closed(self, notice_id: int) -> bool:
        """Whether a click closed the decision of prompt notice ``notice_id`` (``closed_by_click``);
        forgotten then (its delivery asks once)."""
        if notice_id not in self.closed:
            return False
        del self.closed[notice_id]
        return True

    @contextlib.asynccontextmanager
    async def hold(self, match_id: int, seat: int,
                   across: Callable[[int, int], AbstractAsyncContextManager[object]] | None = None,
                   ) -> AsyncIterator[object]:
        """Write to the seat's prompt DM with nobody else in this process writing to it (and,
        with ``across``, the seat's fence: nobody in another process either). Yields what the
        fence yields (see `lost`), None without one."""
        key = (match_id, seat)
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock, across(match_id, seat) if across else contextlib.nullcontext() as fence:
                yield fence
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)
        if len(self.shown) > SHOWN_KEPT:
            self.shown.clear()

    @contextlib.asynccontextmanager
    async def hold_seats(self, match_id: int, seats: list[int],
                         across: Callable[[int, list[int]], AbstractAsyncContextManager[object]] | None = None,
                         ) -> AsyncIterator[object]:
        """``hold`` several seats of a match at once, taken in seat order (every holder of
        several takes them so, and the others hold one: nobody waits in a circle); with
        ``across``, the fence on all of them (yielded, as `hold` does)."""
        async with contextlib.AsyncExitStack() as stack:
            for seat in sorted(set(seats)):
                await stack.enter_async_context(self.hold(match_id, seat))
            fence = None
            if across is not None and seats:
                fence = await stack.enter_async_context(across(match_id, sorted(set(seats))))
            yield fence

    def __len__(self) -> int:
        return len(self._locks)


def lost(fence: object) -> bool:
    """Whether a fence held through a read and a write turned out not to be held throughout
    (PostgreSQL ends a transaction idle 10 s): another process may have written the seat's DM
    between them, so what this process remembers it shows may be wrong."""
    return fence is not None and getattr(fence, "kept", True) is False
