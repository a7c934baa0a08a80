"""A match's notices delivered a lane per target: each channel and each player's DMs in their
own order, the targets side by side.

A post that takes the last of its channel's rate-limit bucket (5 per 5 s) returns only when
discord.py has slept out the window, inside the request. With one worker a match sending its
targets one after another, that sleep held the match's DMs and every other target behind it
(the load benchmark's p99 of 4-5 s for every kind, session 19). Lanes keep the promise that
matters to a player: what goes to one place goes in the order it was written there. Nothing
promised an order across targets (a target held by a long 429 or a DM channel being opened was
already stepped over).

A lobby notice may move the match into its thread, so the targets after it are read again:
the groups after the first lobby group wait for the next segment (``segments``), which runs
only when the lobby did not go (it was held back: its later groups wait with it)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.discord.sending import LOST, LeaseLost
from bot.discord.waiting_marks import WaitingMarks
from bot.service import Notice
from bot.service.outbox import target_of

if TYPE_CHECKING:
    from bot.service.outbox import DeliveryBatch
    from bot.service.turn_views import SeatTurn

log = logging.getLogger(__name__)

PASS_OVERLAP_SECONDS = 1.0
"""New notices of a match are read while its passes run only once the last read is this old:
a pass usually ends within tens of ms (then its worker reads once after it, as before lanes),
but one with a post asleep for its channel's bucket runs up to 5 s, and the notices written
meanwhile (a player's next prompt) must not wait for it. Sooner would read the queue once a
commit (measured: 1.9 statements an interaction instead of 1.1)."""
FAILED = "failed"
"""A lane raised (logged): the match backs off as after any failed delivery."""


@dataclass
class Shared:
    """What a match's worker shares with every pass it has running."""

    busy: dict[tuple[str, int], frozenset[int]] = field(default_factory=dict)
    """Targets whose lane runs now (in any pass) -> the notices it was given: a later pass
    leaves them to it."""
    stop: str | None = None
    """Why every lane stops before its next group (LOST, RETRY, FAILED); None while they go on."""


@dataclass
class Pass:
    """What one pass over a batch did, shared by its lanes."""

    shared: Shared = field(default_factory=Shared)
    rest: bool = False
    """The batch was full: notices it did not try may be left."""
    moved: bool = False
    """A group went or was dropped or parked."""
    read_again: bool = False
    """The targets changed (a lobby went), a target was parked, or a target was left to the lane
    of an earlier pass: the queue is read again."""
    put_off: bool = False
    """A phase post's lines wait for their gathering window."""
    sent: int = 0
    reconciled: int = 0
    """Notices that went whose changes were in the turn DMs already (put off, then sent)."""
    stepped: set[tuple[str, int]] = field(default_factory=set)
    """Targets held back: their later notices wait with them (read again next time)."""
    left: dict[tuple[str, int], frozenset[int]] = field(default_factory=dict)
    """Targets whose lane ran when the batch was read (-> its notices): it may hold notices it
    is sending now, not yet marked, so they are left to that lane even if it ended since."""

    @property
    def stop(self) -> str | None:
        return self.shared.stop

    @stop.setter
    def stop(self, why: str | None) -> None:
        self.shared.stop = self.shared.stop or why


def segments(groups: list[list[Notice]]) -> list[list[list[Notice]]]:
    """The groups cut after each lobby group: a segment's lanes run together, the next segment
    after them."""
    out: list[list[list[Notice]]] = [[]]
    for group in groups:
        out[-1].append(group)
        if group[0].kind == "lobby":
            out.append([])
    return [segment for segment in out if segment]


def by_target(groups: list[list[Notice]]) -> list[list[list[Notice]]]:
    """The groups of each target, in order, the targets in the order they first come."""
    lanes: dict[tuple[str, int], list[list[Notice]]] = {}
    for group in groups:
        lanes.setdefault(target_of(group[0]), []).append(group)
    return list(lanes.values())


async def run_lanes(groups: list[list[Notice]], lane: Callable[[list[list[Notice]]], Awaitable[None]],
                    run: Pass) -> None:
    """Each target's groups through ``lane``, the targets concurrently; a target whose lane of
    an earlier pass still runs is left to it (``run.read_again``: its later notices are read
    again once it ends). A lane that raises stops the others before their next group
    (``run.stop``); the cancelled pass cancels them all."""
    split = []
    for groups_of_target in by_target(groups):
        target = target_of(groups_of_target[0][0])
        if target in run.left or target in run.shared.busy:
            given = run.left.get(target, frozenset()) | run.shared.busy.get(target, frozenset())
            if any(notice.id not in given for group in groups_of_target for notice in group):
                run.read_again = True  # newer notices than the lane has: read once it ended
        else:
            split.append(groups_of_target)

    async def guarded(groups: list[list[Notice]]) -> None:
        target = target_of(groups[0][0])
        run.shared.busy[target] = frozenset(notice.id for group in groups for notice in group)
        try:
            await lane(groups)
        except LeaseLost:  # a request found the lease gone: the holder sends the rest
            run.stop = LOST
        except Exception:
            log.exception("delivering to %s %s of match %s failed; retrying later", *target, groups[0][0].match_id)
            run.stop = FAILED
        finally:
            run.shared.busy.pop(target, None)

    if len(split) <= 1:  # one target: no task to start
        for each in split:
            await guarded(each)
        return
    tasks = [asyncio.create_task(guarded(each), name=f"deliver-lane-{target_of(each[0][0])}") for each in split]
    try:
        await asyncio.gather(*tasks)
    finally:  # cancelled (shutdown): no lane outlives its pass
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def run_pass(batch_groups: list[list[Notice]], lane: Callable[[list[list[Notice]]], Awaitable[None]],
                   run: Pass) -> None:
    """One pass over a batch's groups: segment after segment (``segments``), until the pass
    stops or the targets must be read again."""
    for segment in segments(batch_groups):
        await run_lanes(segment, lane, run)
        if run.stop is not None or run.read_again:
            return


async def passes_end(passes: dict[asyncio.Task[None], Pass], done: Pass, stepped: set[tuple[str, int]],
                 read_at: float, fresh: Callable[[], bool], signal: asyncio.Event) -> None:
    """Wait until every running pass ended, or until new notices were written for the match
    here (``fresh``, ``signal``: then they are read while the passes go on, PASS_OVERLAP_SECONDS after the last read at the soonest);
    what the ended passes did is added to ``done``. A pass that stops (the lease lost, a
    failure) stops them all: they all end first."""
    while passes:
        gap = read_at + PASS_OVERLAP_SECONDS - time.monotonic()
        if fresh() and done.stop is None and gap <= 0:
            return
        ended: set[Any]
        if gap > 0 or done.stop is not None:  # most passes end within the gap: no waiter to make
            ended, _running = await asyncio.wait(passes, timeout=gap if done.stop is None else None)
        else:
            signal.clear()
            woken = asyncio.ensure_future(signal.wait())
            try:
                waited: list[asyncio.Future[Any]] = [*passes, woken]
                ended, _waiting = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
            finally:
                woken.cancel()
        for task in [task for task in passes if task in ended]:
            run = passes.pop(task)
            task.result()  # a pass catches what its lanes raise; a bug here is the worker's
            done.sent += run.sent
            done.reconciled += run.reconciled
            done.moved = done.moved or run.moved
            done.rest = done.rest or run.rest
            done.read_again = done.read_again or run.read_again
            done.put_off = done.put_off or run.put_off
            stepped |= run.stepped


class TakingTurns(WaitingMarks):
    """A match's mark writes and its queue and turn reads, one at a time: with lanes side by
    side, a read made while another lane writes marks could miss one and send its notice twice."""

    marks_written: dict[int, asyncio.Lock]

    async def write_marks(self, match_id: int) -> bool:
        async with self.marks_written.setdefault(match_id, asyncio.Lock()):
            return await super().write_marks(match_id)

    async def read_batch(self, match_id: int, limit: int) -> DeliveryBatch | None:
        async with self.marks_written.setdefault(match_id, asyncio.Lock()):
            return await super().read_batch(match_id, limit)

    async def read_seat_turn(self, match_id: int, seat: int, before_id: int | None = None) -> SeatTurn | None:
        async with self.marks_written.setdefault(match_id, asyncio.Lock()):
            return await super().read_seat_turn(match_id, seat, before_id)

    async def read_seat_turns(self, match_id: int) -> dict[int, SeatTurn]:
        async with self.marks_written.setdefault(match_id, asyncio.Lock()):
            return await super().read_seat_turns(match_id)
