"""The invite permissions constant and the bot's own computation of its channel permissions
(Discord's documented algorithm), checked on hand-made REST payloads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.cli.run import NO_TOKEN
from bot.discord import permissions as perms
from bot.discord.permissions import (
    ATTACH_FILES,
    INVITE_PERMISSIONS,
    NEEDS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    base_permissions,
    channel_permissions,
    invite_url,
)

GUILD = 100
BOT = 200
PLAYERS = 300
README = Path(__file__).resolve().parents[2] / "README.md"


def _guild(*, owner: int = 1, everyone: int = VIEW_CHANNEL | SEND_MESSAGES, players: int = 0) -> tuple[dict, list]:
    roles = [{"id": str(GUILD), "permissions": str(everyone)}, {"id": str(PLAYERS), "permissions": str(players)}]
    return {"id": str(GUILD), "owner_id": str(owner)}, roles


def _channel(*overwrites: tuple[int, int, int, int]) -> dict[str, Any]:
    return {"guild_id": str(GUILD), "permission_overwrites": [
        {"id": str(i), "type": kind, "allow": str(allow), "deny": str(deny)} for i, kind, allow, deny in overwrites]}


MEMBER = {"roles": [str(PLAYERS)]}


def _in_channel(channel: dict[str, Any], **guild: int) -> int:
    g, roles = _guild(**guild)
    return channel_permissions(base_permissions(g, roles, MEMBER, BOT), channel, MEMBER, BOT)


def test_administrator_short_cuts_every_overwrite() -> None:
    channel = _channel((GUILD, 0, 0, VIEW_CHANNEL), (BOT, 1, 0, SEND_MESSAGES))
    assert _in_channel(channel, players=perms.ADMINISTRATOR) == perms.ALL_PERMISSIONS
    assert _in_channel(channel, owner=BOT) == perms.ALL_PERMISSIONS, "the owner has every permission"


def test_role_overwrite_deny_beats_the_role_allow() -> None:
    have = _in_channel(_channel((PLAYERS, 0, 0, SEND_MESSAGES)), players=SEND_MESSAGES | ATTACH_FILES)
    assert have & VIEW_CHANNEL and not have & SEND_MESSAGES
    assert not have & ATTACH_FILES, "Discord withholds Attach Files where Send Messages is denied"


def test_member_overwrite_beats_the_role_overwrite() -> None:
    channel = _channel((PLAYERS, 0, 0, SEND_MESSAGES), (BOT, 1, SEND_MESSAGES, 0))
    assert _in_channel(channel) & SEND_MESSAGES
    channel = _channel((PLAYERS, 0, SEND_MESSAGES, 0), (BOT, 1, 0, SEND_MESSAGES))
    assert not _in_channel(channel) & SEND_MESSAGES


def test_everyone_overwrite_comes_first_and_view_channel_gates_everything() -> None:
    assert _in_channel(_channel((GUILD, 0, 0, VIEW_CHANNEL))) == 0
    assert _in_channel(_channel((GUILD, 0, 0, VIEW_CHANNEL), (PLAYERS, 0, VIEW_CHANNEL, 0))) & VIEW_CHANNEL


def test_a_timeout_keeps_only_view_and_history() -> None:
    g, roles = _guild(players=ATTACH_FILES)
    have = channel_permissions(base_permissions(g, roles, MEMBER, BOT), _channel(), MEMBER, BOT, timed_out=True)
    assert have == VIEW_CHANNEL


def test_the_invite_integer_is_every_permission_the_bot_asks_for() -> None:
    wanted = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True,
                                 read_message_history=True, create_public_threads=True,
                                 send_messages_in_threads=True, manage_threads=True, pin_messages=True)
    assert INVITE_PERMISSIONS == wanted.value == 2252126231317504
    for need in NEEDS:
        for bit in need.bits:
            assert bit in discord.Permissions.VALID_FLAGS.values(), need.name
    assert {n.name for n in NEEDS if n.required} == {"View Channel", "Send Messages", "Attach Files"}


def test_readme_and_the_no_token_help_show_the_same_invite() -> None:
    url = invite_url("APPLICATION_ID")
    assert url in README.read_text()
    assert f"permissions={INVITE_PERMISSIONS}" in NO_TOKEN and "python -m bot doctor" in NO_TOKEN
    assert "python -m bot doctor" in README.read_text()
