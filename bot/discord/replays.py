"""The replay GIF posted once in a finished match's channel (a ``replay`` notice).

The GIF is drawn from the match's log and public views only (bot/service/history.py), in a
worker thread, and kept under the attachment limit of the channel's server."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.mentions import NOBODY
from bot.service.history import NothingToReplay
from render.anim import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from bot.discord.delivery import Delivery

log = logging.getLogger(__name__)

FILENAME = "replay.gif"


def file_limit(delivery: Delivery, channel_id: int) -> int:
    """Bytes one attachment may have here: the server's limit when known, never above render's own."""
    channel = delivery.bot.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    limit = getattr(guild, "filesize_limit", None)
    return min(DEFAULT_MAX_BYTES, int(limit)) if isinstance(limit, int) else DEFAULT_MAX_BYTES


async def post(delivery: Delivery, notice: Any, channel: discord.abc.Messageable, text: str, nonce: str) -> str:
    try:
        replay = await delivery.svc.replay_gif(notice.match_id, max_bytes=file_limit(delivery, notice.channel_id))
    except (NothingToReplay, ValueError) as exc:
        log.warning("no replay GIF for match %s: %s", notice.match_id, exc)
        return "skipped"
    msg = await channel.send(text, file=discord.File(io.BytesIO(replay.data), FILENAME), nonce=nonce,
                             allowed_mentions=NOBODY)
    log.info("posted the replay of match %s: %d phase images, %d bytes", notice.match_id, replay.frames,
             len(replay.data))
    return str(msg.id)
