"""MatchService: engine + store -> notices, for any transport (Discord, terminal, tests).

The service is assembled here from parts split by concern, each a mixin over the same match
transaction (transaction.py): the lobby and host tools (lobby.py), choices and prompts
(play.py), AI turns (autoplay.py), deadlines (deadlines.py), the notices a change makes
(announce.py, payloads in notices.py) and the reads (queries.py), beside the older parts
(outbox, board, places, history, ratings, undo, away, mine). Mixins, not collaborator objects:
every part works inside the one transaction ``_mutate`` opens and calls the others' steps
(a choice settles the AI, whose turns reissue prompts, which the commit announces), so one
object with one transaction type keeps those calls plain and the public methods where they were.
What the parts read from each other is typed once, in parts.py.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import engine as eng
from bot.service.announce import LAST_TO_CHOOSE, Announcements, result_text, team_verdict
from bot.service.autoplay import MAX_AI_CHOICES, Autoplay
from bot.service.away import AwayService
from bot.service.board import BoardService
from bot.service.command_log import CommandLog
from bot.service.deadlines import REMINDERS, TAKEOVER_AFTER, Deadlines
from bot.service.finishing import conclude
from bot.service.history import HistoryService
from bot.service.lobby import Lobby
from bot.service.match_transaction import FinishStep, MatchTransaction
from bot.service.memory import MatchLocks, RecentStates
from bot.service.mine import MineService
from bot.service.notify import NotifyService
from bot.service.outbox import OutboxService
from bot.service.pace import PaceService
from bot.service.places import PlacesService
from bot.service.play import CLOSED_SHARED, DM_REFS, LOST_SHARED, SNAPSHOT_EVERY, Play
from bot.service.queries import Queries
from bot.service.ratings import RatingService
from bot.service.replacements import Replacements
from bot.service.turn_views import TurnViews
from bot.service.undo import UndoService
from bot.service.votes import VoteService
from bot.service.wording import CHAT, Wording
from db.store import Store

__all__ = [
    "CLOSED_SHARED",
    "DM_REFS",
    "LAST_TO_CHOOSE",
    "LOST_SHARED",
    "MAX_AI_CHOICES",
    "REMINDERS",
    "SNAPSHOT_EVERY",
    "TAKEOVER_AFTER",
    "MatchService",
    "MatchTransaction",
    "result_text",
    "team_verdict",
    "utcnow",
]


def utcnow() -> datetime:
    return datetime.now(UTC)


def _as_is(name: str) -> str:
    return name


class MatchService(Lobby, Play, Autoplay, Deadlines, Announcements, Queries, OutboxService, BoardService,
                   PlacesService, HistoryService, RatingService, UndoService, AwayService, MineService, TurnViews,
                   CommandLog, VoteService, PaceService, NotifyService, Replacements):
    """The match orchestration every front-end calls (see docs/design/service-api.md)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utcnow,
        *,
        holder: str | None = None,
        lease_seconds: float = 60.0,
        name_text: Callable[[str], str] | None = None,
        wording: Wording = CHAT,
    ) -> None:
        """``name_text`` writes a player's chosen name into notice texts: a chat front-end escapes
        its markup there (a name must not ping or format); names for drawing stay as chosen.
        ``wording`` is the front-end's markup for commands and emphasis (see wording.py)."""
        self.store = store
        self.clock = clock
        self.name_text = name_text or _as_is
        self.wording = wording
        self.holder = holder or f"svc-{uuid.uuid4().hex[:12]}"
        self.lease_ttl = timedelta(seconds=lease_seconds)
        self._locks = MatchLocks()
        self._cache: RecentStates[eng.State] = RecentStates()
        self.finishing: tuple[FinishStep, ...] = (self._outcome, self._sync_deadline, self._announce, self._heads_up)

    async def _outcome(self, ctx: MatchTransaction) -> None:
        """The first finishing step: a running game with a result is concluded, else each seat's
        open prompt gets its version (finishing.py)."""
        if ctx.state is not None and ctx.match.status == "active":
            result = ctx.game.result(ctx.state)
            if result is not None:
                await conclude(ctx, ctx.state, result, self.name_text, self.wording)
            else:
                self._reissue(ctx, actor=None)
