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
answer is the callback or an edit after the defer (``update``, replies.answer).

A click whose answer is its message's next form written by someone else (the seat's next
decision, which delivery writes into the clicked DM: prompt_dms.py) lends its callback to that
writer (``carry``): the handler waits, within the same window, for delivery to write the
message through the callback (``carried``), a while shorter than the window (``carry_wait``, the
``carry_wait_seconds`` setting: the acknowledgement then shows the next decision, but comes only
when delivery has written it); past it the handler defers and delivery edits the message as
it would have."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

REPLY_WAIT = 1.5
"""Seconds from an interaction's creation within which its answer rides in the callback: half
of Discord's 3 s, the rest a margin for a busy event loop and the defer's own round trip."""

CARRY_WAIT = 0.0
"""Seconds from a click's creation its callback waits for delivery to carry the DM's next
decision: none by default, so the acknowledgement stays as quick as the click's transaction
(a wait makes it as late as delivery, which a queue of channel posts can hold back)."""

log = logging.getLogger(__name__)

_open: dict[int, Window] = {}
"""Interaction id -> its open window (a refusal anywhere in the handler settles it first)."""
_carriers: dict[int, Window] = {}
"""Message id -> the open window of a click on it whose answer is that message's next form."""


class Window:
    """One interaction's window: a timer that defers at its end unless something answered."""

    def __init__(self, interaction: discord.Interaction, wait: float,
                 defer: Callable[[], Awaitable[Any]]) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        self.settled = asyncio.Event()
        """Set once nothing more is deferred by the timer (it deferred, or an answer goes)."""
        self.deferred = False
        """Whether the window closed before an answer (the answer then follows the defer)."""
        self.carrying: int | None = None
        """The message whose next form this click's callback waits to carry (``carry``)."""
        self._timer = asyncio.create_task(self._defer_after(max(0.0, wait - age(interaction)), defer))

    async def _defer_after(self, delay: float, defer: Callable[[], Awaitable[Any]]) -> None:
        await asyncio.sleep(delay)
        async with self._lock:
            if self.settled.is_set() or self.interaction.response.is_done():
                return
            self.deferred = True
            try:
                await defer()
            finally:
                self.settled.set()

    async def settle(self) -> None:
        """Nothing more is deferred by the timer: the caller answers now, as the interaction's
        state says (the callback itself, or an edit after the timer's defer)."""
        async with self._lock:  # a defer on its way is done (and shows in the state) first
            self.settled.set()
        self._timer.cancel()


    async def carry(self, message_id: int, fields: dict[str, Any]) -> bool:
        """Send ``fields`` as the UPDATE_MESSAGE callback unless the timer deferred first; the
        lock is held until Discord answered, so the handler's way out sees the callback sent."""
        async with self._lock:
            if self.settled.is_set():
                return False
            self.settled.set()
            try:
                await self.interaction.response.edit_message(**fields)
            except discord.HTTPException as exc:
                log.info("the callback of interaction %s did not carry message %s: %s",
                         self.interaction.id, message_id, exc)
                return False
        self._timer.cancel()
        return True


def age(interaction: discord.Interaction) -> float:
    """Seconds since Discord created the interaction (by its id), never below 0: a clock ahead
    of Discord's only closes the window sooner, which costs a request, never an answer."""
    created = discord.utils.snowflake_time(interaction.id)
    return max(0.0, (discord.utils.utcnow() - created).total_seconds())


@contextlib.asynccontextmanager
async def window(interaction: discord.Interaction, wait: float,
                 defer: Callable[[], Awaitable[Any]] | None = None,
                 carry_wait: float = 0.0) -> AsyncIterator[Window]:
    """Run a handler inside the interaction's window; ``defer`` (default: a silent
    DEFERRED_UPDATE_MESSAGE) is what the timer sends. A handler that lent its callback
    (``carry``) waits for the writer to use it until ``carry_wait`` after the interaction's
    creation (at most ``wait``). A handler that ends without answering is acknowledged on the
    way out by that same defer; one that raises is answered by the error handler, after the
    window is settled."""
    send = defer or interaction.response.defer
    opened = Window(interaction, wait, send)
    _open[interaction.id] = opened
    try:
        yield opened
        if opened.carrying is not None:  # the writer's callback, or the end of the wait
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(opened.settled.wait(), max(0.0, min(carry_wait, wait) - age(interaction)))
        await opened.settle()
        if not interaction.response.is_done():
            await send()
    finally:
        await opened.settle()
        _open.pop(interaction.id, None)
        if opened.carrying is not None and _carriers.get(opened.carrying) is opened:
            del _carriers[opened.carrying]


async def settle(interaction: discord.Interaction) -> None:
    """Stop the interaction's window timer, if it has one open: an answer goes now."""
    opened = _open.get(interaction.id)
    if opened is not None:
        await opened.settle()


def carry(interaction: discord.Interaction, message_id: int) -> None:
    """Lend the click's callback to whoever writes ``message_id`` next (``carried``); the
    handler's window waits for that write until it closes."""
    opened = _open.get(interaction.id)
    if opened is not None and not opened.settled.is_set():
        opened.carrying = message_id
        _carriers[message_id] = opened


async def carried(message_id: int, **fields: Any) -> bool:
    """Write ``fields`` (content, view, attachments, allowed_mentions) to the message through
    the callback of a click on it that waits for this write; False when none waits or Discord
    refused it (the caller edits the message itself)."""
    opened = _carriers.pop(message_id, None)
    return opened is not None and await opened.carry(message_id, fields)


async def update(interaction: discord.Interaction, **fields: Any) -> None:
    """Show the clicked message as ``fields`` say: in the interaction's callback while none
    went yet, else as an edit after the defer."""
    await settle(interaction)
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)
