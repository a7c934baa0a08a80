"""A delivery worker's requests go only while its lease is surely the process's: a process
stopped after its last lease check (waiting for a send slot, or in discord.py's sleep for a
rate-limit bucket) sends nothing once it resumes past the lease's expiry."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.discord import observe
from bot.discord.app import Leases
from bot.discord.sending import SENDS_UNDER, LeaseLost


class Svc:
    """The lease's table: granted to whoever asks, term 1."""

    async def take_lease(self, name: str, holder: str, ttl_seconds: float) -> int:
        return 1


async def test_a_lease_is_surely_held_until_the_expiry_it_last_wrote() -> None:
    leases = Leases(Svc(), SimpleNamespace(held=True), "test", ttl_seconds=10.0)  # type: ignore[arg-type]
    assert not leases.surely_held("deliver"), "never taken"
    assert await leases.holds("deliver")
    assert leases.surely_held("deliver")
    leases.expires["deliver"] = time.monotonic() - 0.001  # a pause outlived it
    assert not leases.surely_held("deliver")
    assert await leases.holds("deliver") is True and not leases.surely_held("deliver"), (
        "still fresh in memory: held for the checks between requests, not for a request itself")
    leases.lost("deliver")
    assert not leases.surely_held("deliver")


async def _requests(fence: Any) -> tuple[list[str], BaseException | None]:
    """One GET through a session with the bot's trace, from a task whose SENDS_UNDER is ``fence``."""
    seen: list[str] = []

    async def handler(request: web.Request) -> web.Response:
        seen.append(request.path)
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/x", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    failure: BaseException | None = None
    try:
        async with aiohttp.ClientSession(trace_configs=[observe.trace()]) as session:
            async def send() -> None:
                SENDS_UNDER.set(fence)
                async with session.get(f"http://127.0.0.1:{port}/x") as response:
                    await response.read()

            try:
                await asyncio.create_task(send())
            except LeaseLost as exc:
                failure = exc
    finally:
        await runner.cleanup()
    return seen, failure


@pytest.mark.parametrize("fence, sent", [(None, True), (lambda: True, True), (lambda: False, False)])
async def test_a_request_goes_only_while_its_tasks_lease_is_surely_held(fence: Any, sent: bool) -> None:
    seen, failure = await _requests(fence)
    assert (seen == ["/x"]) is sent
    assert (failure is None) is sent, "a denied request raises LeaseLost, unsent"
