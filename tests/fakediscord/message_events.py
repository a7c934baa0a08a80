"""Gateway events about messages, sent when Discord sends them: MESSAGE_CREATE, MESSAGE_UPDATE and
MESSAGE_DELETE for every message in a channel the bot can see, its own posts and edits included,
to a bot that asked for the intent (GUILD_MESSAGES for a guild channel, DIRECT_MESSAGES for a
DM). Without the privileged MESSAGE_CONTENT intent Discord blanks the content, embeds,
attachments and components of other users' guild messages (not the bot's own, not DMs, not one
that mentions the bot).

The fake sent none of these before, so a bot that asked for every default intent paid nothing
here for what a real server sends it: every chat line and every echo of its own posts parsed by
discord.py. Ephemeral messages make no event (only their recipient ever sees them)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .threads import channel_event

if TYPE_CHECKING:
    from .models import Message
    from .server import FakeDiscord

GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
HIDDEN_WITHOUT_CONTENT = {"content": "", "embeds": [], "attachments": [], "components": []}
"""What Discord sends in place of a message's content when the bot lacks MESSAGE_CONTENT."""


class MessageEvents:
    """Sends a message's events in the background (the REST call that made the message does not
    wait for them, as on Discord), in order per fake; ``settled`` waits for those sent so far."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._pending: set[asyncio.Task[None]] = set()
        self._last: asyncio.Task[None] | None = None

    def created(self, msg: Message) -> None:
        self._queue("MESSAGE_CREATE", msg)

    def edited(self, msg: Message) -> None:
        self._queue("MESSAGE_UPDATE", msg)

    def deleted(self, msg: Message) -> None:
        self._queue("MESSAGE_DELETE", msg)

    async def settled(self) -> None:
        """Every event queued so far has been sent (or found no connected bot)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    def _queue(self, event: str, msg: Message) -> None:
        if msg.ephemeral:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # made outside the server's loop (a test's setup): nobody is connected
        data = self._payload(event, msg)
        task = loop.create_task(self._send(event, data, msg, self._last))
        self._last = task
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def _payload(self, event: str, msg: Message) -> dict[str, Any]:
        """The event's data, read now (a later edit must not change what this event said)."""
        guild = msg.channel.guild
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if guild is not None:
                data["guild_id"] = str(guild.id)
            return data
        data = msg.payload(self.fake.base_url)
        if guild is not None:
            member = guild.members.get(msg.author.id)
            if member is not None:
                data["member"] = guild.member_payload(member, with_user=False)
        return data

    async def _send(self, event: str, data: dict[str, Any], msg: Message,
                    before: asyncio.Task[None] | None) -> None:
        if before is not None:  # events leave in the order their messages changed
            await asyncio.gather(before, return_exceptions=True)
        guild = msg.channel.guild
        intent = DIRECT_MESSAGES if guild is None else GUILD_MESSAGES
        try:
            session = self.fake.session_for(guild)
        except RuntimeError:
            return  # no bot connected: it misses the event, as on Discord
        if not session.intents & intent:
            return
        if (guild is not None and event != "MESSAGE_DELETE" and not session.intents & MESSAGE_CONTENT
                and msg.author is not self.fake.bot_user
                and f"<@{self.fake.bot_user.id}>" not in str(data.get("content", ""))):
            data = {**data, **HIDDEN_WITHOUT_CONTENT}
        if guild is None:
            await self.fake.dispatch(event, data, None)
        else:
            await channel_event(self.fake, event, data, msg.channel, intent=intent)
