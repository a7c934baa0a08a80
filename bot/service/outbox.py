"""The outbox as front-ends deliver it: per-match queues, refused targets parked and probed.

A transport that meets a permanent refusal (no permission in a channel, a deleted channel, a
player who shares no server with the bot) parks the notice: the match is then blocked on that
target, its notices for it wait out of the queue, the host and players are told where they can
be, and the front-end probes the target at a slow pace until it works again. Other targets of
the match, and other matches, are never held up by it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.service import notices
from bot.service.errors import NoMatch
from bot.service.notices import BlockedNotice
from bot.service.notify_prefs import NotifyPrefs, seat_prefs
from bot.service.rows import row_id
from bot.service.types import Blocked, Notice, OpenPost
from db.models import OPEN_STATUSES, DeliveryBlock, Match, Seat
from db.models import Notice as NoticeRow
from db.outbox import CHANNEL, USER, Fence, Mark, Waiting, delivered_payload, target_of
from db.store import Store

PHASE_POST_KINDS = ("events", "progress", "phase", "result")
"""Notices that make up a match's phase posts."""
GATHERING = ("events", "progress")
"""Of those, the ones that add lines to the open post (``phase`` and ``result`` close it)."""
PHASE_POST_SCAN = 200
"""Notices read back to rebuild an open post (one post holds far fewer: it is one message)."""
ALERT = "blocked"
"""The notice kind that tells people about a blocked target; never parked itself."""
REFUSED_KIND = "notice"
"""The ``target_kind`` of the alert telling a host that a message of the match was refused and left out."""
GIVE_UP_AFTER = timedelta(days=7)
"""A finished or aborted match stops probing a target that has refused it this long."""


PREFS_KINDS = frozenset({"prompt", "private", "turn", "reminder", "heads_up"})
"""Notices whose sender asks the players' notification settings (`/game notify`)."""


@dataclass(frozen=True)
class DeliveryBatch:
    """A match's next notices and, when one of them asks, the settings of every seated player
    (user id -> settings): read together, so a batch's DMs ask the database nothing more."""

    notices: list[Notice]
    prefs: dict[int, NotifyPrefs] = field(default_factory=dict)
    defaults: bool = False
    """Nobody has notification settings for the match on its server: everyone's are the
    defaults (then none were read)."""
    blocked: bool = True
    """Whether a target of the match was blocked when the batch was read (then ask which)."""


@dataclass
class MarksWrite:
    """Delivered marks to write in the transaction of a read the delivery makes next (one BEGIN
    for both: the read sees them); ``written`` says afterwards how many were (fewer: some were
    marked already, or, with a ``fence``, none because the lease passed to another process);
    ``committed`` whether they are in the database whatever happens to the read (a read of one
    statement writes them in a statement of their own first: it may fail after them)."""

    marks: list[Mark]
    fence: Fence | None = None
    written: int = 0
    committed: bool = False


@asynccontextmanager
async def marks_first(store: Store, marks: MarksWrite | None,
                      read: Callable[[], AbstractAsyncContextManager[Connection]],
                      one_statement: bool = False) -> AsyncIterator[Connection]:
    """A read without a session (db/lean.py): with delivered ``marks`` to write, a write
    transaction that marks them first (the read sees them: one BEGIN for both), else ``read``.
    A read of ``one_statement`` needs no transaction: the marks are written first by a statement
    of their own (committed as it runs, so the read sees them), and neither sends a BEGIN."""
    if marks is not None and marks.marks and one_statement:
        async with store.write_once() as connection:
            marks.written = await store.mark_all_delivered(connection, marks.marks, marks.fence)
        marks.committed = True
    if marks is None or not marks.marks or one_statement:
        async with read() as connection:
            yield connection
        return
    async with store.lean_write() as connection:
        marks.written = await store.mark_all_delivered(connection, marks.marks, marks.fence)
        yield connection


@dataclass(frozen=True)
class DeliveryRound:
    """The matches a delivery round starts workers for, and those with a blocked target due
    for a probe (only their workers ask for the due probes)."""

    matches: list[int]
    probing: frozenset[int] = frozenset()


def _notice(row: NoticeRow | Waiting) -> Notice:
    return Notice(id=row_id(row) if isinstance(row, NoticeRow) else row.id, match_id=row.match_id, key=row.key,
                  kind=row.kind, channel_id=row.channel_id, user_id=row.user_id, seat=row.seat, payload=row.payload,
                  created_at=row.created_at)


def blocked_of(row: DeliveryBlock, held: int = 0) -> Blocked:
    return Blocked(id=row_id(row), match_id=row.match_id, kind=row.target_kind, target_id=row.target_id, code=row.code,
                   reason=row.reason, since=row.since, next_probe_at=row.next_probe_at, probes=row.probes, held=held)


def post_lines(payload: dict[str, Any]) -> list[str]:
    """The lines a delivered ``events``/``progress`` notice gave its open phase post (at least one)."""
    return [str(line) for line in payload.get("events") or [payload.get("text", "")]]


class OutboxService:
    """Everything a front-end's delivery loop calls. It needs only the store and the clock:
    MatchService holds one (``svc.deliveries``) and passes its calls on."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock

    async def outbox(self, limit: int = 100) -> list[Notice]:
        """Every undelivered notice (parked ones too), oldest first: for tests and tools."""
        async with self.store.read() as session:
            rows = await self.store.undelivered(session, limit)
        return [_notice(r) for r in rows]

    async def delivered(self, notice_id: int, ref: str | None = None, fence: Fence | None = None) -> bool:
        """Mark the notice delivered; with a ``fence``, only while that lease term is current
        (False: not written, already marked or the lease passed to another process)."""
        async with self.store.write_once() as connection:  # one UPDATE: no BEGIN, no COMMIT
            return await self.store.mark_delivered(connection, notice_id, self.clock(), ref, fence)

    async def delivered_all(self, marks: list[Mark], fence: Fence | None = None) -> int:
        """``delivered`` for several notices (each with its ref and the time it went out) in one
        write; returns how many were written (fewer: some were marked already, or, with a
        ``fence``, none because the lease passed to another process)."""
        if not marks:
            return 0
        async with self.store.write_once() as connection:  # one UPDATE: no BEGIN, no COMMIT
            return await self.store.mark_all_delivered(connection, marks, fence)

    async def holds_term(self, fence: Fence) -> bool:
        async with self.store.read_once() as connection:
            return await self.store.holds_term(connection, fence)

    async def newer_prompt(self, match_id: int, seat: int, notice_id: int) -> bool:
        """Whether a newer prompt than this notice's was written for the seat (a DM about to be
        edited would show an older decision than the newest)."""
        async with self.store.read_once() as connection:
            return await self.store.newer_prompt(connection, match_id, seat, notice_id)

    async def drop(self, notice_id: int, code: int, reason: str, fence: Fence | None = None) -> bool:
        """Discord refused the notice for good and nothing stands in for it: it leaves the queue
        with its reason stored, and the match's host is told once (one ``blocked`` notice per
        match, whatever more is dropped later). False when it was not written (see ``delivered``)."""
        now = self.clock()
        async with self.store.write() as session:
            row = await session.get(NoticeRow, notice_id)
            if row is None or not await self.store.drop_notice(session, notice_id, now, reason, fence):
                return False
            match = await session.get(Match, row.match_id)
            key = f"refused:{row.match_id}"
            if match is None or await self.store.has_notice_key(session, row.match_id, key):
                return True
            seats = await self.store.seats(session, row.match_id)
            payload = BlockedNotice(target_kind=REFUSED_KIND, target_id=notice_id, code=code, reason=reason[:200])
            notices.check(ALERT, payload)
            session.add(NoticeRow(match_id=row.match_id, key=key, kind=ALERT, channel_id=match.channel_id,
                                  user_id=match.host_id, seat=self._seat_no(seats, match.host_id),
                                  payload=dict(payload), created_at=now))
            return True

    async def open_phase_post(self, match_id: int, before_id: int) -> OpenPost | None:
        """The phase post still gathering lines when notice ``before_id`` comes: the message the
        latest ``events``/``progress`` notices went to, unless a ``phase``/``result`` closed it since.
        Its heading is the label it opened with: the phase its lines belong to (a fight inside
        an activation does not rename the activation's post)."""
        async with self.store.read_once() as connection:
            rows = await self.store.delivered_before(connection, match_id, before_id, PHASE_POST_KINDS, PHASE_POST_SCAN)
        if not rows or rows[0][0] not in GATHERING or not str(rows[0][1] or "").isdigit():
            return None
        ref = str(rows[0][1])
        gathered = []
        continued = False
        for kind, row_ref, payload in rows:
            if kind not in GATHERING or str(row_ref) != ref:
                continued = kind in GATHERING  # the phase filled a post before this one
                break
            gathered.append((kind, payload))
        gathered.reverse()
        lines = [(line, kind == "progress") for kind, payload in gathered for line in post_lines(payload)]
        labels = [str(payload.get("label") or "") for _kind, payload in gathered]
        return OpenPost(ref=int(ref), label=next((x for x in labels if x), ""), lines=[line for line, _ in lines],
                        continued=continued, progress=[n for n, (_, progress) in enumerate(lines) if progress])

    async def delivery_queue(self, limit: int = 500) -> list[int]:
        """Matches with notices to deliver or a blocked target due for a probe, longest waiting first."""
        return (await self.delivery_round(limit)).matches

    async def delivery_round(self, limit: int = 500, marks: MarksWrite | None = None) -> DeliveryRound:
        """``delivery_queue``, saying which of them have a probe due (one statement). ``marks``:
        delivered marks written first, in the same transaction (those left by workers that
        ended: the queue read must not hold what went)."""
        async with self._marked_read(marks) as connection:
            waiting, due = await self.store.delivery_queue(connection, limit, self.clock())
        return DeliveryRound(list(dict.fromkeys([*waiting, *due])), frozenset(due))

    def _marked_read(self, marks: MarksWrite | None) -> AbstractAsyncContextManager[Connection]:
        """The connection of a read of one statement, without a session: with delivered ``marks``
        to write first, a write transaction that marks them (``marks_first``), else a read of its
        own, with no BEGIN (``Store.read_once``)."""
        return marks_first(self.store, marks, self.store.read_once, one_statement=True)

    async def next_notices(self, match_id: int, limit: int = 50) -> list[Notice]:
        """The match's next notices in order. Notices for a blocked target are parked first, so
        what comes back can all be tried now."""
        return (await self.next_batch(match_id, limit, with_prefs=False)).notices

    async def next_batch(self, match_id: int, limit: int = 50, with_prefs: bool = True,
                         marks: MarksWrite | None = None) -> DeliveryBatch:
        """``next_notices`` and, when one of them is sent by asking a player's settings, those
        of every seated player: one statement for the notices (and whether a target is blocked,
        and whether anyone has settings for the match), read without a session and with no
        BEGIN; only when a target is blocked or someone has settings, a read in a session gives
        the notices again with the blocks and the settings. ``marks``: delivered marks written
        first, in the same transaction as the first read."""
        async with self._marked_read(marks) as connection:
            rows, any_blocked, settings = await self.store.waiting_notices(connection, match_id, limit)
        if rows:  # nothing is sent of a commit not yet on the disk (db/durability.py)
            await self.store.durable()
        asks = with_prefs and any(r.kind in PREFS_KINDS for r in rows)
        if not any_blocked and not (asks and settings):
            return DeliveryBatch([_notice(r) for r in rows], {}, defaults=asks, blocked=not rows)
        # a blocked target or someone's settings: read again in a session, with their rows
        async with self.store.read() as session:
            rows, any_blocked, settings = await self.store.waiting_notices(session, match_id, limit)
            blocks = await self.store.delivery_blocks(session, match_id) if any_blocked else []
            blocked = {(b.target_kind, b.target_id): b for b in blocks}
            parking = any(target_of(r) in blocked and r.kind != ALERT for r in rows)
            asks = with_prefs and not parking and any(r.kind in PREFS_KINDS for r in rows)
            prefs = await seat_prefs(session, match_id) if asks and settings else {}
        if parking:
            async with self.store.write() as session:
                for (kind, target_id), block in blocked.items():
                    await self.store.park(session, match_id, kind, target_id, block.reason, spare_kinds=[ALERT])
            async with self.store.read() as session:
                rows, _blocked, settings = await self.store.waiting_notices(session, match_id, limit)
                asks = with_prefs and any(r.kind in PREFS_KINDS for r in rows)
                prefs = await seat_prefs(session, match_id) if asks and settings else {}
        return DeliveryBatch([_notice(r) for r in rows], prefs, defaults=asks and not settings,
                             blocked=bool(blocked) or not rows)

    async def park(self, notice_id: int, code: int, reason: str, retry_in: float) -> Blocked | None:
        """The notice's target refused it for good: park it and the target's other waiting notices.

        The first refusal of a target blocks it (probe due in ``retry_in`` seconds) and writes
        ``blocked`` notices to tell the host and players where they can hear it: the players' DMs
        for a channel, the channel and the host's DMs for a player. Returns the new block, or
        None if the target was blocked already. A ``blocked`` notice is never parked: None too."""
        now = self.clock()
        async with self.store.write() as session:
            row = await session.get(NoticeRow, notice_id)
            if row is None or row.delivered_at is not None or row.kind == ALERT:
                return None
            kind, target_id = target_of(row)
            block = await self.store.delivery_block(session, row.match_id, kind, target_id)
            fresh = block is None
            if block is None:
                block = DeliveryBlock(match_id=row.match_id, target_kind=kind, target_id=target_id, code=code,
                                      reason=reason[:200], since=now, next_probe_at=now + timedelta(seconds=retry_in))
                session.add(block)
                await session.flush()
                await self._alert(session, row, block)
            held = await self.store.park(session, row.match_id, kind, target_id, block.reason, spare_kinds=[ALERT])
            return blocked_of(block, held) if fresh else None

    async def _alert(self, session: AsyncSession, refused: NoticeRow, block: DeliveryBlock) -> None:
        """``blocked`` notices about a new block, to everyone who may hear it elsewhere."""
        match = await session.get(Match, refused.match_id)
        if match is None:
            raise NoMatch(f"There is no match {refused.match_id}.")
        seats = await self.store.seats(session, refused.match_id)
        payload = BlockedNotice(target_kind=block.target_kind, target_id=block.target_id, code=block.code,
                                reason=block.reason)
        recipients: list[tuple[int | None, int | None]] = []  # (user id or None for the channel, seat)
        if block.target_kind == USER:
            seat = next((s for s in seats if s.user_id == block.target_id), None)
            payload["name"] = seat.name if seat is not None else None
            recipients.append((None, None))
            if match.host_id != block.target_id:
                recipients.append((match.host_id, self._seat_no(seats, match.host_id)))
        else:
            humans = [s.user_id for s in seats if s.user_id is not None]
            for user_id in dict.fromkeys([match.host_id, *humans]):
                recipients.append((user_id, self._seat_no(seats, user_id)))
        notices.check(ALERT, payload)
        for recipient, seat_no in recipients:
            session.add(NoticeRow(
                match_id=refused.match_id, key=f"blocked:{block.id}:{recipient or CHANNEL}", kind=ALERT,
                channel_id=match.channel_id, user_id=recipient, seat=seat_no, payload=dict(payload),
                created_at=self.clock(),
            ))

    @staticmethod
    def _seat_no(seats: list[Seat], user_id: int) -> int | None:
        return next((s.seat_no for s in seats if s.user_id == user_id), None)

    async def due_probes(self, match_id: int) -> list[Blocked]:
        """The match's blocked targets whose next probe is due."""
        async with self.store.read() as session:
            return [blocked_of(b) for b in await self.store.delivery_blocks(session, match_id, due=self.clock())]

    async def probe_notice(self, block: Blocked) -> Notice | None:
        """The oldest parked notice of a blocked target: delivering it is the probe."""
        async with self.store.read() as session:
            rows = await self.store.parked_notices(session, block.match_id, block.kind, block.target_id, limit=1)
        return _notice(rows[0]) if rows else None

    async def probe_failed(self, block: Blocked, code: int, reason: str, retry_in: float) -> int | None:
        """Still refused: try again in ``retry_in`` seconds, with the latest reason.

        A match that is over stops waiting after GIVE_UP_AFTER: its parked notices are marked
        delivered as "undeliverable" and the block goes. Returns how many, or None (still waiting)."""
        now = self.clock()
        async with self.store.write() as session:
            match = await session.get(Match, block.match_id)
            if match is not None and match.status not in OPEN_STATUSES and now - block.since >= GIVE_UP_AFTER:
                await self.store.park(session, block.match_id, block.kind, block.target_id, block.reason,
                                      spare_kinds=[ALERT])
                parked = await self.store.parked_notices(session, block.match_id, block.kind, block.target_id)
                for row in parked:
                    row.delivered_at, row.delivery_ref, row.parked_reason = now, "undeliverable", None
                    row.payload = delivered_payload(row.kind, row.payload)  # delivered in name: it keeps what any does
                await self.store.drop_block(session, block.id)
                return len(parked)
            await self.store.probe_again(session, block.id, code, reason[:200], now + timedelta(seconds=retry_in))
            return None

    async def unblock(self, block: Blocked) -> int:
        """The target works again: drop the block and put its parked notices back in the queue
        (they keep their order). Returns how many."""
        async with self.store.write() as session:
            await self.store.drop_block(session, block.id)
            return await self.store.unpark(session, block.match_id, block.kind, block.target_id)

    async def dms_closed_at(self, match_id: int, seat: int) -> datetime | None:
        """When a DM to this seat first failed because its DMs are closed (None: they never did);
        a notice older than that was written before the channel heard about it."""
        async with self.store.read_once() as connection:
            return await self.store.notice_made_at(connection, match_id, f"dms-closed:{seat}")

    async def blocked_targets(self, match_id: int) -> list[Blocked]:
        """What refuses the match's notices now, with how many wait for each."""
        async with self.store.read() as session:
            return await self.blocked_in(session, match_id)

    async def blocked_in(self, session: AsyncSession, match_id: int) -> list[Blocked]:
        """``blocked_targets`` inside a read the caller holds (the status board reads all at once)."""
        blocks = await self.store.delivery_blocks(session, match_id)
        return [blocked_of(b, await self.store.parked_count(session, match_id, b.target_kind, b.target_id))
                for b in blocks]


__all__ = ["ALERT", "CHANNEL", "REFUSED_KIND", "USER", "Fence", "MarksWrite", "OutboxService", "target_of"]
