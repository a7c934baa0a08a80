"""State of the fake Discord: users, guilds, channels and messages, each able to render the
JSON payload discord.py expects, and each message knowing exactly who can see it."""

from __future__ import annotations

import io
import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, ClassVar

from .limits import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_NOTIFICATIONS,
    SELECT_TYPES,
    assign_component_ids,
    media_urls,
)
from .permissions import ALL_PERMISSIONS as ALL_PERMISSIONS  # re-exported for server.py and tests
from .permissions import MEMBER, ROLE, Overwrite, base_permissions, bits, channel_permissions

DISCORD_EPOCH = 1420070400000
DEFAULT_PLAYERS = ("alice", "bob", "carol", "dave")
_increment = itertools.count(1)
_last_ts = 0

# Permission bits used by the fake (discord.Permissions values).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_HISTORY = 1 << 16
USE_APP_COMMANDS = 1 << 31
MANAGE_GUILD = 1 << 5
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_HISTORY | USE_APP_COMMANDS


def _next_ts() -> int:
    """A strictly increasing millisecond timestamp so every snowflake is unique and ordered."""
    global _last_ts
    _last_ts = max(_last_ts + 1, int(time.time() * 1000) - DISCORD_EPOCH)
    return _last_ts


def snowflake() -> int:
    """A fresh, unique snowflake (timestamp << 22 | increment)."""
    return (_next_ts() << 22) | (next(_increment) & 0xFFF)


def snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """A fresh guild id that Discord would route to `shard_id`: (id >> 22) % shard_count == shard_id."""
    global _last_ts
    ts = _next_ts()
    ts += (shard_id - ts) % shard_count
    _last_ts = ts
    return (ts << 22) | (next(_increment) & 0xFFF)


def shard_for(guild_id: int, shard_count: int) -> int:
    """Discord's shard formula for guild events."""
    return (guild_id >> 22) % shard_count


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class User:
    """A Discord account; `dms_closed` makes DMs from the bot fail with 403 code 50007."""

    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0", "global_name": self.name,
                "avatar": None, "bot": self.bot, "public_flags": 0}


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    bot_id: int | None = None
    """Set on the role Discord creates for a bot invited with permissions (managed, tagged with the bot)."""

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "name": self.name, "permissions": str(self.permissions),
                                "position": self.position, "color": 0, "hoist": False,
                                "managed": self.bot_id is not None, "mentionable": False, "flags": 0}
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Member:
    user: User
    roles: list[Role] = field(default_factory=list)
    joined_at: str = field(default_factory=now_iso)


@dataclass(eq=False)
class Channel:
    """A guild text channel (type 0) or a DM channel (type 1, `recipient` set). `overwrites`
    are its permission overwrites by role or user id; `deny`/`allow` edit them as a server admin would."""

    SEND: ClassVar[tuple[int, str]] = (SEND_MESSAGES, "Send Messages")
    """The permission posting here takes, and its name in refusals."""

    id: int
    name: str
    guild: Guild | None = None
    recipient: User | None = None
    position: int = 0
    log: list[Message] = field(default_factory=list, repr=False)  # every message ever posted here
    overwrites: dict[int, Overwrite] = field(default_factory=dict)

    def deny(self, target: Any, *names: str) -> None:
        """Deny permissions (discord.py names, e.g. "send_messages") to a role, user or player here."""
        found = self._overwrite(target)
        found.deny |= bits(*names)
        found.allow &= ~found.deny

    def allow(self, target: Any, *names: str) -> None:
        """Allow permissions to a role, user or player here (overriding the roles' denies, as Discord does)."""
        found = self._overwrite(target)
        found.allow |= bits(*names)
        found.deny &= ~found.allow

    def _overwrite(self, target: Any) -> Overwrite:
        target = getattr(target, "user", target)  # a Player or Member stands for its user
        kind = ROLE if isinstance(target, Role) else MEMBER
        return self.overwrites.setdefault(target.id, Overwrite(target.id, kind))

    def permissions_of(self, user: User) -> int:
        """`user`'s permissions in this guild channel, computed as Discord documents it."""
        assert self.guild is not None, "DM channels have no permissions"
        member = self.guild.members.get(user.id)
        role_ids = [r.id for r in member.roles] if member else []
        return channel_permissions(self.guild.permissions_of(user), guild_id=self.guild.id, member_id=user.id,
                                   role_ids=role_ids, overwrites=self.overwrites)
    rate_limit_per_user: int = 0
    """Slowmode: seconds between two posts of one member (faults.py: how it meets the bot)."""
    fail_after_post: list[int] = field(default_factory=list)
    """5xx statuses to answer, one per POST, after the message was created (a lost response)."""

    def viewable_by(self, user: User) -> bool:
        """Whether `user` sees this channel: a DM its recipient, a guild channel its members with View Channel."""
        if self.recipient is not None:
            return self.recipient.id == user.id
        return (self.guild is not None and user.id in self.guild.members
                and bool(self.permissions_of(user) & VIEW_CHANNEL))

    @property
    def is_dm(self) -> bool:
        return self.recipient is not None

    @property
    def is_thread(self) -> bool:
        return False

    @property
    def type(self) -> int:
        """Discord's channel type: 1 a DM, 0 a guild text channel."""
        return 1 if self.recipient is not None else 0

    @property
    def messages(self) -> list[Message]:
        """The channel's public messages (not deleted, not ephemeral), oldest first."""
        return [m for m in self.log if not m.deleted and m.ephemeral_to is None]

    @property
    def pins(self) -> list[Message]:
        """The pinned messages, the most recently pinned first (as Get Channel Pins lists them)."""
        return sorted((m for m in self.messages if m.pinned_at is not None), key=lambda m: m.pinned_at or "",
                      reverse=True)

    def payload(self, me: User | None = None) -> dict[str, Any]:
        """The channel object (`me`, the bot, matters only to threads, which name its membership)."""
        if self.recipient is not None:
            return {"id": str(self.id), "type": 1, "recipients": [self.recipient.payload()],
                    "last_message_id": None, "flags": 0}
        assert self.guild is not None
        return {"id": str(self.id), "type": 0, "name": self.name, "position": self.position,
                "guild_id": str(self.guild.id), "nsfw": False,
                "permission_overwrites": [o.payload() for o in self.overwrites.values()],
                "topic": None, "last_message_id": None, "rate_limit_per_user": self.rate_limit_per_user, "flags": 0}


@dataclass(eq=False)
class Thread(Channel):
    """A thread (type 11 public, 12 private) under a guild text channel. Its permissions are the
    parent's, except that posting takes Send Messages in Threads; a private one is seen only by
    its members and by those with Manage Threads. `members` maps user ids to join timestamps."""

    SEND: ClassVar[tuple[int, str]] = (SEND_MESSAGES_IN_THREADS, "Send Messages in Threads")

    parent: Channel | None = None
    owner: User | None = None
    private: bool = False
    auto_archive_duration: int = 1440
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    rate_limit_per_user: int = 0
    created_at: str = field(default_factory=now_iso)
    archive_timestamp: str = field(default_factory=now_iso)
    members: dict[int, str] = field(default_factory=dict)
    starter_id: int | None = None
    """The id of the message the thread was started from (the thread shares it), if any."""

    def permissions_of(self, user: User) -> int:
        assert self.guild is not None and self.parent is not None
        member = self.guild.members.get(user.id)
        role_ids = [r.id for r in member.roles] if member else []
        have = channel_permissions(self.guild.permissions_of(user), guild_id=self.guild.id, member_id=user.id,
                                   role_ids=role_ids, overwrites=self.parent.overwrites,
                                   sends=SEND_MESSAGES_IN_THREADS)
        if self.private and user.id not in self.members and not have & MANAGE_THREADS:
            return 0
        return have

    def viewable_by(self, user: User) -> bool:
        return self.guild is not None and user.id in self.guild.members and bool(self.permissions_of(user) & VIEW_CHANNEL)

    @property
    def is_thread(self) -> bool:
        return True

    @property
    def type(self) -> int:
        return 12 if self.private else 11

    def set_archived(self, archived: bool, *, locked: bool | None = None) -> None:
        """Archive or unarchive (and lock or unlock) the thread, as its auto-archive timer or a
        moderator would; archive_timestamp follows, as on Discord."""
        if archived != self.archived:
            self.archived = archived
            self.archive_timestamp = now_iso()
        if locked is not None:
            self.locked = locked

    def member_payload(self, user_id: int) -> dict[str, Any]:
        return {"id": str(self.id), "user_id": str(user_id), "join_timestamp": self.members[user_id], "flags": 0}

    def payload(self, me: User | None = None) -> dict[str, Any]:
        assert self.guild is not None and self.parent is not None and self.owner is not None
        counted = [m for m in self.log if m.ephemeral_to is None and m.type != 21]
        live = [m for m in counted if not m.deleted]
        metadata: dict[str, Any] = {"archived": self.archived, "auto_archive_duration": self.auto_archive_duration,
                                    "archive_timestamp": self.archive_timestamp, "locked": self.locked,
                                    "create_timestamp": self.created_at}
        if self.private:
            metadata["invitable"] = self.invitable
        data: dict[str, Any] = {
            "id": str(self.id), "type": self.type, "guild_id": str(self.guild.id), "parent_id": str(self.parent.id),
            "owner_id": str(self.owner.id), "name": self.name, "flags": 0,
            "last_message_id": str(self.log[-1].id) if self.log else None,
            "rate_limit_per_user": self.rate_limit_per_user, "message_count": len(live),
            "total_message_sent": len(counted), "member_count": min(len(self.members), 50),
            "thread_metadata": metadata,
        }
        if me is not None and me.id in self.members:
            data["member"] = self.member_payload(me.id)
        return data


@dataclass(eq=False)
class Guild:
    """A server; its @everyone role has the usual member permissions, and a "Game Manager" role
    adds Manage Server so bots can be tested on permission checks."""

    id: int
    name: str
    owner_id: int = 1
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    roles: list[Role] = field(default_factory=list)
    threads: list[Thread] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.roles:
            self.roles = [Role(self.id, "@everyone", MEMBER_PERMISSIONS),
                          Role(snowflake(), "Game Manager", MANAGE_GUILD, position=1)]

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    @property
    def manager_role(self) -> Role:
        return self.roles[1]

    @property
    def channel(self) -> Channel:
        """The first text channel (where virtual players act by default)."""
        return self.channels[0]

    def add_member(self, user: User, *, manage_guild: bool = False) -> Member:
        member = self.members.get(user.id) or Member(user)
        self.members[user.id] = member
        if manage_guild and self.manager_role not in member.roles:
            member.roles.append(self.manager_role)
        return member

    def add_bot_role(self, bot: User, permissions: int) -> Role:
        """What Discord does when a bot is invited with a permissions integer: a managed role named
        after the bot, with those permissions, given to the bot's member."""
        role = Role(snowflake(), bot.name, permissions, position=len(self.roles), bot_id=bot.id)
        self.roles.append(role)
        self.add_member(bot).roles.append(role)
        return role

    def permissions_of(self, user: User) -> int:
        """Guild-level permissions (owner and Administrator get everything)."""
        member = self.members.get(user.id)
        return base_permissions(is_owner=user.id == self.owner_id, everyone=self.everyone.permissions,
                                roles=[r.permissions for r in member.roles] if member else [])

    def member_payload(self, member: Member, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {"roles": [str(r.id) for r in member.roles], "joined_at": member.joined_at,
                                "flags": 0, "deaf": False, "mute": False, "nick": None, "avatar": None,
                                "pending": False, "communication_disabled_until": None}
        if with_user:
            data["user"] = member.user.payload()
        return data

    def payload(self, bot: User) -> dict[str, Any]:
        members = [self.member_payload(m) for m in self.members.values()]
        if bot.id not in self.members:
            members.insert(0, self.member_payload(Member(bot)))
        return {
            "id": str(self.id), "name": self.name, "unavailable": False, "owner_id": str(self.owner_id),
            "member_count": len(members), "large": False, "features": [], "emojis": [], "stickers": [],
            "roles": [r.payload() for r in self.roles], "channels": [c.payload() for c in self.channels],
            "members": members, "voice_states": [], "presences": [], "stage_instances": [],
            "threads": [t.payload(bot) for t in self.threads if not t.archived and t.viewable_by(bot)],
            "guild_scheduled_events": [], "soundboard_sounds": [], "joined_at": now_iso(),
            "preferred_locale": "en-US", "icon": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "system_channel_flags": 0, "premium_progress_bar_enabled": False,
        }


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    description: str | None = None

    def payload(self, base_url: str) -> dict[str, Any]:
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        ctype = {"png": "image/png", "gif": "image/gif", "jpg": "image/jpeg", "webp": "image/webp",
                 "txt": "text/plain", "json": "application/json"}.get(self.filename.rsplit(".", 1)[-1].lower())
        return {"id": str(self.id), "filename": self.filename, "size": len(self.data), "url": url,
                "proxy_url": url, "content_type": ctype, "description": self.description}


@dataclass
class Button:
    """A button as the player sees it."""

    label: str | None
    custom_id: str | None
    style: int
    disabled: bool
    url: str | None = None
    emoji: Any = None


@dataclass
class Select:
    """A select menu as the player sees it (string selects carry their options)."""

    custom_id: str
    type: int
    placeholder: str | None
    options: list[dict]
    min_values: int
    max_values: int
    disabled: bool


def text_of(content: str, embeds: list[dict], components: list[dict]) -> str:
    """Content, embed text and V2 text displays joined: what a player reads on a message."""
    parts = [content]
    for emb in embeds:
        parts += [emb.get("title") or "", emb.get("description") or ""]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in emb.get("fields") or []]
        parts.append((emb.get("footer") or {}).get("text", ""))
    parts += [c.get("content", "") for c in iter_components(components) if c.get("type") == 10]
    return "\n".join(p for p in parts if p)


def iter_components(components: list[dict]) -> list[dict]:
    """Every component in a tree of action rows / V2 containers, depth first."""
    out: list[dict] = []
    for comp in components:
        out.append(comp)
        out += iter_components(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            out += iter_components([comp["accessory"]])
        if isinstance(comp.get("component"), dict):
            out += iter_components([comp["component"]])
    return out


@dataclass(eq=False)
class Message:
    """A message as stored by the fake. `ephemeral_to` makes it visible to one user only; otherwise
    it is visible to whoever sees its channel (`Channel.viewable_by`).
    `versions` keeps every payload the message ever had, so leak checks see edited-away text too.
    `type` 6 is Discord's "pinned a message" notice and 21 a thread's starter notice, both pointing
    at `refers_to`; `thread` is the thread started from this message."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_to: User | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    deleted: bool = False
    versions: list[dict] = field(default_factory=list)
    nonce: str | None = None
    allowed_mentions: dict | None = None
    """What the bot allowed this message to ping (the request's allowed_mentions, None if absent)."""
    created: float = field(default_factory=time.monotonic)
    type: int = 0
    refers_to: Message | None = None
    pinned_at: str | None = None
    thread: Thread | None = None

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def silent(self) -> bool:
        """Posted with SUPPRESS_NOTIFICATIONS: it reaches nobody's phone or desktop as a notification."""
        return bool(self.flags & FLAG_SUPPRESS_NOTIFICATIONS)

    @property
    def buzzes(self) -> bool:
        """Whether posting it notified anyone: neither ephemeral nor silent (edits never notify)."""
        return not self.silent and not self.ephemeral

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def visible_to(self, user: User, *, include_deleted: bool = False) -> bool:
        if self.deleted and not include_deleted:
            return False
        if self.ephemeral_to is not None:
            return self.ephemeral_to.id == user.id
        return self.channel.viewable_by(user)

    @property
    def audience(self) -> str:
        """Who can see this message, for leak-check reports."""
        if self.ephemeral_to is not None:
            return f"ephemeral:{self.ephemeral_to.name}"
        if self.channel.recipient is not None:
            return f"dm:{self.channel.recipient.name}"
        if isinstance(self.channel, Thread):
            return f"{'private-' if self.channel.private else ''}thread:#{self.channel.name}"
        return f"channel:#{self.channel.name}"

    @property
    def text(self) -> str:
        """Content, embed text and Text Displays: everything a player reads on the message (for
        a system message, the line Discord's client shows in its place)."""
        if self.type == 6:
            return f"{self.author.name} pinned a message to this channel."
        if self.type == 21:
            return self.refers_to.text if self.refers_to is not None else "Original message was deleted"
        return text_of(self.content, self.embeds, self.components)

    @property
    def is_v2(self) -> bool:
        """Sent with IS_COMPONENTS_V2: no content or embeds, its components are the whole layout."""
        return bool(self.flags & FLAG_COMPONENTS_V2)

    @property
    def text_displays(self) -> list[str]:
        """The content of every Text Display (type 10), in layout order, containers and sections included."""
        return [c.get("content", "") for c in iter_components(self.components) if c.get("type") == 10]

    @property
    def pinned(self) -> bool:
        return self.pinned_at is not None

    @property
    def texts(self) -> list[str]:
        """The text of every version this message ever had (edits included)."""
        return [text_of(v["content"], v["embeds"], v["components"]) for v in self.versions]

    def sees(self, text: str) -> bool:
        return text in self.text

    @property
    def buttons(self) -> list[Button]:
        return [Button(c.get("label"), c.get("custom_id"), c.get("style", 1), bool(c.get("disabled")),
                       c.get("url"), c.get("emoji"))
                for c in iter_components(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[Select]:
        return [Select(c["custom_id"], c["type"], c.get("placeholder"), list(c.get("options") or []),
                       c.get("min_values", 1), c.get("max_values", 1), bool(c.get("disabled")))
                for c in iter_components(self.components) if c.get("type") in SELECT_TYPES]

    def button(self, label: str) -> Button | None:
        return next((b for b in self.buttons if b.label == label), None)

    @property
    def shown_attachments(self) -> list[Attachment]:
        """The attachments a player sees: all of them, except on a V2 message, which shows only
        those its Thumbnail, Media Gallery or File components name as attachment://<filename>."""
        if not self.is_v2:
            return list(self.attachments)
        named = {url.removeprefix("attachment://") for url in media_urls(self.components)}
        return [a for a in self.attachments if a.filename in named]

    @property
    def files(self) -> dict[str, bytes]:
        """The shown attachments by filename."""
        return {a.filename: a.data for a in self.shown_attachments}

    def image(self, filename: str | None = None) -> Any:
        """The decoded PIL image of an attachment (the first image when no name is given)."""
        from PIL import Image

        for att in self.shown_attachments:
            if filename is None or att.filename == filename:
                if filename is None and not att.filename.lower().endswith((".png", ".gif", ".jpg", ".webp")):
                    continue
                img = Image.open(io.BytesIO(att.data))
                img.load()
                return img
        raise LookupError(f"message {self.id} has no image attachment {filename or ''}".strip())

    def payload(self, base_url: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel.id), "author": self.author.payload(), "type": self.type,
            "content": self.content, "embeds": self.embeds, "components": self.components,
            "attachments": [a.payload(base_url) for a in self.attachments], "flags": self.flags,
            "timestamp": self.timestamp, "edited_timestamp": self.edited_timestamp, "mentions": [],
            "mention_roles": [], "pinned": self.pinned, "mention_everyone": False, "tts": False,
        }
        if self.refers_to is not None:
            ref = self.refers_to
            data["message_reference"] = {"type": 0, "message_id": str(ref.id), "channel_id": str(ref.channel.id)}
            if ref.channel.guild is not None:
                data["message_reference"]["guild_id"] = str(ref.channel.guild.id)
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        if self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        return data

    def snapshot(self) -> None:
        """Remember the current version (called on create and on every edit), first giving a V2
        layout the component ids Discord generates for those sent without one."""
        if self.is_v2:
            self.components = assign_component_ids(self.components)
        self.versions.append({"content": self.content, "embeds": list(self.embeds),
                              "components": list(self.components),
                              "attachments": [a.filename for a in self.attachments], "flags": self.flags})

    def __repr__(self) -> str:
        return f"<Message {self.id} {self.audience} {self.content[:40]!r} buttons={[b.label for b in self.buttons]}>"


def is_ephemeral(flags: int) -> bool:
    return bool(flags & FLAG_EPHEMERAL)
