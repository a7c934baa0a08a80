"""Plain result types handed to front-ends (no ORM objects leak out of the service)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.service.clock_deadline import ClockDeadline
from engine import Prompt, Standing


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: int | None
    name: str
    ai_policy: str | None = None
    ai_takeover: bool = False
    missed: int = 0
    away_until: datetime | None = None
    """Away (`/game away`) until then; what that means is the match's ``away_mode``."""
    open_since: datetime | None = None
    """Open for a replacement (`/game replace`) since then: the first member to take it plays it."""

    @property
    def is_ai(self) -> bool:
        """Played by the AI now: an AI seat, or a human seat taken over after missed deadlines."""
        return self.ai_policy is not None or self.ai_takeover


@dataclass(frozen=True)
class MatchInfo:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    title: str
    status: str
    host_id: int
    options: dict[str, Any]
    seats: list[SeatInfo]
    max_seats: int
    deadline_hours: float
    version: int
    step: int
    created_at: datetime
    result: dict[str, Any] | None = None
    away_mode: str = "ai"
    """What `/game away` does here: ai (the AI plays the seat) | pause (its deadlines wait)."""
    takeover_ai: str = "heuristic"
    """The AI that plays a seat it took over: heuristic | search (bot/service/away.py)."""
    lobby_channel_id: int | None = None
    """Where the match was opened and its lobby message lives (the parent of its thread)."""
    opens_thread: bool = False
    """It runs in a thread started from its lobby message (channel_id is that thread once it exists)."""
    clock: ClockDeadline | None = None
    """Its clock deadline ("every day at 21:00 Europe/Berlin, at least 12 h"); None: deadline_hours each."""
    paused_until: datetime | None = None
    """A paused match goes on by itself then."""

    @property
    def in_thread(self) -> bool:
        """Whether its posts go to a thread of its own (not to the channel where it was opened)."""
        return self.opens_thread and self.lobby_channel_id is not None and self.channel_id != self.lobby_channel_id

    def names(self) -> list[str]:
        """Seat names in seat order, for maps and texts."""
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat)]

    def newest_ai(self) -> str:
        """The name of the AI seated last (the highest AI seat)."""
        return max((s for s in self.seats if s.ai_policy), key=lambda s: s.seat).name

    def seat_user(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


@dataclass(frozen=True)
class Place:
    """Where a command was given, and by whom. A channel from which several matches run (each in
    its own thread) stands for the one match the user sits in; a button names its match."""

    channel_id: int
    user_id: int | None = None
    match_id: int | None = None
    """The match a button belongs to: it wins over the channel (the router judged the channel)."""


Where = int | Place
"""A service call's match: a channel or thread id, or a Place."""


@dataclass(frozen=True)
class Status:
    match: MatchInfo
    phase: str
    waiting: list[SeatInfo]
    deadline: datetime | None
    step: int
    prompts: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    may_act: list[SeatInfo] = field(default_factory=list)
    """Seats with an optional prompt open: they may act, nobody waits for them."""
    blocked: list[Blocked] = field(default_factory=list)
    """Targets that refuse the match's notices (its channel, a player's DMs), and why."""
    ending: str | None = None
    """How an ended match ended: its result line, or who aborted it."""
    chosen: list[SeatInfo] = field(default_factory=list)
    """Seats whose choice of the open step is in (sealed): they wait for the others."""
    standing: Standing = field(default_factory=Standing)
    """Whose turn, the turn order and the score, from the public view."""
    vote: str | None = None
    """A running match's latest vote to end it, in one line (votes.py); None: none."""


@dataclass(frozen=True)
class Board:
    """What a match's status board shows, read at one moment: the status, the newest log line
    and the board message to edit (None: not posted yet, or deleted)."""

    status: Status
    latest: str | None
    message_id: int | None


@dataclass(frozen=True)
class Blocked:
    """A target that refused a match's notice for good: its notices wait (parked) until a probe
    finds that it works again."""

    id: int
    match_id: int
    kind: str
    """channel | user"""
    target_id: int
    code: int
    """The transport's error code."""
    reason: str
    since: datetime
    next_probe_at: datetime
    probes: int = 0
    held: int = 0
    """Notices parked for it when this was read."""


@dataclass(frozen=True)
class SubmitResult:
    match_id: int
    seat: int
    seq: int
    """Position of the choice in the match log."""
    version: int | None
    """The seat's prompt version after the choice (None: nothing owed now)."""
    revision: bool = False
    """A sealed choice was replaced (allowed until the step locks)."""
    locked: bool = True
    """False while the secret step still waits for other seats."""
    finished: bool = False
    events: list[str] = field(default_factory=list)
    """Event lines this seat may see, caused by the choice and the AI turns after it."""
    private: list[str] = field(default_factory=list)
    """Lines only this seat sees that its reply shows (a seal still waiting: no DM carries them)."""
    reminders: list[int] = field(default_factory=list)
    """Reminder DMs (message ids) sent to this player while the match waited for this answer."""
    pings: list[int] = field(default_factory=list)
    """Channel "your turn" posts that mentioned this player (message ids) while the match waited."""
    duplicate: bool = False
    """The interaction id was seen before: this is the first call's result, applied once."""
    claimed: int | None = None
    """The prompt notice this DM click claimed: the decision it answered, whose delivery was not
    marked yet, shown on the clicked DM (``TurnQueries.claim_prompt_message``)."""
    drawn_next: bool = False
    """The seat's next decision (of ``version``) is a sealed one, and the prompt notice this
    submit's transaction wrote for it carries the seat's view: its DM shows the seat's private
    map, which only delivery draws, so the click's answer shows nothing of it and reads nothing
    for it (bot/discord/router.py ``Router._submit``). False when not known (a duplicate)."""


@dataclass(frozen=True)
class PendingPrompt:
    """A seat's open prompt, as a click is judged by it. No view of the seat comes with it:
    nothing judging a click reads one, and building it was the largest part of judging a DM
    click in its transaction (issue 32); ``MatchService.seat_view`` reads it."""

    match_id: int
    seat: int
    version: int
    prompt: Prompt
    deadline: datetime | None
    names: list[str] = field(default_factory=list)
    """Seat names in seat order, to fill seat references in the prompt's texts."""
    undo_mark: int | None = None
    """Set once the match was undone: prompt messages sent before then are retired."""


@dataclass(frozen=True)
class Notice:
    id: int
    match_id: int
    key: str
    kind: str
    channel_id: int | None
    user_id: int | None
    seat: int | None
    payload: dict[str, Any]
    created_at: datetime

    @property
    def version(self) -> int | None:
        """The match version this notice was written with (its key starts ``v<version>:``);
        None for markers and alerts, which no change of the match wrote."""
        head, _, rest = self.key.partition(":")
        return int(head[1:]) if rest and head[:1] == "v" and head[1:].isdigit() else None


@dataclass(frozen=True)
class OpenPost:
    """A phase post still gathering its phase's lines: the message, its heading, its lines."""

    ref: int
    label: str
    lines: list[str]
    continued: bool = False
    """The phase filled an earlier post: this one carries on from it."""
    progress: list[int] = field(default_factory=list)
    """Which of ``lines`` tell who the table still waits for (a closed post drops them)."""


@dataclass(frozen=True)
class AwayOutcome:
    """A seat gone away (`/game away`): until when, and what away means in its match."""

    match_id: int
    seat: int
    until: datetime
    mode: str
