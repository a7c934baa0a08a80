"""The admin's HTTP listener (HEALTH_PORT on HEALTH_HOST): liveness, readiness and metrics.

- ``GET /healthz``: 200 while the event loop answers (a hung loop answers nothing).
- ``GET /readyz``: 200 only while the gateway is connected, the database answers and the
  deadline tick and the delivery loop each completed a round within their expected period;
  else 503 with every reason, as JSON.
- ``GET /metrics``: bot/metrics.py in Prometheus' text format; the store's gauges (outbox
  backlog, parked targets, open matches) are read at each scrape.

It runs in the bot's event loop, with aiohttp (there through discord.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot import metrics
from bot.discord.observe import gateway_latency
from db.vitals import answers, read_vitals

if TYPE_CHECKING:
    from bot.settings import Settings
    from db.store import Store

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 3.0
"""Seconds the database gets to answer a readiness or metrics query."""
LOOP_SLACK = 10.0
"""A loop is late when its last round is older than three of its periods plus this (a busy
machine or a slow round is not an outage)."""


class HealthPortUnusable(Exception):
    """The listener's address is taken or not this machine's (the message says which)."""


class Watched(Protocol):
    """What the health listener reads of the bot (app.py's ``WarhostBot``): its gateway, the
    settings of its loops and its store."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> Store | None: ...

    @property
    def ws(self) -> Any: ...

    @property
    def latency(self) -> float: ...

    def is_closed(self) -> bool: ...

    def is_ready(self) -> bool: ...


def gateway_problem(bot: Watched) -> str | None:
    """Why the gateway is not connected (None: it is)."""
    if bot.is_closed():
        return "the bot is closing"
    if not bot.is_ready():
        return "not connected to the gateway yet"
    shards: Any = getattr(bot, "shards", None)
    if isinstance(shards, dict) and shards:
        down = sorted(shard_id for shard_id, info in shards.items() if info.is_closed())
        return f"gateway shards {down} disconnected" if down else None
    ws: Any = bot.ws
    if ws is None or ws.socket is None or ws.socket.closed:
        return "gateway disconnected"
    return None


class Health:
    """The listener for one bot; ``start`` binds it, ``stop`` closes it."""

    def __init__(self, bot: Watched, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        self.started = time.monotonic()
        self._runner: web.AppRunner | None = None
        self.games_seen: set[str] = set()
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.metrics)
        self.app = app

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise HealthPortUnusable(f"cannot listen on {self.host}:{self.port} (HEALTH_HOST, HEALTH_PORT): "
                                     f"{exc.strerror or exc}") from None
        self._runner = runner
        if runner.addresses:
            self.port = int(runner.addresses[0][1])  # port 0: the one the system chose
        log.info("health listener on http://%s:%s (/healthz, /readyz, /metrics)", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def readyz(self, request: web.Request) -> web.Response:
        reasons = await self.problems()
        if reasons:
            return web.json_response({"status": "unavailable", "reasons": reasons}, status=503)
        return web.json_response({"status": "ready"})

    async def problems(self) -> list[str]:
        """Every reason the bot is not ready now (empty: ready)."""
        reasons = []
        gateway = gateway_problem(self.bot)
        if gateway:
            reasons.append(gateway)
        database = await self._database_problem()
        if database:
            reasons.append(database)
        settings = self.bot.settings
        for loop, period in (("tick", settings.tick_seconds), ("deliver", settings.deliver_seconds)):
            late = self._loop_problem(loop, period)
            if late:
                reasons.append(late)
        return reasons

    async def _database_problem(self) -> str | None:
        store = self.bot.store
        if store is None:
            return "the database is not open yet"
        try:
            await asyncio.wait_for(answers(store), DATABASE_TIMEOUT)
        except TimeoutError:
            return f"the database did not answer within {DATABASE_TIMEOUT:.0f} s"
        except Exception as exc:  # the reason only: a driver's message may hold the URL
            return f"the database does not answer ({type(exc).__name__})"
        return None

    def _loop_problem(self, loop: str, period: float) -> str | None:
        allowed = 3 * period + LOOP_SLACK
        since = metrics.since_last_run(loop)
        if since is None:
            return f"the {loop} loop has not completed a round yet"
        if since > allowed:
            return f"the {loop} loop last completed a round {since:.0f} s ago (expected every {period:g} s)"
        return None

    async def metrics(self, request: web.Request) -> web.Response:
        latency = gateway_latency(self.bot)
        if latency is not None:
            metrics.GATEWAY_LATENCY.set(latency)
        await self._read_store_gauges()
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _read_store_gauges(self) -> None:
        store = self.bot.store
        try:
            if store is None:
                raise RuntimeError("the store is not open yet")
            vitals = await asyncio.wait_for(read_vitals(store), DATABASE_TIMEOUT)
        except Exception as exc:
            metrics.DATABASE_UP.set(0)
            log.info("metrics: the database did not answer (%s)", type(exc).__name__)
            return
        metrics.DATABASE_UP.set(1)
        metrics.OUTBOX_BACKLOG.set(vitals.backlog)
        oldest = vitals.oldest
        metrics.OUTBOX_OLDEST.set(0 if oldest is None else max(0.0, time.time() - oldest.timestamp()))
        metrics.PARKED_TARGETS.set(vitals.parked_targets)
        for game in self.games_seen - set(vitals.open_matches):  # no match of it open any more
            metrics.OPEN_MATCHES.labels(game).set(0)
        for game, count in vitals.open_matches.items():
            metrics.OPEN_MATCHES.labels(game).set(count)
        self.games_seen |= set(vitals.open_matches)


@contextlib.asynccontextmanager
async def serving(bot: Watched) -> AsyncIterator[Health | None]:
    """The listener while the bot runs, when HEALTH_PORT is set (None otherwise)."""
    port = bot.settings.health_port
    if port is None:
        yield None
        return
    health = Health(bot, bot.settings.health_host, port)
    await health.start()
    try:
        yield health
    finally:
        await health.stop()
