"""What the bot's Discord traffic tells the metrics (bot/metrics.py), seen from outside the handlers.

Every REST response passes an aiohttp trace (discord.py's ``http_trace``), 429s included, which
discord.py retries without telling anyone. An interaction's acknowledgement is the response to
its ``/callback`` request: the time since the interaction's id was minted is its latency, and the
interaction listener (registered once per bot) knows its kind. An interaction with no callback
after Discord's 3 seconds is counted as unanswered."""

from __future__ import annotations

import asyncio
import re
import time
from collections import OrderedDict
from types import SimpleNamespace
from typing import Any, Protocol

import aiohttp
import discord

from bot import metrics
from bot.discord.sending import SENDS_UNDER, LeaseLost

API_PREFIX = re.compile(r"^.*?/api(?:/v\d+)?(?=/)")
SECRET_SEGMENT = re.compile(r"(/(?:interactions|webhooks)/)(\d+)/[^/]+")
ID_SEGMENT = re.compile(r"/\d{2,}(?=/|$)")
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
ACK_DEADLINE = 3.0
"""Discord's limit for the first answer to an interaction."""
TRACKED = 10_000
"""Interactions whose kind is remembered until their callback (a dict slot each)."""
RESTARTING = "restarting"


def route_of(path: str) -> str:
    """A URL path as a route template: ids and tokens out (bounded label values, no secret)."""
    path = API_PREFIX.sub("", path)
    path = SECRET_SEGMENT.sub(r"\g<1>{id}/{token}", path)
    return ID_SEGMENT.sub("/{id}", path) or "/"


def snowflake_age(snowflake: int) -> float:
    """Seconds since Discord minted this id (never negative)."""
    return max(0.0, time.time() - discord.utils.snowflake_time(snowflake).timestamp())


class Interactions:
    """Kinds of interactions received and not yet acknowledged, keyed by interaction id."""

    def __init__(self) -> None:
        self.waiting: OrderedDict[int, str] = OrderedDict()
        self.outcome: dict[int, str] = {}
        """An answer the bot chose before its callback (``restarting``)."""

    def received(self, interaction: discord.Interaction) -> None:
        kind = interaction.type.name if interaction.type is not None else "unknown"
        self.waiting[interaction.id] = kind
        while len(self.waiting) > TRACKED:
            self.waiting.popitem(last=False)
        asyncio.get_running_loop().call_later(ACK_DEADLINE, self._check, interaction.id)

    def answered_with(self, interaction_id: int, outcome: str) -> None:
        self.outcome[interaction_id] = outcome

    def acknowledged(self, interaction_id: int, status: int) -> None:
        kind = self.waiting.pop(interaction_id, None)
        if kind is None:
            return  # not seen by the listener (another process's) or already counted unanswered
        outcome = self.outcome.pop(interaction_id, "acknowledged" if status < 400 else "refused_by_discord")
        metrics.INTERACTIONS.labels(kind, outcome).inc()
        if status < 400:
            metrics.ACK_SECONDS.labels(kind).observe(snowflake_age(interaction_id))

    def _check(self, interaction_id: int) -> None:
        kind = self.waiting.pop(interaction_id, None)
        if kind is not None:
            self.outcome.pop(interaction_id, None)
            metrics.INTERACTIONS.labels(kind, "unanswered").inc()


INTERACTIONS = Interactions()


async def on_interaction(interaction: discord.Interaction) -> None:
    """The bot's listener: remember the interaction's kind until its acknowledgement."""
    INTERACTIONS.received(interaction)


async def _request_end(session: aiohttp.ClientSession, context: SimpleNamespace,
                       params: aiohttp.TraceRequestEndParams) -> None:
    _count(params.method, params.url.path, params.response.status)


async def _request_exception(session: aiohttp.ClientSession, context: SimpleNamespace,
                             params: aiohttp.TraceRequestExceptionParams) -> None:
    _count(params.method, params.url.path, 0)


def _count(method: str, path: str, status: int) -> None:
    route = route_of(path)
    label = str(status) if status else "error"
    metrics.REST_REQUESTS.labels(method, route, label).inc()
    if status == 429:
        metrics.RATE_LIMITED.labels(method, route).inc()
        return  # discord.py sends the callback again: that one is the acknowledgement
    found = CALLBACK.search(path)
    if found:
        INTERACTIONS.acknowledged(int(found.group(1)), status or 599)


async def _request_start(session: aiohttp.ClientSession, context: SimpleNamespace,
                         params: aiohttp.TraceRequestStartParams) -> None:
    """A request of a task sending under the delivery lease goes only while the lease is surely
    this process's (sending.SENDS_UNDER): raised here, LeaseLost leaves it unsent."""
    fence = SENDS_UNDER.get()
    if fence is not None and not fence():
        raise LeaseLost


def trace() -> aiohttp.TraceConfig:
    """The trace discord.py's HTTP client is given (``Client(http_trace=...)``)."""
    config = aiohttp.TraceConfig()
    config.on_request_start.append(_request_start)
    config.on_request_end.append(_request_end)
    config.on_request_exception.append(_request_exception)
    config.freeze()
    return config


class Heartbeat(Protocol):
    """A client's gateway latency (``discord.Client`` has it)."""

    @property
    def latency(self) -> float: ...


def gateway_latency(bot: Heartbeat) -> float | None:
    """The heartbeat latency in seconds (mean over shards); None before the first heartbeat."""
    latency: Any = bot.latency
    return None if latency is None or latency != latency or latency == float("inf") else float(latency)
