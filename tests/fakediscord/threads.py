"""Threads as Discord models them (Threads topic, channel resource): starting one with or without
a message, posting into it, archiving and locking, its members, and the gateway events a bot
gets, so a bot that runs a match in a thread meets here the refusals it would meet on Discord.

Handlers take the fake's `(request, body, files, **path)` signature and join its route table
through `ThreadRoutes.routes()`; the fake asks `check_post` / `after_post` / `check_editable`
around its own message handlers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .models import Channel, Message, Thread, User, now_iso, snowflake
from .permissions import FLAGS
from .server import DiscordError, jresp

if TYPE_CHECKING:
    from .server import FakeDiscord, JsonHandler

GUILDS_INTENT = 1 << 0
"""Thread and pin events reach a bot only with the GUILDS intent (Gateway: List of Intents)."""
GUILD_MEMBERS_INTENT = 1 << 1
"""Without it, THREAD_MEMBERS_UPDATE comes only when the bot itself is added or removed."""
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
MAX_THREAD_NAME = 100
MANAGE_THREADS = FLAGS["manage_threads"]
CREATE_PUBLIC = FLAGS["create_public_threads"]
CREATE_PRIVATE = FLAGS["create_private_threads"]
SEND_IN_THREADS = FLAGS["send_messages_in_threads"]


async def channel_event(fake: FakeDiscord, event: str, data: dict, channel: Channel, *,
                        intent: int = GUILDS_INTENT) -> None:
    """Send an event about `channel` to the bot when Discord would: its shard is connected, it
    asked for `intent` (DM events need none here), and it can see the channel (Discord hides
    threads a user cannot view)."""
    try:
        session = fake.session_for(channel.guild)
    except RuntimeError:
        return  # a bot that is not connected misses the event, as on Discord
    if channel.guild is None or (session.intents & intent and channel.viewable_by(fake.bot_user)):
        await fake.dispatch(event, data, channel.guild)


def system_message(fake: FakeDiscord, channel: Channel, kind: int, refers_to: Message) -> Message:
    """A message Discord itself posts (type 6 pin notice, 21 thread starter), authored by the
    user whose action caused it: players see it in the channel like any other."""
    msg = Message(snowflake(), channel, fake.bot_user, type=kind, refers_to=refers_to)
    msg.snapshot()
    fake.messages[msg.id] = msg
    channel.log.append(msg)
    fake.message_events.created(msg)
    return msg


def archived_error(thread: Thread, status: int = 400) -> DiscordError:
    return DiscordError(status, 50083, "Thread is archived", "archived_thread",
                        f"thread #{thread.name} is archived{' and locked' if thread.locked else ''}")


def check_thread_body(body: dict, *, creating: bool) -> list[str]:
    """The name and archive rules of the spec, checked here too so they hold without the spec."""
    problems = []
    name = body.get("name")
    if (creating or name is not None) and not 1 <= len(str(name or "")) <= MAX_THREAD_NAME:
        problems.append(f"name: a thread name is 1-{MAX_THREAD_NAME} characters (got {len(str(name or ''))})")
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_DURATIONS:
        problems.append(f"auto_archive_duration: {duration} is not one of {list(ARCHIVE_DURATIONS)}")
    return problems


class ThreadRoutes:
    """The thread routes of one fake."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def routes(self) -> list[tuple[str, str, JsonHandler]]:
        return [
            ("POST", "/channels/{cid}/threads", self._start),
            ("POST", "/channels/{cid}/messages/{mid}/threads", self._start_from_message),
            ("PATCH", "/channels/{cid}", self._edit),
            ("GET", "/channels/{cid}/thread-members", self._list_members),
            ("GET", "/channels/{cid}/thread-members/{uid}", self._get_member),
            ("PUT", "/channels/{cid}/thread-members/{uid}", self._add_member),
            ("DELETE", "/channels/{cid}/thread-members/{uid}", self._remove_member),
            ("GET", "/guilds/{guild}/threads/active", self._active),
        ]

    # ------------------------------------------------------------------ helpers
    @property
    def bot(self) -> User:
        return self.fake.bot_user

    def _thread(self, cid: str) -> Thread:
        channel = self.fake._channel(cid)
        self.fake._require_permissions(channel)
        if not isinstance(channel, Thread):
            raise DiscordError(400, 50024, "Cannot execute action on this channel type", "wrong_channel_type",
                               f"#{channel.name} is not a thread")
        return channel

    def _require(self, channel: Channel, bit: int, name: str, *, alternative: str = "") -> None:
        """403/50013 unless the bot has `bit` here (or, when `alternative` names one, is the thread's creator)."""
        if channel.permissions_of(self.bot) & bit:
            return
        if alternative and isinstance(channel, Thread) and channel.owner is self.bot:
            return
        raise DiscordError(403, 50013, "Missing Permissions", "missing_permissions",
                           f"the bot lacks {name}{alternative} in #{channel.name}")

    def _parent(self, cid: str) -> Channel:
        parent = self.fake._channel(cid)
        self.fake._require_permissions(parent)
        if parent.guild is None or parent.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type", "wrong_channel_type",
                               f"threads start in guild text channels; {parent.name} is a "
                               f"{'thread' if parent.is_thread else 'DM'}")
        return parent

    def _checked_body(self, body: Any, *, creating: bool) -> dict:
        body = body or {}
        problems = check_thread_body(body, creating=creating)
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body", "invalid_thread", "; ".join(problems))
        return body

    async def _open(self, parent: Channel, body: dict, *, tid: int, private: bool) -> Thread:
        assert parent.guild is not None
        joined = now_iso()
        thread = Thread(tid, str(body["name"]), guild=parent.guild, parent=parent, owner=self.bot, private=private,
                        auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
                        rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
                        invitable=body.get("invitable") is not False, members={self.bot.id: joined})
        parent.guild.threads.append(thread)
        await channel_event(self.fake, "THREAD_CREATE", {**thread.payload(), "newly_created": True}, thread)
        await self._members_event(thread, added=[self.bot])
        return thread

    async def _members_event(self, thread: Thread, *, added: list[User] | None = None,
                             removed: list[User] | None = None) -> None:
        """THREAD_MEMBERS_UPDATE, with each added member's guild member and presence."""
        assert thread.guild is not None
        added, removed = added or [], removed or []
        data: dict[str, Any] = {"id": str(thread.id), "guild_id": str(thread.guild.id),
                                "member_count": min(len(thread.members), 50)}
        if added:
            data["added_members"] = [
                {**thread.member_payload(u.id), "member": thread.guild.member_payload(thread.guild.members[u.id]),
                 "presence": None} for u in added]
        if removed:
            data["removed_member_ids"] = [str(u.id) for u in removed]
        only_others = all(u is not self.bot for u in [*added, *removed])
        await channel_event(self.fake, "THREAD_MEMBERS_UPDATE", data, thread,
                          intent=GUILD_MEMBERS_INTENT if only_others else GUILDS_INTENT)

    async def _updated(self, thread: Thread) -> None:
        await channel_event(self.fake, "THREAD_UPDATE", thread.payload(), thread)

    # ------------------------------------------------------------------ posting (called by the fake)
    def check_post(self, thread: Thread) -> None:
        """A locked thread takes messages only from those with Manage Threads (Threads topic:
        Locked Threads); Discord answers 50083 when it is also archived, 160005 when active."""
        if thread.locked and not thread.permissions_of(self.bot) & MANAGE_THREADS:
            if thread.archived:
                raise archived_error(thread, 403)
            raise DiscordError(403, 160005, "Thread is locked", "locked_thread",
                               f"thread #{thread.name} is locked and the bot lacks Manage Threads")

    async def after_post(self, thread: Thread) -> None:
        """Sending a message unarchives the thread and makes the sender a member (channel resource:
        Thread objects), each with its gateway event."""
        if thread.archived:
            thread.set_archived(False)
            await self._updated(thread)
        if self.bot.id not in thread.members:
            thread.members[self.bot.id] = now_iso()
            await self._members_event(thread, added=[self.bot])

    def check_editable(self, msg: Message) -> None:
        """Discord's refusals for an edit whatever the body: a system message (50021), a message
        in an archived thread (50083) or a locked one without Manage Threads (160005)."""
        if msg.type not in (0, 19, 20):
            raise DiscordError(400, 50021, "Cannot execute action on a system message", "system_message",
                               f"message {msg.id} is a type {msg.type} system message")
        thread = msg.channel
        if isinstance(thread, Thread):
            if thread.archived:
                raise archived_error(thread)
            self.check_post(thread)

    # ------------------------------------------------------------------ routes
    async def _start(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        """Start Thread without Message: `type` 11 public, 12 private (Discord's default when absent)."""
        parent = self._parent(cid)
        body = self._checked_body(body, creating=True)
        kind = int(body.get("type") or 12)
        if kind not in (11, 12):
            raise DiscordError(400, 50024, "Cannot execute action on this channel type", "wrong_channel_type",
                               f"a type {kind} thread cannot start in text channel #{parent.name}")
        if kind == 11:
            self._require(parent, CREATE_PUBLIC, "Create Public Threads")
        else:
            self._require(parent, CREATE_PRIVATE, "Create Private Threads")
        thread = await self._open(parent, body, tid=snowflake(), private=kind == 12)
        return jresp(thread.payload(self.bot), status=201)

    async def _start_from_message(self, request: web.Request, body: Any, files: list, cid: str,
                                  mid: str) -> web.Response:
        """Start Thread from Message: a public thread sharing the message's id, one per message,
        whose first message is Discord's starter notice pointing back at it."""
        parent = self._parent(cid)
        source = self.fake.messages.get(int(mid)) if mid.isdigit() else None
        if source is None or source.channel is not parent or source.deleted or source.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message", "unknown_message", f"{cid}/{mid}")
        if source.thread is not None:
            raise DiscordError(400, 160004, "A thread has already been created for this message", "thread_exists",
                               f"message {mid} already started thread #{source.thread.name}")
        self._require(parent, CREATE_PUBLIC, "Create Public Threads")
        body = self._checked_body(body, creating=True)
        thread = await self._open(parent, body, tid=source.id, private=False)
        thread.starter_id = source.id
        source.thread = thread
        system_message(self.fake, thread, 21, source)
        return jresp(thread.payload(self.bot), status=201)

    async def _edit(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        """Modify Channel for a thread (the Threads topic's "Editing & Deleting Threads" rules);
        other channels' settings are not modelled and answer as an unhandled route."""
        channel = self.fake._channel(cid)
        if not isinstance(channel, Thread):
            raise DiscordError(404, 0, f"fakediscord: unhandled PATCH /channels/{cid} (not a thread)",
                               "unhandled_route", f"PATCH /channels/{cid}")
        thread = self._thread(cid)
        body = self._checked_body(body, creating=False)
        archived = body.get("archived")
        if thread.archived and archived is not False:
            raise archived_error(thread)
        creator = " (or being its creator)"
        if archived is False and thread.archived and (thread.locked or self.bot.id not in thread.members):
            # unarchiving takes only membership, unless the thread is locked
            self._require(thread, MANAGE_THREADS, "Manage Threads", alternative=creator)
        if archived is True or any(body.get(k) is not None for k in ("name", "auto_archive_duration", "invitable")):
            self._require(thread, MANAGE_THREADS, "Manage Threads", alternative=creator)
        if any(body.get(k) is not None for k in ("locked", "rate_limit_per_user")):
            self._require(thread, MANAGE_THREADS, "Manage Threads")
        if body.get("name") is not None:
            thread.name = str(body["name"])
        if body.get("auto_archive_duration") is not None:
            thread.auto_archive_duration = int(body["auto_archive_duration"])
        if body.get("rate_limit_per_user") is not None:
            thread.rate_limit_per_user = int(body["rate_limit_per_user"])
        if body.get("invitable") is not None and thread.private:
            thread.invitable = bool(body["invitable"])
        thread.set_archived(thread.archived if archived is None else bool(archived), locked=body.get("locked"))
        await self._updated(thread)
        return jresp(thread.payload(self.bot))

    async def _list_members(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        thread = self._thread(cid)
        return jresp([self._member_out(thread, uid, request) for uid in thread.members])

    async def _get_member(self, request: web.Request, body: Any, files: list, cid: str, uid: str) -> web.Response:
        thread = self._thread(cid)
        user_id = self.bot.id if uid == "@me" else int(uid) if uid.isdigit() else 0
        if user_id not in thread.members:
            raise DiscordError(404, 10007, "Unknown Member", "unknown_member", f"{uid} is not in #{thread.name}")
        return jresp(self._member_out(thread, user_id, request))

    def _member_out(self, thread: Thread, user_id: int, request: web.Request) -> dict:
        data = thread.member_payload(user_id)
        if request.query.get("with_member", "").lower() in ("true", "1") and thread.guild is not None:
            data["member"] = thread.guild.member_payload(thread.guild.members[user_id])
        return data

    def _user_in_guild(self, thread: Thread, uid: str) -> User:
        assert thread.guild is not None
        member = thread.guild.members.get(self.bot.id if uid == "@me" else int(uid) if uid.isdigit() else 0)
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member", "unknown_member", f"{uid} is not in the guild")
        return member.user

    async def _add_member(self, request: web.Request, body: Any, files: list, cid: str, uid: str) -> web.Response:
        """Join Thread (@me) or Add Thread Member: the thread must be active; adding someone else
        takes Send Messages in Threads (and, in a private thread that is not invitable, Manage Threads)."""
        thread = self._thread(cid)
        user = self._user_in_guild(thread, uid)
        if thread.archived:
            raise archived_error(thread)
        if user is not self.bot:
            self._require(thread, SEND_IN_THREADS, "Send Messages in Threads")
            if thread.private and not thread.invitable:
                self._require(thread, MANAGE_THREADS, "Manage Threads")
        if user.id not in thread.members:
            thread.members[user.id] = now_iso()
            if user is self.bot:
                await channel_event(self.fake, "THREAD_CREATE", thread.payload(self.bot), thread)
            await self._members_event(thread, added=[user])
        return web.Response(status=204)

    async def _remove_member(self, request: web.Request, body: Any, files: list, cid: str,
                             uid: str) -> web.Response:
        """Leave Thread (@me) or Remove Thread Member (Manage Threads, or the creator of a private thread)."""
        thread = self._thread(cid)
        user = self._user_in_guild(thread, uid)
        if thread.archived:
            raise archived_error(thread)
        if user is not self.bot:
            alternative = " (or being its creator)" if thread.private else ""
            self._require(thread, MANAGE_THREADS, "Manage Threads", alternative=alternative)
        if thread.members.pop(user.id, None) is not None:
            await self._members_event(thread, removed=[user])
        return web.Response(status=204)

    async def _active(self, request: web.Request, body: Any, files: list, guild: str) -> web.Response:
        """List Active Guild Threads: the active threads the bot can see, with its memberships."""
        found = [t for t in self.fake._guild(guild).threads if not t.archived and t.viewable_by(self.bot)]
        return jresp({"threads": [t.payload() for t in found],
                      "members": [t.member_payload(self.bot.id) for t in found if self.bot.id in t.members]})
