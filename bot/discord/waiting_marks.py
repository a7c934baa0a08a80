"""The delivered marks of a match's notices that went out, waiting to be written together: in a
write of their own, or in the transaction of the read that needs them (a prompt's turn read,
the reconciling after a drain, the next read of the queue), so they cost no BEGIN of their own.
Whenever a match's marks are written, every other match's waiting marks go in the same statement
(``_take_marks``): at 200 matches most marks were written one or two a statement, and a
statement's own cost (its commit) was most of a mark's. A read that needs a match's marks
waits for a write under way that took them (``_settled``): it would not see them otherwise.
Those still waiting when the match's worker ends are written by the next delivery round's read
of the queue, with every other idle match's (``take_idle_marks``): a round comes every second."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Protocol, TypeVar

from bot.discord.sending import LeaseLost
from bot.service.outbox import PHASE_POST_KINDS, Fence, Mark, MarksWrite

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from datetime import datetime

    from bot.discord.wiring import Outbound
    from bot.service import Notice
    from bot.service.outbox import DeliveryBatch
    from bot.service.turn_views import SeatTurn

log = logging.getLogger(__name__)

T = TypeVar("T")

MARK_WAIT = 1.0
"""Seconds a sent notice's delivered mark may wait to be written with the marks after it (one
write for a batch): a crash meanwhile sends it again, which its nonce makes the same message."""
PHASE_POSTS = frozenset(PHASE_POST_KINDS) - {"result"}
READS_MARKS: dict[str, frozenset[str]] = {
    "prompt": frozenset({"prompt"}),  # the seat's turn DM: the seat's delivered prompts (reminders never wait)
    **dict.fromkeys(PHASE_POSTS, PHASE_POSTS),  # the open phase post
    "private": frozenset(), "timeout": frozenset(), "host": frozenset(),
    "turn": frozenset(),  # a turn ping's sender reads the match's status, not the outbox
}
"""Kinds whose marks may wait, and for each, the kinds whose marks its sender reads (of the same
match; of the same seat for a prompt): a mark it reads still waiting is written before it is
sent (a prompt's, in the transaction of its turn read: ``read_seat_turn``). Nothing else reads
their marks but this worker, and the click on a prompt DM sent but not yet marked names its
message itself (``claim_prompt_message``). Any other kind is marked as soon as it went, with
those waiting, and waits for those waiting before it is sent (the lobby, a reminder a click takes
back, a result a replay follows, ...); so is a turn ping that posted a message (``TAKEN_BACK``)."""
TAKEN_BACK = frozenset({"turn"})
"""Kinds a click takes back by their delivered mark (play.py): one that posted a message is
marked as soon as it went; one that posted nothing (its players heard by DM: ref "dm") waits."""
WRITTEN_WITH_ITS_READ = frozenset({"prompt"})
"""Kinds whose sender writes the marks it reads in the transaction of that read."""
MARKS_AT_ONCE = 60
"""The most marks of other matches a write takes along with its own match's, about: one
statement, whose two CASEs SQLite evaluates in time quadratic in its width (a bare notices
table: 0.10 ms at 2 marks, 0.39 ms at 64, 2.5 ms at 256, i.e. 6.1 us a mark at 64 against 9.6
at 256). At about 64 a mark costs least, and no write of marks holds other matches' reads long."""

Taken = dict[int, list[tuple[Mark, "Notice"]]]
"""Marks taken off the wait to be written now, by match."""


class MarksService(Protocol):
    """The service calls of the waiting marks: their write, alone or with a turn read."""

    @property
    def clock(self) -> Callable[[], datetime]: ...

    async def delivered_all(self, marks: list[Mark], fence: Fence | None = None) -> int: ...

    async def holds_term(self, fence: Fence) -> bool: ...

    async def seat_turn(self, match_id: int, seat_no: int, before_id: int | None = None,
                        marks: MarksWrite | None = None) -> SeatTurn | None: ...

    async def seat_turns(self, match_id: int, marks: MarksWrite | None = None) -> dict[int, SeatTurn]: ...

    async def next_batch(self, match_id: int, limit: int = 50, with_prefs: bool = True,
                         marks: MarksWrite | None = None) -> DeliveryBatch: ...


class WaitingMarks:
    """The waiting marks half of ``Delivery`` (delivery.py), which sets these up in its ``__init__``."""

    bot: Outbound
    marks: dict[int, list[tuple[Mark, Notice]]]
    _first_wait: dict[int, float]
    _writing: dict[int, set[asyncio.Event]]
    """Match -> the writes under way that took some of its waiting marks (each set once it
    ended): two can be, when the match's worker marked more between them, and on PostgreSQL
    the later may end first."""
    workers: dict[int, asyncio.Task[int]]

    @property
    def svc(self) -> MarksService:
        return self.bot.svc

    def fence(self) -> Fence | None:
        leases = getattr(self.bot, "leases", None)
        return None if leases is None else leases.fence("deliver")

    async def mark(self, notice: Notice, ref: str | None) -> bool:
        """The notice went out (``ref``: where): its fenced delivered mark, written now, or, for
        a kind in READS_MARKS, with the marks after it (``write_marks``). False (and the lease
        is asked again) when the term is over."""
        waiting = self.marks.setdefault(notice.match_id, [])
        waiting.append((Mark(notice.id, ref, self.svc.clock()), notice))
        first = self._first_wait.setdefault(notice.match_id, time.monotonic())
        waits = notice.kind in READS_MARKS and not (notice.kind in TAKEN_BACK and str(ref or "").isdigit())
        if waits and time.monotonic() - first < MARK_WAIT:
            return True
        return await self.write_marks(notice.match_id)

    def _take_marks(self, match_id: int) -> tuple[MarksWrite, Taken] | None:
        """The match's waiting marks, with those of every other match (up to MARKS_AT_ONCE),
        taken off the wait to be written now (None: none of the match's wait). A worker of
        another match whose marks go here waits for this write before it reads (``_settled``)."""
        if not self.marks.get(match_id):
            return None
        chosen, along = [match_id], 0
        for other, waiting in self.marks.items():
            if other != match_id and waiting and along < MARKS_AT_ONCE:
                along += len(waiting)
                chosen.append(other)
        return self._take(chosen)

    def _take(self, match_ids: list[int]) -> tuple[MarksWrite, Taken] | None:
        """These matches' waiting marks, taken off the wait (None: none of them has any)."""
        taken = {match_id: waiting for match_id in match_ids if (waiting := self.marks.pop(match_id, []))}
        for match_id in match_ids:
            self._first_wait.pop(match_id, None)
        if not taken:
            return None
        return MarksWrite([mark for waiting in taken.values() for mark, _notice in waiting], self.fence()), taken

    def _put_back(self, taken: Taken) -> None:
        """Marks whose write failed wait again, before those taken since (written at the latest
        when their worker ends, or by the next round)."""
        for match_id, waiting in taken.items():
            self.marks[match_id] = [*waiting, *self.marks.get(match_id, [])]
            self._first_wait.setdefault(match_id, time.monotonic())

    async def _settled(self, match_id: int) -> None:
        """Wait for every write under way that took some of the match's marks (another match's
        worker wrote them with its own): a read after them sees them. A write that failed put
        its marks back by then (the caller's read takes them). Only the match's own worker
        adds marks of its own, and it waits here, so no new write can take any of the match's
        marks meanwhile but those a failed write put back."""
        while writing := self._writing.get(match_id):
            await next(iter(writing)).wait()

    async def _written_with(self, match_id: int | None, taken: tuple[MarksWrite, Taken],
                            read: Callable[[MarksWrite], Awaitable[T]]) -> tuple[T, bool]:
        """``read`` with the taken marks written first in its transaction: its value, and
        whether the marks were written while the lease was this process's (``_marks_written``;
        ``match_id``: the match whose worker writes, None for the round). A failed read writes
        nothing, so the marks wait again, unless their own statement was committed before the
        read failed (then they are written: waiting again, they would be written twice). Until
        it ended, a read of a match whose marks it took waits (``_settled``)."""
        write, waiting = taken
        done = asyncio.Event()
        for each in waiting:
            self._writing.setdefault(each, set()).add(done)
        try:
            try:
                value = await read(write)
            except BaseException:
                if not write.committed:
                    self._put_back(waiting)
                raise
            return value, await self._marks_written(match_id, write)
        finally:
            for each in waiting:
                writing = self._writing.get(each)
                if writing is not None:
                    writing.discard(done)
                    if not writing:
                        del self._writing[each]
            done.set()

    async def _write(self, write: MarksWrite) -> None:
        """The marks in a write of their own (one UPDATE)."""
        write.written = await self.svc.delivered_all(write.marks, write.fence)

    async def _marks_written(self, match_id: int | None, write: MarksWrite) -> bool:
        """After a write of marks (of one match, or of the idle ones: None): False (and the
        lease is asked again) when the term was over."""
        if write.written == len(write.marks):
            return True
        fence = write.fence
        if fence is not None and not await self.svc.holds_term(fence):
            if self.bot.leases is not None:
                self.bot.leases.lost("deliver")
            log.warning("the delivery lease passed to another process while notices %s (the marks of "
                        "match %s, with others') were out; this process stops delivering",
                        [mark.notice_id for mark in write.marks], "(several)" if match_id is None else match_id)
            return False
        return True  # some were marked already (a retried round, a prompt an undo retired)

    def _idle(self) -> list[int]:
        """Matches with marks waiting and no worker delivering them now (it ended)."""
        return [match_id for match_id, waiting in self.marks.items()
                if waiting and (match_id not in self.workers or self.workers[match_id].done())]

    def take_idle_marks(self) -> tuple[MarksWrite, Taken] | None:
        """The waiting marks of every idle match, taken off the wait to be written in the
        round's read of the queue (None: none wait). No worker of theirs can read meanwhile:
        only the round starts workers, after its read."""
        return self._take(self._idle())

    async def idle_marks_read(self, taken: tuple[MarksWrite, Taken],
                              read: Callable[[MarksWrite], Awaitable[T]]) -> tuple[T, bool]:
        """The round's ``read`` with the idle marks written first (see ``_written_with``)."""
        return await self._written_with(None, taken, read)

    def drop_idle_marks(self) -> None:
        """The lease is not this process's: the idle matches' waiting marks are not written (the
        holder sends those notices again, as the same messages: their nonces)."""
        for match_id in self._idle():
            self.marks.pop(match_id, None)
            self._first_wait.pop(match_id, None)

    async def write_idle_marks(self) -> None:
        """Write the idle matches' waiting marks now (at shutdown, or at the end of a round a
        caller waits for). Best effort: what is not written is sent again next time."""
        taken = self.take_idle_marks()
        if taken is None:
            return
        write, _waiting = taken
        try:
            await self._written_with(None, taken, self._write)
        except Exception:  # they are sent again next time (the same messages: their nonces)
            log.exception("could not mark notices %s delivered", [mark.notice_id for mark in write.marks])

    async def write_marks(self, match_id: int) -> bool:
        """Write the match's waiting delivered marks (with every other match's), in one
        statement, after any write under way that took some of them; False (and the lease is
        asked again) when the term is over (nothing was written)."""
        await self._settled(match_id)
        taken = self._take_marks(match_id)
        if taken is None:
            return True
        _value, written = await self._written_with(match_id, taken, self._write)
        return written

    async def read_seat_turn(self, match_id: int, seat: int, before_id: int | None = None) -> SeatTurn | None:
        """The seat's turn (``seat_turn``); when a delivered mark of the seat's prompts waits
        (the read finds the seat's turn DM by them), the match's waiting marks are written in
        the same transaction first. Raises LeaseLost when the term is over."""
        await self._settled(match_id)
        reads = any(sent.kind == "prompt" and sent.seat == seat for _mark, sent in self.marks.get(match_id, []))
        taken = self._take_marks(match_id) if reads else None
        if taken is None:
            return await self.svc.seat_turn(match_id, seat, before_id=before_id)
        turn, written = await self._written_with(
            match_id, taken, lambda marks: self.svc.seat_turn(match_id, seat, before_id=before_id, marks=marks))
        if not written:
            raise LeaseLost
        return turn

    async def read_seat_turns(self, match_id: int) -> dict[int, SeatTurn]:
        """Every seat's turn (``seat_turns``), the match's waiting marks written in the same
        transaction first. Raises LeaseLost when the term is over."""
        await self._settled(match_id)
        taken = self._take_marks(match_id)
        if taken is None:
            return await self.svc.seat_turns(match_id)
        turns, written = await self._written_with(
            match_id, taken, lambda marks: self.svc.seat_turns(match_id, marks=marks))
        if not written:
            raise LeaseLost
        return turns

    async def read_batch(self, match_id: int, limit: int) -> DeliveryBatch | None:
        """The match's next batch (``next_batch``), the match's waiting marks written in the same
        transaction first (the queue must not hold what went). None when the term is over."""
        await self._settled(match_id)
        taken = self._take_marks(match_id)
        if taken is None:
            return await self.svc.next_batch(match_id, limit)
        batch, written = await self._written_with(
            match_id, taken, lambda marks: self.svc.next_batch(match_id, limit, marks=marks))
        return batch if written else None

    def _reads_waiting_marks(self, group: list[Notice]) -> bool:
        """Whether the group's sender reads a delivered mark still waiting or being written by
        another match's worker (then it is written first, or waited for; a prompt's sender
        writes them with its read; a sender that reads no mark waits for nothing)."""
        first = group[0]
        reads = READS_MARKS.get(first.kind)
        if first.kind in WRITTEN_WITH_ITS_READ or reads == frozenset():
            return False
        if first.match_id in self._writing:
            return True
        waiting = self.marks.get(first.match_id, [])
        return bool(waiting) and (reads is None or any(sent.kind in reads for _mark, sent in waiting))
