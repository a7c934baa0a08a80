"""Split brain: a bot process paused (SIGSTOP) past its delivery lease while another process
takes over, then resumed (SIGCONT), sends nothing more, and no prompt DM ever shows an older
decision than the one before it. Two `python -m bot` processes on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.e2e.harness import AutoPlayer
from tests.e2e.procs import BotProcess, bot_env, spawn_bot
from tests.e2e.test_shards import _plain
from tests.fakediscord.server import FakeDiscord
from tests.pgfixture import pg_server_url, pg_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.fakediscord(guilds=2, shards=2, players=("alice", "bob"))

LEASE_SECONDS = 10.0
"""The lease time of processes ticking every 0.2 s: 5 ticks, at least 10 s (bot/discord/app.py)."""
PROMPT_VERSION = re.compile(r"wh:p:\d+:\d+:(\d+):")
REQUEST = re.compile(r"discord\.http: (?:GET|POST|PATCH|PUT|DELETE) \S+ with .* has returned")
ROUTE = re.compile(r"discord\.http: (GET|POST|PATCH|PUT|DELETE) https?://[^/]+/api/v\d+(\S+) with")
IN_FLIGHT = 2.0
"""Seconds around the SIGSTOP within which the fake received a request the paused process had
already sent: its log line (written once the answer is read) comes only after the resume."""


@pytest.fixture
async def bots(fake: FakeDiscord, pg_url: str, tmp_path: Path) -> AsyncIterator[list[BotProcess]]:  # noqa: F811
    """Shard 1's process first (it takes the delivery lease), then shard 0's (which hears the DM clicks)."""
    procs: list[BotProcess] = []
    try:
        for shard in (1, 0):
            env = bot_env(discord_token="fake-token", database_url=pg_url, discord_api_base=fake.api_base,
                          discord_gateway_url=fake.gateway_url, shard_count=2, shard_ids=shard,
                          instance_name=f"shard{shard}", tick_seconds=0.2, deliver_seconds=0.05,
                          log_level="DEBUG" if shard == 1 else "INFO", draw_workers=0)
            procs.append(await spawn_bot(f"shard{shard}", env, tmp_path))
            await procs[-1].wait_connected()
        yield procs
    finally:
        for proc in procs:
            if proc.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.proc.send_signal(signal.SIGCONT)  # a stopped process cannot act on SIGTERM
            await proc.stop()


async def holder(url: str, name: str) -> str | None:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT holder FROM leases WHERE name = $1 AND expires_at > now()", name)
    finally:
        await conn.close()


def prompt_versions(message: Any) -> list[int]:
    """The prompt version each state of a DM showed (its buttons' or menu's custom ids)."""
    shown = []
    for version in message.versions:
        found = PROMPT_VERSION.search(str(version["components"]))
        if found:
            shown.append(int(found.group(1)))
    return shown


async def test_a_process_paused_past_its_lease_sends_nothing_when_it_resumes(
    fake: FakeDiscord, bots: list[BotProcess], pg_url: str  # noqa: F811
) -> None:
    shard1, shard0 = bots
    db = _plain(pg_url)
    alice, bob = fake.user("alice"), fake.user("bob")
    guild = fake.guilds[0]  # shard 0's guild: its commands reach the process that stays awake
    for player in (alice, bob):
        player.go(guild)
    assert "match #" in (await alice.slash("game new", game="tinybigwars", round_limit=2)).content
    await alice.wait_for(lambda m: m.button("Join") is not None, timeout=60)
    assert "You joined" in (await bob.click("Join")).content
    assert "has started" in (await alice.click("Start")).content
    await alice.dm.wait_for(lambda m: bool(m.selects), timeout=60)
    assert (await holder(db, "deliver") or "").startswith("shard1"), "the first process delivers"

    assert any(REQUEST.search(line) for line in shard1.log().splitlines()), "its requests show in its log"
    stopped = time.monotonic()  # the fake's clock for its calls
    shard1.proc.send_signal(signal.SIGSTOP)
    autos = [AutoPlayer(alice), AutoPlayer(bob)]
    loop = asyncio.get_running_loop()
    end = loop.time() + LEASE_SECONDS * 6
    while not (await holder(db, "deliver") or "").startswith("shard0"):  # the survivor takes over, play goes on
        assert loop.time() < end, "the survivor never took the delivery lease"
        for auto in autos:
            await auto.step()
        await asyncio.sleep(0.2)
    for _ in range(3):  # a few more choices under the survivor's lease
        for auto in autos:
            await auto.step()
    before = len(shard1.log().splitlines())
    shard1.proc.send_signal(signal.SIGCONT)
    for _ in range(20):  # the resumed process runs its loops again while play goes on
        for auto in autos:
            await auto.step()
        await asyncio.sleep(0.1)
    resumed = shard1.log().splitlines()[before:]
    in_flight = {(call.method, call.path) for call in fake.calls if abs(call.at - stopped) <= IN_FLIGHT}

    def sent_before_the_pause(line: str) -> bool:
        route = ROUTE.search(line)
        return route is not None and (route[1], route[2].split("?", 1)[0]) in in_flight

    sent = [line for line in resumed if REQUEST.search(line) and "/gateway" not in line and "/users/@me" not in line
            and not sent_before_the_pause(line)]
    assert not sent, "the resumed process sent:\n" + "\n".join(sent[:10])
    for player in (alice, bob):
        for message in player.dm.messages:
            shown = prompt_versions(message)
            assert shown == sorted(shown), f"{player.name}'s DM went back to an older prompt: {shown}"
