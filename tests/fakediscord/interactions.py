"""The fake's interactions: INTERACTION_CREATE as Discord builds it, the bot's callback judged by
Discord's rules (the 3 s deadline, one acknowledgement, the callback types an interaction takes)
and the interaction webhook (follow-ups, @original). A half of FakeDiscord (server.py)."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import limits
from .errors import DiscordError, jresp
from .limits import FLAG_EPHEMERAL, FLAG_LOADING
from .models import ALL_PERMISSIONS, Channel, Guild, Message, User, snowflake


@dataclass(eq=False)
class Interaction:
    """One INTERACTION_CREATE the fake sent, and everything the bot did with it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    payload: dict
    created: float
    message: Message | None = None
    shard_id: int | None = None
    ack_type: int | None = None
    error: dict | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict | None = None
    choices: list[dict] | None = None
    callback: asyncio.Future[None] | None = None

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild


class InteractionRoutes:
    """FakeDiscord's interactions half: its methods use the fake's messages and validation."""

    def app_permissions(self, channel: Channel) -> int:
        """The bot's permissions where the interaction happens, overwrites included, as Discord
        computes `app_permissions` (Interaction object); in DMs, the implicit ones (all here)."""
        if channel.guild is None or self.bot_user.id not in channel.guild.members:
            return ALL_PERMISSIONS
        return channel.permissions_of(self.bot_user)

    def new_interaction(self, itype: int, user: User, channel: Channel, data: dict,
                        message: Message | None = None) -> Interaction:
        """Build an INTERACTION_CREATE payload as Discord would send it to the bot."""
        iid = snowflake()
        token = f"fake-token-{iid}"
        guild = channel.guild
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": itype, "token": token, "version": 1,
            "attachment_size_limit": self.attachment_size_limit, "locale": "en-US",
            "app_permissions": str(self.app_permissions(channel)), "entitlements": [], "channel_id": str(channel.id),
            "channel": channel.payload(), "data": data,
        }
        if guild is not None:
            member = guild.members.get(user.id) or guild.add_member(user)
            payload.update(guild_id=str(guild.id), guild_locale="en-US", context=0,
                           authorizing_integration_owners={"0": str(guild.id)},
                           member={**guild.member_payload(member), "permissions": str(guild.permissions_of(user))})
        else:
            payload.update(user=user.payload(), context=1, authorizing_integration_owners={"0": "0"})
        if message is not None:
            payload["message"] = message.payload(self.base_url)
        rec = Interaction(iid, token, itype, user, channel, payload, time.monotonic(), message=message)
        self.interactions[iid] = rec
        self._by_token[token] = rec
        return rec

    async def send_interaction(self, rec: Interaction, *, wait: bool = True) -> Interaction:
        """Dispatch INTERACTION_CREATE to the right shard and wait for the bot's callback.

        If nothing at all arrives within the ack deadline (plus a short grace), a `no_ack`
        violation is recorded: Discord would show "The application did not respond".
        """
        loop = asyncio.get_running_loop()
        rec.callback = loop.create_future()
        rec.created = time.monotonic()
        rec.shard_id = await self.dispatch("INTERACTION_CREATE", rec.payload, rec.guild)
        if wait:
            try:
                await asyncio.wait_for(asyncio.shield(rec.callback), self.ack_deadline + self.ack_grace)
            except TimeoutError:
                self.violation("no_ack", 10062, 0, f"interaction {rec.id}",
                               f"type {rec.type} interaction never acknowledged within {self.ack_deadline} s")
        return rec

    def _refused_callback(self, path: str, refused: Any) -> None:
        """A callback Discord refused acknowledges nothing; the waiting test hears of it at once."""
        found = re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path)
        rec = self.interactions.get(int(found[1])) if found else None
        if rec is not None and rec.token == found[2] and rec.ack_type is None:  # type: ignore[index]
            rec.error = {"status": refused.status, "code": refused.body.get("code"),
                         "message": refused.body.get("message"), "detail": refused.detail}
            self._resolve(rec)

    def _resolve(self, rec: Interaction) -> None:
        if rec.callback is not None and not rec.callback.done():
            rec.callback.set_result(None)

    async def _callback(self, request: web.Request, body: Any, files: list, iid: str,
                        token: str) -> web.Response:
        rec = self.interactions.get(int(iid)) if iid.isdigit() else None
        if rec is None or rec.token != token:
            raise DiscordError(404, 10062, "Unknown interaction", "unknown_interaction", iid)
        try:
            return self._handle_callback(rec, body or {}, files)
        except DiscordError as err:
            if rec.ack_type is None:
                rec.error = {"status": err.status, "code": err.code, "message": err.message, "detail": err.detail}
            raise
        finally:
            self._resolve(rec)

    def _handle_callback(self, rec: Interaction, body: dict, files: list[tuple[str, bytes]]) -> web.Response:
        elapsed = time.monotonic() - rec.created
        if rec.ack_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.", "double_ack",
                               f"interaction {rec.id} already acknowledged with type {rec.ack_type}")
        if elapsed > self.ack_deadline:
            raise DiscordError(404, 10062, "Unknown interaction", "late_ack",
                               f"callback {elapsed:.2f} s after the interaction (deadline {self.ack_deadline} s)")
        cb_type = int(body.get("type", 0))
        data = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}.get(rec.type, set())
        if cb_type == 7 and rec.message is None or cb_type not in allowed:
            raise DiscordError(400, 50035, "Invalid Form Body", "bad_callback_type",
                               f"callback type {cb_type} is not valid for interaction type {rec.type}")
        ephemeral_to = rec.user if int(data.get("flags") or 0) & FLAG_EPHEMERAL else None
        if cb_type in (4, 7):
            self._validate(data, files, self.attachment_size_limit, editing=rec.message if cb_type == 7 else None)
        elif cb_type == 9:
            problems = limits.check_modal(data)
            if problems:
                raise DiscordError(400, 50035, "Invalid Form Body", "invalid_modal", "; ".join(problems))
        elif cb_type == 8:
            problems = limits.check_choices(data.get("choices") or [])
            if problems:
                raise DiscordError(400, 50035, "Invalid Form Body", "invalid_choices", "; ".join(problems))
        rec.ack_type = cb_type
        result: dict[str, Any] = {"interaction": {
            "id": str(rec.id), "type": rec.type, "response_message_loading": cb_type == 5,
            "response_message_ephemeral": ephemeral_to is not None}}
        if cb_type == 4:
            rec.original = self.create_message(rec.channel, data, files, ephemeral_to=ephemeral_to, interaction=rec)
        elif cb_type == 5:
            rec.original = self.create_message(rec.channel, {"flags": data.get("flags")}, [],
                                               ephemeral_to=ephemeral_to, interaction=rec, extra_flags=FLAG_LOADING)
        elif cb_type in (6, 7):
            rec.original = rec.message
            if cb_type == 7 and rec.message is not None:
                self.edit_message(rec.message, data, files)
        elif cb_type == 8:
            rec.choices = list(data.get("choices") or [])
        elif cb_type == 9:
            rec.modal = data
            self.modals[rec.user.id] = (data, rec)
        if rec.original is not None and cb_type in (4, 5, 7):
            result["interaction"]["response_message_id"] = str(rec.original.id)
            result["resource"] = {"type": cb_type, "message": rec.original.payload(self.base_url)}
        return jresp(result)

    def _webhook_interaction(self, app: str, token: str) -> Interaction:
        rec = self._by_token.get(token)
        if rec is None or app != str(self.app_id):
            raise DiscordError(404, 10015, "Unknown Webhook", "unknown_webhook", f"token {token[:24]}")
        age = time.monotonic() - rec.created
        if age > self.token_ttl:
            raise DiscordError(401, 50027, "Invalid Webhook Token", "expired_token",
                               f"interaction token used {age:.2f} s after the interaction (ttl {self.token_ttl} s)")
        if rec.ack_type is None:
            raise DiscordError(404, 10015, "Unknown Webhook", "followup_before_ack",
                               f"interaction {rec.id} used as a webhook before it was acknowledged")
        return rec

    async def _followup(self, request: web.Request, body: Any, files: list, app: str,
                        token: str) -> web.Response:
        rec = self._webhook_interaction(app, token)
        body = body or {}
        self._validate(body, files, self.attachment_size_limit)
        original = rec.original
        if rec.ack_type == 5 and original is not None and original.loading:
            # Discord: the first follow-up after a "thinking" defer replaces the loading message.
            # It still works but is the deprecated form: edit @original instead (a second
            # follow-up would be a new message, so a bot that relies on this posts twice).
            self.violation("followup_as_edit", 0, 200, f"POST /webhooks/{app}/{{token}}",
                           f"interaction {rec.id}: a follow-up used to answer a thinking defer; "
                           "PATCH /webhooks/{app}/{token}/messages/@original instead")
            return jresp(self.edit_message(original, body, files).payload(self.base_url))
        ephemeral_to = rec.user if int(body.get("flags") or 0) & FLAG_EPHEMERAL else None
        msg = self.create_message(rec.channel, body, files, ephemeral_to=ephemeral_to, interaction=rec)
        rec.followups.append(msg)
        return jresp(msg.payload(self.base_url))

    async def _webhook_message(self, request: web.Request, body: Any, files: list, app: str, token: str,
                               mid: str) -> web.StreamResponse:
        rec = self._webhook_interaction(app, token)
        if mid == "@original":
            msg = rec.original
        else:
            msg = next((m for m in [rec.original, *rec.followups] if m is not None and str(m.id) == mid), None)
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message", "unknown_message",
                               f"{mid} of interaction {rec.id} (ack type {rec.ack_type})")
        if request.method == "GET":
            return jresp(msg.payload(self.base_url))
        if request.method == "DELETE":
            msg.deleted = True
            self.message_events.deleted(msg)
            return web.Response(status=204)
        body = body or {}
        self._validate(body, files, self.attachment_size_limit, editing=msg)
        return jresp(self.edit_message(msg, body, files).payload(self.base_url))
