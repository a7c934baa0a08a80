"""The bot process: wiring of settings, store, service, commands, router and loops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.discord.commands import GameCommands
from bot.discord.delivery import Delivery
from bot.discord.errors import on_command_error
from bot.discord.mentions import NOBODY, plain_name, plain_names
from bot.discord.prompt_ui import timestamp
from bot.discord.refusals import status_lines
from bot.discord.router import Router
from bot.service import MatchService
from bot.service.instance import InstanceGuard
from bot.settings import Settings
from db.store import Store
from engine.text import fill

log = logging.getLogger(__name__)

RENEW_LAZILY = frozenset({"deliver"})
"""Leases only their holder gives up (by expiry), so a fresh one need not be renewed every round."""


def point_discord_at(settings: Settings) -> None:
    """Test and proxy setups: send REST and gateway traffic to the configured base URLs."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class WarhostMixin:
    """What the plain and the sharded bot share."""

    settings: Settings
    svc: Any
    store: Any

    def _init_warhost(self, settings: Settings, store: Any = None, clock: Any = None) -> None:
        self.settings = settings
        self.store = store
        self._clock = clock
        self.svc = None
        self.router = Router(self)  # type: ignore[arg-type]
        self.tree.error(on_command_error)  # type: ignore[attr-defined]
        self.delivery = Delivery(self)  # type: ignore[arg-type]
        self.holder = settings.instance_name
        """Leases are held in the instance's name, so a restarted process takes them back at once
        (the InstanceGuard keeps a second live process with the same name out)."""
        self.guard: InstanceGuard | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._leases: dict[str, float] = {}
        """Lease name -> monotonic time until which it is ours without asking the database."""

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await Store.open(self.settings.database_url, migrate=True)
            self._own_store = True
        kwargs = {"clock": self._clock} if self._clock is not None else {}
        self.svc = MatchService(self.store, holder=self.holder, lease_seconds=self.lease_seconds,
                                name_text=plain_name, **kwargs)
        self.guard = InstanceGuard(self.store, self.holder, self.lease_seconds, **kwargs)
        await self.guard.claim()  # InstanceInUse if another live process has our name
        self.add_listener(self.router.on_interaction, "on_interaction")  # type: ignore[attr-defined]
        await self.sync_commands()
        await self.svc.recover()  # AI seats play what they owe; safe in every process (match locks)
        self._tasks.append(asyncio.create_task(self.delivery.run_forever(self.settings.deliver_seconds)))
        self._tasks.append(asyncio.create_task(self._tick_forever()))
        self._tasks.append(asyncio.create_task(self._heartbeat_forever()))

    @property
    def lease_seconds(self) -> float:
        """How long a lease outlives its last renewal: a successor under another instance name
        (another shard's process) takes over this long after a crash."""
        return max(10.0, 5 * self.settings.tick_seconds, 5 * self.settings.deliver_seconds)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Upload /game: to DEV_GUILD_ID when set (there at once), else globally. The start-up
        does this, and `python -m bot doctor` runs the very same upload to check it."""
        self.tree.add_command(GameCommands(self))  # type: ignore[attr-defined]
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)  # type: ignore[attr-defined]
        return await self.tree.sync(guild=guild)  # type: ignore[attr-defined]

    async def holds_lease(self, name: str) -> bool:
        """Only one process delivers the outbox and fires deadlines at a time.

        The delivery lease is renewed in the database only once a third of its time has passed:
        nobody can take it before it expires, and a write transaction on every delivery round
        (one per interaction) costs SQLite's single writer dearly. The tick lease is released by
        the service after every tick, so it is always asked for."""
        if self.guard is None or not self.guard.held:
            return False
        ttl = self.lease_seconds
        now = time.monotonic()
        if name in RENEW_LAZILY and self._leases.get(name, 0.0) > now:
            return True
        held = bool(await self.svc.take_lease(name, self.holder, ttl_seconds=ttl))
        if held and name in RENEW_LAZILY:
            self._leases[name] = now + ttl / 3
        else:
            self._leases.pop(name, None)
        return held

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            if self.guard is None or not self.guard.held:
                continue
            try:
                if await self.svc.tick():  # takes the "tick" lease itself: one process at a time
                    self.wake_delivery()
            except Exception:
                log.exception("deadline tick failed; retrying on the next tick")

    async def _heartbeat_forever(self) -> None:
        assert self.guard is not None
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.guard.renew()
            except Exception:
                log.exception("instance heartbeat failed; retrying on the next tick")

    def wake_delivery(self) -> None:
        self.delivery.wake.set()

    def is_manager(self, interaction: discord.Interaction, guild_id: int | None) -> bool:
        """Manage Server (or Administrator) over the match's guild ``guild_id``: permissions held
        in the server an interaction comes from say nothing about a match in another one."""
        perms = interaction.permissions
        return bool(guild_id is not None and interaction.guild_id == guild_id
                    and (perms.manage_guild or perms.administrator))

    def status_text(self, st: Any) -> str:
        info = st.match
        waiting = {w.seat for w in st.waiting}
        may_act = {s.seat for s in getattr(st, "may_act", [])}
        lines = [f"**{info.title}** (match #{info.id}): {fill(st.phase, plain_names(info.names()))} - {info.status}"]
        for seat in info.seats:
            who = f"<@{seat.user_id}>" if seat.user_id else f"AI ({seat.ai_policy})"
            flags = []
            if seat.seat in waiting:
                flags.append("still to choose")
            elif seat.seat in may_act:
                flags.append("may act (optional; nobody waits for it)")
            if seat.ai_takeover:
                flags.append("the AI plays for them until they are back")
            if seat.user_id == info.host_id:
                flags.append("host")
            extra = f" - {', '.join(flags)}" if flags else ""
            lines.append(f"Seat {seat.seat + 1}: {plain_name(seat.name)} {who}{extra}")
        if st.deadline is not None:
            lines.append(f"Deadline {timestamp(st.deadline)}")
        if info.status == "paused":
            lines.append("Paused: deadlines are stopped until `/game resume`.")
        names = {s.user_id: s.name for s in info.seats if s.user_id is not None}
        lines += status_lines(getattr(st, "blocked", []), names)
        return "\n".join(lines)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self.svc is not None:
            for name in ("deliver",):
                with contextlib.suppress(Exception):
                    await self.svc.release_lease(name, self.holder)
        if self.guard is not None:
            with contextlib.suppress(Exception):
                await self.guard.release()
        await super().close()  # type: ignore[misc]
        if getattr(self, "_own_store", False) and self.store is not None:
            await self.store.close()


class WarhostBot(WarhostMixin, commands.Bot):
    def __init__(self, settings: Settings, *, store: Any = None, clock: Any = None, **kwargs: Any) -> None:
        commands.Bot.__init__(
            self, command_prefix=commands.when_mentioned, intents=discord.Intents.default(), help_command=None,
            allowed_mentions=NOBODY, **kwargs
        )
        self._init_warhost(settings, store, clock)


class ShardedWarhostBot(WarhostMixin, commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, store: Any = None, clock: Any = None, **kwargs: Any) -> None:
        commands.AutoShardedBot.__init__(
            self,
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
            allowed_mentions=NOBODY,
            **kwargs,
        )
        self._init_warhost(settings, store, clock)


def make_bot(settings: Settings, **kwargs: Any) -> WarhostBot | ShardedWarhostBot:
    point_discord_at(settings)
    if settings.shard_count or settings.shard_ids:
        return ShardedWarhostBot(settings, **kwargs)
    return WarhostBot(settings, **kwargs)


async def run_bot(settings: Settings) -> None:
    bot = make_bot(settings)
    assert settings.discord_token is not None
    async with bot:
        await bot.start(settings.discord_token.get_secret_value())
