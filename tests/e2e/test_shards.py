"""Scale-out: two `python -m bot` processes (shards 0 and 1 of 2), one PostgreSQL, one fake Discord.

A Tiny Big Wars match is played to its end in a guild of each shard: two humans answer their DM
prompts, an AI plays, and one human never answers (the deadline is shortened to 18 s), so the
deadline machinery runs in both processes at once. What it proves:

- commands in a guild reach only the process that runs the guild's shard, and it handles them;
- every DM click reaches shard 0's process, which handles the clicks of the shard-1 match too;
- both processes take the tick lease, yet every expired deadline is played and posted once;
- every public notice (result included) is posted exactly once, though both processes deliver.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tests.e2e.harness import AutoPlayer
from tests.e2e.procs import BotProcess, bot_env, spawn_bot
from tests.fakediscord.models import Channel, Guild, shard_for
from tests.fakediscord.server import FakeDiscord
from tests.pgfixture import pg_server_url, pg_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.fakediscord(guilds=2, shards=2, players=("alice", "bob", "erin", "carol", "dave", "frank"))

DEADLINE_HOURS = 0.005
"""18 s: long enough for a loaded machine to deliver a DM and the player to answer it, short
enough that the silent seat misses two in seconds; `/game new` allows 3 minutes at least, so the
test sets it in the database."""
MATCH_TIMEOUT = 600.0
"""Only bounds a failure: play goes on as fast as the two processes answer, which on a loaded
machine can take minutes."""
OVER = "The match is over"


def _plain(url: str) -> str:
    """asyncpg's own URL form of a SQLAlchemy asyncpg URL."""
    return "postgresql://" + url.split("://", 1)[1]


@pytest.fixture
async def bots(fake: FakeDiscord, pg_url: str, tmp_path: Path) -> AsyncIterator[list[BotProcess]]:  # noqa: F811
    """Processes for shard 0 and shard 1 of 2, connected; both are killed at teardown."""
    procs: list[BotProcess] = []
    try:
        for shard in (0, 1):
            env = bot_env(discord_token="fake-token", database_url=pg_url, discord_api_base=fake.api_base,
                          discord_gateway_url=fake.gateway_url, shard_count=2, shard_ids=shard,
                          instance_name=f"shard{shard}", tick_seconds=0.2, deliver_seconds=0.05, log_level="INFO")
            procs.append(await spawn_bot(f"shard{shard}", env, tmp_path))
        for proc in procs:
            await proc.wait_connected()
        yield procs
    finally:
        for proc in procs:
            await proc.stop()


async def _lease_holders(url: str, seen: set[str], stop: asyncio.Event) -> None:
    """Record every holder of the tick lease until `stop` is set."""
    conn = await asyncpg.connect(url)
    try:
        while not stop.is_set():
            holder = await conn.fetchval("SELECT holder FROM leases WHERE name = 'tick'")
            if holder:
                seen.add(holder.split(":", 1)[0])
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


async def _play(fake: FakeDiscord, guild: Guild, host: Any, guest: Any, silent: Any, db: str) -> int:
    """Lobby, join, AI, start, then answer DM prompts until the result is posted; returns the match id."""
    for player in (host, guest, silent):
        player.go(guild)
    r = await host.slash("game new", game="tinybigwars", round_limit=2)
    found = re.search(r"match #(\d+)", r.content)
    assert found, f"no lobby in {guild.name}: {r!r}"
    match_id = int(found.group(1))
    await host.wait_for(lambda m: m.button("Join") is not None, timeout=60)
    conn = await asyncpg.connect(db)
    try:
        await conn.execute("UPDATE matches SET deadline_hours = $1 WHERE id = $2", DEADLINE_HOURS, match_id)
    finally:
        await conn.close()
    for player in (guest, silent):
        assert "You joined" in (await player.click("Join")).content
    await host.click("Add AI")
    assert "has started" in (await host.click("Start")).content

    autos = [AutoPlayer(host), AutoPlayer(guest)]
    loop = asyncio.get_running_loop()
    end = loop.time() + MATCH_TIMEOUT
    while not any(OVER in m.content for m in fake.channel_messages(guild.channel)):
        if loop.time() > end:
            last = [m.content[:80] for m in fake.channel_messages(guild.channel)[-5:]]
            raise AssertionError(f"the match in {guild.name} did not finish within {MATCH_TIMEOUT} s; last posts: {last}")
        acted = False
        for auto in autos:
            acted = await auto.step() or acted
        if not acted:
            await asyncio.sleep(0.05)
    assert all(a.answered for a in autos), f"a human in {guild.name} never got to answer"
    # The replay GIF is a match's last post (drawn after the result): once it is there, all is out.
    while not any("replay.gif" in m.files for m in fake.channel_messages(guild.channel)):
        assert loop.time() < end, f"no replay GIF in {guild.name} within {MATCH_TIMEOUT} s"
        await asyncio.sleep(0.05)
    return match_id


def _bot_posts(fake: FakeDiscord, channel: Channel) -> list[Any]:
    """Channel messages the bot posted itself (not interaction replies)."""
    return [m for m in fake.channel_messages(channel)
            if m.author is fake.bot_user and m.interaction_id is None and not m.ephemeral]


async def test_two_shard_processes_play_a_match_each(fake: FakeDiscord, bots: list[BotProcess],
                                                     pg_url: str) -> None:  # noqa: F811
    db = _plain(pg_url)
    names = {0: ("alice", "bob", "erin"), 1: ("carol", "dave", "frank")}
    guilds = {shard_for(g.id, 2): g for g in fake.guilds}
    assert sorted(guilds) == [0, 1]

    holders: set[str] = set()
    stop = asyncio.Event()
    watcher = asyncio.create_task(_lease_holders(db, holders, stop))
    try:
        match_ids = await asyncio.gather(*(
            _play(fake, guilds[s], *(fake.user(n) for n in names[s]), db) for s in (0, 1)))
    finally:
        stop.set()
        await watcher
    await fake.quiesce(quiet=0.3, timeout=60)

    # Each process opened exactly one gateway session, for the shard it was told to run.
    assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, 2), (1, 2)]
    sessions = {}
    for shard, proc in enumerate(bots):
        connected = await proc.wait_connected()
        assert list(connected) == [shard], f"{proc.name} connected as {connected}"
        sessions[shard] = fake._all_sessions[connected[shard]]
        assert sessions[shard].shard_id == shard

    # Guild interactions went to the guild's shard, DM interactions to shard 0; every one was acknowledged.
    owners = {g.id: s for s, g in guilds.items()}
    by_match_users = {s: {fake.user(n).id for n in names[s]} for s in (0, 1)}
    dm_clicks = Counter[int]()
    for rec in fake.interactions.values():
        shard = 0 if rec.guild is None else owners[rec.guild.id]
        assert rec.shard_id == shard, f"interaction {rec.id} in {rec.channel.name} went to shard {rec.shard_id}"
        assert f"INTERACTION_CREATE:{rec.id}" in sessions[shard].events
        assert rec.ack_type is not None and rec.error is None, f"interaction {rec.id}: {rec.ack_type} {rec.error}"
        if rec.guild is None:
            dm_clicks[next(s for s in (0, 1) if rec.user.id in by_match_users[s])] += 1
    assert dm_clicks[0] > 0 and dm_clicks[1] > 0, f"DM clicks per match: {dict(dm_clicks)}"
    commands = Counter(owners[r.guild.id] for r in fake.interactions.values() if r.guild is not None)
    assert commands[0] >= 4 and commands[1] >= 4, f"guild interactions per shard: {dict(commands)}"

    # Both processes fired deadlines (the tick lease passes between them after every tick) ...
    assert holders == {"shard0", "shard1"}, f"tick lease holders seen: {holders}"
    conn = await asyncpg.connect(db)
    try:
        # The delivering process looks for the other process's notices once a round: wait until
        # it found the last ones (a quiet fake for 0.3 s is not proof of that on a busy machine).
        end = asyncio.get_running_loop().time() + 120
        while await conn.fetchval("SELECT count(*) FROM notices WHERE match_id = ANY($1::int[]) "
                                  "AND user_id IS NULL AND delivered_at IS NULL", list(match_ids)):
            assert asyncio.get_running_loop().time() < end, "public notices still undelivered after 120 s"
            await asyncio.sleep(0.1)
        await fake.quiesce(quiet=0.3, timeout=60)
        for shard, match_id in zip((0, 1), match_ids, strict=True):
            channel = guilds[shard].channel
            silent = fake.user(names[shard][2])
            notices = await conn.fetch(
                "SELECT kind, delivery_ref FROM notices WHERE match_id = $1 AND user_id IS NULL AND kind <> 'lobby'",
                match_id)
            lobby_refs = {r["delivery_ref"] for r in await conn.fetch(
                "SELECT delivery_ref FROM notices WHERE match_id = $1 AND kind = 'lobby'", match_id)}
            timeouts = await conn.fetchval(
                "SELECT count(*) FROM choices c JOIN seats s ON s.match_id = c.match_id AND s.seat_no = c.seat "
                "WHERE c.match_id = $1 AND c.by = 'deadline' AND s.user_id = $2", match_id, silent.id)
            status = await conn.fetchval("SELECT status FROM matches WHERE id = $1", match_id)
            assert status == "finished"

            # ... yet each expiry was played once and posted once: two misses, then the AI took the seat.
            assert timeouts == 2, f"{silent.name}'s deadline choices: {timeouts}"
            up = [m.content for m in _bot_posts(fake, channel) if f"Time is up for {silent.name}" in m.content]
            assert len(up) == 2 and "missed deadlines in a row" in up[1], up

            # Every public notice was delivered and became exactly one post; nothing was posted twice.
            refs = [r["delivery_ref"] for r in notices]
            assert None not in refs, "undelivered notices"
            # Reminders and turn nudges go to the players' DMs (the channel only for closed DMs).
            refs = [r["delivery_ref"] for r in notices if r["kind"] not in ("reminder", "turn")]
            holders: dict[str, set[str]] = {}
            for r in notices:
                if r["kind"] not in ("reminder", "turn"):
                    holders.setdefault(r["delivery_ref"], set()).add(
                        {"events": "phase post", "progress": "phase post", "phase": "phase post",
                         "replay": "result"}.get(r["kind"], r["kind"]))
            assert all(len(kinds) == 1 for kinds in holders.values()), "a message holds one phase's lines or one notice"
            assert [k for kinds in holders.values() for k in kinds].count("result") == 1
            posts = {str(m.id) for m in _bot_posts(fake, channel)}
            board = await conn.fetchval("SELECT board_message_id FROM matches WHERE id = $1", match_id)
            assert posts == set(refs) | lobby_refs | {str(board)}, "the notices' posts and one status board"
            assert [r["kind"] for r in notices].count("result") == 1
            # one result post (the lobby post, edited to the end, says it too)
            assert sum(OVER in m.content for m in _bot_posts(fake, channel) if str(m.id) not in lobby_refs) == 1
            assert sum(r["kind"] == "timeout" for r in notices) == len(
                [m for m in _bot_posts(fake, channel) if "Time is up" in m.content])
    finally:
        await conn.close()

    for proc in bots:
        assert proc.errors() == [], f"{proc.name} logged errors:\n{proc.log()}"
