"""MatchService: engine + store -> notices, for any transport (Discord, terminal, tests).

The service is assembled here, in two ways:

- The parts that need only the store are objects it holds: the outbox as front-ends deliver it
  (``deliveries``, outbox.py), status boards and seats' DM channels (``boards``, board.py),
  players' DM channels by user (``dm_channels``, dm_channels.py), finished
  matches and replays (``archive``, history.py), standings (``ratings``, ratings.py) and the
  host-command notes (``command_log``, command_log.py). Their calls stay on MatchService as
  one-line pass-throughs, so front-ends call one object.
- The parts that work inside the one match transaction ``_mutate`` opens (transaction.py) are
  mixins over it: the lobby and host tools (lobby.py), choices and prompts (play.py), AI turns
  (autoplay.py), deadlines (deadlines.py), the notices a change makes (announce.py), the reads
  (queries.py), places, undo, away, mine, turn views, votes, pace, notify and replacements. They
  call each other's steps inside that transaction (a choice settles the AI, whose turns reissue
  prompts); what they read of each other is typed once, in parts.py.

What every change implies before its commit is the finishing pipeline built here
(``self.finishing``, finishing.py): the transaction runs it and knows no part.
The surface front-ends use is listed in docs/design/service-api.md.
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
from bot.service.command_log import CommandLog, Done
from bot.service.deadlines import REMINDERS, TAKEOVER_AFTER, Deadlines
from bot.service.dm_channels import DmChannels, SeatedUser
from bot.service.finishing import conclude
from bot.service.history import HISTORY_SIZE, HistoryEntry, HistoryService, ReplayGif
from bot.service.lobby import Lobby
from bot.service.match_transaction import FinishStep, MatchTransaction
from bot.service.memory import KeptPrompts, KeptViews, MatchLocks, RecentStates
from bot.service.mine import MineService
from bot.service.notify import NotifyService
from bot.service.outbox import DeliveryBatch, DeliveryRound, MarksWrite, OutboxService
from bot.service.pace import PaceService
from bot.service.places import PlacesService
from bot.service.play import CLOSED_SHARED, DM_REFS, LOST_SHARED, SNAPSHOT_EVERY, Play
from bot.service.queries import Queries
from bot.service.ratings import LEADERBOARD_SIZE, GameStats, RatingService, Standing
from bot.service.replacements import Replacements
from bot.service.thinking import Thinkers
from bot.service.turn_views import TurnViews
from bot.service.types import Blocked, Notice, OpenPost
from bot.service.undo import UndoService
from bot.service.votes import VoteService
from bot.service.wording import CHAT, Wording
from db.kept_rows import KeptRows
from db.outbox import Fence, Mark
from db.store import Store
from render.anim import DEFAULT_MAX_BYTES

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


class MatchService(Lobby, Play, Autoplay, Deadlines, Announcements, Queries, PlacesService, UndoService, AwayService,
                   MineService, TurnViews, VoteService, PaceService, NotifyService, Replacements):
    """The match orchestration every front-end calls (see docs/design/service-api.md)."""

    deliveries: OutboxService
    """The outbox as front-ends deliver it (outbox.py)."""
    boards: BoardService
    """Where status boards and seats' DM channels live (board.py)."""
    dm_channels: DmChannels
    """Players' DM channels by user, from any seat (dm_channels.py)."""
    archive: HistoryService
    """Finished matches and their replays (history.py)."""
    ratings: RatingService
    """Players' standings and the leaderboards (ratings.py)."""
    command_log: CommandLog
    """Host commands done once, outcomes heard once (command_log.py)."""

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
        self._rows: RecentStates[KeptRows] = RecentStates()
        store.rows_written.append(self._rows.pop)  # rows it wrote outside a match transaction
        self._views = KeptViews()
        self._prompts = KeptPrompts()
        self.deliveries = OutboxService(store, clock)
        self.boards = BoardService(store)
        self.dm_channels = DmChannels(store)
        self.archive = HistoryService(store)
        self.ratings = RatingService(store)
        self.command_log = CommandLog(store, clock)
        self.thinkers = Thinkers(self._think)
        """Searching AI seats' decisions, thought about outside any transaction (autoplay.py)."""
        self.finishing: tuple[FinishStep, ...] = (self._outcome, self._sync_deadline, self._announce, self._heads_up)
        """The finishing pipeline every match transaction runs before its commit (finishing.py)."""

    async def _outcome(self, ctx: MatchTransaction) -> None:
        """The first finishing step: a running game with a result is concluded, else each seat's
        open prompt gets its version (finishing.py)."""
        if ctx.state is not None and ctx.match.status == "active":
            result = ctx.game.result(ctx.state)
            if result is not None:
                await conclude(ctx, ctx.state, result, self.name_text, self.wording)
            else:
                self._reissue(ctx, actor=None)

    # The calls of the parts that need only the store, where front-ends have always made them:
    # each passes straight on to the part that does the work.

    async def outbox(self, limit: int = 100) -> list[Notice]:
        return await self.deliveries.outbox(limit)

    async def delivered(self, notice_id: int, ref: str | None = None, fence: Fence | None = None) -> bool:
        return await self.deliveries.delivered(notice_id, ref, fence)

    async def delivered_all(self, marks: list[Mark], fence: Fence | None = None) -> int:
        return await self.deliveries.delivered_all(marks, fence)

    async def holds_term(self, fence: Fence) -> bool:
        return await self.deliveries.holds_term(fence)

    async def newer_prompt(self, match_id: int, seat: int, notice_id: int) -> bool:
        return await self.deliveries.newer_prompt(match_id, seat, notice_id)

    async def drop(self, notice_id: int, code: int, reason: str, fence: Fence | None = None) -> bool:
        return await self.deliveries.drop(notice_id, code, reason, fence)

    async def open_phase_post(self, match_id: int, before_id: int) -> OpenPost | None:
        return await self.deliveries.open_phase_post(match_id, before_id)

    async def delivery_queue(self, limit: int = 500) -> list[int]:
        return await self.deliveries.delivery_queue(limit)

    async def delivery_round(self, limit: int = 500, marks: MarksWrite | None = None) -> DeliveryRound:
        return await self.deliveries.delivery_round(limit, marks)

    async def next_notices(self, match_id: int, limit: int = 50) -> list[Notice]:
        return await self.deliveries.next_notices(match_id, limit)

    async def next_batch(self, match_id: int, limit: int = 50, with_prefs: bool = True,
                         marks: MarksWrite | None = None) -> DeliveryBatch:
        return await self.deliveries.next_batch(match_id, limit, with_prefs, marks)

    async def park(self, notice_id: int, code: int, reason: str, retry_in: float) -> Blocked | None:
        return await self.deliveries.park(notice_id, code, reason, retry_in)

    async def due_probes(self, match_id: int) -> list[Blocked]:
        return await self.deliveries.due_probes(match_id)

    async def probe_notice(self, block: Blocked) -> Notice | None:
        return await self.deliveries.probe_notice(block)

    async def probe_failed(self, block: Blocked, code: int, reason: str, retry_in: float) -> int | None:
        return await self.deliveries.probe_failed(block, code, reason, retry_in)

    async def unblock(self, block: Blocked) -> int:
        return await self.deliveries.unblock(block)

    async def dms_closed_at(self, match_id: int, seat: int) -> datetime | None:
        return await self.deliveries.dms_closed_at(match_id, seat)

    async def blocked_targets(self, match_id: int) -> list[Blocked]:
        return await self.deliveries.blocked_targets(match_id)

    async def board_message(self, match_id: int) -> int | None:
        return await self.boards.board_message(match_id)

    async def set_board_message(self, match_id: int, message_id: int | None) -> None:
        await self.boards.set_board_message(match_id, message_id)

    async def dm_channel(self, match_id: int, seat: int, user_id: int) -> int | None:
        return await self.boards.dm_channel(match_id, seat, user_id)

    async def remember_dm_channel(self, match_id: int, seat: int, user_id: int, dm_channel_id: int) -> None:
        await self.boards.remember_dm_channel(match_id, seat, user_id, dm_channel_id)

    async def user_dm_channel(self, user_id: int) -> int | None:
        return await self.dm_channels.of_user(user_id)

    async def unopened_dms(self, match_id: int) -> list[SeatedUser]:
        return await self.dm_channels.unopened(match_id)

    async def remember_user_dm_channel(self, user_id: int, dm_channel_id: int) -> None:
        await self.dm_channels.remember(user_id, dm_channel_id)

    async def history(self, guild_id: int, game: str | None = None, limit: int = HISTORY_SIZE) -> list[HistoryEntry]:
        return await self.archive.history(guild_id, game, limit)

    async def replay_gif(self, match_id: int, max_bytes: int = DEFAULT_MAX_BYTES) -> ReplayGif:
        return await self.archive.replay_gif(match_id, max_bytes)

    async def player_stats(self, guild_id: int, user_id: int) -> list[GameStats]:
        return await self.ratings.player_stats(guild_id, user_id)

    async def leaderboard(self, guild_id: int, game: str, limit: int = LEADERBOARD_SIZE) -> list[Standing]:
        return await self.ratings.leaderboard(guild_id, game, limit)

    async def command_done_before(self, match_id: int, user_id: int, interaction_id: str, signature: str,
                                  version: int | None = None) -> Done | None:
        return await self.command_log.command_done_before(match_id, user_id, interaction_id, signature, version)

    async def note_command(self, match_id: int, user_id: int, interaction_id: str, signature: str, text: str,
                           version: int | None = None) -> None:
        await self.command_log.note_command(match_id, user_id, interaction_id, signature, text, version)

    async def note_unheard(self, match_id: int, user_id: int, interaction_id: str, text: str) -> None:
        await self.command_log.note_unheard(match_id, user_id, interaction_id, text)

    async def take_unheard(self, match_id: int, user_id: int) -> list[str]:
        return await self.command_log.take_unheard(match_id, user_id)
