"""A click answered by its acknowledgement: the reply rides in the interaction's callback when
the work behind it is quick, and the acknowledgement goes alone when it is not.

Discord takes one callback per interaction, within 3 s of it. Deferring first and editing the
clicked message afterwards costs two requests a click; an UPDATE_MESSAGE callback carrying the
reply (or an ephemeral message carrying a refusal) costs one. The click's work is a short
transaction, but the database may be slow: so the handler works inside a window bounded from
the interaction's creation (``wait``, the ``reply_wait_seconds`` setting), and a timer defers
when the window closes with nothing sent. Whatever answers first (the reply, a refusal, the
timer) takes one lock, so exactly one callback goes: ``settle`` stops the timer (waiting for a
defer already on its way), and from then on the interaction's own state says whether the
answer is the callback or an edit after the defer (``update``, replies.answer). A handler whose
answer is another writer's (delivery's edit of the clicked DM: clicked_dms.py) leaves the window
open (``leave_open``): that edit is the callback if it comes in time, else the timer defers."""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

REPLY_WAIT = 0.5
"""Seconds from an interaction's creation within which its answer rides in the callback, at
most: the window learns a shorter one while the bot answers quickly (``Pace``). At 40 matches on
a quiet machine 9 in 10 answers are ready well within 0.25 s, so the learned window stays under
it. At 200 matches with players answering at once (a busy loop, a queue at the write turn) a
click's answer is ready ~0.15-0.8 s after its creation at the median and the window stays at its
longest: at 0.25 s 57-80 % of the DM clicks were deferred and their reply edited in after (2.81
to 3.00 requests an interaction, "DM click -> the clicked message changed" p50 465-1,006 ms, ack
p99 702-990 ms); at 0.5 s 39-45 % (2.64-2.73 requests, changed p50 309-408 ms, p90 about the
same, ack p99 872-1,087 ms); at 1.0 s the acknowledgement waited longer than most answers took and
players saw no gain (2.76-2.78 requests, changed p50 1.1 s). The acknowledgement alone changes
nothing a player sees: the clicked message does. docs/benchmarks.md has the runs (issue 32,
session 22). At most 2.5: Discord waits 3 s."""

TIMER_TASK = "warhost: ack window"
"""The name of a window's timer task."""
SHORTEST = 0.05
"""The window never closes sooner: an answer under this long rides in the callback however fast
recent clicks were."""
ANSWERED_SHARE = 0.9
"""A learned window is long enough for this share of recent clicks' answers."""
CLICKS_KEPT = 200
"""Recent clicks whose answer times the window learns from."""
CLICKS_BEFORE_LEARNING = 20
"""Until this many clicks were answered, the window is the longest the setting allows."""


class Pace:
    """How long a window stays open: as long as 9 in 10 recent answers needed, between SHORTEST
    and ``longest`` (the ``reply_wait_seconds`` setting). A fixed window traded the button's
    loading time for requests at every load: at 0.25 s an idle bot still kept a slow click's
    button loading 0.25 s, at 0.09 s a busy one deferred half its clicks (two requests each).
    Learned, the acknowledgement comes about as soon as most answers are ready: soon when the
    bot is idle, later (saving the defer's request) when it is busy."""

    def __init__(self, longest: float) -> None:
        self.longest = longest
        self._answered: deque[float] = deque(maxlen=CLICKS_KEPT)

    def wait(self) -> float:
        """Seconds from a click's creation that its window stays open now."""
        if self.longest <= SHORTEST or len(self._answered) < CLICKS_BEFORE_LEARNING:
            return self.longest
        ordered = sorted(self._answered)
        needed = ordered[max(0, math.ceil(ANSWERED_SHARE * len(ordered)) - 1)]  # the share's slowest
        return min(self.longest, max(SHORTEST, needed))

    def answered(self, seconds: float) -> None:
        """A click's answer was ready ``seconds`` after its creation (sent in the callback or not)."""
        self._answered.append(seconds)


_open: dict[int, Window] = {}
"""Interaction id -> its open window (a refusal anywhere in the handler settles it first)."""


class Window:
    """One interaction's window: a timer that defers at its end unless something answered."""

    def __init__(self, interaction: discord.Interaction, wait: float,
                 defer: Callable[[], Awaitable[Any]], pace: Pace | None = None) -> None:
        self.interaction = interaction
        self.pace = pace
        """Told how soon the answer was ready (once, at the first ``settle``)."""
        self._lock = asyncio.Lock()
        self.settled = asyncio.Event()
        """Set once nothing more is deferred by the timer (it deferred, or an answer goes)."""
        self.refused: discord.HTTPException | None = None
        """Discord's refusal of the timer's defer (the interaction expired: 10062): no other
        callback may be tried for it, since each would be refused the same way."""
        self.left_open = False
        """The handler ended leaving the answer to another writer (``leave_open``)."""
        self.closes = wait
        """The interaction's age at which the timer defers (a window left open closes later)."""
        self.longest = wait if pace is None else pace.longest
        self._timer = asyncio.create_task(self._defer_after(defer), name=TIMER_TASK)

    async def _defer_after(self, defer: Callable[[], Awaitable[Any]]) -> None:
        while (left := self.closes - age(self.interaction)) > 0:  # `closes` may move on meanwhile (`leave`)
            await asyncio.sleep(left)
        async with self._lock:
            if self.settled.is_set() or self.interaction.response.is_done():
                return
            try:
                await defer()
            except discord.HTTPException as refusal:
                self.refused = refusal
            finally:
                self.settled.set()

    def leave(self) -> None:
        """The handler ends without answering, the answer being another writer's to make: the
        window stays open, as long as the setting allows (the other writer's work takes longer
        than a click's answer: a drawing), until that writer settles it or the timer defers at
        its end. The answer time learned is the handler's (another writer's would lengthen
        every window)."""
        self.closes = max(self.closes, self.longest)
        if self.pace is not None:
            self.pace.answered(age(self.interaction))
            self.pace = None
        self.left_open = True
        self._timer.add_done_callback(self._closed)

    def _closed(self, _timer: asyncio.Task[None]) -> None:
        """A window left open is over (answered, or its timer deferred): no longer open."""
        if _open.get(self.interaction.id) is self:
            del _open[self.interaction.id]

    async def settle(self) -> None:
        """Nothing more is deferred by the timer: the caller answers now, as the interaction's
        state says (the callback itself, or an edit after the timer's defer)."""
        if self.pace is not None:
            self.pace.answered(age(self.interaction))
            self.pace = None
        async with self._lock:  # a defer on its way is done (and shows in the state) first
            self.settled.set()
        self._timer.cancel()


def age(interaction: discord.Interaction) -> float:
    """Seconds since Discord created the interaction (by its id), never below 0: a clock ahead
    of Discord's only closes the window sooner, which costs a request, never an answer."""
    created = discord.utils.snowflake_time(interaction.id)
    return max(0.0, (discord.utils.utcnow() - created).total_seconds())


@contextlib.asynccontextmanager
async def window(interaction: discord.Interaction, wait: float | Pace,
                 defer: Callable[[], Awaitable[Any]] | None = None) -> AsyncIterator[Window]:
    """Run a handler inside the interaction's window (``wait`` seconds from its creation, or as
    long as a ``Pace`` says, which then learns from this click); ``defer`` (default: a silent
    DEFERRED_UPDATE_MESSAGE) is what the timer sends. A handler that ends without answering is
    acknowledged on the way out by that same defer; one that raises is answered by the error
    handler, after the window is settled."""
    send = defer or interaction.response.defer
    if isinstance(wait, Pace):
        opened = Window(interaction, wait.wait(), send, pace=wait)
    else:
        opened = Window(interaction, wait, send)
    _open[interaction.id] = opened
    try:
        yield opened
    except BaseException:
        await opened.settle()
        _open.pop(interaction.id, None)
        raise
    if opened.left_open:
        return  # answered by another writer within the window, or by the timer's defer
    try:
        await opened.settle()
        if opened.refused is None and not interaction.response.is_done():
            await send()
    finally:
        _open.pop(interaction.id, None)


def leave_open(interaction: discord.Interaction) -> None:
    """The handler ends without answering the interaction: the answer is another writer's
    (delivery's edit of the clicked DM, clicked_dms.py), in the callback while the window is
    open, else the timer defers at the window's end. A handler that raises after it still has
    the window settled for its error handler."""
    opened = _open.get(interaction.id)
    if opened is not None and not opened.settled.is_set():
        opened.leave()


def timers() -> list[asyncio.Task[None]]:
    """The timers of windows left open: a closing bot waits for them (each ends by its window's end)."""
    return [opened._timer for opened in _open.values() if opened.left_open and not opened._timer.done()]


async def settle(interaction: discord.Interaction) -> None:
    """Stop the interaction's window timer, if it has one open: an answer goes now. Raises
    Discord's refusal of the timer's defer, if it was refused: the answer cannot go either."""
    opened = _open.get(interaction.id)
    if opened is not None:
        await opened.settle()
        if opened.refused is not None:
            raise opened.refused


async def update(interaction: discord.Interaction, **fields: Any) -> None:
    """Show the clicked message as ``fields`` say: in the interaction's callback while none
    went yet, else as an edit after the defer."""
    await settle(interaction)
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)
