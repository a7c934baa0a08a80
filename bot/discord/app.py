"""The bot process: settings, store, service and instance guard; the game's Discord side is the GameCog."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.discord import health, observe
from bot.discord.cog import GameCog
from bot.discord.mentions import NOBODY, plain_name
from bot.discord.shutdown import ClosingTree, Shutdown, on_signals
from bot.service import MatchService, drawing, thinking
from bot.service.clock import DatabaseClock
from bot.service.instance import InstanceGuard
from bot.service.limits import MatchLimits
from bot.service.outbox import Fence
from bot.service.web_links import WebLinks
from bot.settings import Settings
from bot.web import WebServer
from db.store import Store

Clock = Callable[[], datetime]
"""The service's clock (tests move time with one)."""

log = logging.getLogger(__name__)

RELEASE_SECONDS = 5.0
"""At shutdown, how long giving up a lease (or the instance name) may take before it is left to expire."""
MAX_RATELIMIT_WAIT = 10.0
"""The longest 429 discord.py waits out itself; a longer one (a slowmode channel's retry_after can
be hours) raises RateLimited, and delivery holds that target back instead of a send slot."""
RENEW_LAZILY = frozenset({"deliver"})
"""Leases only their holder gives up (by expiry), so a fresh one need not be renewed every round."""


def point_discord_at(settings: Settings) -> None:
    """Test and proxy setups: send REST and gateway traffic to the configured base URLs."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


class Leases:
    """Only one process delivers the outbox and fires deadlines at a time.

    The delivery lease is renewed in the database only once a third of its time has passed:
    nobody can take it before it expires, and a write transaction on every delivery round
    (one per interaction) costs SQLite's single writer dearly. The tick lease is released by
    the service after every tick that did work; an idle holder keeps it until half its life is
    spent (bot/service/deadlines.py). A closing bot gives both up, so another takes over at once."""

    def __init__(self, service: MatchService, guard: InstanceGuard, holder: str, ttl_seconds: float) -> None:
        self.service = service
        self.guard = guard
        self.holder = holder
        self.ttl_seconds = ttl_seconds
        self.fresh_until: dict[str, float] = {}
        """Lease name -> monotonic time until which it is ours without asking the database."""
        self.terms: dict[str, int] = {}
        """Lease name -> the term this process holds it in (its fencing token)."""
        self.expires: dict[str, float] = {}
        """Lease name -> monotonic time before which no other process can take it: its expiry as
        this process last wrote it (counted from before the write, so never later than the
        database's)."""
        self.renewing: dict[str, asyncio.Lock] = {}
        """Lease name -> held while it is renewed (RENEW_LAZILY leases): one renewal at a time."""

    async def holds(self, name: str) -> bool:
        if not self.guard.held:
            return False
        ttl = self.ttl_seconds
        now = time.monotonic()
        if name in RENEW_LAZILY:
            if self.fresh_until.get(name, 0.0) > now:
                return True
            # one renewal at a time: a lease gone stale under load found every match's delivery
            # worker asking at once, each with a write of its own; those after the first find it fresh
            async with self.renewing.setdefault(name, asyncio.Lock()):
                if self.fresh_until.get(name, 0.0) > time.monotonic():
                    return True
                return await self._ask(name, ttl, now)
        return await self._ask(name, ttl, now)

    async def _ask(self, name: str, ttl: float, now: float) -> bool:
        """Take or renew the lease in the database."""
        term = await self.service.take_lease(name, self.holder, ttl_seconds=ttl)
        held = bool(term)  # a term counts from 1
        if held:
            self.terms[name] = int(term or 0)
            self.expires[name] = now + ttl
        else:
            self.terms.pop(name, None)
            self.expires.pop(name, None)
        if held and name in RENEW_LAZILY:
            self.fresh_until[name] = now + ttl / 3
        else:
            self.fresh_until.pop(name, None)
        return held

    def fence(self, name: str) -> Fence | None:
        """The term this process last held the lease in: what it writes under the lease is
        written only while that term is current."""
        term = self.terms.get(name)
        return None if term is None else Fence(name, self.holder, term)

    def lost(self, name: str) -> None:
        """A fenced write found the term over: ask the database before acting on the lease again."""
        self.fresh_until.pop(name, None)
        self.terms.pop(name, None)
        self.expires.pop(name, None)

    def surely_held(self, name: str) -> bool:
        """Whether no other process can hold the lease now, without asking the database: its
        expiry as last written is still ahead (False once a pause outlived it)."""
        return self.guard.held and self.expires.get(name, 0.0) > time.monotonic()


INTENTS = discord.Intents(guilds=True)
"""The GUILDS intent alone: guilds, channels, threads and roles for the permission checks. The bot
acts through interactions and reads no message, reaction, typing or voice event; with the
default intents a server would send it every chat line in every channel it sees, and an echo of
each of its own posts and edits, for discord.py to parse and cache for nothing."""


class WarhostBot(commands.Bot):
    """The bot: settings, store, service and instance guard; the game itself is its GameCog."""

    def __init__(self, settings: Settings, *, store: Store | None = None, clock: Clock | None = None,
                 **kwargs: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=INTENTS,
                         help_command=None, allowed_mentions=NOBODY, tree_cls=ClosingTree,
                         **self.shard_options(settings), **kwargs)
        self.settings = settings
        self.shutdown = Shutdown(self)
        self.add_listener(observe.on_interaction, "on_interaction")
        self.store = store
        self._own_store = False
        self._clock = clock
        self._service: MatchService | None = None
        self.holder = settings.instance_name
        """Leases are held in the instance's name, so a restarted process takes them back at once
        (the InstanceGuard keeps a second live process with the same name out)."""
        self.guard: InstanceGuard | None = None
        self.leases: Leases | None = None
        self.web: WebServer | None = None
        self.web_links: WebLinks | None = None
        """The match pages and their links (WEB_PORT); None: no web table, and no post links to one."""
        self._warming: asyncio.Task[None] | None = None
        """The drawing workers starting in the background at setup (drawing.py ``warm``)."""
        self.http.max_ratelimit_timeout = MAX_RATELIMIT_WAIT  # discord.py's own keyword allows no less than 30 s

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        """What discord.py's client is told about shards (nothing: the plain bot is one shard)."""
        return {}

    @property
    def svc(self) -> MatchService:
        if self._service is None:
            raise RuntimeError("the bot's service exists once the bot has started (setup_hook)")
        return self._service

    @property
    def game(self) -> GameCog | None:
        """The loaded game cog (None before start-up and after close)."""
        cog = self.get_cog(GameCog.__cog_name__)
        return cog if isinstance(cog, GameCog) else None

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await Store.open(self.settings.database_url, migrate=True,
                                          wait_seconds=self.settings.db_wait_seconds)
            self._own_store = True
        clock = self._clock or DatabaseClock(self.store)
        if isinstance(clock, DatabaseClock):
            await clock.check_at_start()  # a clock more than 2 s off the database's is logged
        self._service = MatchService(self.store, holder=self.holder, lease_seconds=self.lease_seconds,
                                     name_text=plain_name, clock=clock)
        self._service.match_limits = MatchLimits(self.settings.max_open_matches_per_server,
                                                 self.settings.max_open_matches_per_user)
        self.guard = InstanceGuard(self.store, self.holder, self.lease_seconds, clock=clock)
        await self.guard.claim()  # InstanceInUse if another live process has our name
        self.leases = Leases(self._service, self.guard, self.holder, self.lease_seconds)
        pool = await drawing.configure(self.settings.draw_workers)
        self._warming = asyncio.create_task(pool.warm(), name="warm the drawing pool")
        thinking.configure(self.settings.search_wait_seconds)
        await self.start_web(clock)
        await self.add_cog(GameCog(self))
        await self.sync_commands()

    async def start_web(self, clock: Clock) -> None:
        """Serve the match pages on WEB_HOST:WEB_PORT when WEB_PORT is set; posts link to WEB_BASE_URL
        (default: the address served)."""
        settings = self.settings
        if settings.web_port is None:
            return
        secret = settings.web_secret.get_secret_value() if settings.web_secret else None
        links = await WebLinks.open(self.svc.store, settings.web_base_url or "http://localhost", secret, clock,
                                    settings.web_link_days)
        self.web = WebServer(self.svc, links)
        await self.web.start(settings.web_host, settings.web_port)
        if not settings.web_base_url:
            links.base_url = f"http://{settings.web_host}:{self.web.port}"
        self.web_links = links

    @property
    def lease_seconds(self) -> float:
        """How long a lease outlives its last renewal: a successor under another instance name
        (another shard's process) takes over this long after a crash."""
        return max(10.0, 5 * self.settings.tick_seconds, 5 * self.settings.deliver_seconds)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Upload the tree's commands (the cog's /game) to DEV_GUILD_ID when set (there at once),
        else globally. The start-up does this, and `python -m bot doctor` runs the very same upload."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        return await self.tree.sync(guild=guild)

    async def holds_lease(self, name: str) -> bool:
        """Whether this process may deliver (``deliver``) or fire deadlines (``tick``) now."""
        return self.leases is not None and await self.leases.holds(name)

    def lease_surely_held(self, name: str) -> bool:
        """``Leases.surely_held``: checked just before each request a delivery worker sends."""
        return self.leases is not None and self.leases.surely_held(name)

    def wake_delivery(self, match_id: int | None = None) -> None:
        game = self.game
        if game is not None:
            game.wake_delivery(match_id)

    async def close(self) -> None:
        """Stop the game's loops first, then give up the leases and the instance name; the
        drawing workers go once Discord's connection is closed (no new interaction can draw)."""
        if self.game is not None:
            await self.remove_cog(GameCog.__cog_name__)
        if self.web is not None:
            await self.web.stop()
        # Best effort, and bounded: a lease not given up expires by itself; a database that does
        # not answer must not keep the process from stopping.
        releases = []
        if self._service is not None:
            releases += [self._service.release_lease(name, self.holder) for name in ("deliver", "tick")]
        if self.guard is not None:
            releases.append(self.guard.release())
        await _at_most(releases, RELEASE_SECONDS)
        await super().close()
        await drawing.close()
        if self._warming is not None:
            await self._warming  # a start under way sees the pool closed and shuts its workers down
        thinking.queue().log_figures()
        if self._own_store and self.store is not None:
            await self.store.close()


class ShardedWarhostBot(WarhostBot, commands.AutoShardedBot):
    """The same bot over several shards (discord.py's AutoShardedClient under it)."""

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        return {"shard_count": settings.shard_count, "shard_ids": settings.shard_ids}


def make_bot(settings: Settings, **kwargs: Any) -> WarhostBot | ShardedWarhostBot:
    point_discord_at(settings)
    kwargs.setdefault("http_trace", observe.trace())
    if settings.shard_count or settings.shard_ids:
        return ShardedWarhostBot(settings, **kwargs)
    return WarhostBot(settings, **kwargs)


async def run_bot(settings: Settings) -> None:
    bot = make_bot(settings)
    assert settings.discord_token is not None
    async with bot, health.serving(bot), on_signals(bot):
        await bot.start(settings.discord_token.get_secret_value())


async def _at_most(work: list[Any], seconds: float) -> None:
    """Run ``work`` at once and wait for it ``seconds`` at most, whatever it raises. Unlike
    ``wait_for``, a step that does not stop when cancelled (a database call stuck in its thread)
    cannot hold the caller: it is cancelled and left to end on its own."""
    tasks = [asyncio.ensure_future(each) for each in work]
    if not tasks:
        return
    done, pending = await asyncio.wait(tasks, timeout=seconds)
    for task in pending:
        task.cancel()
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            log.info("giving up a lease at shutdown failed: %s", task.exception())
