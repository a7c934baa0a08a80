"""The fake's messages: posting and editing as Discord judges them (the body against Discord's
limits and the spec, attachments, flags, permissions, slowmode) and the message routes. A half of
FakeDiscord (server.py)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits
from .errors import DiscordError, jresp
from .limits import FLAG_EPHEMERAL, FLAG_LOADING
from .models import Attachment, Channel, Message, User, now_iso, snowflake

if TYPE_CHECKING:
    from .interactions import Interaction


class MessageRoutes:
    """FakeDiscord's messages half: its methods use the fake's channels, messages and limits."""

    def _build_attachments(self, body: dict, files: list[tuple[str, bytes]],
                           existing: list[Attachment] | None) -> list[Attachment]:
        """New files are the `files[n]` parts; on edit, `attachments` lists the ids to keep."""
        described = {str(a.get("id")): a for a in body.get("attachments") or []}
        new = [Attachment(snowflake(), described.get(str(i), {}).get("filename") or name, data,
                          described.get(str(i), {}).get("description")) for i, (name, data) in enumerate(files)]
        if existing is None:
            return new
        if "attachments" in body:
            keep_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            return [a for a in existing if str(a.id) in keep_ids] + new
        return existing + new

    def _validate(self, body: dict, files: list[tuple[str, bytes]], size_limit: int,
                  editing: Message | None = None) -> None:
        """Discord's refusals of a message body; `editing` is the message an edit would change."""
        if editing is not None:
            self.thread_routes.check_editable(editing)
        too_big = limits.oversized_files(files, size_limit)
        if too_big:
            raise DiscordError(413, 40005, "Request entity too large", "attachment_too_large", "; ".join(too_big))
        names = [a.filename for a in self._build_attachments(body, files, editing.attachments if editing else None)]
        problems = limits.check_message(body, files, size_limit, attachments=names,
                                        previous=editing.versions[-1] if editing is not None else None)
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body", "invalid_message", "; ".join(problems),
                               extra={"errors": limits.form_error(problems)["errors"]})

    def create_message(self, channel: Channel, body: dict, files: list[tuple[str, bytes]], *,
                       ephemeral_to: User | None = None, interaction: Interaction | None = None,
                       extra_flags: int = 0) -> Message:
        flags = int(body.get("flags") or 0) | extra_flags
        msg = Message(snowflake(), channel, self.bot_user, content=str(body.get("content") or ""),
                      embeds=list(body.get("embeds") or []), components=list(body.get("components") or []),
                      attachments=self._build_attachments(body, files, None), flags=flags,
                      ephemeral_to=ephemeral_to, interaction_id=interaction.id if interaction else None,
                      webhook_id=self.app_id if interaction else None,
                      nonce=None if body.get("nonce") is None else str(body["nonce"]),
                      allowed_mentions=body.get("allowed_mentions"))
        msg.snapshot()
        self.messages[msg.id] = msg
        channel.log.append(msg)
        self.message_events.created(msg)
        return msg

    def edit_message(self, msg: Message, body: dict, files: list[tuple[str, bytes]]) -> Message:
        """Edit in place: only the fields present in the body change; finishes a "thinking" state."""
        if "content" in body:
            msg.content = str(body["content"] or "")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            if msg.interaction_id is not None:  # an interaction response's flags, set by its callback
                msg.flags = (msg.flags & FLAG_EPHEMERAL) | (int(body["flags"]) & ~FLAG_EPHEMERAL)
            else:
                msg.flags = limits.edited_flags(msg.flags, int(body["flags"]))
        msg.attachments = self._build_attachments(body, files, msg.attachments)
        msg.flags &= ~FLAG_LOADING
        msg.edited_timestamp = now_iso()
        msg.snapshot()
        self.message_events.edited(msg)
        return msg

    def _channel(self, cid: str) -> Channel:
        channel = self.find_channel(int(cid))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel", "unknown_channel", cid)
        return channel

    async def _post_message(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        """Post as the bot: refused as Discord would (closed DMs, no mutual guild, the bot's channel
        permissions); an enforced nonce the bot used here within NONCE_WINDOW returns that message;
        `channel.fail_after_post` answers 5xx after creating the message (the response was lost)."""
        channel = self._channel(cid)
        recipient = channel.recipient
        if recipient is not None and recipient.dms_closed:
            raise DiscordError(403, 50007, "Cannot send messages to this user", "dms_closed",
                               f"DM to {recipient.name}, whose DMs are closed")
        if recipient is not None and not any(recipient.id in g.members for g in self.guilds):
            raise DiscordError(403, 50278, "Cannot send messages to this user due to having no mutual guilds",
                               "no_mutual_guilds", f"DM to {recipient.name}, who shares no guild with the bot")
        body = body or {}
        self._check_flags(body.get("flags"))
        self._validate(body, files, self.message_size_limit)
        nonce = body.get("nonce")
        if nonce is not None and not (isinstance(nonce, int) or (isinstance(nonce, str) and len(nonce) <= limits.MAX_NONCE)):
            raise DiscordError(400, 50035, "Invalid Form Body", "invalid_message", f"nonce {nonce!r}")
        if nonce is not None and body.get("enforce_nonce"):
            cutoff = time.monotonic() - limits.NONCE_WINDOW
            earlier = next((m for m in reversed(channel.log) if m.nonce == str(nonce)
                            and m.author is self.bot_user and m.created >= cutoff), None)
            if earlier is not None:
                return jresp(earlier.payload(self.base_url))
        msg = self.create_message(channel, body, files)
        if channel.fail_after_post:
            status = channel.fail_after_post.pop(0)
            return jresp({"message": "Internal Server Error", "code": 0}, status=status)
        return jresp(msg.payload(self.base_url))

    async def _channel_message(self, request: web.Request, body: Any, files: list, cid: str,
                               mid: str) -> web.StreamResponse:
        channel = self._channel(cid)
        msg = self.messages.get(int(mid))
        if msg is None or msg.channel is not channel or msg.deleted or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message", "unknown_message", f"{cid}/{mid}")
        if request.method == "GET":
            return jresp(msg.payload(self.base_url))
        if msg.author is not self.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user", "not_author", mid)
        if request.method == "DELETE":
            msg.deleted = True
            self.message_events.deleted(msg)
            return web.Response(status=204)
        body = body or {}
        self._check_flags(body.get("flags"), msg.flags)
        self._validate(body, files, self.message_size_limit, editing=msg)
        return jresp(self.edit_message(msg, body, files).payload(self.base_url))

    @staticmethod
    def _check_flags(flags: Any, current: int | None = None) -> None:
        """Discord's refusal of message flags a bot may not set (on a post, or by an edit)."""
        problems = limits.check_flags(None if flags is None else int(flags), current)
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body", "invalid_flags", "; ".join(problems),
                               extra={"errors": {"flags": {"_errors": [{"code": "MESSAGE_FLAGS_INVALID",
                                                                        "message": problems[0]}]}}})

    async def _typing(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        self._channel(cid)
        return web.Response(status=204)
