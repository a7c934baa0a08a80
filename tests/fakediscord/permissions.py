"""Discord's permission flags and its documented algorithm for a member's permissions in a
channel, so the fake can refuse what Discord refuses (a post without Send Messages) and tests
can take a permission away with a channel overwrite.

Written from Discord's documentation (Permissions topic), not from discord.py, so a bot's own
computation is checked against an independent one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

FLAGS: dict[str, int] = {
    "create_instant_invite": 1 << 0, "kick_members": 1 << 1, "ban_members": 1 << 2, "administrator": 1 << 3,
    "manage_channels": 1 << 4, "manage_guild": 1 << 5, "add_reactions": 1 << 6, "view_audit_log": 1 << 7,
    "priority_speaker": 1 << 8, "stream": 1 << 9, "view_channel": 1 << 10, "send_messages": 1 << 11,
    "send_tts_messages": 1 << 12, "manage_messages": 1 << 13, "embed_links": 1 << 14, "attach_files": 1 << 15,
    "read_message_history": 1 << 16, "mention_everyone": 1 << 17, "use_external_emojis": 1 << 18,
    "view_guild_insights": 1 << 19, "connect": 1 << 20, "speak": 1 << 21, "mute_members": 1 << 22,
    "deafen_members": 1 << 23, "move_members": 1 << 24, "use_vad": 1 << 25, "change_nickname": 1 << 26,
    "manage_nicknames": 1 << 27, "manage_roles": 1 << 28, "manage_webhooks": 1 << 29,
    "manage_guild_expressions": 1 << 30, "use_application_commands": 1 << 31, "request_to_speak": 1 << 32,
    "manage_events": 1 << 33, "manage_threads": 1 << 34, "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36, "use_external_stickers": 1 << 37, "send_messages_in_threads": 1 << 38,
    "use_embedded_activities": 1 << 39, "moderate_members": 1 << 40,
    "view_creator_monetization_analytics": 1 << 41, "use_soundboard": 1 << 42,
    "create_guild_expressions": 1 << 43, "create_events": 1 << 44, "use_external_sounds": 1 << 45,
    "send_voice_messages": 1 << 46, "send_polls": 1 << 49, "use_external_apps": 1 << 50,
    "pin_messages": 1 << 51, "bypass_slowmode": 1 << 52,
}
ALL_PERMISSIONS = sum(FLAGS.values())

VIEW_CHANNEL = FLAGS["view_channel"]
SEND_MESSAGES = FLAGS["send_messages"]
SEND_MESSAGES_IN_THREADS = FLAGS["send_messages_in_threads"]
ATTACH_FILES = FLAGS["attach_files"]
ADMINISTRATOR = FLAGS["administrator"]
NEEDS_SEND_MESSAGES = (FLAGS["mention_everyone"] | FLAGS["send_tts_messages"] | ATTACH_FILES
                       | FLAGS["embed_links"])
"""Discord denies these implicitly in a channel where Send Messages is denied."""

ROLE, MEMBER = 0, 1


def bits(*names: str) -> int:
    """The integer for permission names as discord.py spells them ("send_messages")."""
    unknown = [n for n in names if n not in FLAGS]
    if unknown:
        raise KeyError(f"unknown permission name(s) {unknown}; known: {', '.join(FLAGS)}")
    value = 0
    for name in names:
        value |= FLAGS[name]
    return value


def names_of(value: int) -> list[str]:
    """The permission names in an integer (the inverse of `bits`)."""
    return [name for name, flag in FLAGS.items() if value & flag]


@dataclass
class Overwrite:
    """One channel permission overwrite (type 0 for a role, 1 for a member), as in the channel payload."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, object]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


def base_permissions(*, is_owner: bool, everyone: int, roles: Iterable[int]) -> int:
    """Guild-level permissions: the owner has all; @everyone ORed with the member's roles; Administrator has all."""
    if is_owner:
        return ALL_PERMISSIONS
    value = everyone
    for role in roles:
        value |= role
    return ALL_PERMISSIONS if value & ADMINISTRATOR else value


def channel_permissions(base: int, *, guild_id: int, member_id: int, role_ids: Iterable[int],
                        overwrites: Mapping[int, Overwrite], sends: int = SEND_MESSAGES) -> int:
    """Discord's order: @everyone's overwrite, then all the member's role overwrites together
    (denies, then allows), then the member's own overwrite; Administrator skips all of it.
    Then the implicit rules: no View Channel means nothing, no `sends` (Send Messages; in a
    thread, which takes its parent's overwrites, Send Messages in Threads) takes what needs it."""
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    value = base
    everyone = overwrites.get(guild_id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in role_ids:
        found = overwrites.get(role_id)
        if found is not None and found.type == ROLE:
            allow |= found.allow
            deny |= found.deny
    value = (value & ~deny) | allow
    own = overwrites.get(member_id)
    if own is not None and own.type == MEMBER:
        value = (value & ~own.deny) | own.allow
    if not value & VIEW_CHANNEL:
        return 0
    if not value & sends:
        value &= ~NEEDS_SEND_MESSAGES
    return value
