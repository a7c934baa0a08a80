"""A clean stop on SIGTERM (docker stop, systemd, Kubernetes) and SIGINT (Ctrl-C) alike.

From the signal on, every new interaction gets a short ephemeral "restarting" answer; the
handlers already running finish (bounded), the delivery rounds under way complete (bounded),
then the bot closes as always (bot/discord/app.py ``WarhostBot.close``): loops stopped, leases
and the instance name released, the drawing pool and the store closed. A second signal skips
the waiting. The whole stop fits in docker's default 10 s before SIGKILL (compose.yaml and the
systemd unit allow 20)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Awaitable
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from bot import log_json
from bot.discord.cog import handlers_done
from bot.discord.observe import INTERACTIONS, RESTARTING

if TYPE_CHECKING:
    from bot.discord.cog import GameCog

log = logging.getLogger(__name__)

RESTARTING_TEXT = "The bot is restarting: try again in a minute."
HANDLERS_BUDGET = 5.0
"""Seconds the interaction handlers under way get to finish and answer."""
DELIVERY_BUDGET = 3.0
"""Seconds the delivery rounds under way (and one more round for what those handlers wrote) get."""
SIGNALS = (signal.SIGTERM, signal.SIGINT)
CLICKS = (discord.InteractionType.component, discord.InteractionType.modal_submit)


class Closing(Protocol):
    """What a stop uses of the bot (app.py's ``WarhostBot``): its shutdown, its game cog's
    delivery and its close."""

    @property
    def shutdown(self) -> Shutdown: ...

    @property
    def game(self) -> GameCog | None: ...

    async def close(self) -> None: ...


class Shutdown:
    """One bot's stop: ``closing`` from the first signal on; ``task`` runs the stop."""

    def __init__(self, bot: Closing) -> None:
        self.bot = bot
        self.closing = False
        self.hurry = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def request(self, reason: str) -> None:
        """A signal arrived: start the stop, or (a second signal) stop waiting."""
        if self.task is None:
            log.info("%s: stopping cleanly (new interactions are told to try again in a minute)", reason)
            self.closing = True
            self.task = asyncio.create_task(self.stop(), name="warhost-shutdown")
        else:
            log.warning("%s again: closing without waiting for handlers and deliveries", reason)
            self.hurry.set()

    async def stop(self) -> None:
        handlers, delivery = HANDLERS_BUDGET, DELIVERY_BUDGET
        await self._within(handlers_done(handlers), handlers)
        await self._within(self._deliveries(), delivery)
        await self.bot.close()
        log.info("stopped")

    async def _deliveries(self) -> None:
        """The match workers delivering now, and one round more for what the handlers wrote."""
        game = self.bot.game
        if game is None:
            return
        delivery = game.delivery
        running = [task for task in delivery.workers.values() if not task.done()]
        started = await delivery.dispatch()
        await asyncio.gather(*running, *started, return_exceptions=True)

    async def _within(self, work: Awaitable[Any], seconds: float) -> None:
        """Wait for ``work`` at most ``seconds``, or until a second signal."""
        task = asyncio.ensure_future(work)
        hurry = asyncio.ensure_future(self.hurry.wait())
        await asyncio.wait({task, hurry}, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        for each in (task, hurry):
            if not each.done():
                each.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        if task.cancelled():
            log.warning("stopping: gave up waiting after %.0f s", seconds)

    async def refuse(self, interaction: discord.Interaction) -> bool:
        """While closing: tell the user to come back in a minute (True: it was answered so)."""
        if not self.closing:
            return False
        INTERACTIONS.answered_with(interaction.id, RESTARTING)
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            elif not interaction.response.is_done():
                await interaction.response.send_message(RESTARTING_TEXT, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not tell interaction %s the bot is restarting: %s", interaction.id, exc)
        return True

    async def refuse_click(self, interaction: discord.Interaction) -> bool:
        """``refuse`` for component clicks and modal submits (slash commands: ``ClosingTree``)."""
        return interaction.type in CLICKS and await self.refuse(interaction)


class ClosingTree(app_commands.CommandTree):
    """The command tree: a slash command or autocomplete of a closing bot is answered "restarting"."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        log_json.about(guild_id=interaction.guild_id)
        shutdown: Shutdown | None = getattr(self.client, "shutdown", None)
        return shutdown is None or not await shutdown.refuse(interaction)


@contextlib.asynccontextmanager
async def on_signals(bot: Closing) -> AsyncIterator[None]:
    """SIGTERM and SIGINT stop ``bot`` cleanly while this is entered; leaving waits for the stop."""
    loop = asyncio.get_running_loop()
    for sig in SIGNALS:
        loop.add_signal_handler(sig, bot.shutdown.request, sig.name)
    try:
        yield
    finally:
        if bot.shutdown.task is not None:
            with contextlib.suppress(Exception):
                await bot.shutdown.task
        for sig in SIGNALS:
            loop.remove_signal_handler(sig)
