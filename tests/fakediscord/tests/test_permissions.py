"""The fake's token check, roles, channel overwrites and the refusals that follow from them."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from tests.fakediscord.models import Channel, Guild, Role, User
from tests.fakediscord.permissions import ALL_PERMISSIONS, FLAGS, bits
from tests.fakediscord.server import FakeDiscord

BOT = {"Authorization": "Bot fake-token"}


def _guild() -> tuple[Guild, Channel, User, Role]:
    guild = Guild(1000, "g", owner_id=1)
    channel = Channel(2000, "game", guild=guild)
    guild.channels.append(channel)
    user = User(3000, "u")
    role = Role(4000, "players", bits("send_messages"), position=2)
    guild.roles.append(role)
    guild.add_member(user).roles.append(role)
    return guild, channel, user, role


def test_administrator_overrides_every_overwrite() -> None:
    guild, channel, user, role = _guild()
    role.permissions |= FLAGS["administrator"]
    channel.deny(user, "view_channel", "send_messages")
    assert channel.permissions_of(user) == ALL_PERMISSIONS


def test_role_overwrite_deny_beats_the_role_allow() -> None:
    guild, channel, user, role = _guild()
    channel.deny(role, "send_messages")
    have = channel.permissions_of(user)
    assert have & FLAGS["view_channel"] and not have & FLAGS["send_messages"]
    assert not have & FLAGS["attach_files"], "no Send Messages takes Attach Files with it"


def test_member_overwrite_beats_the_role_overwrite() -> None:
    guild, channel, user, role = _guild()
    channel.deny(role, "send_messages")
    channel.allow(user, "send_messages")
    assert channel.permissions_of(user) & FLAGS["send_messages"]
    channel.deny(guild.everyone, "view_channel")
    assert channel.permissions_of(user) == 0, "no View Channel means nothing at all"
    channel.allow(role, "view_channel")
    assert channel.permissions_of(user) & FLAGS["view_channel"], "a role allow beats the @everyone deny"


async def test_a_token_it_was_not_given_gets_401(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        for headers in ({"Authorization": "Bot wrong"}, {}):
            async with session.get(f"{fake.api_base}/users/@me", headers=headers) as resp:
                assert resp.status == 401
                assert await resp.json() == {"message": "401: Unauthorized", "code": 0}
        async with session.get(f"{fake.api_base}/users/@me", headers=BOT) as resp:
            assert resp.status == 200
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await client.login("wrong")
    await client.close()
    assert len(fake.pop_violations("unauthorized")) == 3


async def test_the_gateway_closes_4004_on_a_wrong_token(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0, "properties": {}}})
        await ws.receive()
        assert ws.close_code == 4004
    assert fake.pop_violations("unauthorized")


async def test_roles_member_and_overwrites_are_served(fake: FakeDiscord) -> None:
    fake.channel.deny(fake.guild.everyone, "send_messages")
    async with aiohttp.ClientSession(headers=BOT) as session:
        async with session.get(f"{fake.api_base}/guilds/{fake.guild.id}/roles") as resp:
            roles = await resp.json()
        async with session.get(f"{fake.api_base}/guilds/{fake.guild.id}/members/{fake.bot_user.id}") as resp:
            member = await resp.json()
        async with session.get(f"{fake.api_base}/channels/{fake.channel.id}") as resp:
            channel = await resp.json()
    assert [r["name"] for r in roles][:2] == ["@everyone", "Game Manager"]
    assert member["user"]["id"] == str(fake.bot_user.id)
    assert channel["permission_overwrites"] == [
        {"id": str(fake.guild.id), "type": 0, "allow": "0", "deny": str(FLAGS["send_messages"])}]


@pytest.mark.fakediscord(bot_permissions=1 << 51)
async def test_the_invite_permissions_become_a_managed_bot_role(fake: FakeDiscord) -> None:
    role = fake.guild.roles[-1]
    assert role.payload()["managed"] and role.payload()["tags"] == {"bot_id": str(fake.bot_user.id)}
    assert role in fake.guild.members[fake.bot_user.id].roles
    assert fake.channel.permissions_of(fake.bot_user) & FLAGS["pin_messages"]


async def test_posting_without_permission_is_refused(fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    async with aiohttp.ClientSession(headers=BOT) as session:
        fake.channel.deny(fake.bot_user, "attach_files")
        form = aiohttp.FormData()
        form.add_field("payload_json", '{"content": "map"}', content_type="application/json")
        form.add_field("files[0]", b"png", filename="map.png")
        async with session.post(url, data=form) as resp:
            assert (resp.status, (await resp.json())["code"]) == (403, 50013)
        async with session.post(url, json={"content": "text only"}) as resp:
            assert resp.status == 200, "no Attach Files still allows text"
        fake.channel.deny(fake.guild.everyone, "send_messages")
        async with session.post(url, json={"content": "hello"}) as resp:
            assert await resp.json() == {"message": "Missing Permissions", "code": 50013}
        fake.channel.deny(fake.guild.everyone, "view_channel")
        async with session.post(url, json={"content": "hello"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (403, 50001)
        async with session.get(f"{fake.api_base}/channels/{fake.channel.id}") as resp:
            assert (resp.status, (await resp.json())["message"]) == (403, "Missing Access")
    assert len(fake.pop_violations("missing_permissions")) == 2
    assert len(fake.pop_violations("missing_access")) == 2
