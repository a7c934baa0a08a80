"""Outbox → Discord. Notices are written by the service in the same transaction as the
state change; this loop delivers them and marks each delivered.

Each match has its own queue and its own worker, so one match's backlog or refused channel never
delays another match. A post Discord refuses for good (see refusals.py) parks its target
instead of being retried every round; the target is probed at a slow, backing-off pace and its
parked notices follow in order once it works. A DM whose channel is not open yet waits the same
way, without a send slot, while one lane opens it (dm_opener.py). Every post and DM carries a nonce derived from its
notice (Discord returns the earlier message for a repeated nonce), so a crash between sending
and marking, or a response lost to a 5xx, never shows a player the same message twice."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Protocol

import discord

from bot import log_json, metrics
from bot.aio_tasks import cancel_and_wait
from bot.discord import dm_opener, phase_pace, phase_posts, refused, replays, seat_posts
from bot.discord.asked_dms import SentAsk
from bot.discord.board import Boards
from bot.discord.dm_delivery import DirectMessages, DmService
from bot.discord.dm_opener import DmOpener
from bot.discord.lobby import LobbyPosts
from bot.discord.phase_post_memory import PostMemory
from bot.discord.refusals import final_code, reason_for
from bot.discord.seat_turns import SeatTurns
from bot.discord.senders import SENDERS, SendersService
from bot.discord.sending import (
    DELIVERED,
    DROPPED,
    HELD,
    LOST,
    MAX_TRIES,
    PARKED,
    RETRY,
    SENDS_UNDER,
    LeaseLost,
)
from bot.discord.threads import Archives
from bot.discord.waiting_marks import MarksService
from bot.service import Notice
from bot.service.outbox import PHASE_POST_KINDS, DeliveryRound, Fence, Mark, MarksWrite, target_of

if TYPE_CHECKING:
    from bot.discord.wiring import Outbound
    from bot.service.notify import NotifyPrefs
    from bot.service.outbox import Fence
    from bot.service.types import Blocked

log = logging.getLogger(__name__)

BATCH = 50
"""Notices of one match read at a time."""
MATCHES_PER_ROUND = 500
"""Matches a round looks at (those waiting longest first); the rest are seen next round."""
PARALLEL_SENDS = 16
"""Requests to Discord in flight at once, over all matches."""
RETRY_MAX_SECONDS = 60.0
"""A match whose delivery keeps failing for a passing reason (5xx, network) waits at most this long."""
HELD_LOOK_SECONDS = 5.0
"""A match whose waiting notices all wait for DM channels being opened is read by a round at
most this often (the opener wakes it when they open); notices another process wrote for it
meanwhile wait at most this long."""
BOARDS_GRACE = 0.5
"""Seconds the status boards waiting to gather their changes get at shutdown to be edited (within
what the cog's LOOPS_GRACE leaves after WORKERS_GRACE)."""
WORKERS_GRACE = 2.0
"""Seconds the match workers get at shutdown to finish what they are sending before they are
cancelled (less than the cog's LOOPS_GRACE, which includes this wait)."""


def written_at(group: list[Notice]) -> int | None:
    """The newest match version a group of notices was written at; None when one of them is a
    marker or an alert, which no version of the match wrote."""
    versions = [notice.version for notice in group]
    known = [version for version in versions if version is not None]
    return None if len(known) < len(versions) else max(known)


class DeliveryService(DmService, SendersService, refused.RefusalService, MarksService, dm_opener.OpenerService,
                      Protocol):
    """The service calls delivery makes: the outbox queue, the fenced marks, the parked targets,
    and what each of its senders calls (each names its own)."""

    async def delivery_round(self, limit: int = 500, marks: MarksWrite | None = None) -> DeliveryRound: ...

    async def delivered(self, notice_id: int, ref: str | None = None, fence: Fence | None = None) -> bool: ...

    async def park(self, notice_id: int, code: int, reason: str, retry_in: float) -> Blocked | None: ...

    async def due_probes(self, match_id: int) -> list[Blocked]: ...

    async def probe_notice(self, block: Blocked) -> Notice | None: ...

    async def probe_failed(self, block: Blocked, code: int, reason: str, retry_in: float) -> int | None: ...

    async def unblock(self, block: Blocked) -> int: ...


class Delivery(DirectMessages):
    """The outbox loop of the process holding the ``deliver`` lease: a worker per match."""

    def __init__(self, bot: Outbound) -> None:
        self.bot = bot
        self.wake = asyncio.Event()
        self.woken: set[int] = set()
        """Matches named by the wakes since the last round (``wake_for``): a round woken only
        for them starts their workers without reading the queue."""
        self.full_at = 0.0
        """When the last round that read the whole queue ran (monotonic)."""
        self.gate = asyncio.Semaphore(PARALLEL_SENDS)
        self.workers: dict[int, asyncio.Task[int]] = {}
        self.again: set[int] = set()
        """Matches that got new notices while their worker ran: it reads once more before it ends."""
        self.retry_at: dict[int, tuple[float, int]] = {}
        """Match -> (monotonic time before which it is not tried again, failures in a row)."""
        self.slowed = refused.Held()
        """Targets held back by a 429 longer than discord.py waits (a slowmode channel), until when."""
        self.boards = Boards(bot)
        """The status boards, refreshed (coalesced) after a match's notices went out."""
        self.asked: dict[int, dict[int, SentAsk]] = {}
        """Match -> undo consent and vote DMs this process sent whose buttons still ask (message id -> what it asks)."""
        self.lobbies = LobbyPosts(bot)
        """The lobby posts, following their matches (paced) as the boards do."""
        self.archives = Archives(bot, self._setting("thread_archive_seconds", 3600.0), self.settled)
        """Ended matches' threads, archived a while after their last post."""
        self.replays = replays.Replays()
        """Replay GIFs drawn ahead of their posts (outside the send slots)."""
        self.dm_channels: dict[int, int] = {}
        """User -> their DM channel with the bot, which never changes: a DM needs no read for it."""
        self.opener = DmOpener(bot, self.dm_channels, self._know_dm_channel, self.wake_for)
        """Opens players' DM channels in one lane, ahead of need (dm_opener.py)."""
        self.held_for_opens: dict[int, tuple[float, frozenset[tuple[str, int]]]] = {}
        """Match -> when its worker stopped with only DMs waiting for their channels left, and
        their targets: rounds leave it alone a while (``_waits_for_opens``)."""
        self.behind_opens: dict[tuple[str, int], set[int]] = {}
        """Target -> the players whose DM channel its oldest waiting notice waits for: its
        notices wait while one of them is being opened (``opener``), the rest go on."""
        self.turns = SeatTurns()
        """Held while a seat's prompt DM is written (here, and by the reply to a click: router.py)."""
        self.prefs: dict[int, dict[int, NotifyPrefs]] = {}
        """Match -> its seated players' notification settings, read with the batch its worker
        delivers now (user id -> settings); gone when the worker ends."""
        self.default_prefs: dict[int, bool] = {}
        """Match -> whether nobody had notification settings for it when its worker read the
        batch it delivers now (then everyone's are the defaults)."""
        self.blocked: dict[int, bool] = {}
        """Match -> whether one of its targets was blocked when its worker read the batch it delivers now."""
        self.players: dict[int, list[int]] = {}
        """Match -> the seats players held when its turn DMs were last brought up to date: held
        while the next reconciling reads (a seat that changed hands meanwhile is read again)."""
        self.marks: dict[int, list[tuple[Mark, Notice]]] = {}
        """Match -> the delivered marks of its notices that went out and wait to be written
        together (waiting_marks.py): until a mark comes MARK_WAIT s after the first, a sender
        reads one, its worker reads the queue again or brings the turn DMs up to date, or ends."""
        self._first_wait: dict[int, float] = {}
        """Match -> when the oldest of its waiting marks was taken (monotonic)."""
        self._writing: dict[int, set[asyncio.Event]] = {}
        """Match -> the writes under way that took some of its waiting marks (waiting_marks.py)."""
        self.pace = phase_pace.PhasePace(self._setting("phase_edit_seconds", phase_pace.PHASE_EDIT_SECONDS),
                                         self.wake_for, lambda: self.svc.clock())
        """The phase posts' pace: a line at once after a quiet spell, sooner ones in one edit (phase_pace.py)."""
        self.read_upto: dict[int, int] = {}
        """Match -> its newest notice this process read from the queue: a newer one is still to
        come (``unread``)."""
        self.phase_memory = PostMemory(self.fence)
        """Match -> its open phase post as this process's deliveries left it (phase_post_memory.py)."""
        self.closed_dms: dict[tuple[int, int], bool] = {}
        """(match, seat) -> whether its DMs are closed, as read or marked while this process held
        the delivery lease. Only the holder marks them, so what it read stays true while it
        holds the lease; a lease lost and taken again starts over (another holder may have marked)."""

    @property
    def svc(self) -> DeliveryService:
        return self.bot.svc

    def _setting(self, name: str, default: float) -> float:
        return float(getattr(getattr(self.bot, "settings", None), name, default))

    def probe_delay(self, probes: int) -> float:
        """Seconds to the next probe of a blocked target after ``probes`` failed ones: doubling, capped."""
        first = self._setting("delivery_probe_seconds", 60.0)
        return min(first * 2.0 ** min(probes, 30), self._setting("delivery_probe_max_seconds", 900.0))

    async def run_forever(self, every: float, stopping: asyncio.Event) -> None:
        """A round every ``every`` s or when woken, until ``stopping`` is set (a round under way
        completes first); then the match workers get the same grace before they are cancelled."""
        try:
            while not stopping.is_set():
                with contextlib.suppress(TimeoutError):
                    # not wait_for: on Python 3.11 it returns, swallowing a cancellation, when the
                    # wake comes in the same turn of the loop, and the cancelled loop went on
                    # starting workers beside its successor's
                    async with asyncio.timeout(every):
                        await self.wake.wait()
                self.wake.clear()
                if stopping.is_set():
                    break
                woken, self.woken = self.woken, set()
                try:
                    if woken and time.monotonic() - self.full_at < every:
                        await self.dispatch(only=woken)
                    else:
                        self.full_at = time.monotonic()
                        await self.dispatch()
                    metrics.loop_ran("deliver")
                except Exception:
                    log.exception("delivery round failed; retrying on the next round")
        finally:
            await self.stop()

    async def stop(self, grace: float = WORKERS_GRACE) -> None:
        """Let the match workers finish what they send now (at most ``grace`` s), then cancel
        them (at shutdown); what they had not marked is delivered next time."""
        running = [task for task in self.workers.values() if not task.done()]
        try:
            if running:
                await asyncio.wait(running, timeout=grace)
        finally:  # cancelled while waiting (the loop's own grace ended): the workers still go
            await cancel_and_wait(self.workers.values())
        await self.write_idle_marks()
        self.workers.clear()
        self.pace.stop()
        await self.opener.stop()
        await self.boards.stop(BOARDS_GRACE)  # a board waiting to gather its changes is edited first
        await self.lobbies.stop()
        await self.archives.stop()

    def settled(self, match_id: int) -> bool:
        """Whether nothing of the match is being written to Discord right now."""
        running = [self.workers.get(match_id), self.boards.tasks.get(match_id), self.lobbies.tasks.get(match_id)]
        return all(task is None or task.done() for task in running)

    def wake_for(self, match_id: int | None = None) -> None:
        """New notices were written (for ``match_id``, when known): a round now. A round woken
        only for named matches starts their workers without reading the queue (their first
        read finds their notices); the whole queue is still read every round period."""
        if match_id is not None:
            self.woken.add(match_id)
            self.pace.woken(match_id)
        else:
            self.full_at = 0.0
        self.wake.set()

    async def dispatch(self, only: set[int] | None = None) -> list[asyncio.Task[int]]:
        """Start a worker for each match with something to deliver (or a probe due) that has
        none; with ``only``, for those matches, without reading the queue (no probe)."""
        if not await self.bot.holds_lease("deliver"):
            self.closed_dms.clear()
            self.phase_memory.matches.clear()
            self.drop_idle_marks()
            return []
        started = []
        now = time.monotonic()
        queue = DeliveryRound(sorted(only)) if only is not None else await self._read_round()
        if queue is None:
            return []  # the term is over
        for match_id in queue.matches:
            running = self.workers.get(match_id)
            if running is not None and not running.done():
                self.again.add(match_id)
                continue
            if self.retry_at.get(match_id, (0.0, 0))[0] > now or only is None and (
                    self.pace.skips(match_id) or self._waits_for_opens(match_id, now)):
                continue
            task = asyncio.create_task(self._work(match_id, probe=match_id in queue.probing),
                                       name=f"deliver-match-{match_id}")
            self.workers[match_id] = task
            started.append(task)
        return started

    async def _read_round(self) -> DeliveryRound | None:
        """The round's read of the queue, the idle matches' waiting marks written first in its
        transaction (waiting_marks.py). None when the term is over."""
        taken = self.take_idle_marks()
        if taken is None:
            return await self.svc.delivery_round(MATCHES_PER_ROUND)
        queue, written = await self.idle_marks_read(
            taken, lambda marks: self.svc.delivery_round(MATCHES_PER_ROUND, marks=marks))
        return queue if written else None

    async def deliver_pending(self) -> int:
        """One round, waiting for the matches it started, their marks written; returns the
        notices delivered."""
        sent = sum(await asyncio.gather(*await self.dispatch()))
        await self.write_idle_marks()
        return sent

    async def _work(self, match_id: int, probe: bool = True) -> int:
        """One match's notices, oldest first, until none is left (or a passing failure). The
        lease is asked before each batch and each group (in memory while it is fresh): a process
        that was paused past its lease stops here instead of finishing its batch. A target held
        back by a long 429 is stepped over; the match's other targets go on."""
        log_json.about(match_id=match_id)
        surely_held = getattr(self.bot, "lease_surely_held", None)
        if surely_held is not None:  # each request asks again just before it goes (sending.SENDS_UNDER)
            SENDS_UNDER.set(lambda: bool(surely_held("deliver")))
        sent = reconciled = 0
        put_off = False
        stepped: set[tuple[str, int]] = set()
        try:
            if probe:  # a blocked target of the match is due for a probe
                sent += await self._probe(match_id)
            while True:
                self.again.discard(match_id)
                if not await self.bot.holds_lease("deliver"):
                    return sent
                read = await self.read_batch(match_id, BATCH)  # with the marks that wait
                if read is None:
                    return sent  # the term is over
                batch = read.notices
                if batch:
                    self.read_upto[match_id] = max(self.read_upto.get(match_id, 0), *(n.id for n in batch))
                self.prefs[match_id], self.blocked[match_id] = read.prefs, read.blocked
                self.default_prefs[match_id] = read.defaults
                if not batch:
                    if match_id in self.again:
                        continue
                    reconciled = await self._drained(match_id, sent, reconciled)
                    if match_id in self.again:
                        continue  # notices came while the turn DMs were brought up to date
                    return sent
                moved = False
                rest = len(batch) >= BATCH  # notices may be left that this batch did not try: read again
                # targets this pass stepped over: their later notices wait too, even when the hold
                # ends meanwhile (they go, in order, with the next read)
                stepped = set()
                for group in phase_pace.groups(batch):
                    target = target_of(group[0])
                    # a target stepped over is not read again by this worker: what ends its wait
                    # wakes the match (the opener; the 429's hold, by the next round)
                    if target in stepped or self.slowed.held(target) or self._behind_opens(target):
                        stepped.add(target)
                        continue  # held back by a long 429 or a DM channel being opened; its later notices wait with it
                    waiting = await dm_opener.waits_for_dms(self, group)
                    if waiting:  # the opener wakes the match once the channel is open
                        self.behind_opens[target] = set(waiting)
                        stepped.add(target)
                        continue
                    wait = self.pace.wait(group, batch)
                    if wait > 0:
                        self.pace.hold(group, wait)  # a phase post's lines, gathered: its timer wakes the match
                        put_off = True
                        continue
                    if self._reads_waiting_marks(group) and not await self.write_marks(match_id):
                        return sent
                    outcome = await self._deliver_one(group)
                    if outcome == LOST:
                        return sent
                    if outcome in (DELIVERED, DROPPED):
                        moved = True
                        sent += len(group) if outcome == DELIVERED else 0
                        waited = self.pace.went(group)
                        reconciled += waited if outcome == DELIVERED else 0
                        if group[0].kind == "lobby":
                            if group[0].payload.get("status") == "aborted":
                                self.archives.ended(match_id)
                                await seat_posts.close_ended(self, match_id)
                            else:
                                self.opener.ahead(match_id)  # who sat down: their DM channels open now, not at their first DM
                            rest = True
                            break  # it may have moved the match into its thread: read the targets again
                        # a change the channel waits on edits the board at once (at its pace); what
                        # only DMs and a phase post's lines told waits a while, gathered (board.py)
                        self.boards.touch(match_id, written_at(group),
                                          within=self.boards.quiet if phase_pace.quiet(group) else 0.0)
                        ended = any(n.kind == "result" for n in group)
                        self.lobbies.touch(match_id, written_at(group), ended=ended)
                        if ended:
                            self.phase_memory.forget(match_id)
                            self.archives.ended(match_id)
                            await seat_posts.close_ended(self, match_id)
                    elif outcome == PARKED:
                        moved = rest = True
                        break  # that target's other notices are parked too: read the queue again
                    elif outcome == RETRY:
                        self._back_off(match_id)
                        return sent
                    else:  # HELD: its target waits out a long 429
                        stepped.add(target)
                if not moved:
                    if put_off:  # its read writes the waiting marks first
                        await self.reconcile(match_id)  # what the lines put off tell, as their edit would have
                    return sent  # only held or waiting targets are left: the next round or a timer looks again
                if not rest and match_id not in self.again:
                    # all of a batch shorter than BATCH went but the targets stepped over, and no
                    # notice came since (dispatch marks it again when one does): the read after it
                    # would find only what waits for those targets
                    reconciled = await self._drained(match_id, sent, reconciled)
                    if match_id in self.again:
                        continue  # notices came while the turn DMs were brought up to date
                    return sent
        except LeaseLost:  # a request found the lease gone (a pause outlived it): the holder sends
            return sent
        except Exception:
            log.exception("delivering the notices of match %s failed; retrying later", match_id)
            self.pace.put_off.pop(match_id, None)  # their changes may not be in the turn DMs yet
            self._back_off(match_id)
            return sent
        finally:  # marks still waiting are written by the next round's read (waiting_marks.py)
            if stepped and all(self._behind_opens(target) for target in stepped):
                self.held_for_opens[match_id] = (time.monotonic(), frozenset(stepped))
            else:
                self.held_for_opens.pop(match_id, None)
            if self.workers.get(match_id) is asyncio.current_task():
                del self.workers[match_id]
                self.prefs.pop(match_id, None)
                self.default_prefs.pop(match_id, None)
                self.blocked.pop(match_id, None)

    async def _drained(self, match_id: int, sent: int, reconciled: int) -> int:
        """The match's queue is empty: its turn DMs as the match now stands, when a notice went
        since they were last brought up to date (``reconciled``: how many had gone then).
        Returns how many have gone now. A dispatch meanwhile marks the match ``again``: the
        caller reads the queue once more (it may never have been woken for those notices, as
        when the bot stops and only its last round dispatches)."""
        self.retry_at.pop(match_id, None)
        if sent > reconciled:  # its read writes the waiting marks first: the turn DMs are found by them
            await self.reconcile(match_id)
        return sent

    def _waits_for_opens(self, match_id: int, now: float) -> bool:
        """Whether a round leaves the match alone: its worker last stopped with nothing left but
        DMs waiting for their channels, which the opener wakes it for (and any notice written here
        wakes it too). Rounds still look every HELD_LOOK_SECONDS, for notices another process
        wrote: only a round sees those. At 40 starting matches a round's read of each such match
        was 2.3 statements an interaction."""
        held = self.held_for_opens.get(match_id)
        if held is None:
            return False
        since, targets = held
        if now - since < HELD_LOOK_SECONDS and all(self._behind_opens(target) for target in targets):
            return True
        del self.held_for_opens[match_id]
        return False

    def _behind_opens(self, target: tuple[str, int]) -> bool:
        """Whether the target's notices wait for a DM channel being opened (forgotten once none is)."""
        users = self.behind_opens.get(target)
        if users is None:
            return False
        if any(self.opener.waits(user) for user in users):
            return True
        del self.behind_opens[target]
        return False

    def _back_off(self, match_id: int) -> None:
        failures = self.retry_at.get(match_id, (0.0, 0))[1] + 1
        wait = min(self._setting("deliver_seconds", 1.0) * 2.0 ** min(failures, 30), RETRY_MAX_SECONDS)
        self.retry_at[match_id] = (time.monotonic() + wait, failures)

    async def _deliver_one(self, group: list[Notice]) -> str:
        """Deliver one notice, or consecutive phase-post notices as one post or edit. A refusal
        that asking again will not change is tried at most MAX_TRIES times, then never holds
        back the notices behind it (refused.py: re-created, parked or dropped)."""
        notice = group[0]
        fresh = False
        refusal: discord.HTTPException | None = None
        ref: str | None
        for attempt in range(1, MAX_TRIES + 1):
            if not await self.bot.holds_lease("deliver"):
                return LOST
            try:
                await self.replays.prepare(self, notice)  # slow drawing takes no send slot
                await self.ensure_lease()  # a process paused while it drew sends nothing
                async with self.gate:
                    if len(group) > 1 or notice.kind in PHASE_POST_KINDS:
                        ref = await phase_posts.deliver_group(self, group, fresh=fresh)
                    else:
                        ref = await self.deliver(notice)
            except LeaseLost:
                return LOST
            except discord.RateLimited as exc:
                self.slowed.hold(target_of(notice), exc.retry_after)
                log.warning("Discord asks to wait %.0f s before the next post to %s %s (match %s); its "
                            "notices wait, the rest go on", exc.retry_after, *target_of(notice), notice.match_id)
                return HELD
            except discord.HTTPException as exc:
                refusal = exc
                if not await self.write_marks(notice.match_id):  # parking must not take notices that went
                    return LOST
                verdict = await refused.judge(self, group, exc, attempt)
                if verdict == refused.AGAIN:
                    continue
                if verdict == refused.RECREATE:
                    fresh = True
                    continue
                return verdict
            for each in group:
                if not await self.mark(each, ref):
                    return LOST
            return DELIVERED
        assert refusal is not None  # every try ended in a refusal judged worth another
        return await refused.give_up(self, group, refusal)

    async def park(self, notice: Notice, code: int) -> None:
        kind, target_id = target_of(notice)
        reason = reason_for(self.bot, code, kind, target_id)
        block = await self.svc.park(notice.id, code, reason, retry_in=self.probe_delay(0))
        if block is not None:
            log.warning("parked %d notices of match %s for %s %s: %s (Discord error %s); next try in %.0f s",
                        block.held, notice.match_id, kind, target_id, reason, code, self.probe_delay(0))

    async def _probe(self, match_id: int) -> int:
        """Try each due blocked target with its oldest parked notice; if it goes, the rest follow."""
        sent = 0
        self.phase_memory.forget(match_id)  # a probe's notice comes out of order, and a give-up marks many
        for block in await self.svc.due_probes(match_id):
            notice = await self.svc.probe_notice(block)
            if notice is None:
                await self.svc.unblock(block)
                continue
            try:
                async with self.gate:
                    ref = await self.deliver(notice)
            except LeaseLost:
                return sent
            except discord.RateLimited as exc:
                self.slowed.hold((block.kind, block.target_id), exc.retry_after)
                continue
            except discord.HTTPException as exc:
                code = final_code(exc)
                reason = reason_for(self.bot, code, block.kind, block.target_id) if code else block.reason
                dropped = await self.svc.probe_failed(block, code or block.code, reason,
                                                      self.probe_delay(block.probes + 1))
                if dropped is not None:
                    log.warning("gave up on %s %s of match %s (over, refused since %s): %d notices dropped",
                                block.kind, block.target_id, match_id, block.since, dropped)
                continue
            if not await self.mark(notice, ref) or not await self.write_marks(match_id):
                return sent
            held = await self.svc.unblock(block)
            sent += 1
            log.info("%s %s of match %s works again; %d held notices follow", block.kind, block.target_id,
                     match_id, held)
        return sent

    # ------------------------------------------------------------------ one notice

    async def deliver(self, notice: Notice) -> str | None:
        """Send one notice the way its kind is sent (SENDERS); an unknown kind is never posted."""
        sender = SENDERS.get(notice.kind)
        if sender is None:
            log.warning("not posting notice %s of unknown kind %r", notice.id, notice.kind)
            return "skipped"
        return await sender(self, notice)
