"""A thread per match: the lobby message is posted in the channel where `/game new` ran, and a
public thread named after the match is started from it, so the channel shows one line per
match and each match's board, phase posts and pings gather in its own thread.

Where threads cannot be used (a channel type without threads, or the bot may not create public
threads or post in them) the match runs in the channel itself, one at a time, as before.
`/game new` typed inside a thread runs the match in that thread."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.aio_tasks import cancel_and_wait
from bot.discord.error_codes import (
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    THREAD_EXISTS,
    WRONG_CHANNEL_TYPE,
)
from bot.discord.permissions import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
from bot.discord.texts import SEVERAL_MATCH, SEVERAL_MATCHES, SEVERAL_MORE
from bot.service.errors import SeveralMatches
from bot.service.types import MatchInfo

if TYPE_CHECKING:
    from bot.discord.wiring import Host, Messenger

log = logging.getLogger(__name__)

ARCHIVE_MINUTES: Literal[60, 1440, 4320, 10080] = 10080
"""A match thread auto-archives after a week without posts (Discord's longest choice); any post
of the match reopens it, so a slow match loses nothing."""
MAX_NAME = 100
"""Discord's longest thread name."""
NO_THREAD_HERE = frozenset({MISSING_ACCESS, MISSING_PERMISSIONS, WRONG_CHANNEL_TYPE})
"""Refusals that keep the match in the channel, without a thread."""
THREAD_CHANNEL_TYPES = (discord.ChannelType.text, discord.ChannelType.news)
"""Channel types whose messages can start a public thread."""
NEEDED = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
ENDED = ("finished", "aborted")
SHOWN = 10
"""Matches a refusal lists by name (a reply stays far below Discord's 2000 characters)."""


def thread_name(info: MatchInfo) -> str:
    return f"{info.title} #{info.id}"[:MAX_NAME]


def opens_thread(interaction: discord.Interaction) -> bool:
    """Whether a match opened by this `/game new` runs in a thread of its own: the channel is one
    whose messages start threads and the bot may create public threads and post in them there.
    (Inside a thread, or where it may not, the match runs in the channel it was opened in.)"""
    channel = interaction.channel
    if getattr(channel, "type", None) not in THREAD_CHANNEL_TYPES:
        return False
    return interaction.app_permissions.value & NEEDED == NEEDED


async def start_from_lobby(host: Host, info: MatchInfo, message_id: int) -> MatchInfo:
    """Start the match's thread from its lobby message and move the match there; where Discord
    refuses threads for good, keep the match in its channel. A passing failure raises (the lobby
    notice is delivered again, its nonce returns the same message, and this runs again)."""
    channel_id = info.lobby_channel_id or info.channel_id
    try:
        data: Any = await host.http.start_thread_with_message(
            channel_id, message_id, name=thread_name(info), auto_archive_duration=ARCHIVE_MINUTES)
        thread_id = int(data["id"])
    except discord.HTTPException as exc:
        if exc.code == THREAD_EXISTS:
            thread_id = message_id  # a thread started from a message shares its id
        elif exc.code in NO_THREAD_HERE:
            log.info("match %s stays in channel %s: Discord refused its thread (%s)", info.id, channel_id, exc)
            return await host.svc.stay_in_channel(info.id)
        else:
            raise
    log.info("match %s runs in thread %s of channel %s", info.id, thread_id, channel_id)
    return await host.svc.move_to_thread(info.id, thread_id)


async def reopen(messenger: Messenger, channel_id: int) -> bool:
    """Unarchive an archived match thread so its board can be edited again (a member may, unless
    it is locked); False when Discord refuses."""
    try:
        await messenger.http.edit_channel(channel_id, archived=False, reason="warhost: the match goes on")
    except discord.HTTPException as exc:
        log.info("could not reopen archived thread %s: %s", channel_id, exc)
        return False
    return True


def several_text(error: SeveralMatches) -> str:
    """Which threads to use, as links a player clicks."""
    shown = error.matches[:SHOWN]
    where = ", ".join(SEVERAL_MATCH.format(title=m.title, match_id=m.id, channel_id=m.channel_id) for m in shown)
    more = SEVERAL_MORE.format(count=len(error.matches) - len(shown)) if len(error.matches) > len(shown) else ""
    return SEVERAL_MATCHES.format(where=where, more=more)


class Archives:
    """Archives the thread of an ended match (finished, aborted, or a lobby nobody was left in)
    ``delay`` seconds after the end was posted, once everything of the match is out (a post
    in an archived thread would reopen it). Only threads the bot started for a match: a thread a
    member started and typed `/game new` in is theirs. A restart forgets the ones still waiting:
    Discord archives them itself after ARCHIVE_MINUTES without posts."""

    SETTLE_SECONDS = 0.5
    GIVE_UP_SECONDS = 600.0

    def __init__(self, host: Host, delay: float, settled: Callable[[int], bool]) -> None:
        self.host = host
        self.delay = delay
        self.settled = settled
        self.tasks: dict[int, asyncio.Task[None]] = {}

    def ended(self, match_id: int) -> None:
        running = self.tasks.get(match_id)
        if running is None or running.done():
            self.tasks[match_id] = asyncio.create_task(self._run(match_id), name=f"archive-{match_id}")

    async def _run(self, match_id: int) -> None:
        try:
            await asyncio.sleep(self.delay)
            loop = asyncio.get_running_loop()
            end = loop.time() + self.GIVE_UP_SECONDS
            while not self.settled(match_id) or await self.host.svc.next_notices(match_id, 1):
                if loop.time() > end:
                    log.info("match %s still had posts to make after %.0f s: its thread is left open",
                             match_id, self.GIVE_UP_SECONDS)
                    return
                await asyncio.sleep(self.SETTLE_SECONDS)
            info = await self.host.svc.get_match(match_id)
            if info.in_thread and info.status in ENDED:
                await archive(self.host, info.channel_id)
        except Exception:
            log.exception("archiving the thread of match %s failed", match_id)
        finally:
            if self.tasks.get(match_id) is asyncio.current_task():
                del self.tasks[match_id]

    async def stop(self) -> None:
        await cancel_and_wait(self.tasks.values())
        self.tasks.clear()


async def archive(messenger: Messenger, thread_id: int) -> bool:
    """Archive an ended match's thread; False when Discord refuses (no Manage Threads, and the
    bot did not create it)."""
    try:
        await messenger.http.edit_channel(thread_id, archived=True, reason="warhost: the match is over")
    except discord.HTTPException as exc:
        log.info("could not archive thread %s: %s", thread_id, exc)
        return False
    log.info("archived thread %s", thread_id)
    return True
