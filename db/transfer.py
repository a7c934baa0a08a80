"""The rows of a match as a whole: read for an export, written at once for an import
(bot/service/transfer.py checks the document and replays it first)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import OPEN_STATUSES, Choice, Match, Seat, stored_id


@dataclass(frozen=True)
class ImportedSeat:
    seat: int
    user_id: int | None
    name: str
    ai_policy: str | None
    ai_takeover: bool


@dataclass(frozen=True)
class ImportedMatch:
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    guild_id: int | None
    channel_id: int
    host_id: int
    deadline_hours: float
    away_mode: str
    takeover_ai: str
    result: dict[str, Any] | None
    seats: list[ImportedSeat]
    choices: list[tuple[int, int, str, str, dict[str, Any], list[str]]]
    """(seq, seat, kind, by, payload, public lines), in order."""


async def match_rows(session: AsyncSession, match_id: int) -> tuple[Match, list[Seat], list[Choice]] | None:
    """The match with its seats (in seat order) and its whole choice log."""
    match = await session.get(Match, match_id)
    if match is None:
        return None
    seats = (await session.exec(select(Seat).where(col(Seat.match_id) == match_id).order_by(col(Seat.seat_no)))).all()
    choices = (await session.exec(select(Choice).where(col(Choice.match_id) == match_id).order_by(col(Choice.seq)))).all()
    return match, list(seats), list(choices)


async def find_open_match(session: AsyncSession, channel_id: int) -> int | None:
    """The id of the open match holding this channel, if any."""
    found = (await session.exec(select(Match.id).where(col(Match.open_channel) == channel_id))).first()
    return None if found is None else int(found)


async def insert_match(session: AsyncSession, match: ImportedMatch, now: datetime) -> int:
    """Write the match, its seats and its log in the caller's transaction; returns the new id."""
    row = Match(
        guild_id=match.guild_id, channel_id=match.channel_id, lobby_channel_id=match.channel_id,
        open_channel=match.channel_id if match.status in OPEN_STATUSES else None,
        game=match.game, options=match.options, seed=match.seed, status=match.status, version=1,
        step=len(match.choices), host_id=match.host_id, max_seats=len(match.seats),
        deadline_hours=match.deadline_hours, result=match.result, away_mode=match.away_mode,
        takeover_ai=match.takeover_ai, created_at=now, updated_at=now,
    )
    session.add(row)
    await session.flush()
    match_id = stored_id(row.id)
    for seat in match.seats:
        session.add(Seat(match_id=match_id, seat_no=seat.seat, user_id=seat.user_id, name=seat.name,
                         ai_policy=seat.ai_policy, ai_takeover=seat.ai_takeover))
    for seq, seat_no, kind, by, payload, public in match.choices:
        session.add(Choice(match_id=match_id, seq=seq, seat=seat_no, kind=kind, by=by, payload=payload,
                           public=public, created_at=now))
    await session.flush()
    return match_id
