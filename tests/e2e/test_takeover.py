"""Leases after a crash: real `python -m bot` processes, killed with SIGKILL (nothing is released).

- A process restarted under the same instance name takes its own leases back at once: the first
  tick after the start fires a due deadline and its notice is delivered.
- Of two processes on PostgreSQL (different instance names), the survivor of a kill takes over the
  delivery and deadline leases within the lease time.
- A second live process with the same instance name is refused with one clear line.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.e2e.harness import factory, settings_for
from tests.e2e.procs import BotProcess, bot_env, spawn_bot
from tests.fakediscord.models import shard_for
from tests.fakediscord.server import FakeDiscord
from tests.pgfixture import pg_server_url, pg_url  # noqa: F401  (fixtures)

TICK = 0.2
LEASE_SECONDS = 10.0
"""The bot's lease time with TICK_SECONDS=0.2 and DELIVER_SECONDS=0.05 (at least 10 s)."""
PAST = "2000-01-01 00:00:00"
FUTURE = "2100-01-01 00:00:00"


def _env(fake: FakeDiscord, database_url: str, **extra: Any) -> dict[str, str]:
    return bot_env(discord_token="fake-token", database_url=database_url, discord_api_base=fake.api_base,
                   discord_gateway_url=fake.gateway_url, tick_seconds=TICK, deliver_seconds=0.05,
                   log_level="INFO", **extra)


async def _kill(proc: BotProcess) -> None:
    """SIGKILL: the process gets no chance to release anything."""
    proc.proc.send_signal(signal.SIGKILL)
    await proc.proc.wait()


async def _match_waiting_for(fake: FakeDiscord, player: Any) -> None:
    """A Tiny Big Wars match against the AI, waiting for `player`'s first (secret) choice."""
    await player.slash("game new", game="tinybigwars", round_limit=1)
    await player.wait_for(lambda m: m.button("Join") is not None, timeout=60)
    await player.click("Add AI")
    await player.click("Start")
    await player.dm.wait_for(lambda m: m.selects, timeout=60)


async def test_restarted_process_fires_and_delivers_on_its_first_tick(fake: FakeDiscord, alice: Any,
                                                                       tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    env = _env(fake, f"sqlite+aiosqlite:///{db}")  # INSTANCE_NAME unset: the default, the same after a restart
    first = await spawn_bot("first", env, tmp_path)
    second: BotProcess | None = None
    try:
        await first.wait_connected()
        await fake.wait_until(lambda: fake.commands.get(None), timeout=60)
        await _match_waiting_for(fake, alice)
        await fake.quiesce(quiet=0.3, timeout=5)
        await _kill(first)
        with sqlite3.connect(db, timeout=30) as conn:
            leases = dict(conn.execute("SELECT name, holder FROM leases").fetchall())
            assert "deliver" in leases, leases
            # Killed in the middle of a tick, it would hold the tick lease too; and however long its
            # leases would still run, they are its own: the restarted process takes them back.
            conn.execute("INSERT OR REPLACE INTO leases (name, holder, expires_at) "
                         "SELECT 'tick', holder, expires_at FROM leases WHERE name = 'deliver'")
            conn.execute("UPDATE leases SET expires_at = ? WHERE name IN ('deliver', 'tick')", (FUTURE,))
            conn.execute("UPDATE deadlines SET started_at = ?, due_at = ?, fire_at = ?", (PAST, PAST, PAST))
        second = await spawn_bot("second", env, tmp_path)
        await second.wait_connected()
        loop = asyncio.get_running_loop()
        connected = loop.time()
        # Its leases run until 2100, so firing at all proves it took them back; the bound is loose
        # because a busy machine delays any first tick, and the point is not to wait for expiry.
        await alice.wait_for("Time is up for alice", timeout=60)
        waited = loop.time() - connected
        assert waited < 60, f"the restarted process fired the deadline after {waited:.1f} s"
        assert second.errors() == [], second.log()
    finally:
        await first.stop()
        if second is not None:
            await second.stop()


async def test_no_lease_outlives_the_lease_time(fake: FakeDiscord, start_bot: Any, tmp_path: Path) -> None:
    """The deadline tick's lease included: a process killed mid-tick blocks nobody for longer."""
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    asked: list[tuple[str, timedelta]] = []
    acquire = bot.store.acquire_lease

    async def recording(name: str, holder: str, now: Any, ttl: timedelta) -> bool:
        asked.append((name, ttl))
        return await acquire(name, holder, now, ttl)

    bot.store.acquire_lease = recording
    await fake.wait_until(lambda: {"tick", "instance:" + bot.settings.instance_name} <= {n for n, _ in asked})
    assert max(ttl for _, ttl in asked) <= timedelta(seconds=LEASE_SECONDS), asked


async def test_second_live_process_with_the_same_name_is_refused(fake: FakeDiscord, tmp_path: Path) -> None:
    env = _env(fake, f"sqlite+aiosqlite:///{tmp_path / 'w.db'}", instance_name="twin")
    first = await spawn_bot("first", env, tmp_path)
    try:
        await first.wait_connected()
        second = await spawn_bot("second", env, tmp_path)
        try:
            code = await asyncio.wait_for(second.proc.wait(), 180)  # bounds a failure only: a loaded machine starts Python slowly
        finally:
            await second.stop()
        out = second.log().strip().splitlines()
        assert code == 2, second.log()
        assert "Traceback" not in second.log()
        assert out[-1].startswith("warhost: another live process") and "INSTANCE_NAME=twin" in out[-1], out
        assert first.proc.returncode is None, "the first process keeps running"
    finally:
        await first.stop()


@pytest.mark.fakediscord(guilds=2, shards=2, players=("alice", "bob"))
async def test_survivor_takes_over_the_leases_of_a_killed_process(fake: FakeDiscord, pg_url: str,  # noqa: F811
                                                                  tmp_path: Path) -> None:
    plain = "postgresql://" + pg_url.split("://", 1)[1]
    procs = [await spawn_bot(f"shard{s}", _env(fake, pg_url, shard_count=2, shard_ids=s, instance_name=f"shard{s}"),
                             tmp_path) for s in (0, 1)]
    try:
        for proc in procs:
            await proc.wait_connected()
        guild = next(g for g in fake.guilds if shard_for(g.id, 2) == 1)
        alice = fake.user("alice")
        alice.go(guild)
        await fake.wait_until(lambda: fake.commands.get(None), timeout=60)
        await _match_waiting_for(fake, alice)
        conn = await asyncpg.connect(plain)
        try:
            holder = await conn.fetchval("SELECT holder FROM leases WHERE name = 'deliver'")
            victim = next(p for p in procs if p.name == holder.split(":", 1)[0])
            survivor = next(p for p in procs if p is not victim)
            await _kill(victim)
            loop = asyncio.get_running_loop()
            killed = loop.time()
            await conn.execute("INSERT INTO leases (name, holder, expires_at) "
                               "SELECT 'tick', holder, expires_at FROM leases WHERE name = 'deliver' "
                               "ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, "
                               "expires_at = EXCLUDED.expires_at")
            await conn.execute("UPDATE deadlines SET started_at = now() - interval '1 day', due_at = now(), "
                               "fire_at = now()")
        finally:
            await conn.close()
        await alice.wait_for("Time is up for alice", timeout=LEASE_SECONDS + 60)
        waited = loop.time() - killed
        # Within the lease time plus a few ticks; a loaded machine stretches the ticks, not the lease.
        assert waited < LEASE_SECONDS * 4, f"{survivor.name} took over after {waited:.1f} s"
        assert survivor.errors() == [], survivor.log()
    finally:
        for proc in procs:
            await proc.stop()
