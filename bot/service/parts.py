"""What the parts of MatchService read from each other, written down once.

MatchService (core.py) mixes the parts that work inside the one match transaction (lobby, play,
autoplay, deadlines, ...), and they call each other's steps there. The parts that run
transactions extend ``Transactions`` (transaction.py), which extends ``ServiceParts``; the
notices (announce.py) and the places (places.py) extend ``ServiceParts`` itself. So the type
checker knows the attributes MatchService's ``__init__`` sets and the steps another part supplies,
checks each implementation against its signature here, and refuses to build a MatchService that
lacks one. Only what crosses parts is listed: a part's own helpers stay in its module. The parts
that need nothing but the store (outbox, boards, history, ratings, command log) are not mixed in:
MatchService holds them as objects (``deliveries`` is the one another part reads), and each is
usable alone (the replay tool builds a HistoryService on a store).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sqlmodel.ext.asyncio.session import AsyncSession

    import engine as eng
    from bot.service.match_transaction import FinishStep, MatchTransaction
    from bot.service.memory import KeptPrompts, KeptViews, MatchLocks, RecentStates
    from bot.service.outbox import OutboxService
    from bot.service.thinking import Think, Thinkers
    from bot.service.types import AwayOutcome, MatchInfo, Where
    from bot.service.wording import Wording
    from db.models import Choice, Deadline, Match, MatchVote, Seat
    from db.store import Store


class ServiceParts(Protocol):
    """The attributes and cross-part steps of MatchService (see the module docstring)."""

    # Set by MatchService.__init__ (core.py).
    store: Store
    clock: Callable[[], datetime]
    name_text: Callable[[str], str]
    wording: Wording
    holder: str
    lease_ttl: timedelta
    _locks: MatchLocks
    _cache: RecentStates[eng.State]
    _views: KeptViews
    _prompts: KeptPrompts
    finishing: Sequence[FinishStep]
    deliveries: OutboxService
    """The finishing pipeline ``_finish`` runs (finishing.py; the list is built in core.py)."""
    thinkers: Thinkers

    # places.py
    async def _channel_match_id(self, where: Where, open_only: bool = True) -> int: ...

    # queries.py
    def _info(self, ctx: MatchTransaction) -> MatchInfo: ...

    def _info_of(self, match: Match, seats: list[Seat], game: eng.Game) -> MatchInfo: ...

    def _seat_of(self, seats: list[Seat], user_id: int) -> Seat: ...

    # lobby.py
    def _need_host(self, ctx: MatchTransaction, user_id: int, is_manager: bool) -> None: ...

    async def _go_on(self, ctx: MatchTransaction, text: str) -> None: ...

    # play.py
    async def _apply(self, ctx: MatchTransaction, seat_no: int, prompt: eng.Prompt, choice: dict[str, Any],
                     by: str, interaction_id: str | None = None) -> Choice: ...

    def _reissue(self, ctx: MatchTransaction, actor: int | None) -> None: ...

    # autoplay.py
    @staticmethod
    def _ai_driven(seat: Seat) -> bool: ...

    async def _play(self, ctx: MatchTransaction, seat: Seat, prompt: eng.Prompt, by: str,
                    policy: str | None) -> None: ...

    async def _settle(self, ctx: MatchTransaction) -> None: ...

    def _think_owed(self, ctx: MatchTransaction) -> Think | None: ...

    # deadlines.py
    def _owing(self, ctx: MatchTransaction) -> list[Seat]: ...

    # announce.py
    def _text_names(self, names: list[str]) -> list[str]: ...

    # notify.py
    async def _remind_now(self, ctx: MatchTransaction, deadline: Deadline, owing: list[Seat]) -> list[Seat]: ...

    async def send_held_reminders(self, now: datetime) -> int: ...

    async def find_match(self, where: Where) -> MatchInfo | None: ...

    # away.py
    @staticmethod
    def come_back(seat: Seat) -> None: ...

    async def end_absences(self, now: datetime) -> int: ...

    async def go_away(self, channel_id: Where, user_id: int, hours: float) -> AwayOutcome: ...

    # pace.py
    async def end_pauses(self, now: datetime) -> int: ...

    # replacements.py
    async def _end_stretch(self, ctx: MatchTransaction, seat: Seat) -> None: ...

    # undo.py
    async def undo_lines(self, session: AsyncSession, match_id: int,
                         seats: list[Seat] | None = None) -> dict[int, list[str]]: ...

    async def expire_undos(self, now: datetime) -> int: ...

    # votes.py
    async def expire_votes(self, now: datetime) -> int: ...

    def vote_line(self, row: MatchVote | None, match: Match) -> str | None: ...

