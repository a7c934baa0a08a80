"""Outbox queries: per-match queues, parked notices and the targets that refuse them.

A notice's target is the player's DMs when it names a user, else the match's channel. Reading
per match (not "the N oldest notices") keeps one match's backlog from hiding every other match's
notices; parking keeps a refused target's notices out of the queue until it works again.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import EVERYWHERE, DeliveryBlock, Lease, Match, Notice, NotifySetting
from db.prepared import Reader, begun, prepared, run

CHANNEL = "channel"
USER = "user"
VIEW = "view"
"""The payload field holding the view a notice's map is drawn from (a phase, a result, a prompt).
Once the notice is delivered the map is drawn and sent, and nothing reads the view again (a
prompt's DM edited later keeps its attachment), so the delivered mark drops it: the views were
most of a match's outbox bytes."""
TEXT, EVENTS = "text", "events"
"""A post's lines (``events``) and the same lines as one printed post (``text``). A delivered
notice is read back only for its lines (the open phase post is rebuilt from its ``events`` and
``progress`` notices), so it keeps ``text`` only when it has no lines (a result, a timeout)."""
CLOSED_POST = "phase"
CLOSED_POST_FIELDS = (VIEW, TEXT, EVENTS, "names")
"""A delivered ``phase`` notice closed its post: rebuilding an open post stops at it and reads
only its kind, so its lines and names go too (the log keeps the public lines: choices.public)."""


def _forgotten(kind: str, payload: dict[str, Any]) -> tuple[str, ...]:
    if kind == CLOSED_POST:
        return CLOSED_POST_FIELDS
    return (VIEW, TEXT) if payload.get(EVENTS) else (VIEW,)


def delivered_payload(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """What a notice's payload keeps once delivered: what is still read of it (see above)."""
    drop = _forgotten(kind, payload)
    return {key: value for key, value in payload.items() if key not in drop}


def delivered_payload_sql(dialect: str) -> ColumnElement[Any]:
    """``delivered_payload`` in SQL, on this database (JSON1 on SQLite, JSONB on PostgreSQL), so
    the delivered mark stays one UPDATE that never reads the payload back."""
    payload = col(Notice.payload)
    closed = col(Notice.kind) == CLOSED_POST
    if dialect == "postgresql":
        def without(*fields: str) -> ColumnElement[Any]:
            return payload.op("-")(sa.literal_column("ARRAY[" + ", ".join(f"'{f}'" for f in fields) + "]"))

        has_lines = payload.op("->")(sa.literal_column(f"'{EVENTS}'")) != sa.literal_column("'[]'::jsonb")
    else:
        def without(*fields: str) -> ColumnElement[Any]:
            return sa.func.json_remove(payload, *(f"$.{f}" for f in fields))

        has_lines = sa.func.json_array_length(payload, f"$.{EVENTS}") > 0
    return sa.case((closed, without(*CLOSED_POST_FIELDS)), (has_lines, without(VIEW, TEXT)), else_=without(VIEW))


def target_of(notice: Any) -> tuple[str, int]:
    """(kind, id) of where a notice (a row, or anything with ``user_id`` and ``channel_id``) goes:
    a user's DMs, or the channel."""
    if notice.user_id is not None:
        return USER, int(notice.user_id)
    return CHANNEL, int(notice.channel_id or 0)


def _for_target(kind: str, target_id: int) -> ColumnElement[bool]:
    if kind == USER:
        return col(Notice.user_id) == target_id
    return sa.and_(col(Notice.user_id).is_(None), col(Notice.channel_id) == target_id)


REFUSED = "refused"
"""The delivery ref of a notice Discord refused for good and that was dropped (its reason kept)."""


@dataclass(frozen=True)
class Fence:
    """A lease term (name, holder, term): work done under it is written only while it is current."""

    name: str
    holder: str
    term: int


def _lease_is(fence: Fence) -> ColumnElement[bool]:
    return sa.exists().where(col(Lease.name) == fence.name, col(Lease.holder) == fence.holder,
                             col(Lease.term) == fence.term)


def _waiting() -> ColumnElement[bool]:
    return sa.and_(col(Notice.delivered_at).is_(None), col(Notice.parked_reason).is_(None))


@dataclass(frozen=True)
class Mark:
    """A notice that went out: where (its ref) and when, for its delivered mark."""

    notice_id: int
    ref: str | None
    at: datetime


@dataclass(frozen=True)
class Waiting:
    """A notice waiting for delivery, as the delivery reads it (its columns, no ORM row)."""

    id: int
    match_id: int
    key: str
    kind: str
    channel_id: int | None
    user_id: int | None
    seat: int | None
    payload: dict[str, Any]
    created_at: datetime


@functools.cache
def _waiting_notices() -> sa.Select[Any]:
    """`waiting_notices`' statement, built once: the `Waiting` columns (the payload as the text
    stored: see `OutboxQueries.payload_of`), then whether a target of the match is blocked, and
    whether anyone has notification settings for the match on its server (their own for it, or
    for all their matches there)."""
    table = Notice.__table__  # type: ignore[attr-defined]
    blocked = sa.exists().where(col(DeliveryBlock.match_id) == sa.bindparam("match_id"))
    guild = sa.select(col(Match.guild_id)).where(col(Match.id) == sa.bindparam("match_id")).scalar_subquery()
    settings = sa.exists().where(col(NotifySetting.guild_id) == guild,
                                 col(NotifySetting.match_id).in_([EVERYWHERE, sa.bindparam("match_id")]))
    columns = [sa.type_coerce(table.c[name], sa.Text()).label(name) if name == "payload" else table.c[name]
               for name in Waiting.__dataclass_fields__]
    return (sa.select(*columns, blocked.label("blocked"), settings.label("settings"))
            .where(col(Notice.match_id) == sa.bindparam("match_id"), _waiting())
            .order_by(col(Notice.id)).limit(sa.bindparam("limit")))


@functools.cache
def _delivery_queue() -> sa.CompoundSelect:
    """`delivery_queue`'s statement, built once: (0, match, its oldest waiting notice) for the
    matches with notices waiting (the ``limit`` longest waiting), and (1, match, block) for the
    blocked targets whose probe is due."""
    notices = Notice.__table__  # type: ignore[attr-defined]
    blocks = DeliveryBlock.__table__  # type: ignore[attr-defined]
    oldest = sa.func.min(notices.c.id)
    waiting = (sa.select(sa.literal(0).label("part"), notices.c.match_id, oldest.label("ord"))
               .where(notices.c.delivered_at.is_(None), notices.c.parked_reason.is_(None))
               .group_by(notices.c.match_id).order_by(oldest).limit(sa.bindparam("limit")).subquery())
    due = (sa.select(sa.literal(1), blocks.c.match_id, blocks.c.id)
           .where(blocks.c.next_probe_at <= sa.bindparam("now", type_=blocks.c.next_probe_at.type)))
    return sa.union_all(sa.select(waiting.c.part, waiting.c.match_id, waiting.c.ord), due)


def _fence_values(fence: Fence | None) -> dict[str, Any]:
    """The parameters of `_fenced` for this fence (none without one)."""
    if fence is None:
        return {}
    return {"fence_name": fence.name, "fence_holder": fence.holder, "fence_term": fence.term}


def _fenced() -> ColumnElement[bool]:
    """`_lease_is` with the fence as parameters (see `_fence_values`)."""
    return sa.exists().where(col(Lease.name) == sa.bindparam("fence_name"),
                             col(Lease.holder) == sa.bindparam("fence_holder"),
                             col(Lease.term) == sa.bindparam("fence_term"))


def _notice_made_at() -> sa.Select[Any]:
    return (sa.select(col(Notice.created_at))
            .where(col(Notice.match_id) == sa.bindparam("match_id"), col(Notice.key) == sa.bindparam("key", type_=sa.String()))
            .limit(1))


@functools.cache
def _holds_term() -> sa.Select[Any]:
    return sa.select(col(Lease.name)).where(col(Lease.name) == sa.bindparam("fence_name"),
                                            col(Lease.holder) == sa.bindparam("fence_holder"),
                                            col(Lease.term) == sa.bindparam("fence_term"))


def _newer_prompt() -> sa.Select[Any]:
    return sa.select(col(Notice.id)).where(
        col(Notice.match_id) == sa.bindparam("match_id"), col(Notice.kind) == "prompt",
        col(Notice.seat) == sa.bindparam("seat"), col(Notice.id) > sa.bindparam("notice_id")).limit(1)


def _delivered_before(count: int) -> sa.Select[Any]:
    """`delivered_before`'s statement for ``count`` kinds (parameters kind_N)."""
    kinds = [sa.bindparam(f"kind_{n}", type_=sa.String()) for n in range(count)]
    return (sa.select(col(Notice.kind), col(Notice.delivery_ref), col(Notice.payload))
            .where(col(Notice.match_id) == sa.bindparam("match_id"), col(Notice.id) < sa.bindparam("before_id"),
                   col(Notice.kind).in_(kinds), col(Notice.delivered_at).is_not(None))
            .order_by(col(Notice.id).desc()).limit(sa.bindparam("limit")))


def _mark_delivered(dialect: str, fenced: bool) -> sa.Update:
    """`mark_delivered`'s UPDATE (parameters: notice_id, now, ref, the fence's when ``fenced``)."""
    cond = sa.and_(col(Notice.id) == sa.bindparam("notice_id"), col(Notice.delivered_at).is_(None))
    if fenced:
        cond = sa.and_(cond, _fenced())
    delivered_at = Notice.__table__.c.delivered_at  # type: ignore[attr-defined]
    # a ref the seat's own click recorded first (claim_prompt_message) names the message
    return sa.update(Notice).where(cond).values(
        delivered_at=sa.bindparam("now", type_=delivered_at.type),
        delivery_ref=sa.func.coalesce(col(Notice.delivery_ref), sa.bindparam("ref", type_=sa.String())),
        parked_reason=None, payload=delivered_payload_sql(dialect)).returning(*_TAKEN)


def _mark_all_delivered(dialect: str, count: int, fenced: bool) -> sa.Update:
    """`mark_all_delivered`'s UPDATE of ``count`` notices (parameters id_N, at_N and ref_N for each
    N below ``count``, the fence's when ``fenced``): each gets its own time and ref."""
    ids = [sa.bindparam(f"id_{n}", type_=sa.BigInteger()) for n in range(count)]
    cond = sa.and_(col(Notice.id).in_(ids), col(Notice.delivered_at).is_(None))
    if fenced:
        cond = sa.and_(cond, _fenced())
    delivered_at = Notice.__table__.c.delivered_at  # type: ignore[attr-defined]
    at = sa.case(*((col(Notice.id) == ids[n], sa.bindparam(f"at_{n}", type_=delivered_at.type)) for n in range(count)))
    refs = sa.case(*((col(Notice.id) == ids[n], sa.bindparam(f"ref_{n}", type_=sa.String())) for n in range(count)))
    return sa.update(Notice).where(cond).values(
        delivered_at=at, delivery_ref=sa.func.coalesce(col(Notice.delivery_ref), refs), parked_reason=None,
        payload=delivered_payload_sql(dialect)).returning(*_TAKEN)


_TAKEN = (col(Notice.match_id), col(Notice.kind), col(Notice.key))
"""What a mark returns of each notice it marked: a prompt notice marked can no longer be claimed
(`OutboxQueries.prompts_taken`)."""
TAKEN_KEPT = 4096
"""Prompt notices this process remembers having seen marked or claimed (the newest)."""
COMMITTED_KEPT = 2048
"""Payloads of notices this process committed that it keeps for the delivery's reads (the
newest): at 200 matches about 1,100 notices waited at the worst."""
CHECK_COMMITTED = os.environ.get("WARHOST_CHECK_COMMITTED_PAYLOADS") == "1"
"""Compare each committed payload used with the one stored (tests set it: a payload whose
stored form reads back different, a tuple or a key not a string, fails them)."""


class OutboxQueries:
    """The outbox SQL of the Store (mixed into it)."""

    committed_payloads: dict[tuple[int, str], dict[str, Any]]
    """(match, notice key) -> the payload of a notice this process committed, the newest
    ``COMMITTED_KEPT`` not yet marked delivered here (``committed``)."""
    taken: dict[tuple[int, str], None]
    """(match, notice key) of prompt notices this process marked delivered or saw claimed, the
    newest ``TAKEN_KEPT``: such a notice is no longer claimable, so a click on its prompt need
    not try (`prompt_taken`). Another process's marks are not here: a click then tries."""

    def took(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """Remember the prompt notices among these (match, kind, key) rows as taken."""
        for match_id, kind, key in rows:
            self.committed_payloads.pop((int(match_id), str(key)), None)  # delivered: not read again
            if kind == "prompt":
                self.taken[(int(match_id), str(key))] = None
        while len(self.taken) > TAKEN_KEPT:
            del self.taken[next(iter(self.taken))]

    def committed(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """These notices (column values, as ``add_notices`` wrote them) are committed: their
        payloads, as objects, spare the delivery's reads decoding them (``payload_of``). Only
        after the commit: a transaction rolled back and run again writes its keys anew."""
        kept = self.committed_payloads
        for row in rows:
            kept[(int(row["match_id"]), str(row["key"]))] = row["payload"]
        while len(kept) > COMMITTED_KEPT:
            del kept[next(iter(kept))]

    def payload_of(self, match_id: int, key: str, stored: Any) -> dict[str, Any]:
        """A waiting notice's payload: the object this process committed when it did (a
        notice's key is its match's alone, and nothing changes a payload before the delivered
        mark), else decoded from ``stored``, the text read (the JSONB's on PostgreSQL). Senders
        must not change it."""
        payload = self.committed_payloads.get((match_id, key))
        if payload is None:
            return stored if isinstance(stored, dict) else cast(dict[str, Any], json.loads(stored))
        if CHECK_COMMITTED:
            decoded = stored if isinstance(stored, dict) else json.loads(stored)
            if decoded != payload:
                raise AssertionError(f"notice {key} of match {match_id}: the committed payload {payload!r} "
                                     f"reads back as {decoded!r}")
        return payload

    def prompt_taken(self, match_id: int, key: str) -> bool:
        """Whether this process saw the prompt notice of this key marked delivered or claimed."""
        return (match_id, key) in self.taken

    async def matches_with_notices(self, session: AsyncSession, limit: int) -> list[int]:
        """Matches with notices waiting (not parked), the longest-waiting first."""
        oldest = sa.func.min(Notice.id)
        stmt = (select(Notice.match_id).where(_waiting()).group_by(col(Notice.match_id))
                .order_by(oldest).limit(limit))
        return [int(m) for m in (await session.exec(stmt)).all()]

    async def delivery_queue(self, session: Reader, limit: int, now: datetime) -> tuple[list[int], list[int]]:
        """``matches_with_notices``, and the matches with a blocked target whose probe is due
        (in the order they were blocked), in one statement through Core: the delivery asks on
        every round."""
        connection = await begun(session)
        statement = prepared(_delivery_queue, connection.dialect, _delivery_queue)
        rows = (await run(connection, statement, {"limit": limit, "now": now})).rows
        waiting = [int(match_id) for _order, match_id in sorted((order, match_id) for part, match_id, order in rows
                                                                 if part == 0)]
        due = [int(match_id) for _order, match_id in sorted((order, match_id) for part, match_id, order in rows
                                                             if part == 1)]
        return waiting, list(dict.fromkeys(due))

    async def waiting_notices(self, session: Reader, match_id: int,
                              limit: int) -> tuple[list[Waiting], bool, bool]:
        """The match's oldest notices that wait for delivery (parked ones excluded), whether
        the match has a blocked target (then the caller reads its blocks) and whether anyone
        has notification settings for it (then the caller reads them; else everyone's are the
        defaults): one statement, read through Core (the delivery asks on every round; ORM rows
        cost more than the statement). With no notice waiting, neither is known: False, True."""
        connection = await begun(session)
        rows = (await run(connection, prepared(_waiting_notices, connection.dialect, _waiting_notices),
                          {"match_id": match_id, "limit": limit})).rows
        if not rows:
            return [], False, True
        notices = [Waiting(id=row[0], match_id=row[1], key=row[2], kind=row[3], channel_id=row[4], user_id=row[5],
                           seat=row[6], payload=self.payload_of(match_id, row[2], row[7]), created_at=row[8])
                   for row in rows]
        return notices, bool(rows[0][-2]), bool(rows[0][-1])

    async def delivery_blocks(
        self, session: AsyncSession, match_id: int | None = None, due: datetime | None = None
    ) -> list[DeliveryBlock]:
        """Blocked targets of one match (or of all), only those whose probe is due when ``due`` is given."""
        stmt = select(DeliveryBlock)
        if match_id is not None:
            stmt = stmt.where(col(DeliveryBlock.match_id) == match_id)
        if due is not None:
            stmt = stmt.where(col(DeliveryBlock.next_probe_at) <= due)
        stmt = stmt.order_by(col(DeliveryBlock.next_probe_at), col(DeliveryBlock.id))
        return list((await session.exec(stmt.execution_options(populate_existing=True))).all())

    async def delivery_block(
        self, session: AsyncSession, match_id: int, kind: str, target_id: int
    ) -> DeliveryBlock | None:
        stmt = select(DeliveryBlock).where(col(DeliveryBlock.match_id) == match_id,
                                           col(DeliveryBlock.target_kind) == kind,
                                           col(DeliveryBlock.target_id) == target_id)
        return (await session.exec(stmt.execution_options(populate_existing=True))).first()

    async def park(
        self, session: AsyncSession, match_id: int, kind: str, target_id: int, reason: str,
        spare_kinds: Iterable[str] = (),
    ) -> int:
        """Park every waiting notice of the match for that target (``spare_kinds`` excepted)."""
        cond = sa.and_(col(Notice.match_id) == match_id, _waiting(), _for_target(kind, target_id))
        spare = list(spare_kinds)
        if spare:
            cond = sa.and_(cond, col(Notice.kind).not_in(spare))
        result = await (await session.connection()).execute(
            sa.update(Notice).where(cond).values(parked_reason=reason[:200]).execution_options(synchronize_session=False)
        )
        return int(result.rowcount or 0)

    async def unpark(self, session: AsyncSession, match_id: int, kind: str, target_id: int) -> int:
        """Put the target's parked notices back in the queue (in their original order: by id)."""
        cond = sa.and_(col(Notice.match_id) == match_id, col(Notice.delivered_at).is_(None),
                       col(Notice.parked_reason).is_not(None), _for_target(kind, target_id))
        result = await (await session.connection()).execute(
            sa.update(Notice).where(cond).values(parked_reason=None).execution_options(synchronize_session=False)
        )
        return int(result.rowcount or 0)

    async def parked_notices(
        self, session: AsyncSession, match_id: int, kind: str, target_id: int, limit: int | None = None
    ) -> list[Notice]:
        """The target's parked notices, oldest first (the first is the probe)."""
        stmt = (select(Notice).where(col(Notice.match_id) == match_id, col(Notice.delivered_at).is_(None),
                                     col(Notice.parked_reason).is_not(None), _for_target(kind, target_id))
                .order_by(col(Notice.id)))
        if limit is not None:
            stmt = stmt.limit(limit)
        return list((await session.exec(stmt)).all())

    async def parked_count(self, session: AsyncSession, match_id: int, kind: str, target_id: int) -> int:
        stmt = (select(sa.func.count()).select_from(Notice)
                .where(col(Notice.match_id) == match_id, col(Notice.delivered_at).is_(None),
                       col(Notice.parked_reason).is_not(None), _for_target(kind, target_id)))
        return int((await session.exec(stmt)).one())

    async def undelivered(self, session: AsyncSession, limit: int) -> list[Notice]:
        """Every undelivered notice (parked ones too), oldest first."""
        stmt = select(Notice).where(col(Notice.delivered_at).is_(None)).order_by(col(Notice.id)).limit(limit)
        return list((await session.exec(stmt)).all())

    async def mark_delivered(self, session: Reader, notice_id: int, now: datetime, ref: str | None,
                             fence: Fence | None = None) -> bool:
        """The notice went out (``ref``: where); a second report of it changes nothing. What nobody
        reads of it any more (its view, ...) goes with the mark (``delivered_payload``): an
        undelivered notice keeps everything it needs. With a ``fence`` the mark is written only
        while that lease term is current; False when it was not written (already marked, or the
        lease passed on)."""
        connection = await begun(session)
        fenced = fence is not None
        statement = prepared(("mark_delivered", fenced), connection.dialect,
                             functools.partial(_mark_delivered, connection.dialect.name, fenced))
        result = await run(connection, statement, {"notice_id": notice_id, "now": now, "ref": ref, **_fence_values(fence)})
        self.took(result.rows)
        return bool(result.rows)

    async def mark_all_delivered(self, session: Reader, marks: Sequence[Mark],
                                 fence: Fence | None = None) -> int:
        """``mark_delivered`` for several notices in one UPDATE, each with its own ref and time
        (when it went out); returns how many were written (one already marked is not)."""
        if not marks:
            return 0
        connection = await begun(session)
        fenced = fence is not None
        # the marks, the last repeated up to a power of two: the delivery writes every match's
        # waiting marks at once, and a statement compiled (and prepared by the driver) for each
        # count of them would be hundreds
        width = 1 << (len(marks) - 1).bit_length()
        statement = prepared(("mark_all_delivered", width, fenced), connection.dialect,
                             functools.partial(_mark_all_delivered, connection.dialect.name, width, fenced))
        values: dict[str, Any] = _fence_values(fence)
        for n, mark in enumerate([*marks, *[marks[-1]] * (width - len(marks))]):
            values.update({f"id_{n}": mark.notice_id, f"at_{n}": mark.at, f"ref_{n}": mark.ref})
        result = await run(connection, statement, values)
        self.took(result.rows)
        return len(result.rows)

    async def drop_notice(self, session: AsyncSession, notice_id: int, now: datetime, reason: str,
                          fence: Fence | None = None) -> bool:
        """Discord refused the notice for good and nothing can stand in for it: it leaves the queue
        as delivered in name ("refused"), keeping the reason in ``parked_reason``."""
        connection = await session.connection()
        cond = sa.and_(col(Notice.id) == notice_id, col(Notice.delivered_at).is_(None))
        if fence is not None:
            cond = sa.and_(cond, _lease_is(fence))
        result = await connection.execute(
            sa.update(Notice).where(cond)
            .values(delivered_at=now, delivery_ref=REFUSED, parked_reason=reason[:200],
                    payload=delivered_payload_sql(connection.dialect.name)))
        return bool(result.rowcount)

    async def holds_term(self, session: Reader, fence: Fence) -> bool:
        """Whether the fence's lease term is still the current one."""
        connection = await begun(session)
        rows = (await run(connection, prepared(_holds_term, connection.dialect, _holds_term), _fence_values(fence))).rows
        return bool(rows)

    async def newer_prompt(self, session: Reader, match_id: int, seat: int, notice_id: int) -> bool:
        """Whether the seat has a prompt notice newer than this one (then this one is stale)."""
        connection = await begun(session)
        rows = (await run(connection, prepared(_newer_prompt, connection.dialect, _newer_prompt),
                          {"match_id": match_id, "seat": seat, "notice_id": notice_id})).rows
        return bool(rows)

    async def delivered_before(
        self, session: Reader, match_id: int, before_id: int, kinds: Iterable[str], limit: int
    ) -> list[tuple[str, str | None, dict[str, Any]]]:
        """(kind, delivery ref, payload) of the match's delivered notices of these kinds before
        ``before_id``, newest first."""
        connection = await begun(session)
        kinds = tuple(kinds)
        statement = prepared(("delivered_before", len(kinds)), connection.dialect,
                             functools.partial(_delivered_before, len(kinds)))
        rows = (await run(connection, statement, {"match_id": match_id, "before_id": before_id, "limit": limit,
                                                  **{f"kind_{n}": kind for n, kind in enumerate(kinds)}})).rows
        return [(kind, ref, payload) for kind, ref, payload in rows]

    async def drop_block(self, session: AsyncSession, block_id: int) -> None:
        await (await session.connection()).execute(sa.delete(DeliveryBlock).where(col(DeliveryBlock.id) == block_id))

    async def probe_again(self, session: AsyncSession, block_id: int, code: int, reason: str,
                          next_probe_at: datetime) -> None:
        """A probe failed: keep the latest refusal, count the probe, set the next one."""
        await (await session.connection()).execute(
            sa.update(DeliveryBlock).where(col(DeliveryBlock.id) == block_id).values(
                code=code, reason=reason, probes=col(DeliveryBlock.probes) + 1, next_probe_at=next_probe_at)
        )

    async def notice_made_at(self, session: Reader, match_id: int, key: str) -> datetime | None:
        """When the match's notice with this key was written (None: there is none); one prepared
        statement (a read of it alone needs no BEGIN)."""
        connection = await begun(session)
        rows = (await run(connection, prepared(_notice_made_at, connection.dialect, _notice_made_at),
                          {"match_id": match_id, "key": key})).rows
        return rows[0][0] if rows else None
