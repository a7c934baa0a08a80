"""Several guilds on several shards: one gateway connection per shard, Discord's routing formula,
and DM interactions delivered to shard 0 only."""

from __future__ import annotations

import pytest

from tests.fakediscord import FakeDiscord, Player, shard_for, snowflake_on_shard
from tests.fakediscord.demo_bot import ShardedDemoBot


def test_guild_ids_can_be_placed_on_shards() -> None:
    for count in (1, 2, 3, 16):
        for shard in range(count):
            gid = snowflake_on_shard(shard, count)
            assert (gid >> 22) % count == shard == shard_for(gid, count)


@pytest.mark.fakediscord(guilds=2, shards=2)
async def test_two_shards_route_guilds_and_dms(fake: FakeDiscord, start_bot, alice: Player, bob: Player) -> None:
    g0, g1 = fake.guilds
    assert (shard_for(g0.id, 2), shard_for(g1.id, 2)) == (0, 1)
    bot = await start_bot(lambda: ShardedDemoBot([g.id for g in fake.guilds]))
    assert ("GET", "/gateway/bot") in [(c.method, c.path) for c in fake.calls]
    assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, 2), (1, 2)]
    assert sorted(fake.sessions) == [0, 1]
    assert fake.sessions[0].events.count("GUILD_CREATE") == 1 == fake.sessions[1].events.count("GUILD_CREATE")
    assert bot.get_guild(g0.id).shard_id == 0 and bot.get_guild(g1.id).shard_id == 1

    r0 = await alice.at(g0).slash("ping")
    r1 = await alice.at(g1).slash("ping")
    assert (r0.shard_id, r1.shard_id) == (0, 1)
    assert bot.seen_shards == [(g0.id, 0), (g1.id, 1)]

    dm = await bob.dm.slash("ping")
    assert dm.shard_id == 0 and dm.content == "pong"
    await bob.at(g1).slash("dm")
    await bob.dm.wait_for("Secret orders")
    opened = await bob.dm.click("Spend 2")
    done = await bob.dm.submit_modal({"attack": "3", "defend": "0"})
    assert (opened.shard_id, done.shard_id) == (0, 0)
    for rec in (dm.interaction, opened.interaction, done.interaction):
        assert f"INTERACTION_CREATE:{rec.id}" in fake.sessions[0].events
        assert f"INTERACTION_CREATE:{rec.id}" not in fake.sessions[1].events
    assert f"INTERACTION_CREATE:{r1.interaction.id}" in fake.sessions[1].events
    assert bot.orders[bob.id] == ("3", "0")


async def test_reconnect_and_resume(fake: FakeDiscord, start_bot, alice: Player) -> None:
    from tests.fakediscord.demo_bot import DemoBot

    await start_bot(lambda: DemoBot([fake.guild.id]))
    before = fake.sessions[0]
    old_ws = before.ws
    await fake.request_reconnect(0)
    await fake.wait_until(lambda: 0 in fake.sessions and fake.sessions[0].ws is not old_ws
                          and "RESUMED" in fake.sessions[0].events)
    assert fake.sessions[0] is before and len(fake.identifies) == 1  # resumed, not re-identified
    assert (await alice.slash("ping")).content == "pong"


async def test_member_chunking_with_members_intent(fake: FakeDiscord, start_bot) -> None:
    import discord

    client = await start_bot(lambda: discord.Client(intents=discord.Intents.all()))
    guild = client.get_guild(fake.guild.id)
    assert guild.chunked
    assert sorted(m.name for m in guild.members) == ["GameMaster", "alice", "bob", "carol", "dave"]
    await guild.chunk()
    found = await guild.query_members("ca")
    assert [m.name for m in found] == ["carol"]
    assert fake.sessions[0].events.count("GUILD_MEMBERS_CHUNK") == 2
