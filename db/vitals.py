"""What an admin's monitoring asks of the store: does it answer, how much waits in the outbox,
how many targets are parked, how many matches are open per game. Aggregates only, no payload."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import col, select

from db.models import OPEN_STATUSES, DeliveryBlock, Match, Notice, UTCDateTime
from db.store import Store


@dataclass(frozen=True)
class Vitals:
    backlog: int
    """Notices not yet delivered (parked ones included)."""
    oldest: datetime | None
    """When the oldest of them was written."""
    parked_targets: int
    open_matches: dict[str, int] = field(default_factory=dict)
    """Game key -> matches in a lobby, running or paused."""


async def answers(store: Store) -> None:
    """One round trip to the database (raises when it does not answer)."""
    async with store.read() as session:
        await session.exec(select(sa.literal(1)))


async def read_vitals(store: Store) -> Vitals:
    async with store.read() as session:
        backlog, oldest = (await session.exec(
            select(sa.func.count(), sa.func.min(col(Notice.created_at), type_=UTCDateTime())).where(col(Notice.delivered_at).is_(None))
        )).one()
        parked = (await session.exec(select(sa.func.count()).select_from(DeliveryBlock))).one()
        games = (await session.exec(
            select(Match.game, sa.func.count()).where(col(Match.status).in_(OPEN_STATUSES)).group_by(col(Match.game))
        )).all()
    return Vitals(int(backlog), oldest, int(parked), {str(game): int(count) for game, count in games})
