"""Which Discord errors are final for a target, and what to tell people about them.

Retrying a post that Discord refuses for good (no permission, a deleted channel, a player who
left every server the bot is in) only repeats the refusal every round and holds up what comes
after it; these refusals park the target instead (see bot/service/outbox.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord.error_codes import (
    ARCHIVED_THREAD,
    LOCKED_THREAD,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    NO_MUTUAL_GUILDS,
    UNKNOWN_CHANNEL,
    UNKNOWN_USER,
)
from bot.discord.mentions import only, plain_name
from bot.discord.prompt_ui import timestamp
from bot.discord.sending import channel_of, clip, nonce_of
from bot.service.outbox import REFUSED_KIND

if TYPE_CHECKING:
    from bot.discord.wiring import Messenger
    from bot.service import Notice
    from bot.service.types import Blocked

FINAL = frozenset({MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL, UNKNOWN_USER, NO_MUTUAL_GUILDS,
                   LOCKED_THREAD})
"""Discord error codes that will not change by asking again; closed DMs (DMS_CLOSED) have their own fallback."""

NEEDED = (("view_channel", "View Channel"), ("send_messages", "Send Messages"), ("attach_files", "Attach Files"))
"""What the bot needs in a match channel (the maps are attachments)."""


def final_code(exc: BaseException) -> int | None:
    """The Discord error code if ``exc`` is a refusal that asking again will not change."""
    if isinstance(exc, discord.HTTPException) and 400 <= exc.status < 500 and exc.code in FINAL:
        return int(exc.code)
    return None


def missing_permission(bot: Messenger, channel_id: int) -> str | None:
    """The first needed permission the bot lacks in the channel, as far as its cache knows.
    Only the first: without View Channel nothing else counts, without Send Messages Discord
    drops Attach Files too."""
    channel = bot.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if channel is None or me is None or not hasattr(channel, "permissions_for"):
        return None
    perms = channel.permissions_for(me)
    return next((label for attr, label in NEEDED if not getattr(perms, attr)), None)


def reason_for(bot: Messenger, code: int, kind: str, target_id: int) -> str:
    """A short, readable reason for a final refusal."""
    if code in (MISSING_PERMISSIONS, MISSING_ACCESS) and kind == "channel":
        missing = missing_permission(bot, target_id)
        if missing is not None:
            return f"missing permission {missing}"
        return "missing access" if code == MISSING_ACCESS else "missing permissions"
    return {
        UNKNOWN_CHANNEL: "the channel no longer exists, or I can no longer see it",
        LOCKED_THREAD: "the match's thread is locked",
        ARCHIVED_THREAD: "the match's thread is archived and I may not reopen it",
        NO_MUTUAL_GUILDS: "we no longer share a server",
        UNKNOWN_USER: "the account no longer exists",
        MISSING_ACCESS: "missing access",
        MISSING_PERMISSIONS: "missing permissions",
    }.get(code, f"Discord refused it (error {code})")


def remedy(kind: str, code: int) -> str:
    """Who can fix it, and how."""
    if kind == "channel" and code in (LOCKED_THREAD, ARCHIVED_THREAD):
        return "a moderator can unlock and reopen the thread, or give me Manage Threads there"
    if kind == "channel" and code == UNKNOWN_CHANNEL:
        return "if it was deleted, the match cannot post there again; the host can start a new one elsewhere"
    if kind == "channel":
        return "a server admin must give me View Channel, Send Messages and Attach Files there"
    return "they get their held decisions as soon as I can reach them again; at the deadline the AI chooses for them"


def alert_text(payload: dict[str, Any], channel_id: int, match_id: int) -> str:
    """The message telling the host and players about a blocked target (a ``blocked`` notice)."""
    kind, code, reason = payload["target_kind"], int(payload.get("code") or 0), payload["reason"]
    where = f"match #{match_id} in <#{channel_id}>"
    if kind == REFUSED_KIND:
        return (f"A message of {where} could not be delivered: {reason}. I left it out so the match goes on "
                "(`/game log` has every public line, `/game act` every open decision). "
                "I tell you only once per match.")
    if kind == "channel":
        return (f"I can't post in <#{payload['target_id']}> (match #{match_id}): {reason}; {remedy(kind, code)}. "
                "The match's posts wait and follow in order as soon as I can post there again; "
                "your decisions still come to your DMs.")
    name = plain_name(payload.get("name") or "a player")
    return (f"I can't send direct messages to {name} (<@{payload['target_id']}>, {where}): {reason}; "
            f"{remedy(kind, code)}.")


class AlertSender(Protocol):
    """What an alert uses of the delivery: the messenger and the DM step (dm_delivery.py)."""

    @property
    def bot(self) -> Messenger: ...

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None: ...


async def alert(delivery: AlertSender, notice: Notice) -> str | None:
    """Tell someone that a target of the match refuses its notices (a ``blocked`` notice)."""
    payload = notice.payload
    text = clip(alert_text(payload, channel_of(notice), notice.match_id))
    if notice.user_id is not None:
        return await delivery.send_dm(notice, text)
    channel = delivery.bot.get_partial_messageable(channel_of(notice))
    users = [int(payload["target_id"])] if payload.get("target_kind") == "user" else []
    msg = await channel.send(text, nonce=nonce_of(notice), allowed_mentions=only(users))
    return str(msg.id)


def status_lines(blocked: list[Blocked], names: dict[int, str]) -> list[str]:
    """`/game status` lines for the match's blocked targets."""
    lines = []
    for block in blocked:
        if block.kind == "channel":
            head = f"I can't post in <#{block.target_id}>"
        else:
            head = f"I can't send direct messages to {plain_name(names.get(block.target_id, 'a player'))}"
        held = f"{block.held} held, " if block.held else ""
        lines.append(f"{head} since {timestamp(block.since)}: {block.reason}; {remedy(block.kind, block.code)} "
                     f"({held}I try again {timestamp(block.next_probe_at)}).")
    return lines
