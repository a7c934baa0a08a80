"""The replay GIF posted once in a finished match's channel (a ``replay`` notice).

The GIF is drawn from the match's log and public views only (bot/service/history.py), in a
worker thread, and kept under the attachment limit of the channel's server. Drawing takes
seconds, so it happens before the notice takes one of the delivery's send slots, one GIF at a
time: matches ending together never hold up the other matches' posts, nor the CPU."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Protocol

import discord

from bot.discord.error_codes import UNKNOWN_MESSAGE
from bot.discord.mentions import NOBODY, ROUTINE
from bot.discord.sending import channel_of, clip, inert, nonce_of
from bot.service.history import REPLAY_NOTICE, NothingToReplay, ReplayGif
from render.anim import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from bot.discord.wiring import Messenger
    from bot.service import Notice


class ReplayService(Protocol):
    """The service calls a replay post makes."""

    async def notice_ref(self, match_id: int, kind: str) -> str | None: ...

    async def replay_gif(self, match_id: int, max_bytes: int = DEFAULT_MAX_BYTES) -> ReplayGif: ...


class ReplayPoster(Protocol):
    """What a replay post uses of the delivery: the messenger, the service and its drawn GIFs."""

    @property
    def bot(self) -> Messenger: ...

    @property
    def svc(self) -> ReplayService: ...

    @property
    def replays(self) -> Replays: ...

log = logging.getLogger(__name__)

FILENAME = "replay.gif"


class Replays:
    """The delivery's replay drawings: one at a time, each kept until its post is tried."""

    def __init__(self) -> None:
        self.drawing = asyncio.Semaphore(1)
        self.ready: dict[int, ReplayGif | None] = {}
        """Notice id -> its drawn GIF (None: the match has nothing to draw)."""

    async def prepare(self, delivery: ReplayPoster, notice: Notice) -> None:
        """Draw a replay notice's GIF ahead of its send (any other notice: nothing to do)."""
        if notice.kind != REPLAY_NOTICE or notice.id in self.ready:
            return
        async with self.drawing:
            limit = file_limit(delivery, channel_of(notice))
            try:
                self.ready[notice.id] = await delivery.svc.replay_gif(notice.match_id, max_bytes=limit)
            except (NothingToReplay, ValueError) as exc:
                log.warning("no replay GIF for match %s: %s", notice.match_id, exc)
                self.ready[notice.id] = None


def file_limit(delivery: ReplayPoster, channel_id: int) -> int:
    """Bytes one attachment may have here: the server's limit when known, never above render's own."""
    channel = delivery.bot.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    limit = getattr(guild, "filesize_limit", None)
    return min(DEFAULT_MAX_BYTES, int(limit)) if isinstance(limit, int) else DEFAULT_MAX_BYTES


async def post_replay(delivery: ReplayPoster, notice: Notice) -> str:
    """The replay notice: its GIF onto the result's post, else posted with its text."""
    channel = delivery.bot.get_partial_messageable(channel_of(notice))
    text = clip(inert(notice.payload.get("text", "")))
    return await post(delivery, notice, channel, text, nonce_of(notice))


async def post(delivery: ReplayPoster, notice: Notice, channel: discord.abc.Messageable, text: str, nonce: str) -> str:
    replays = delivery.replays
    await replays.prepare(delivery, notice)  # already drawn, unless this is a probe of a parked channel
    replay = replays.ready.get(notice.id)
    if replay is None:
        replays.ready.pop(notice.id, None)
        return "skipped"
    try:
        ref = await _onto_result(delivery, notice, channel, replay)
        if ref is None:
            msg = await channel.send(text, file=discord.File(io.BytesIO(replay.data), FILENAME), nonce=nonce,
                                     allowed_mentions=NOBODY, silent=ROUTINE)
            ref = str(msg.id)
    finally:
        replays.ready.pop(notice.id, None)  # a refused post draws again when it is retried: no GIF held for days
    log.info("posted the replay of match %s: %d phase images (%d made ahead by its phase posts), %d bytes",
             notice.match_id, replay.frames, replay.ahead, len(replay.data))
    return ref


async def _onto_result(delivery: ReplayPoster, notice: Notice, channel: discord.abc.Messageable,
                       replay: ReplayGif) -> str | None:
    """The GIF goes onto the result's post in place of its map (the last phase post above it
    already shows the final map): one post for the end of the match, not two. None when the
    result has no post (then the GIF gets its own)."""
    ref = await delivery.svc.notice_ref(notice.match_id, "result")
    if ref is None or not ref.isdigit() or not isinstance(channel, discord.PartialMessageable):
        return None
    try:
        await channel.get_partial_message(int(ref)).edit(
            attachments=[discord.File(io.BytesIO(replay.data), FILENAME)], allowed_mentions=NOBODY)
    except discord.NotFound as exc:
        if exc.code != UNKNOWN_MESSAGE:
            raise
        return None
    return ref
