"""A channel that answers 429 with a long retry_after (slowmode, hours) holds back only its own
posts: discord.py waits out at most 10 s, a longer wait holds that channel (not one of the send
slots) until then, and every other match, DMs of the same match included, goes on."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.discord.delivery import PARALLEL_SENDS
from tests.e2e.harness import factory, settings_for
from tests.fakediscord.models import Channel, snowflake

SLOW = PARALLEL_SENDS
"""As many channels as delivery has send slots."""
LIMIT = 60.0
"""Seconds: far below the 300 s the channels ask for, on however busy a machine. That no send slot
waits out a held channel (discord.py's own 10 s wait included) is checked on the slots themselves;
the test prints the time taken (about 1-4 s on a quiet machine)."""


async def within(fake: Any, predicate: Any, limit: float) -> float:
    """Seconds until predicate() held (the test fails past ``limit``)."""
    start = time.monotonic()
    await fake.wait_until(predicate, timeout=limit)
    return time.monotonic() - start


@pytest.mark.fakediscord(guilds=2)
async def test_sixteen_channels_answering_429_for_300_s_hold_up_no_other_server(
    fake, start_bot, alice, bob, tmp_path
) -> None:
    guild = fake.guilds[0]
    slow = [Channel(snowflake(), f"slow-{n}", guild=guild, position=n + 1) for n in range(SLOW)]
    guild.channels.extend(slow)
    everywhere = settings_for(fake, tmp_path / "w.db", draw_workers=0).model_copy(update={"dev_guild_id": None})
    bot = await start_bot(factory(everywhere))
    assert bot.http.max_ratelimit_timeout == 10.0
    for channel in slow:
        fake.rate_limit("POST", f"/channels/{channel.id}/messages", times=1000, retry_after=300)
        fake.rate_limit("PATCH", f"/channels/{channel.id}/messages/{{mid}}", times=1000, retry_after=300)
    for n, channel in enumerate(slow):
        host = fake.user(f"host{n}")
        assert (await host.at(channel).slash("game new", game="tinybigwars")).ok
    await fake.wait_until(lambda: len({r.route for r in fake.rate_limiter.refusals if r.kind == "injected"}) >= SLOW,
                          timeout=60)
    delivery = bot.game.delivery
    await fake.wait_until(lambda: len(delivery.slowed.until) == SLOW, timeout=30)  # each channel held
    await fake.wait_until(lambda: delivery.gate._value == PARALLEL_SENDS, timeout=30)  # and no send slot kept

    other = fake.guilds[1].channel
    here, there = alice.at(other), bob.at(other)
    assert (await here.slash("game new", game="tinybigwars", seats=2)).ok
    lobby_took = await within(fake, lambda: any(m.button("Join") for m in other.messages), LIMIT)
    assert (await there.click("Join")).ok
    await here.wait_for(lambda m: "bob joined" in m.content)
    started = time.monotonic()
    assert (await here.click("Start")).ok
    await alice.dm.wait_for(lambda m: bool(m.selects), timeout=LIMIT)
    dm_took = time.monotonic() - started
    assert lobby_took < LIMIT and dm_took < LIMIT, (lobby_took, dm_took)
    assert len(delivery.slowed.until) == SLOW, "the held channels stay held (the other match's sends used the slots)"
    print(f"lobby post {lobby_took:.2f} s, first DM {dm_took:.2f} s after Start")
    refused = [r for r in fake.rate_limiter.refusals if r.kind == "injected"]
    assert all(r.attempt == 1 for r in refused), "a held channel is not asked again before its time"


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_a_match_in_a_slowmode_channel_still_gets_its_dms(fake, start_bot, alice, bob, tmp_path) -> None:
    fake.channel.rate_limit_per_user = 3600  # an hour of slowmode; the bot has no Manage Messages here
    await start_bot(factory(settings_for(fake, tmp_path / "w.db", draw_workers=0)))
    assert (await alice.slash("game new", game="tinybigwars", seats=2)).ok
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    assert (await bob.click("Join", message=lobby)).ok  # the lobby's edit is not a new post: slowmode lets it be
    await alice.wait_for(lambda m: "bob joined" in m.content)
    assert (await alice.click("Start", message=lobby)).ok
    assert await alice.dm.wait_for(lambda m: bool(m.selects), timeout=30)  # the channel's posts wait; DMs do not
    assert await bob.dm.wait_for(lambda m: bool(m.selects), timeout=30)
    assert fake.slowmode.refused and all(left > 10 for _, left in fake.slowmode.refused)


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_game_new_in_a_slowmode_channel_warns_the_host(fake, start_bot, alice, tmp_path) -> None:
    fake.channel.rate_limit_per_user = 120
    await start_bot(factory(settings_for(fake, tmp_path / "w.db", draw_workers=0)))
    opened = await alice.slash("game new", game="tinybigwars", seats=2)
    assert "slowmode (120 s between posts)" in opened.content and "Bypass Slowmode" in opened.content
    await alice.slash("game abort")
    fake.channel.allow(fake.bot_user, "manage_messages")
    await fake.dispatch("CHANNEL_UPDATE", fake.channel.payload(), fake.channel.guild)
    again = await alice.slash("game new", game="tinybigwars", seats=2)
    assert "slowmode" not in again.content, "a bot that may bypass it is not held"
