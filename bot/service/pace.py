"""Players set their own pace: time away from all their matches at once, pauses that end by
themselves, and the figures of `/game stats` about how fast a player answers.

A pause (`/game pause days:`) ends when its time is up: the deadline tick, under its lease, finds
the matches whose pause is over and lets each go on in a transaction that checks it again, so a
match resumes once even with two processes or across a restart, and says so in its thread."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import engine as eng
from bot.service.errors import Conflict
from bot.service.match_transaction import MatchTransaction
from bot.service.notices import TimeoutNotice
from bot.service.transaction import Transactions
from bot.service.types import AwayOutcome, Place
from db.models import Match
from db.pace_queries import median_answer_seconds, missed_deadlines

AWAY_MATCHES = 50
"""The most matches one `/game away everywhere` covers (a player sits in a handful at most)."""


@dataclass(frozen=True)
class AwayCovered:
    """One match `/game away everywhere` covered."""

    title: str
    match_id: int
    channel_id: int
    outcome: AwayOutcome


@dataclass(frozen=True)
class Pace:
    """How a player answers on one server."""

    median_seconds: float | None
    """Median time from a decision's opening to their answer (None: no answer yet)."""
    answers: int
    missed: int
    """Deadlines they missed (the AI chose for them)."""
    owed: int
    """Decisions they owed: answered, or missed."""

    @property
    def missed_share(self) -> float | None:
        return self.missed / self.owed if self.owed else None


class PaceService(Transactions):
    """Mixed into MatchService."""

    async def go_away_everywhere(self, guild_id: int | None, user_id: int, hours: float) -> list[AwayCovered]:
        """Be away from every running match the player sits in on this server (lobbies are not
        covered: there is nothing to be away from yet)."""
        async with self.store.read() as session:
            ids = await self.store.open_matches_of(session, user_id, guild_id, AWAY_MATCHES)
            matches = [match for match_id in ids if (match := await session.get(Match, match_id)) is not None]
        running = [m for m in matches if m.status in ("active", "paused")]
        if not running:
            raise Conflict("You hold no seat in a running match on this server, so there is nothing to be away "
                           "from. Nothing was changed.")
        covered = []
        for match in sorted(running, key=lambda m: m.id or 0):
            match_id = match.id or 0
            outcome = await self.go_away(Place(match.channel_id, user_id, match_id), user_id, hours)
            covered.append(AwayCovered(eng.get(match.game).title, match_id, match.channel_id, outcome))
        return covered

    async def end_pauses(self, now: datetime) -> int:
        """Let every match whose pause is over go on (the deadline tick calls it, under its lease)."""
        async with self.store.read() as session:
            due = await self.store.pauses_over(session, now)

        async def go_on(ctx: MatchTransaction) -> int:
            until = ctx.match.paused_until
            if ctx.match.status != "paused" or until is None or until > now:
                return 0  # resumed by hand, or by another process, meanwhile
            text = "The pause is over: the match goes on by itself, and its deadlines run again."
            ctx.notice("timeout", TimeoutNotice(user_ids=[], text=text))  # said in the match's thread
            await self._go_on(ctx, text)  # and the lobby post shows it running
            return 1

        return sum([await self._mutate(match_id, go_on) for match_id in due])

    async def player_pace(self, guild_id: int, user_id: int) -> Pace:
        """The player's median time to answer and missed deadlines on this server."""
        async with self.store.read() as session:
            median, answers = await median_answer_seconds(session, guild_id, user_id)
            missed, owed = await missed_deadlines(session, guild_id, user_id)
        return Pace(median_seconds=median, answers=answers, missed=missed, owed=owed)
