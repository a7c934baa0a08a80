"""A player's notification settings in effect for a match (`/game notify`): the settings
model, how a per-match row overrides the server-wide one, and the reads of them (one player,
or every seated player of a match at once for the delivery). Apart from notify.py, which
changes them, so that the outbox can read them without importing the match transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.service import quiet_hours as qh
from db.models import EVERYWHERE, Match, NotifySetting, Seat

DM, THREAD = "dm", "thread"
ANNOUNCE = (DM, THREAD)
FIELDS = ("reminders", "quiet", "time_zone", "announce", "heads_up")


@dataclass(frozen=True)
class NotifyPrefs:
    """A player's settings in effect for one match (per-match over server-wide over defaults)."""

    reminders: bool = True
    quiet: qh.QuietHours | None = None
    time_zone: str = qh.DEFAULT_ZONE
    announce: str = DM
    heads_up: bool = False
    per_match: tuple[str, ...] = ()
    """The fields the player set for this match itself."""

    def quiet_until(self, now: datetime) -> datetime | None:
        """When the quiet hours running now end; None outside them."""
        return qh.quiet_until(self.quiet, now)


def merged(rows: list[NotifySetting]) -> NotifyPrefs:
    """The settings in effect from the server-wide row and the match's own row (either may lack)."""
    values: dict[str, object] = {}
    per_match: list[str] = []
    for row in sorted(rows, key=lambda r: r.match_id != EVERYWHERE):  # server-wide first, the match's over it
        for name in FIELDS:
            value = getattr(row, name)
            if value is not None:
                values[name] = value
                if row.match_id != EVERYWHERE and name not in per_match:
                    per_match.append(name)
    zone = str(values.get("time_zone") or qh.DEFAULT_ZONE)
    return NotifyPrefs(
        reminders=bool(values.get("reminders", True)),
        quiet=qh.quiet_hours(values.get("quiet") if isinstance(values.get("quiet"), str) else None, zone),  # type: ignore[arg-type]
        time_zone=zone,
        announce=str(values.get("announce") or DM),
        heads_up=bool(values.get("heads_up", False)),
        per_match=tuple(per_match),
    )


async def prefs_in(session: AsyncSession, guild_id: int | None, user_id: int, match_id: int) -> NotifyPrefs:
    """A player's settings in effect for one match, read in ``session``."""
    if guild_id is None:
        return NotifyPrefs()
    stmt = select(NotifySetting).where(col(NotifySetting.guild_id) == guild_id,
                                       col(NotifySetting.user_id) == user_id,
                                       col(NotifySetting.match_id).in_([EVERYWHERE, match_id]))
    return merged(list((await session.exec(stmt)).all()))


async def seat_prefs(session: AsyncSession, match_id: int) -> dict[int, NotifyPrefs]:
    """Every seated player's settings in effect for one match (user id -> settings), read in
    ``session`` by one statement: the delivery asks once for a batch of DMs."""
    guild = sa.select(col(Match.guild_id)).where(col(Match.id) == match_id).scalar_subquery()
    joined = sa.and_(col(NotifySetting.guild_id) == guild, col(NotifySetting.user_id) == col(Seat.user_id),
                     col(NotifySetting.match_id).in_([EVERYWHERE, match_id]))
    stmt = (select(Seat.user_id, NotifySetting).outerjoin(NotifySetting, joined)
            .where(col(Seat.match_id) == match_id, col(Seat.user_id).is_not(None)))
    rows: dict[int, list[NotifySetting]] = {}
    for user_id, setting in (await session.exec(stmt)).all():
        found = rows.setdefault(int(user_id or 0), [])
        if setting is not None:
            found.append(setting)
    return {user_id: merged(settings) for user_id, settings in rows.items()}
