"""`/game mine`: the open matches where a user holds a seat, with what each waits for.

It answers the one player who asks, so it may say what that player owes (their own prompt's
line); of the others it says only who still owes a choice, as the public status board does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import engine as eng
from bot.service import hosting
from bot.service.rows import row_id
from bot.service.transaction import Transactions
from db.models import Deadline, Match, Seat
from engine.text import fill

MINE_MAX = 25
"""Matches listed at most (newest first): one ephemeral message holds them."""


@dataclass(frozen=True)
class MyMatch:
    """One open match of the asking player."""

    match_id: int
    guild_id: int | None
    channel_id: int
    title: str
    status: str
    """lobby | active | paused"""
    seat: int
    phase: str
    owe: str | None
    """The line of the player's own open decision (None: they owe nothing now)."""
    waiting_for: list[str] = field(default_factory=list)
    """Names of the other seats that still owe a choice."""
    deadline: datetime | None = None
    away_until: datetime | None = None


class MineService(Transactions):
    """Mixed into MatchService."""

    async def my_matches(self, user_id: int, guild_id: int | None = None) -> list[MyMatch]:
        """The user's open matches (on ``guild_id`` only, unless it is None), newest first."""
        async with self.store.read() as session:
            ids = await self.store.open_matches_of(session, user_id, guild_id, MINE_MAX)
        found = []
        for match_id in ids:
            match, seats, state, deadline = await self._read(match_id)
            found.append(self._mine(match, seats, state, deadline, user_id))
        return found

    def _mine(self, match: Match, seats: list[Seat], state: eng.State | None, deadline: Deadline | None,
              user_id: int) -> MyMatch:
        game = eng.get(match.game)
        mine = next(s for s in seats if s.user_id == user_id)
        prompts = game.prompts(state) if state is not None and match.status != "lobby" else []
        owing = {p.seat: p for p in prompts if not p.answered and not p.optional}
        own = owing.get(mine.seat_no)
        phase = "lobby"
        if state is not None:
            view = game.view(state, None)
            phase = fill(str(view.get("phase_label") or view.get("phase") or match.status),
                                  [s.name for s in seats])
        names = [s.name for s in seats]
        return MyMatch(
            match_id=row_id(match), guild_id=match.guild_id, channel_id=match.channel_id, title=game.title,
            status=match.status, seat=mine.seat_no, phase=phase,
            owe=fill(own.text, names) if own is not None and not mine.ai_takeover else None,
            waiting_for=[s.name for s in seats if s.seat_no in owing and s.seat_no != mine.seat_no
                         and hosting.is_human(s)],
            deadline=deadline.due_at if deadline is not None else None, away_until=mine.away_until,
        )
