"""SQLModel tables of the event-sourced match store.

The choice log is the truth; snapshots only make loading fast. JSON columns are
replaced as a whole, never mutated in place (SQLAlchemy would not notice).
Discord ids are 64-bit, so they live in BigInteger columns.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import Column, Field, SQLModel

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


class UTCDateTime(sa.types.TypeDecorator):
    """Timezone-aware UTC datetimes on both databases (SQLite would hand back naive ones)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


def stored_id(row_id: int | None) -> int:
    """The id of a row read back from the database. Ids are ``int | None`` only because a row
    not flushed yet has none; a query result without one is a bug, so it fails loudly."""
    if row_id is None:
        raise ValueError("the row is not stored yet: it has no id")
    return row_id


def _big(*, nullable: bool, index: bool = False, unique: bool = False) -> Any:
    return Field(default=None, sa_column=Column(sa.BigInteger, nullable=nullable, index=index, unique=unique))


def _when(*, nullable: bool = False, index: bool = False) -> Any:
    return Field(default=None, sa_column=Column(UTCDateTime(), nullable=nullable, index=index))


def _json(nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(JSONType, nullable=nullable))


_COMPACT = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""``json.dumps(value, separators=(",", ":"))``'s text from one encoder made once (``dumps``
makes one a call when given any option), without its check for a value holding itself (a
row's JSON never does; such a value would fail on the recursion limit instead): a tenth less
CPU a value, and the outbox's payloads are most of what a transaction writes."""


class CompactJSON(sa.types.TypeDecorator):
    """JSON written without the space ``json.dumps`` puts after every comma and colon, and None as
    SQL NULL rather than the text ``null``, on SQLite (which keeps JSON as text): the choice log and
    the outbox hold most of a match's bytes, a few per field. What is read back is the same value;
    PostgreSQL's JSONB is binary and is left as it is."""

    impl = sa.JSON
    cache_ok = True

    def load_dialect_impl(self, dialect: sa.Dialect) -> sa.types.TypeEngine[Any]:
        return dialect.type_descriptor(JSONB() if dialect.name == "postgresql" else sa.JSON())

    def bind_processor(self, dialect: sa.Dialect) -> Callable[[Any], Any] | None:
        if dialect.name == "postgresql":
            return self.impl_instance.bind_processor(dialect)  # the dialect's own JSONB (see load_dialect_impl)

        def compact(value: Any) -> str | None:
            return None if value is None else _COMPACT(value)

        return compact


def _compact_json(nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(CompactJSON(), nullable=nullable))


OPEN_STATUSES = ("lobby", "active", "paused")


class Match(SQLModel, table=True):
    __tablename__ = "matches"

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int | None = _big(nullable=True)
    channel_id: int = _big(nullable=False, index=True)
    """Where the match's posts go: its thread once started, else the channel itself."""
    open_channel: int | None = _big(nullable=True, unique=True)
    """Equals channel_id while the match is open, NULL after: one open match per channel or thread,
    enforced by the database on both SQLite and PostgreSQL (NULLs never collide). NULL too while
    the match waits for its thread: its lobby channel may run other matches in other threads."""
    lobby_channel_id: int | None = _big(nullable=True, index=True)
    """Where `/game new` ran and the lobby message (the thread's starter) lives."""
    opens_thread: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    """The match runs in a public thread started from its lobby message (until that thread
    exists, channel_id is still the lobby channel)."""
    game: str = Field(max_length=40)
    options: dict[str, Any] = _json()
    seed: int = _big(nullable=False)
    status: str = Field(default="lobby", max_length=16, index=True)
    version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Bumped by every change of the match: the cross-process optimistic check."""
    side_version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Writes of the match's rows since its last match transaction's bump (set to 0 there), counted
    by SQLite's triggers (migration 0018; always 0 on PostgreSQL): rows of seats and deadlines
    inserted, updated or deleted, and UPDATEs of the match that leave ``version`` as it is. With
    ``version``, what a process that knows the rows it last committed checks to trust them
    (``Store.bump``)."""
    step: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Number of choices in the log (the seq of the last one)."""
    host_id: int = _big(nullable=False)
    max_seats: int
    deadline_hours: float = Field(default=24.0, sa_column_kwargs={"server_default": "24"})
    result: dict[str, Any] | None = _json(nullable=True)
    board_message_id: int | None = _big(nullable=True)
    """The match's status board in its channel (None until posted): edited in place, never reposted."""
    away_mode: str = Field(default="ai", max_length=8, sa_column_kwargs={"server_default": "ai"})
    """What `/game away` does to a seat, the host's choice: ai (the AI plays it) | pause (its deadlines wait)."""
    takeover_ai: str = Field(default="heuristic", max_length=16, sa_column_kwargs={"server_default": "heuristic"})
    """The AI that plays a seat it took over (missed deadlines, time away), the host's choice:
    heuristic (quick) | search (thinks ahead, bot/service/thinking.py)."""
    deadline_clock: str | None = Field(default=None, max_length=5)
    """A clock deadline's wall-clock time ("21:00"), or None: each decision gets deadline_hours."""
    deadline_zone: str | None = Field(default=None, max_length=64)
    """The IANA time zone of deadline_clock ("Europe/Berlin")."""
    deadline_min_hours: float | None = None
    """With a clock deadline: the least time a decision gets (the next such time at least this far off)."""
    paused_until: datetime | None = _when(nullable=True, index=True)
    """When a paused match goes on by itself (the deadline tick resumes it); None: not paused."""
    undo_mark: int | None = None
    """The newest notice id when the match was last undone: prompt DMs at or below it are retired."""
    created_at: datetime = _when()
    updated_at: datetime = _when()


class Seat(SQLModel, table=True):
    __tablename__ = "seats"
    __table_args__ = (sa.UniqueConstraint("match_id", "seat_no", name="uq_seats_match_seat"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    seat_no: int
    user_id: int | None = _big(nullable=True, index=True)
    ai_policy: str | None = Field(default=None, max_length=40)
    name: str = Field(max_length=100)
    dm_channel_id: int | None = _big(nullable=True)
    missed: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Deadlines missed in a row; two hand the seat to the AI until the player is back."""
    ai_takeover: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    prompt_version: int | None = None
    prompt_key: str | None = Field(default=None, max_length=64)
    """Fingerprint of the open prompt: an unchanged prompt keeps its version."""
    away_until: datetime | None = _when(nullable=True, index=True)
    """Set by `/game away`: until then the seat is away (see Match.away_mode); acting ends it early."""
    prompt_opened_at: datetime | None = _when(nullable=True)
    """When the seat's open prompt (prompt_version) opened: a player's answer time is counted from it."""
    open_since: datetime | None = _when(nullable=True)
    """Set by `/game replace`: the seat waits for a replacement (the AI plays it meanwhile); the
    first member to take it clears it."""


class Choice(SQLModel, table=True):
    """The append-only log: every accepted choice, AI, deadline defaults and revisions included."""

    __tablename__ = "choices"
    __table_args__ = (
        sa.UniqueConstraint("match_id", "seq", name="uq_choices_match_seq"),
        sa.UniqueConstraint("match_id", "interaction_id", name="uq_choices_match_interaction"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    seq: int
    seat: int
    kind: str = Field(max_length=60)
    by: str = Field(default="player", max_length=16)
    """player | ai | deadline"""
    payload: dict[str, Any] = _compact_json()
    public: list[str] = _compact_json()
    """Public event lines this choice caused, for /game log without a replay."""
    outcome: dict[str, Any] | None = _compact_json(nullable=True)
    """The SubmitResult returned for it: a duplicate interaction gets the same answer."""
    interaction_id: str | None = Field(default=None, max_length=100)
    created_at: datetime = _when()
    user_id: int | None = _big(nullable=True, index=True)
    """The player who held the seat then (None: an AI seat): whose answer or missed deadline it was."""
    waited: float | None = None
    """Seconds from the decision's opening to a player's first answer of it (None otherwise)."""


Row = TypeVar("Row", bound=SQLModel)


def new_row(model: type[Row], **values: Any) -> Row:
    """A new row of ``model`` holding these column values, made without the model's validation:
    for the rows the service makes of values it has checked itself (a choice: SQLModel's
    constructor validated each field again, the larger part of the row's cost). Columns not
    given are left to the database's NULL, as an INSERT that does not name them."""
    row = sa.inspect(model).class_manager.new_instance()
    row.__dict__.update(values)
    return row


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshots"

    match_id: int = Field(foreign_key="matches.id", primary_key=True)
    seq: int = Field(primary_key=True)
    state: dict[str, Any] = _json()
    created_at: datetime = _when()


class Deadline(SQLModel, table=True):
    """The deadline of the match's open prompts (one per match; reset when a new prompt opens)."""

    __tablename__ = "deadlines"

    match_id: int = Field(foreign_key="matches.id", primary_key=True)
    step: int
    """The prompt version it belongs to (the newest open prompt's version)."""
    started_at: datetime = _when()
    due_at: datetime = _when(index=True)
    reminded_50: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    reminded_90: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    paused_at: datetime | None = _when(nullable=True)
    fire_at: datetime | None = _when(nullable=True, index=True)
    """When the deadline next needs the tick (a reminder not yet sent, or the deadline itself);
    kept by `next_fire` on every write, so a tick reads only the rows that are due."""


REMINDER_FRACTIONS = (("reminded_50", 0.5), ("reminded_90", 0.9))
"""Reminders at these fractions of a decision's time; the flag says one was sent."""


def next_fire(deadline: Deadline) -> datetime | None:
    """The earliest unsent reminder time, or the deadline itself."""
    if deadline.started_at is None or deadline.due_at is None:
        return deadline.due_at
    span = deadline.due_at - deadline.started_at
    times = [deadline.started_at + span * fraction for flag, fraction in REMINDER_FRACTIONS
             if not getattr(deadline, flag)]
    return min([*times, deadline.due_at])


@sa.event.listens_for(Deadline, "before_insert")
@sa.event.listens_for(Deadline, "before_update")
def _keep_fire_at(mapper: Any, connection: Any, deadline: Deadline) -> None:
    deadline.fire_at = next_fire(deadline)


class Notice(SQLModel, table=True):
    """The outbox: written with the change it describes, delivered at least once."""

    __tablename__ = "notices"
    __table_args__ = (
        sa.UniqueConstraint("match_id", "key", name="uq_notices_match_key"),
        sa.Index("ix_notices_match_pending", "match_id", "delivered_at", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    key: str = Field(max_length=100)
    kind: str = Field(max_length=20)
    channel_id: int | None = _big(nullable=True)
    user_id: int | None = _big(nullable=True)
    seat: int | None = None
    payload: dict[str, Any] = _compact_json()
    """What front-ends read, by kind (bot/service/notices.py); its view goes once delivered (db/outbox.py)."""
    created_at: datetime = _when()
    delivered_at: datetime | None = _when(nullable=True, index=True)
    delivery_ref: str | None = Field(default=None, max_length=200)
    parked_reason: str | None = Field(default=None, max_length=200)
    """Set while the notice waits for its target (a channel or a player's DMs) to accept posts
    again: the transport refused it for good. A parked notice is not tried every round."""


class DeliveryBlock(SQLModel, table=True):
    """A target of a match that refuses the match's notices (a channel, or one player's DMs).

    Its notices are parked; the front-end probes the target at ``next_probe_at`` (backing off)
    and, once it accepts a post again, the block goes and the parked notices follow in order."""

    __tablename__ = "delivery_blocks"
    __table_args__ = (sa.UniqueConstraint("match_id", "target_kind", "target_id", name="uq_delivery_blocks_target"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    target_kind: str = Field(max_length=10)
    """channel | user"""
    target_id: int = _big(nullable=False)
    code: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """The transport's error code (Discord's JSON error code)."""
    reason: str = Field(max_length=200)
    since: datetime = _when()
    next_probe_at: datetime = _when(index=True)
    probes: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    """Failed probes so far: the wait before the next one doubles with each."""


class Undo(SQLModel, table=True):
    """One undo of a match, asked for and then done, refused or expired: the audit trail.

    The undone choices are listed without their payloads (seat, kind, who made it): a sealed
    choice stays in nobody's view but its own seat's, even in the audit."""

    __tablename__ = "undos"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    requested_by: int = _big(nullable=False)
    from_step: int
    """The match's step when it was asked: any other change of the match voids a pending request."""
    to_step: int
    """The log is cut back to this many choices."""
    status: str = Field(default="pending", max_length=10, index=True)
    """pending | done | refused | expired | void"""
    consent: list[int] = _json()
    """Seats whose players must agree (empty: done at once)."""
    agreed: list[int] = _json()
    refused_by: int | None = None
    why: str = Field(default="", max_length=200)
    """Why consent was needed (or why it was not), as told to the table."""
    summary: str = Field(default="", max_length=300)
    """What is undone, in public words ("alice's recruit and 2 AI choices")."""
    undone: list[dict[str, Any]] = _json()
    """The cut choices: seq, seat, kind and by, never the payload."""
    log_sha_before: str = Field(default="", max_length=64)
    log_sha_after: str | None = Field(default=None, max_length=64)
    created_at: datetime = _when()
    due_at: datetime = _when(index=True)
    decided_at: datetime | None = _when(nullable=True)


class Lease(SQLModel, table=True):
    """A named lease: only its holder runs the guarded work (deadline ticks) until it expires."""

    __tablename__ = "leases"

    name: str = Field(primary_key=True, max_length=60)
    holder: str = Field(max_length=100)
    expires_at: datetime = _when()
    term: int = Field(default=1, sa_column=sa.Column(sa.BigInteger(), nullable=False, server_default="1"))
    """The fencing token: grows each time the lease passes to another holder (a renewal keeps it)."""


class Secret(SQLModel, table=True):
    """A secret the bot made for itself and every process on the database shares (the key that
    signs seats' web links, when WEB_SECRET is not set): made once, never shown."""

    __tablename__ = "secrets"

    name: str = Field(primary_key=True, max_length=40)
    value: str = Field(max_length=200)
    created_at: datetime = _when()


class MatchVote(SQLModel, table=True):
    """A proposal to end a match early, as a draw or abandoned, and what became of it.

    Every human seat but the proposer's is asked; all yes ends the match, one no or the deadline
    ends the vote. Kept whatever became of it: the audit trail, and what survives a restart."""

    __tablename__ = "match_votes"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    kind: str = Field(max_length=10)
    """draw | abandon"""
    proposed_by: int = _big(nullable=False)
    proposer: str = Field(max_length=100)
    """The proposer's name as the table knew it then."""
    status: str = Field(default="pending", max_length=10, index=True)
    """pending | passed | refused | expired | void"""
    voters: list[int] = _json()
    """Seats whose players are asked (every human seat but the proposer's)."""
    agreed: list[int] = _json()
    refused_by: int | None = None
    created_at: datetime = _when()
    due_at: datetime = _when(index=True)
    decided_at: datetime | None = _when(nullable=True)


class Concession(SQLModel, table=True):
    """A player who conceded their seat to the AI: the match counts as their loss whatever the
    seat does after (ratings.py reads these when the match is recorded)."""

    __tablename__ = "concessions"
    __table_args__ = (sa.UniqueConstraint("match_id", "seat_no", name="uq_concessions_match_seat"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    seat_no: int
    user_id: int = _big(nullable=False)
    name: str = Field(max_length=100)
    """The player's seat name before the AI took it."""
    conceded_at: datetime = _when()


EVERYWHERE = 0
"""``NotifySetting.match_id`` of a player's settings for all their matches on a server."""


class NotifySetting(SQLModel, table=True):
    """How a player wants to hear of their turns (`/game notify`), for one match or, with
    ``match_id`` EVERYWHERE, for all their matches on a server. A field left None takes the
    server-wide value (and that one the default): a per-match setting overrides field by field."""

    __tablename__ = "notify_settings"

    guild_id: int = Field(sa_column=Column(sa.BigInteger, primary_key=True, autoincrement=False))
    user_id: int = Field(sa_column=Column(sa.BigInteger, primary_key=True, autoincrement=False))
    match_id: int = Field(sa_column=Column(sa.BigInteger, primary_key=True, autoincrement=False))
    """The match, or EVERYWHERE (0: no match has that id)."""
    reminders: bool | None = None
    quiet: str | None = Field(default=None, max_length=11)
    """"HH:MM-HH:MM" in ``time_zone``, or "off"."""
    time_zone: str | None = Field(default=None, max_length=64)
    """An IANA zone name ("Europe/Berlin")."""
    announce: str | None = Field(default=None, max_length=8)
    """dm | thread: where a turn is announced."""
    heads_up: bool | None = None
    """Told when the seat before theirs starts its turn."""
    updated_at: datetime = _when()


class HeldReminder(SQLModel, table=True):
    """A reminder that fell in its player's quiet hours: sent when they end (the deadline tick),
    if the player still owes the same decision then."""

    __tablename__ = "held_reminders"

    match_id: int = Field(foreign_key="matches.id", primary_key=True)
    user_id: int = Field(sa_column=Column(sa.BigInteger, primary_key=True, autoincrement=False))
    step: int
    """The deadline's step (prompt version) the reminder belongs to."""
    send_at: datetime = _when(index=True)


class SeatStretch(SQLModel, table=True):
    """One player's stretch at a seat that changed hands (`/game replace`): from which step to
    which they played it. A seat that never changed hands has no rows (its player played it all)."""

    __tablename__ = "seat_stretches"

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="matches.id", index=True)
    seat_no: int
    user_id: int = _big(nullable=False, index=True)
    name: str = Field(max_length=100)
    from_step: int
    """The match's step when they took the seat (0: from the start)."""
    to_step: int | None = None
    """The step when they left it; None while they still hold it (to the end, once it ended)."""
    from_round: int | None = None
    """The game's round then (None: a game without rounds)."""
    to_round: int | None = None
    created_at: datetime = _when()


TABLES = (Match, Seat, Choice, Snapshot, Deadline, Notice, DeliveryBlock, Undo, Lease, Secret, MatchVote, Concession,
          NotifySetting, HeldReminder, SeatStretch)
