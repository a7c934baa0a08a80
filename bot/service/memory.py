"""What the service keeps in memory between transactions, bounded so a bot with 10,000 matches
holds only the recently played ones: the latest state per match (an LRU) and a lock per match
that exists only while someone holds or waits for it."""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from typing import Any, Generic, TypeVar

Value = TypeVar("Value")

STATE_CACHE_SIZE = 512
"""Matches whose latest state stays in memory; a miss costs one snapshot read plus a short replay."""


class RecentStates(Generic[Value]):
    """Match id -> (version, state) for the most recently used matches only."""

    def __init__(self, size: int = STATE_CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[int, tuple[int, Value]] = OrderedDict()

    def get(self, match_id: int) -> tuple[int, Value] | None:
        found = self._entries.get(match_id)
        if found is not None:
            self._entries.move_to_end(match_id)
        return found

    def put(self, match_id: int, version: int, state: Value) -> None:
        self._entries[match_id] = (version, state)
        self._entries.move_to_end(match_id)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def pop(self, match_id: int) -> None:
        self._entries.pop(match_id, None)

    def __len__(self) -> int:
        return len(self._entries)


VIEWS_KEPT = STATE_CACHE_SIZE
"""Matches whose latest state's views stay in memory (``KeptViews``): as many as states. At 64, a
bot with 200 busy matches built 0.73 public views an interaction, at 512 0.49 (discord_load's
probe counts them), with the same peak memory (222 MiB): a view is about a state's size."""


class KeptViews:
    """The views a transaction built of the state it left (by match: that state and its views by
    seat, None the public one), for the next transaction of the match, which starts from that
    state: a click's change asks again for the public view of the state it starts from (the
    phase it was in) and for the clicking seat's view (its prompt), both built by the change
    before. Kept with the state object itself: a view is given out only for that very state
    (states are never changed in place), so a state read again, replayed or undone finds none."""

    def __init__(self, size: int = VIEWS_KEPT) -> None:
        self._entries: RecentStates[tuple[object, dict[int | None, dict[str, Any]]]] = RecentStates(size)

    def put(self, match_id: int, state: object, views: dict[int | None, dict[str, Any]]) -> None:
        if views:
            self._entries.put(match_id, 0, (state, views))
        else:
            self._entries.pop(match_id)

    def of(self, match_id: int, state: object) -> dict[int | None, dict[str, Any]]:
        """The views kept of this state of the match (none when it is another state)."""
        found = self._entries.get(match_id)
        return found[1][1] if found is not None and found[1][0] is state else {}

    def add(self, match_id: int, state: object, seat: int | None, view: dict[str, Any]) -> None:
        """Keep one more view of this state of the match (the views of another state go)."""
        self.put(match_id, state, {**self.of(match_id, state), seat: view})

    def pop(self, match_id: int) -> None:
        self._entries.pop(match_id)


PROMPTS_KEPT = 512
"""Matches whose latest state's open prompts stay in memory (``KeptPrompts``): as many as states."""


class KeptPrompts:
    """The game's open prompts of each match's latest state (by match: that state and its
    prompts), built once per state instead of at every read: a click's transaction starts from
    the state the transaction before it left, whose prompts that one built, and every turn DM
    rendered or judged in between (each delivery's read, each click's reply) asks for them
    again. Kept with the state object itself, as ``KeptViews``: prompts are given out only for
    that very state (states are never changed in place), so a state read again, replayed or
    undone finds none and builds its own. Callers must not change the prompts."""

    def __init__(self, size: int = PROMPTS_KEPT) -> None:
        self._entries: RecentStates[tuple[object, tuple[Any, ...]]] = RecentStates(size)

    def put(self, match_id: int, state: object, prompts: Sequence[Any]) -> None:
        self._entries.put(match_id, 0, (state, tuple(prompts)))

    def of(self, match_id: int, state: object) -> tuple[Any, ...] | None:
        """The prompts kept of this state of the match (None when it is another state)."""
        found = self._entries.get(match_id)
        return found[1][1] if found is not None and found[1][0] is state else None

    def pop(self, match_id: int) -> None:
        self._entries.pop(match_id)


class MatchLocks:
    """One asyncio lock per match, created on first use and dropped when nobody holds or waits
    for it, so the table never grows with the number of matches ever played."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    @contextlib.asynccontextmanager
    async def hold(self, match_id: int) -> AsyncIterator[None]:
        lock = self._locks.setdefault(match_id, asyncio.Lock())
        self._users[match_id] = self._users.get(match_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[match_id] -= 1
            if not self._users[match_id]:
                del self._users[match_id]
                del self._locks[match_id]

    def __len__(self) -> int:
        return len(self._locks)
