"""A message per match kept current at a pace: the status board and the lobby post.

A match that moves asks for a refresh (``touch``); its message is edited at most once every
``interval`` seconds, and the touches that come while an edit waits or runs cost one more look
afterwards, not one edit each. A change nothing waits on may say how long it can wait
(``within``): it is gathered with the changes after it, and a change that may not wait (or whose
wait ends sooner) takes it along."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

import discord

from bot.aio_tasks import cancel_and_wait
from bot.service import NoMatch

if TYPE_CHECKING:
    from bot.discord.wiring import Host

log = logging.getLogger(__name__)


class PacedRefresh(ABC):
    host: Host
    interval: float
    """Seconds between two edits of one match's message."""
    subject: str
    """What the message is, as the log says it ("the status board")."""

    def __init__(self) -> None:
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.again: set[int] = set()
        """Matches touched while their refresh ran: it looks once more before it ends."""
        self.last_edit: dict[int, float] = {}
        self.read_version: dict[int, int] = {}
        """Match -> the match version its message was last rendered from: a notice written at
        that version or before has nothing new for it, so it costs no read."""
        self.due: dict[int, float] = {}
        """Match -> the latest its next edit may wait to (monotonic), besides ``interval``: the
        soonest of what its waiting changes allow."""
        self.sooner: dict[int, asyncio.Event] = {}
        """Match -> what cuts a wait short when a change allows less of it."""

    def touch(self, match_id: int, version: int | None = None, within: float = 0.0) -> None:
        """The match moved (a notice written at ``version`` was delivered): its message follows
        within ``interval`` of the last edit, or, for a change nothing waits on, ``within``
        seconds from now when that is later (the changes meanwhile go in the same edit)."""
        if version is not None and version <= self.read_version.get(match_id, -1):
            return
        due = time.monotonic() + max(within, 0.0)
        if due < self.due.get(match_id, float("inf")):
            self.due[match_id] = due
            wake = self.sooner.get(match_id)
            if wake is not None:
                wake.set()
        self._start(match_id)

    def _start(self, match_id: int) -> None:
        running = self.tasks.get(match_id)
        if running is not None and not running.done():
            self.again.add(match_id)
            return
        self.tasks[match_id] = asyncio.create_task(self._run(match_id), name=f"{type(self).__name__}-{match_id}")

    def _wait(self, match_id: int) -> float:
        """Seconds before the match's next edit: the pace, and what its waiting changes allow."""
        start = max(self.last_edit.get(match_id, 0.0) + self.interval, self.due.get(match_id, 0.0))
        return start - time.monotonic()

    async def _run(self, match_id: int) -> None:
        try:
            while True:
                self.again.discard(match_id)
                wait = self._wait(match_id)
                if wait > 0:
                    while wait > 0:
                        await self._pause(match_id, wait)
                        wait = self._wait(match_id)
                    self.again.discard(match_id)  # the edit below shows those moves too
                self.due.pop(match_id, None)
                if not await self.host.holds_lease("deliver"):
                    return  # the lease passed on (this process was paused): the holder's delivery edits it
                try:
                    await self.refresh(match_id)
                except (discord.HTTPException, discord.RateLimited, NoMatch) as exc:
                    log.info("could not update %s of match %s: %s", self.subject, match_id, exc)
                except Exception:
                    log.exception("updating %s of match %s failed", self.subject, match_id)
                self.last_edit[match_id] = time.monotonic()
                if match_id not in self.again:
                    return
        finally:
            if self.tasks.get(match_id) is asyncio.current_task():
                del self.tasks[match_id]

    async def _pause(self, match_id: int, seconds: float) -> None:
        """Wait ``seconds``, cut short when a change allows less (``touch``)."""
        wake = self.sooner.setdefault(match_id, asyncio.Event())
        try:
            with contextlib.suppress(TimeoutError):  # not wait_for, which may swallow a cancellation (3.11)
                async with asyncio.timeout(seconds):
                    await wake.wait()
        finally:
            if self.sooner.get(match_id) is wake:
                del self.sooner[match_id]

    @abstractmethod
    async def refresh(self, match_id: int) -> None:
        """Show the match as it is now."""

    def pending(self) -> list[asyncio.Task[None]]:
        """The edits under way (tests wait for them to settle)."""
        return [task for task in self.tasks.values() if not task.done()]

    async def stop(self, grace: float = 0.0) -> None:
        """Cancel the edits under way; those that only waited to gather changes (``within``)
        get ``grace`` seconds to go first: a process that stops does not leave a message
        a whole window behind until the next change."""
        gathering = [match_id for match_id, task in self.tasks.items()
                     if not task.done() and self.due.get(match_id, 0.0) > time.monotonic()]
        for match_id in gathering:
            self.due[match_id] = 0.0
            self.last_edit.pop(match_id, None)  # one edit each: no pace to keep after it
            wake = self.sooner.get(match_id)
            if wake is not None:
                wake.set()
        try:
            if gathering and grace > 0:
                await asyncio.wait([self.tasks[match_id] for match_id in gathering], timeout=grace)
        finally:  # cancelled while waiting (the loops' grace ended): what is left is cancelled all the same
            await cancel_and_wait(self.tasks.values())
            self.tasks.clear()
