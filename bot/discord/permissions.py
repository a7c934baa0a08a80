"""What the bot needs to be allowed on a server: the invite's permissions integer, the list
`python -m bot doctor` checks, and Discord's documented algorithm for a member's permissions in
a channel (so the check tells the admin exactly which setting takes a permission away).

Plain integers (Discord's bit values, the same as discord.Permissions) keep this importable by
the no-token help text without loading discord.py.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import discord

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
ADMINISTRATOR = 1 << 3
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
MANAGE_CHANNELS = 1 << 4
MANAGE_MESSAGES = 1 << 13
BYPASS_SLOWMODE = 1 << 52
SLOWMODE_BYPASS = MANAGE_MESSAGES | MANAGE_CHANNELS | BYPASS_SLOWMODE
"""Any one of these lets a member, the bot too, post past a channel's slowmode."""
PIN_MESSAGES = 1 << 51
"""Discord split pinning out of Manage Messages; since February 2026 only Pin Messages lets a bot pin."""
ALL_PERMISSIONS = (1 << 53) - 1
"""Every bit up to Bypass Slowmode (1 << 52): what the owner and an Administrator have."""

NEEDS_SEND_MESSAGES = MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS
"""Discord takes these away implicitly in a channel where Send Messages is denied."""
TIMED_OUT_KEEPS = VIEW_CHANNEL | READ_MESSAGE_HISTORY
"""A timed-out member keeps only these."""


@dataclass(frozen=True)
class Need:
    """One permission the bot asks for: `bits` lists alternatives (any one of them is enough)."""

    name: str
    bits: tuple[int, ...]
    purpose: str
    required: bool

    def granted(self, have: int) -> bool:
        return any(have & bit == bit for bit in self.bits)


NEEDS: tuple[Need, ...] = (
    Need("View Channel", (VIEW_CHANNEL,), "see the channel where the match is played", True),
    Need("Send Messages", (SEND_MESSAGES,), "post the lobby, the phase summaries and the reminders", True),
    Need("Attach Files", (ATTACH_FILES,), "post the map image after every phase", True),
    Need("Embed Links", (EMBED_LINKS,), "show embeds and link previews in its messages", False),
    Need("Read Message History", (READ_MESSAGE_HISTORY,), "read back its earlier messages in the channel", False),
    Need("Create Public Threads", (CREATE_PUBLIC_THREADS,), "run each match in a thread of its own", False),
    Need("Send Messages in Threads", (SEND_MESSAGES_IN_THREADS,), "post in a match's thread", False),
    Need("Manage Threads", (MANAGE_THREADS,), "archive a match thread when the match ends", False),
    Need("Pin Messages", (PIN_MESSAGES,), "pin the status board", False),
)

INVITE_PERMISSIONS = functools.reduce(operator.or_, (need.bits[0] for need in NEEDS))
"""The invite's permissions integer: the first alternative of every need (Pin Messages, not the
much broader Manage Messages)."""

INVITE_SCOPES = "bot+applications.commands"


def invite_url(client_id: int | str) -> str:
    """The link that adds the bot to a server with the commands scope and every permission it uses."""
    return (f"https://discord.com/oauth2/authorize?client_id={client_id}"
            f"&scope={INVITE_SCOPES}&permissions={INVITE_PERMISSIONS}")


def permission_names() -> str:
    """The invite's permissions in words, as the Discord invite screen lists them."""
    return ", ".join(need.name for need in NEEDS)


def base_permissions(guild: Mapping[str, Any], roles: Iterable[Mapping[str, Any]], member: Mapping[str, Any],
                     user_id: int) -> int:
    """Server-wide permissions from the REST payloads: the owner has all; otherwise @everyone's
    permissions ORed with the member's roles, and Administrator means all."""
    if int(guild["owner_id"]) == user_id:
        return ALL_PERMISSIONS
    by_id = {int(role["id"]): int(role["permissions"]) for role in roles}
    value = by_id.get(int(guild["id"]), 0)
    for role_id in member.get("roles", []):
        value |= by_id.get(int(role_id), 0)
    return ALL_PERMISSIONS if value & ADMINISTRATOR else value


def channel_permissions(base: int, channel: Mapping[str, Any], member: Mapping[str, Any], user_id: int,
                        *, timed_out: bool = False) -> int:
    """Discord's order for one channel: Administrator skips it all; then @everyone's overwrite,
    all the member's role overwrites together (denies, then allows), the member's own overwrite;
    then a timeout, no View Channel (nothing left) and no Send Messages (what needs it goes too)."""
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    overwrites = {int(o["id"]): o for o in channel.get("permission_overwrites") or []}
    value = base

    def apply(allow: int, deny: int) -> None:
        nonlocal value
        value = (value & ~deny) | allow

    everyone = overwrites.get(int(channel["guild_id"]))
    if everyone is not None:
        apply(int(everyone["allow"]), int(everyone["deny"]))
    allow = deny = 0
    for role_id in member.get("roles", []):
        found = overwrites.get(int(role_id))
        if found is not None and int(found["type"]) == 0:
            allow |= int(found["allow"])
            deny |= int(found["deny"])
    apply(allow, deny)
    own = overwrites.get(user_id)
    if own is not None and int(own["type"]) == 1:
        apply(int(own["allow"]), int(own["deny"]))
    if timed_out:
        value &= TIMED_OUT_KEEPS
    if not value & VIEW_CHANNEL:
        return 0
    if not value & SEND_MESSAGES:
        value &= ~NEEDS_SEND_MESSAGES
    return value


def is_manager(interaction: discord.Interaction, guild_id: int | None) -> bool:
    """Manage Server (or Administrator) over the match's guild ``guild_id``: permissions held
    in the server an interaction comes from say nothing about a match in another one."""
    permissions = interaction.permissions
    return bool(guild_id is not None and interaction.guild_id == guild_id
                and (permissions.manage_guild or permissions.administrator))


def held_by_slowmode(seconds: int, have: int) -> bool:
    """Whether a channel's slowmode (``rate_limit_per_user``) holds the bot's posts there: each
    post then waits ``seconds`` after the last, unless the bot may bypass it."""
    return seconds > 0 and not have & SLOWMODE_BYPASS
