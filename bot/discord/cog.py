"""The cog the bot loads: it receives discord.py's events and hands them on (clicks to the router,
`/game` to its command group), and its load and unload start and stop the game's loops.

The loops are the deadline tick, the outbox delivery and the instance heartbeat; the work of
each lives elsewhere (the service's tick, delivery.py, the instance guard)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord.ext import commands

from bot import log_json, metrics
from bot.aio_tasks import idle, stop_gently
from bot.discord import ack_window
from bot.discord.commands import GameCommands
from bot.discord.delivery import Delivery
from bot.discord.errors import on_command_error
from bot.discord.router import Router
from bot.discord.seat_turns import SeatTurns
from bot.discord.wiring import Outbound

if TYPE_CHECKING:
    from discord import app_commands

    from bot.discord.wiring import Messenger
    from bot.service import MatchService
    from bot.service.instance import InstanceGuard
    from bot.settings import Settings

log = logging.getLogger(__name__)

HANDLER_TASKS = ("discord.py: on_interaction", "CommandTree-invoker")
"""The names discord.py gives the tasks that run a click's or a slash command's handler."""
HANDLERS_GRACE = 10.0
"""Seconds a closing bot waits for handlers still running: a submit under way finishes and is
answered, instead of meeting a closed store."""
LOOPS_GRACE = 3.0
"""Seconds the loops get to end their current round before they are cancelled."""


async def handlers_done(timeout: float = HANDLERS_GRACE) -> int:
    """Wait (at most ``timeout`` s) for the interaction handlers still running; returns how many
    were still running when the wait ended."""
    running: list[asyncio.Task[Any]] = [
        task for task in asyncio.all_tasks()
        if task is not asyncio.current_task() and task.get_name() in HANDLER_TASKS and not task.done()]
    running += ack_window.timers()  # a click left to delivery's edit is acknowledged by its window's end
    if not running:
        return 0
    _done, pending = await asyncio.wait(running, timeout=timeout)
    if pending:
        log.warning("closing with %d interaction handlers still running after %.0f s", len(pending), timeout)
    return len(pending)


class ClickGate(Protocol):
    """A closing bot's refusal of clicks (shutdown.py's ``Shutdown``)."""

    async def refuse_click(self, interaction: discord.Interaction) -> bool: ...


class CogHost(Outbound, Protocol):
    """What the game cog uses of the bot (app.py's ``WarhostBot``): what delivery needs, the
    command tree, the settings of its loops, the instance guard and the shutdown's click gate."""

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def guard(self) -> InstanceGuard | None: ...

    @property
    def shutdown(self) -> ClickGate: ...


class GameCog(commands.Cog, name="warhost"):
    """Receives the game's events and owns its loops; it is the wiring its commands and
    components act through (``service``, ``messenger``, ``wake_delivery``)."""

    def __init__(self, bot: CogHost) -> None:
        self.bot = bot
        self.delivery = Delivery(bot)
        self.router = Router(self, bot.settings.reply_wait_seconds)
        self.group = GameCommands(self)
        self._tasks: list[asyncio.Task[None]] = []
        self.stopping = asyncio.Event()
        """Set at unload: each loop ends after its current round."""

    @property
    def service(self) -> MatchService:
        return self.bot.svc

    @property
    def messenger(self) -> Messenger:
        return self.bot

    @property
    def seat_turns(self) -> SeatTurns:
        return self.delivery.turns

    def wake_delivery(self, match_id: int | None = None) -> None:
        """New notices were written (of ``match_id``, when known): deliver them now rather
        than at the next round."""
        self.delivery.wake_for(match_id)

    async def cog_load(self) -> None:
        """Add `/game` to the command tree, let the AI seats play what they owe, start the loops."""
        self.bot.tree.add_command(self.group)
        self.bot.tree.error(on_command_error)
        self.service.thinkers.on_applied = self.wake_delivery  # an AI's decision is news to deliver now
        await self.service.recover()  # safe in every process (match locks)
        self._start(self.delivery.run_forever(self.bot.settings.deliver_seconds, self.stopping))
        self._start(self._tick_forever())
        self._start(self._heartbeat_forever())

    async def cog_unload(self) -> None:
        """Stop the loops (what delivery had not marked goes out next time), take `/game` back
        and let the handlers still running finish before the bot closes its store."""
        self.delivery.wake.set()
        await stop_gently(self._tasks, self.stopping, LOOPS_GRACE)
        self._tasks.clear()
        self.bot.tree.remove_command(self.group.name)
        await handlers_done()
        await self.service.stop_thinking()  # nothing half done is stored: the next start thinks again

    def _start(self, loop: Coroutine[Any, Any, None]) -> None:
        self._tasks.append(asyncio.create_task(loop))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Component clicks and modal submits go to the router (slash commands go to the tree)."""
        log_json.about(guild_id=interaction.guild_id)
        if await self.bot.shutdown.refuse_click(interaction):
            return
        await self.router.on_interaction(interaction)

    async def _tick_forever(self) -> None:
        while not await idle(self.stopping, self.bot.settings.tick_seconds):
            guard = self.bot.guard
            if guard is None or not guard.held:
                continue
            try:
                with metrics.TICK_SECONDS.time():
                    fired = await self.service.tick()  # takes the "tick" lease itself: one process at a time
                if fired:
                    self.wake_delivery()
                metrics.loop_ran("tick")
            except Exception:
                log.exception("deadline tick failed; retrying on the next tick")

    async def _heartbeat_forever(self) -> None:
        guard = self.bot.guard
        assert guard is not None
        while not await idle(self.stopping, self.bot.settings.tick_seconds):
            try:
                await guard.renew()
            except Exception:
                log.exception("instance heartbeat failed; retrying on the next tick")
