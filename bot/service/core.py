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
from bot.service.history import REPLAY_NOTICE, HistoryService
from bot.service.lobby import Lobby
from bot.service.match_transaction import MatchTransaction
from bot.service.memory import MatchLocks, RecentStates
from bot.service.mine import MineService
from bot.service.notices import ReplayNotice, ResultNotice
from bot.service.notify import NotifyService
from bot.service.outbox import OutboxService
from bot.service.pace import PaceService
from bot.service.places import PlacesService
from bot.service.play import CLOSED_SHARED, DM_REFS, LOST_SHARED, SNAPSHOT_EVERY, Play
from bot.service.queries import Queries
from bot.service.ratings import RatingService, record_finish
from bot.service.replacements import Replacements
from bot.service.turn_views import TurnViews
from bot.service.undo import UndoService
from bot.service.votes import VoteService
from bot.service.wording import CHAT, Wording
from db.store import Store

_Ctx = MatchTransaction
"""The transaction's former name, kept for importers of ``bot.service.core._Ctx``."""

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
    "record_finish",
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

    async def _conclude(self, ctx: MatchTransaction, state: eng.State, result: eng.Result) -> None:
        """The game has a result (``state``, the transaction's final state, has it): close the
        match, say so, record it for the ratings and offer the replay, in the transaction of the
        choice that ended it. Here, where the parts meet: it joins play (the closing notice) and
        ratings (``record_finish``)."""
        self._close(ctx, "finished")
        ctx.values["result"] = result.model_dump(mode="json")
        ctx.snapshot = True
        ctx.notice("result", ResultNotice(
            text=result_text(ctx.game, result, self._text_names(ctx.names()), self.wording),
            game=ctx.match.game, names=ctx.names(), view=ctx.game.view(state, None),
            result=ctx.values["result"]))
        await record_finish(ctx.session, ctx.match, ctx.seats, ctx.game, state, result, ctx.now)
        ctx.notice(REPLAY_NOTICE, ReplayNotice(text=f"Replay of this {ctx.game.title} match, phase by phase."))
