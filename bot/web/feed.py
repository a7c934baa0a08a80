"""Which open pages' matches moved: one small read a second for all of them, whichever bot
process (or shard) made the move, and a wake-up for each page that shows one.

Each page holds a server-sent event stream; a stream waits here for its match's version to
pass the one it last sent. Matches nobody watches are not read at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import sqlalchemy as sa

from db.models import Match
from db.store import Store

log = logging.getLogger(__name__)
MATCHES: sa.Table = Match.__table__  # type: ignore[attr-defined]


class Feed:
    """Polls the versions of the watched matches and wakes their streams when one changes."""

    def __init__(self, store: Store, every: float = 1.0) -> None:
        self.store = store
        self.every = every
        self.versions: dict[int, int] = {}
        self.watchers: dict[int, int] = {}
        self.changed = asyncio.Condition()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="web-feed")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def wait_past(self, match_id: int, version: int, timeout: float) -> int | None:
        """The match's version once it passes ``version``; None after ``timeout`` seconds (a keep-alive is due)."""
        self.watchers[match_id] = self.watchers.get(match_id, 0) + 1
        try:
            async with self.changed:
                moved = await asyncio.wait_for(self.changed.wait_for(
                    lambda: self.versions.get(match_id, version) > version), timeout)
            return self.versions[match_id] if moved else None
        except TimeoutError:
            return None
        finally:
            self.watchers[match_id] -= 1
            if not self.watchers[match_id]:
                del self.watchers[match_id]

    async def poll(self) -> None:
        """Read the watched matches' versions once; wake the streams if one moved."""
        watched = list(self.watchers)
        if not watched:
            return
        async with self.store.read() as session:
            rows = (await (await session.connection()).execute(
                sa.select(MATCHES.c.id, MATCHES.c.version).where(MATCHES.c.id.in_(watched)))).all()
        found = {int(match_id): int(version) for match_id, version in rows}
        if any(self.versions.get(key) != value for key, value in found.items()):
            self.versions.update(found)
            async with self.changed:
                self.changed.notify_all()

    async def _run(self) -> None:
        while True:
            try:
                await self.poll()
            except Exception:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise asyncio.CancelledError from None  # stopped mid-read: a cleanup's error must not keep it going
                log.exception("reading the watched matches' versions failed; trying again")
            await asyncio.sleep(self.every)
