"""Pinned messages as Discord models them (message resource: Pin Message, Unpin Message, Get
Channel Pins, and the deprecated /pins routes): the Pin Messages permission, the 250-pin cap,
`pinned` in the message payload, Discord's "pinned a message" notice in the channel and the
CHANNEL_PINS_UPDATE event.

Since February 23, 2026 Manage Messages alone no longer lets anyone pin (Discord change log,
"Permission Changes Going into Effect February 2026"), so only Pin Messages (1 << 51) counts.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .models import Channel, Message, Thread, now_iso
from .permissions import FLAGS
from .server import DiscordError, jresp
from .threads import archived_error, channel_event, system_message

if TYPE_CHECKING:
    from .server import FakeDiscord, JsonHandler

PIN_MESSAGES = FLAGS["pin_messages"]
READ_HISTORY = FLAGS["read_message_history"]
MAX_PINS = 250
PINS_PAGE = 50
PIN_NOTICE = 6  # message type CHANNEL_PINNED_MESSAGE


class PinRoutes:
    """The pin routes of one fake: the current /messages/pins ones and the deprecated /pins ones."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def routes(self) -> list[tuple[str, str, JsonHandler]]:
        return [
            ("GET", "/channels/{cid}/messages/pins", self._list),
            ("PUT", "/channels/{cid}/messages/pins/{mid}", self._pin),
            ("DELETE", "/channels/{cid}/messages/pins/{mid}", self._unpin),
            ("GET", "/channels/{cid}/pins", self._list_deprecated),
            ("PUT", "/channels/{cid}/pins/{mid}", self._pin),
            ("DELETE", "/channels/{cid}/pins/{mid}", self._unpin),
        ]

    def _target(self, cid: str, mid: str) -> tuple[Channel, Message]:
        """The channel and message to (un)pin, with Discord's refusals in its order: the channel,
        View Channel, Pin Messages, the message, an archived thread, a system message."""
        channel = self.fake._channel(cid)
        self.fake._require_permissions(channel)
        if channel.guild is not None and not channel.permissions_of(self.fake.bot_user) & PIN_MESSAGES:
            raise DiscordError(403, 50013, "Missing Permissions", "missing_permissions",
                               f"the bot lacks Pin Messages in #{channel.name} (Manage Messages no longer counts)")
        msg = self.fake.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.channel is not channel or msg.deleted or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message", "unknown_message", f"{cid}/{mid}")
        if isinstance(channel, Thread) and channel.archived:
            raise archived_error(channel)
        if msg.type not in (0, 19, 20):
            raise DiscordError(400, 50021, "Cannot execute action on a system message", "system_message",
                               f"message {mid} is a type {msg.type} system message")
        return channel, msg

    async def _pins_event(self, channel: Channel) -> None:
        pins = channel.pins
        data: dict[str, Any] = {"channel_id": str(channel.id),
                                "last_pin_timestamp": pins[0].pinned_at if pins else None}
        if channel.guild is not None:
            data["guild_id"] = str(channel.guild.id)
        await channel_event(self.fake, "CHANNEL_PINS_UPDATE", data, channel)

    async def _pin(self, request: web.Request, body: Any, files: list, cid: str, mid: str) -> web.Response:
        """Pin: 204; Discord posts its notice in the channel, pointing at the message."""
        channel, msg = self._target(cid, mid)
        if msg.pinned_at is None:
            if len(channel.pins) >= MAX_PINS:
                raise DiscordError(400, 30003, "Maximum number of pins reached for the channel (250)", "max_pins",
                                   f"#{channel.name} already has {MAX_PINS} pins")
            msg.pinned_at = now_iso()
            system_message(self.fake, channel, PIN_NOTICE, msg)
            await self._pins_event(channel)
        return web.Response(status=204)

    async def _unpin(self, request: web.Request, body: Any, files: list, cid: str, mid: str) -> web.Response:
        channel, msg = self._target(cid, mid)
        if msg.pinned_at is not None:
            msg.pinned_at = None
            await self._pins_event(channel)
        return web.Response(status=204)

    def _readable(self, cid: str) -> tuple[Channel, list[Message]]:
        """View Channel is required; without Read Message History the list is empty (Get Channel Pins)."""
        channel = self.fake._channel(cid)
        self.fake._require_permissions(channel)
        if channel.guild is not None and not channel.permissions_of(self.fake.bot_user) & READ_HISTORY:
            return channel, []
        return channel, channel.pins

    async def _list(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        """Get Channel Pins: pages of {pinned_at, message}, newest pin first, `before` a pin time."""
        _, pins = self._readable(cid)
        before = request.query.get("before")
        if before:
            try:
                limit_at = datetime.fromisoformat(before.replace("Z", "+00:00"))
            except ValueError:
                raise DiscordError(400, 50035, "Invalid Form Body", "spec",
                                   f"before: {before!r} is not an ISO8601 timestamp") from None
            pins = [m for m in pins if datetime.fromisoformat(m.pinned_at or "") < limit_at]
        limit = int(request.query.get("limit") or PINS_PAGE)
        page = pins[:limit]
        return jresp({"items": [{"pinned_at": m.pinned_at, "message": m.payload(self.fake.base_url)} for m in page],
                      "has_more": len(pins) > limit})

    async def _list_deprecated(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        """Get Pinned Messages (deprecated): the first 50 pinned messages as message objects."""
        _, pins = self._readable(cid)
        return jresp([m.payload(self.fake.base_url) for m in pins[:PINS_PAGE]])
