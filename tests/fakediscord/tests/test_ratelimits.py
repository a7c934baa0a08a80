"""Discord's rate limits in the fake: raw requests see Discord's headers and 429s, and the real
discord.py client paces itself by them (buckets) or retries once (the global limit)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.fixtures import BotRunner, running_fake
from tests.fakediscord.ratelimits import GLOBAL_LIMIT, ROUTE_LIMITS, bucket_hash

SCALE = 0.1  # 5 messages per 0.5 s per channel


class FrozenClock:
    """Stands still until a test moves it, so window edges do not depend on the machine's speed."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def frozen() -> AsyncIterator[tuple[FakeDiscord, FrozenClock, aiohttp.ClientSession]]:
    """A fake at SCALE whose rate limiter reads a frozen clock, and an HTTP session to it."""
    async with running_fake(guilds=11, rate_time_scale=SCALE) as fake, aiohttp.ClientSession(
            headers={"Authorization": f"Bot {fake.token}"}) as http:
        clock = FrozenClock()
        fake.rate_limiter.clock = clock
        yield fake, clock, http


async def post(fake: FakeDiscord, http: aiohttp.ClientSession, channel_id: int,
               text: str = "hi") -> tuple[int, Any, Any]:
    async with http.post(f"{fake.api_base}/channels/{channel_id}/messages", json={"content": text}) as resp:
        return resp.status, resp.headers, await resp.json()


async def test_success_carries_the_bucket_headers(frozen) -> None:
    fake, _, http = frozen
    before = time.time()
    status, headers, _ = await post(fake, http, fake.channel.id)
    assert status == 200
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
    assert float(headers["X-RateLimit-Reset-After"]) == 5 * SCALE
    assert before + 5 * SCALE <= float(headers["X-RateLimit-Reset"]) <= time.time() + 5 * SCALE + 0.01
    assert re.fullmatch(r"[0-9a-f]{32}", headers["X-RateLimit-Bucket"])
    assert "X-RateLimit-Scope" not in headers and "Retry-After" not in headers
    _, other, _ = await post(fake, http, fake.guilds[1].channel.id)
    assert other["X-RateLimit-Bucket"] == headers["X-RateLimit-Bucket"]  # the hash leaves out the channel
    assert other["X-RateLimit-Remaining"] == "4"  # ... but the count does not


async def test_sixth_message_in_the_window_gets_429(frozen) -> None:
    fake, clock, http = frozen
    remaining = []
    for n in range(5):
        clock.now += 0.01
        status, headers, _ = await post(fake, http, fake.channel.id, f"m{n}")
        assert status == 200
        remaining.append(headers["X-RateLimit-Remaining"])
    assert remaining == ["4", "3", "2", "1", "0"]
    status, headers, body = await post(fake, http, fake.channel.id, "m5")
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": pytest.approx(0.46), "global": False,
                    "code": 0}
    assert headers["Retry-After"] == "1" and headers["X-RateLimit-Scope"] == "user" and headers["Via"]
    assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Limit"] == "5"
    assert float(headers["X-RateLimit-Reset-After"]) == body["retry_after"]
    assert "X-RateLimit-Global" not in headers
    assert [m.content for m in fake.channel_messages(fake.channel)] == ["m0", "m1", "m2", "m3", "m4"]
    assert fake.rate_limited == [f"POST /channels/{fake.channel.id}/messages"]
    [refusal] = fake.rate_limiter.bucket_refusals()
    assert (refusal.kind, refusal.attempt, refusal.bucket) == ("bucket", 1, headers["X-RateLimit-Bucket"])


async def test_another_channel_is_unaffected_and_the_window_resets(frozen) -> None:
    fake, clock, http = frozen
    for _ in range(5):
        await post(fake, http, fake.channel.id)
    dm = fake.dm_channel(fake.user("alice").user)
    status, headers, _ = await post(fake, http, dm.id)
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
    status, _, body = await post(fake, http, fake.channel.id)
    assert status == 429 and body["retry_after"] == 5 * SCALE
    clock.now += body["retry_after"] - 0.001
    assert (await post(fake, http, fake.channel.id))[0] == 429
    clock.now += 0.001
    status, headers, _ = await post(fake, http, fake.channel.id)
    assert status == 200 and headers["X-RateLimit-Remaining"] == "4"
    assert [r.attempt for r in fake.rate_limiter.refusals] == [1, 2]  # the same request, refused twice


async def test_global_limit_trips_at_51_but_not_for_interactions(frozen) -> None:
    fake, clock, http = frozen
    channels = [g.channel.id for g in fake.guilds]
    statuses = [(await post(fake, http, channels[n % len(channels)]))[0] for n in range(GLOBAL_LIMIT)]
    assert statuses == [200] * GLOBAL_LIMIT
    status, headers, body = await post(fake, http, channels[-1])
    assert status == 429 and body["global"] is True and body["retry_after"] == pytest.approx(SCALE)
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "1" and headers["Via"]
    async with http.get(f"{fake.api_base}/users/@me") as resp:
        assert resp.status == 429  # every route shares the global limit ...
    alice = fake.user("alice").user
    rec = fake.new_interaction(2, alice, fake.channel, {"id": "1", "name": "ping", "type": 1})
    async with http.post(f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback",
                         json={"type": 4, "data": {"content": "pong"}}) as resp:
        assert resp.status == 200  # ... except interaction endpoints
        assert resp.headers["X-RateLimit-Remaining"] == "4"
    async with http.post(f"{fake.api_base}/webhooks/{fake.app_id}/{rec.token}", json={"content": "more"}) as resp:
        assert resp.status == 200
    assert [r.kind for r in fake.rate_limiter.refusals] == ["global", "global"]
    clock.now += SCALE
    assert (await post(fake, http, channels[-1]))[0] == 200


async def test_rate_time_scale_zero_turns_limits_off() -> None:
    async with running_fake(rate_time_scale=0) as fake, aiohttp.ClientSession(
            headers={"Authorization": f"Bot {fake.token}"}) as http:
        results = [await post(fake, http, fake.channel.id) for _ in range(8)]
    assert [status for status, _, _ in results] == [200] * 8
    assert all("X-RateLimit-Remaining" not in headers for _, headers, _ in results)


def test_route_table_is_consistent() -> None:
    """Every route the fake serves that a bot calls has a bucket, and each has its reason."""
    assert all(limit.limit > 0 and limit.period > 0 and limit.why for limit in ROUTE_LIMITS)
    assert len({(limit.method, limit.template) for limit in ROUTE_LIMITS}) == len(ROUTE_LIMITS)
    exempt = {limit.template.split("/")[1] for limit in ROUTE_LIMITS if limit.global_exempt}
    assert exempt == {"interactions", "webhooks"}
    assert len(bucket_hash("webhook")) == 32


async def test_discord_py_waits_on_an_exhausted_bucket(fake: FakeDiscord, bot: DemoBot) -> None:
    """Correct headers make discord.py sleep instead of drawing 429s: twelve posts in one
    channel take at least two more windows and are never refused."""
    scale = fake.rate_limiter.time_scale
    channel = bot.get_partial_messageable(fake.channel.id)
    started = time.monotonic()
    await asyncio.gather(*(channel.send(f"post {n}") for n in range(12)))
    assert time.monotonic() - started >= 2 * 5 * scale
    assert fake.rate_limiter.refusals == []
    assert sorted(m.content for m in fake.channel_messages(fake.channel)) == sorted(f"post {n}" for n in range(12))


@pytest.mark.fakediscord(guilds=26, rate_time_scale=1.0)
async def test_discord_py_retries_a_global_429_once(fake: FakeDiscord, start_bot: BotRunner) -> None:
    """discord.py does not pace the global limit; past 50 requests in a second it gets 429s,
    sleeps `retry_after` and sends again, and every message arrives exactly once. Two posts a
    channel keep discord.py from sleeping a whole bucket window, which it does when a request
    ends while others to the same channel are still in flight."""
    bot = await start_bot(lambda: DemoBot([fake.guild.id]))
    channels = [bot.get_partial_messageable(g.channel.id) for g in fake.guilds]
    await asyncio.gather(*(ch.send(f"{ch.id} {n}") for ch in channels for n in range(2)))
    # Each refused request was refused once (its retry went through): a wall-clock bound on the
    # whole burst said the same and failed on a loaded machine.
    refusals = fake.rate_limiter.refusals
    assert refusals and {r.kind for r in refusals} == {"global"}
    assert all(r.attempt == 1 for r in refusals)
    for ch, guild in zip(channels, fake.guilds, strict=True):
        assert sorted(m.content for m in fake.channel_messages(guild.channel)) == [f"{ch.id} {n}" for n in range(2)]
