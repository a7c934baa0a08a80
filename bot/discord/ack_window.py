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
answer is the callback or an edit after the defer (``update``, replies.answer)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

REPLY_WAIT = 0.25
"""Seconds from an interaction's creation within which its answer rides in the callback. At 40
matches on a quiet machine a click's work takes ~90 ms at the median: 0.25 s carries ~9 in 10
replies (2.21 requests an interaction, against 2.13 at 1.5 s) and keeps the button's loading
state short when the database is slow (ack p99 272 ms, against 344 ms at 1.5 s);
docs/benchmarks.md has the runs. At most 2.5: Discord waits 3 s."""

_open: dict[int, Window] = {}
"""Interaction id -> its open window (a refusal anywhere in the handler settles it first)."""


class Window:
    """One interaction's window: a timer that defers at its end unless something answered."""

    def __init__(self, interaction: discord.Interaction, wait: float,
                 defer: Callable[[], Awaitable[Any]]) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        self.settled = asyncio.Event()
        """Set once nothing more is deferred by the timer (it deferred, or an answer goes)."""
        self.refused: discord.HTTPException | None = None
        """Discord's refusal of the timer's defer (the interaction expired: 10062): no other
        callback may be tried for it, since each would be refused the same way."""
        self._timer = asyncio.create_task(self._defer_after(max(0.0, wait - age(interaction)), defer))

    async def _defer_after(self, delay: float, defer: Callable[[], Awaitable[Any]]) -> None:
        await asyncio.sleep(delay)
        async with self._lock:
            if self.settled.is_set() or self.interaction.response.is_done():
                return
            try:
                await defer()
            except discord.HTTPException as refusal:
                self.refused = refusal
            finally:
                self.settled.set()

    async def settle(self) -> None:
        """Nothing more is deferred by the timer: the caller answers now, as the interaction's
        state says (the callback itself, or an edit after the timer's defer)."""
        async with self._lock:  # a defer on its way is done (and shows in the state) first
            self.settled.set()
        self._timer.cancel()


def age(interaction: discord.Interaction) -> float:
    """Seconds since Discord created the interaction (by its id), never below 0: a clock ahead
    of Discord's only closes the window sooner, which costs a request, never an answer."""
    created = discord.utils.snowflake_time(interaction.id)
    return max(0.0, (discord.utils.utcnow() - created).total_seconds())


@contextlib.asynccontextmanager
async def window(interaction: discord.Interaction, wait: float,
                 defer: Callable[[], Awaitable[Any]] | None = None) -> AsyncIterator[Window]:
    """Run a handler inside the interaction's window; ``defer`` (default: a silent
    DEFERRED_UPDATE_MESSAGE) is what the timer sends. A handler that ends without answering is
    acknowledged on the way out by that same defer; one that raises is answered by the error
    handler, after the window is settled."""
    send = defer or interaction.response.defer
    opened = Window(interaction, wait, send)
    _open[interaction.id] = opened
    try:
        yield opened
        await opened.settle()
        if opened.refused is None and not interaction.response.is_done():
            await send()
    finally:
        await opened.settle()
        _open.pop(interaction.id, None)


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
