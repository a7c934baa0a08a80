"""The lobby post: the one message a match keeps in the channel where it was opened.

It is a view of the match, rendered from the match as it is whenever it is written: the game,
the host, the seats, then (once it runs) the current phase and a link to the match's thread,
and at the end how it ended. Delivery is its one writer: a lobby notice writes it at once (a
lobby change is what it shows), and while the match runs it follows the match's version at
most once every LOBBY_INTERVAL seconds, by edits only (the phase changes far less often)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Protocol

import discord

from bot.discord import texts, threads
from bot.discord.error_codes import UNKNOWN_CHANNEL
from bot.discord.ids import LobbyId
from bot.discord.mentions import NOBODY, ROUTINE, plain_name, plain_names
from bot.discord.paced import PacedRefresh
from bot.discord.prompt_ui import PlainView
from bot.discord.seat_posts import take_button
from bot.discord.sending import channel_of, nonce_of
from bot.service.replacements import seat_label
from bot.service.types import MatchInfo, Status
from engine.text import fill

if TYPE_CHECKING:
    from bot.discord.wiring import Host
    from bot.service import Notice

log = logging.getLogger(__name__)

LOBBY_INTERVAL = 10.0
"""Seconds between two edits of one lobby post while its match runs: the lobby posts of every
match of a channel share that channel's edit limit (5 per 5 s), and they show only the phase."""


def open_seats(info: MatchInfo) -> list[int]:
    """The seats of a running match open for a replacement (`/game replace`)."""
    if info.status not in ("active", "paused"):
        return []
    return [seat.seat for seat in sorted(info.seats, key=lambda one: one.seat) if seat.open_since is not None]


def lobby_view(match_id: int, status: str, taking: list[int] | None = None) -> discord.ui.View:
    """Join, Leave, Add AI and Start while the lobby is open; once it runs, a Take seat button
    for each seat open for a replacement (``taking``); no component once it is over."""
    view = PlainView()
    if status != "lobby":
        for seat in taking or []:
            view.add_item(take_button(match_id, seat))
        return view
    for action, label, style in (
        ("join", "Join", discord.ButtonStyle.success),
        ("leave", "Leave", discord.ButtonStyle.secondary),
        ("ai", "Add AI", discord.ButtonStyle.secondary),
        ("start", "Start", discord.ButtonStyle.primary),
    ):
        view.add_item(discord.ui.Button(label=label, style=style, custom_id=LobbyId(match_id, action).encode()))
    return view


def _seats(info: MatchInfo) -> str:
    names = []
    for seat in sorted(info.seats, key=lambda one: one.seat):
        host = texts.BOARD_HOST if seat.user_id is not None and seat.user_id == info.host_id else ""
        names.append(f"{plain_name(seat.name)}{host}")
    return ", ".join(names) or texts.LOBBY_NO_SEATS


def lobby_text(status: Status, latest: str | None = None) -> str:
    """The lobby post for the match as ``status`` shows it; ``latest`` is the lobby change it
    was written for (shown while the lobby is open)."""
    info = status.match
    host = next((s.name for s in info.seats if s.user_id is not None and s.user_id == info.host_id), None)
    lines = [texts.LOBBY_HEAD.format(title=plain_name(info.title), match_id=info.id,
                                     host=texts.LOBBY_HOSTED.format(host=plain_name(host)) if host else "")]
    lines.append(texts.LOBBY_SEATS.format(taken=len(info.seats), seats=info.max_seats, names=_seats(info))
                 if info.status == "lobby" else texts.LOBBY_PLAYERS.format(names=_seats(info)))
    if info.clock is not None and info.status in ("lobby", "active", "paused"):
        lines.append(texts.LOBBY_CLOCK_LINE.format(clock=info.clock.describe()))
    if info.takeover_ai == "search" and info.status in ("lobby", "active", "paused"):
        lines.append(texts.LOBBY_TAKEOVER_LINE)
    thread = texts.LOBBY_THREAD.format(channel_id=info.channel_id) if info.in_thread else ""
    phase = fill(status.phase, plain_names(info.names()))
    if info.status == "lobby":
        lines.append(texts.LOBBY_OPEN + thread)
        if latest:
            lines.append(texts.BOARD_LATEST.format(line=discord.utils.escape_mentions(latest)[:300]))
    elif info.status == "active":
        lines.append(texts.LOBBY_NOW.format(phase=phase) + thread)
    elif info.status == "paused":
        lines.append(texts.LOBBY_PAUSED.format(phase=phase) + thread)
    if info.status in ("active", "paused") and status.vote:
        lines.append(texts.LOBBY_VOTE.format(line=discord.utils.escape_mentions(status.vote)[:300]))
    if info.status in ("active", "paused"):
        for seat in open_seats(info):
            label = seat_label(seat)
            lines.append(texts.LOBBY_OPEN_SEAT.format(seat=label[:1].upper() + label[1:], seat_lower=label,
                                                      name=plain_name(info.names()[seat])))
    elif info.status != "lobby":  # an open lobby already says so above
        lines.append(discord.utils.escape_mentions(status.ending or texts.BOARD_ENDED.format(status=info.status)))
        if info.in_thread and info.status == "finished":
            lines.append(texts.LOBBY_STORY.format(channel_id=info.channel_id))
    return "\n".join(lines)[:2000]


class LobbyPosts(PacedRefresh):
    """Writes every match's lobby post: at once for a lobby notice, paced while the match runs."""

    interval = LOBBY_INTERVAL
    subject = "the lobby post"

    def __init__(self, host: Host) -> None:
        super().__init__()
        self.host = host
        self.locks: dict[int, asyncio.Lock] = {}
        """One write of a match's lobby post at a time, each rendered inside it: the last write
        shows the newest read."""
        self.refs: dict[int, int] = {}
        """Match -> its lobby post (the ref of its first delivered lobby notice)."""
        self.shown: dict[int, str] = {}
        """Match -> the text its lobby post shows: an unchanged post is not edited."""
        self.wakes: dict[int, asyncio.Event] = {}
        """Match -> what cuts its paced wait short (it ended)."""

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self.locks.setdefault(match_id, asyncio.Lock())

    async def show(self, match_id: int, latest: str, nonce: str, channel_id: int) -> tuple[int, MatchInfo]:
        """Write the lobby post now (post it the first time, with ``nonce``); returns the post and
        the match as shown. A failure raises: the notice is delivered again."""
        async with self._lock(match_id):
            status = (await self.host.svc.board_of(match_id)).status
            info = status.match
            channel = self.host.get_partial_messageable(info.lobby_channel_id or channel_id)
            text, view = lobby_text(status, latest), lobby_view(match_id, info.status, open_seats(info))
            ref = await self._ref(match_id)
            if ref is not None:
                try:
                    await channel.get_partial_message(ref).edit(content=text, view=view, allowed_mentions=NOBODY)
                except discord.NotFound as exc:
                    if exc.code == UNKNOWN_CHANNEL:
                        raise
                    ref = None  # deleted: the lobby is posted again
            if ref is None:
                ref = (await channel.send(text, view=view, nonce=nonce, allowed_mentions=NOBODY, silent=ROUTINE)).id
            self.refs[match_id], self.shown[match_id] = ref, text
            self.last_edit[match_id] = time.monotonic()
            return ref, info

    async def _ref(self, match_id: int) -> int | None:
        ref = self.refs.get(match_id)
        if ref is None:
            found = await self.host.svc.notice_ref(match_id, "lobby")
            ref = int(found) if found and found.isdigit() else None
        return ref

    def touch(self, match_id: int, version: int | None = None, within: float = 0.0, *, ended: bool = False) -> None:
        """The match moved: its lobby post follows within LOBBY_INTERVAL (one edit for many moves),
        at once when the match ``ended`` (its result is what the channel waits for). A notice
        written at a ``version`` the post was already rendered from costs no read. ``within`` (a
        board's gathering wait) does not apply: the lobby keeps its own pace."""
        if version is not None and version <= self.read_version.get(match_id, -1):
            return
        if ended:
            self.last_edit.pop(match_id, None)
            if match_id in self.wakes:
                self.wakes[match_id].set()
        self._start(match_id)

    async def _pause(self, match_id: int, seconds: float) -> None:
        """Wait out the pace, cut short when the match ends meanwhile."""
        wake = self.wakes.setdefault(match_id, asyncio.Event())
        try:
            with contextlib.suppress(TimeoutError):  # not wait_for, which may swallow a cancellation (3.11)
                async with asyncio.timeout(seconds):
                    await wake.wait()
        finally:
            self.wakes.pop(match_id, None)

    async def refresh(self, match_id: int) -> None:
        """Edit the lobby post of a running or ended match to show it as it is now (a lobby
        still open is written by its lobby notices alone)."""
        async with self._lock(match_id):
            status = (await self.host.svc.board_of(match_id)).status
            info = status.match
            self.read_version[match_id] = max(info.version, self.read_version.get(match_id, -1))
            ref = await self._ref(match_id)
            if info.status == "lobby" or ref is None:
                return
            text = lobby_text(status)
            if self.shown.get(match_id) == text:
                return
            channel = self.host.get_partial_messageable(info.lobby_channel_id or info.channel_id)
            try:
                await channel.get_partial_message(ref).edit(content=text, view=lobby_view(match_id, info.status, open_seats(info)),
                                                            allowed_mentions=NOBODY)
            except discord.NotFound:
                log.info("the lobby post of match %s is gone; it is not posted again", match_id)
            self.shown[match_id] = text


class LobbyPoster(Protocol):
    """What a lobby notice uses of the delivery: the host (to start the match's thread) and
    the lobby posts."""

    @property
    def bot(self) -> Host: ...

    @property
    def lobbies(self) -> LobbyPosts: ...


async def post_lobby(delivery: LobbyPoster, notice: Notice) -> str:
    """The lobby post, in the channel where the match was opened, shown as the match is now;
    the match's thread starts from it (threads.py)."""
    latest = str(notice.payload.get("text", ""))
    ref, info = await delivery.lobbies.show(notice.match_id, latest, nonce_of(notice), channel_of(notice))
    if info.opens_thread and not info.in_thread and info.status in ("lobby", "active", "paused"):
        await threads.start_from_lobby(delivery.bot, info, ref)
    return str(ref)
