"""Posting as the bot: nonces, lost responses, refused channels and DMs, recorded allowed mentions."""

from __future__ import annotations

import io

import discord
import pytest

from tests.fakediscord import FakeDiscord, Player
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.models import ATTACH_FILES, SEND_MESSAGES, VIEW_CHANNEL
from tests.fakediscord.permissions import names_of


def _deny_bot(fake: FakeDiscord, bits: int) -> None:
    fake.channel.deny(fake.bot_user, *names_of(bits))


async def test_an_enforced_nonce_returns_the_earlier_message(fake: FakeDiscord, bot: DemoBot) -> None:
    channel = bot.get_partial_messageable(fake.channel.id)
    first = await channel.send("hello", nonce="n-1")
    again = await channel.send("hello", nonce="n-1")
    other = await channel.send("hello", nonce="n-2")
    assert first.id == again.id != other.id
    assert [m.content for m in fake.channel_messages(fake.channel)] == ["hello", "hello"]
    assert fake.channel_messages(fake.channel)[0].nonce == "n-1"


async def test_a_nonce_over_25_characters_is_refused(fake: FakeDiscord, bot: DemoBot) -> None:
    kind = "spec" if fake.spec is not None else "invalid_message"  # the spec's maxLength, or the handler's own check
    with fake.expect_violation(kind), pytest.raises(discord.HTTPException) as err:
        await bot.get_partial_messageable(fake.channel.id).send("x", nonce="n" * 26)
    assert err.value.code == 50035 and not fake.channel_messages(fake.channel)


async def test_a_lost_response_is_retried_and_the_nonce_keeps_it_one_message(fake: FakeDiscord, bot: DemoBot) -> None:
    fake.channel.fail_after_post = [502]
    msg = await bot.get_partial_messageable(fake.channel.id).send("once", nonce="lost-1")
    posted = fake.channel_messages(fake.channel)
    assert [m.id for m in posted] == [msg.id]
    assert [c.status for c in fake.calls if c.method == "POST" and c.path.endswith("/messages")] == [502, 200]


@pytest.mark.parametrize(("bits", "code", "kind", "with_file"), [
    (SEND_MESSAGES, 50013, "missing_permissions", False),
    (VIEW_CHANNEL, 50001, "missing_access", False),
    (ATTACH_FILES, 50013, "missing_permissions", True),
])
async def test_channel_overwrites_refuse_the_bot(fake: FakeDiscord, bot: DemoBot, bits: int, code: int, kind: str,
                                                 with_file: bool) -> None:
    _deny_bot(fake, bits)
    channel = bot.get_partial_messageable(fake.channel.id)
    extra = {"file": discord.File(io.BytesIO(b"png"), "map.png")} if with_file else {}
    with fake.expect_violation(kind), pytest.raises(discord.Forbidden) as err:
        await channel.send("x", **extra)
    assert err.value.code == code
    if with_file:
        await channel.send("text alone is allowed")
    fake.channel.overwrites.clear()
    await channel.send("allowed again")


async def test_a_dm_to_someone_sharing_no_guild_is_refused(fake: FakeDiscord, bot: DemoBot, bob: Player) -> None:
    del fake.guild.members[bob.user.id]
    user = await bot.fetch_user(bob.user.id)
    with fake.expect_violation("no_mutual_guilds"), pytest.raises(discord.Forbidden) as err:
        await user.send("hi")
    assert err.value.code == 50278


async def test_allowed_mentions_are_recorded(fake: FakeDiscord, bot: DemoBot, bob: Player) -> None:
    only_bob = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(bob.user.id)],
                                       replied_user=False)
    await bot.get_partial_messageable(fake.channel.id).send(f"<@{bob.user.id}>", allowed_mentions=only_bob)
    assert fake.channel_messages(fake.channel)[-1].allowed_mentions == {"users": [bob.user.id], "parse": []}


async def test_message_flags_as_discord_takes_them(fake: FakeDiscord, bot: DemoBot) -> None:
    """A post may be silent (SUPPRESS_NOTIFICATIONS); flags a bot may not set are refused; an edit
    changes only SUPPRESS_EMBEDS and leaves a silent message silent."""
    channel = bot.get_partial_messageable(fake.channel.id)
    quiet = await channel.send("routine", silent=True)
    loud = await channel.send("your turn")
    stored = {m.id: m for m in fake.channel_messages(fake.channel)}
    assert stored[quiet.id].silent and not stored[quiet.id].buzzes
    assert stored[loud.id].buzzes
    with fake.expect_violation("invalid_flags"), pytest.raises(discord.HTTPException) as err:
        await bot.http.send_message(fake.channel.id, params=discord.http.handle_message_parameters(
            content="urgent", flags=discord.MessageFlags(urgent=True)))
    assert err.value.code == 50035
    with fake.expect_violation("invalid_flags"), pytest.raises(discord.HTTPException):
        await bot.http.edit_message(fake.channel.id, loud.id, params=discord.http.handle_message_parameters(
            content="now silent?", flags=discord.MessageFlags(suppress_notifications=True)))
    assert stored[loud.id].content == "your turn" and stored[loud.id].buzzes
    await quiet.edit(content="routine, edited", suppress=True)  # an edit sends flags=SUPPRESS_EMBEDS only
    assert stored[quiet.id].silent and stored[quiet.id].flags & (1 << 2)
