"""The delivery's direct messages: the seat's DM channel (stored once, never asked again), DMs
closed to the bot (then its notices go to the channel), and, after every drain, each seat's turn
DM, reminders and asking DMs brought up to date (``reconcile``: prompt_dms.py, asked_dms.py)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord import asked_dms, prompt_dms
from bot.discord.asked_dms import AskedService, SentAsk
from bot.discord.error_codes import DMS_CLOSED
from bot.discord.mentions import NOBODY, only
from bot.discord.seat_turns import SeatTurns
from bot.discord.sending import LeaseLost, channel_of, nonce_of, user_of
from bot.discord.waiting_marks import MarksService, WaitingMarks
from bot.service.notify_prefs import merged
from bot.service.outbox import USER

if TYPE_CHECKING:
    from datetime import datetime

    from bot.discord.wiring import Outbound
    from bot.service import MatchInfo, Notice
    from bot.service.notify import NotifyPrefs
    from bot.service.types import Blocked

log = logging.getLogger(__name__)

DM_CHANNELS_KEPT = 100_000
"""Users whose DM channel (and seats whose closed DMs) are kept in memory: a dict slot each."""


class DmService(prompt_dms.TurnDmService, AskedService, MarksService, Protocol):
    """The service calls the DMs make: the seat's DM channel, its closed DMs, and what the turn
    DMs and the asking DMs call (each names its own)."""

    async def get_match(self, match_id: int) -> MatchInfo: ...

    async def user_dm_channel(self, user_id: int) -> int | None: ...

    async def remember_user_dm_channel(self, user_id: int, dm_channel_id: int) -> None: ...

    async def dms_closed(self, match_id: int, seat: int) -> bool: ...

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool: ...

    async def dms_closed_at(self, match_id: int, seat: int) -> datetime | None: ...

    async def blocked_targets(self, match_id: int) -> list[Blocked]: ...


class DirectMessages(WaitingMarks):
    """The DM half of ``Delivery`` (delivery.py), which sets these up in its ``__init__``."""

    bot: Outbound
    gate: asyncio.Semaphore
    turns: SeatTurns
    asked: dict[int, dict[int, SentAsk]]
    dm_channels: dict[int, int]
    closed_dms: dict[tuple[int, int], bool]
    prefs: dict[int, dict[int, NotifyPrefs]]
    default_prefs: dict[int, bool]
    blocked: dict[int, bool]
    players: dict[int, list[int]]
    read_upto: dict[int, int]

    @property
    def svc(self) -> DmService:
        return self.bot.svc

    def unread(self, match_id: int, notice_id: int) -> bool:
        """Whether notice ``notice_id`` of the match was written after this process last read
        the match's queue (a worker reads it before it ends); False when it never read it."""
        return match_id in self.read_upto and notice_id > self.read_upto[match_id]

    async def ensure_lease(self) -> None:
        """Raise LeaseLost unless this process still holds the delivery lease: asked again after
        slow work (a drawing), since a process paused meanwhile must send nothing."""
        if not await self.bot.holds_lease("deliver"):
            raise LeaseLost

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None:
        """Send to the seat's DMs; if they are closed, say so in the channel once."""
        user_id = user_of(notice)
        seat = notice.seat
        if seat is not None and await self.dms_closed(notice.match_id, seat):
            return "dms-closed"
        try:
            dm = await self.dm_channel_for(notice.match_id, seat, user_id)
            msg = await dm.send(content, nonce=nonce_of(notice), allowed_mentions=NOBODY, **kwargs)
            return str(msg.id)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED or seat is None:
                raise
            if await self.mark_dms_closed(notice.match_id, seat):
                await self._say_dms_closed(notice, user_id)
            return None

    async def dm_channel_for(self, match_id: int, seat: int | None,
                             user_id: int) -> discord.PartialMessageable | discord.DMChannel:
        """The player's DM channel: the one stored for them (from any seat of any match: it is
        the same everywhere), else opened (and stored) once. discord.py keeps only 128 DM
        channels, so with more players it fetched the user and opened the channel again for
        nearly every DM (two requests, one under a tight bot-wide limit). Opening one needs only
        the user's id (no read of the user). Delivery opens them before their notices go, outside
        the send slots (dm_opener.py): an open here is the exception (a refused one, judged by its
        notice's refusal rules; a reminder's DM to someone whose channel was never opened)."""
        known = self.dm_channels.get(user_id)
        if known is None:
            known = await self.svc.user_dm_channel(user_id)
        if known is not None:
            self._know_dm_channel(user_id, known)
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        dm = await self.bot.create_dm(discord.Object(user_id))  # by id: the user needs no read first
        await self.svc.remember_user_dm_channel(user_id, dm.id)
        self._know_dm_channel(user_id, dm.id)
        return dm

    def _know_dm_channel(self, user_id: int, channel_id: int) -> None:
        if len(self.dm_channels) >= DM_CHANNELS_KEPT:
            self.dm_channels.clear()  # a bound, not a policy: they are read again as needed
        self.dm_channels[user_id] = channel_id

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs:
        """The player's notification settings for the match: as read with the batch of notices
        being delivered (every seated player's; the defaults when that read found nobody with
        settings for the match), else asked."""
        if self.default_prefs.get(match_id):
            return merged([])
        known = self.prefs.get(match_id, {}).get(user_id)
        return known if known is not None else await self.svc.notify_prefs(match_id, user_id)

    async def dms_closed_at(self, match_id: int, seat: int) -> datetime | None:
        """When the seat's DMs first refused the match's notices: None without asking when this
        process knows they never did (``closed_dms``)."""
        if self.closed_dms.get((match_id, seat)) is False:
            return None
        return await self.svc.dms_closed_at(match_id, seat)

    async def blocked_users(self, match_id: int) -> set[int]:
        """The players whose DMs refuse the match's notices for good (blocked targets): none
        without asking when the batch being delivered was read with no blocked target."""
        if not self.blocked.get(match_id, True):
            return set()
        return {b.target_id for b in await self.svc.blocked_targets(match_id) if b.kind == USER}

    async def dms_closed(self, match_id: int, seat: int) -> bool:
        """Whether the seat's DMs refused the match's notices (then its DMs go to the channel)."""
        known = self.closed_dms.get((match_id, seat))
        if known is None:
            if len(self.closed_dms) >= DM_CHANNELS_KEPT:
                self.closed_dms.clear()
            known = self.closed_dms[(match_id, seat)] = bool(await self.svc.dms_closed(match_id, seat))
        return known

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool:
        """Record that the seat's DMs are closed; True only the first time (say it once)."""
        self.closed_dms[(match_id, seat)] = True
        return bool(await self.svc.mark_dms_closed(match_id, seat))

    async def _say_dms_closed(self, notice: Notice, user_id: int) -> None:
        """Best effort: a channel that refuses it parks its own notices when it next meets one."""
        channel = self.bot.get_partial_messageable(channel_of(notice))
        try:
            await channel.send(
                f"<@{user_id}> I cannot send you direct messages (your DMs are closed for this server). "
                "Answer your decisions here with `/game act` instead.",
                nonce=nonce_of(notice, "dms-closed"),
                allowed_mentions=only([user_id]),
            )
        except discord.HTTPException as exc:
            log.info("could not say in channel %s that %s's DMs are closed: %s", notice.channel_id, user_id, exc)

    async def reconcile(self, match_id: int) -> None:
        """After a match's notices went out: each seat's turn DM as the match stands now (a
        sealed choice revealed, a turn the AI played, a match over), and its reminder DMs, from
        one read of all seats made holding the seats players held last time (``players``).
        Best effort: a failure here loses nothing, the next reconciling renders the same."""
        try:
            if not await self.bot.holds_lease("deliver"):
                return
            await asked_dms.close(self, match_id)
            async with self.gate:
                held = await prompt_dms.reconcile_seats(self, match_id, self.players.get(match_id, []))
            if len(self.players) >= DM_CHANNELS_KEPT:
                self.players.clear()
            self.players[match_id] = held
        except LeaseLost:
            return  # paused past the lease meanwhile: the holder brings the DMs up to date
        except Exception:
            log.exception("could not bring the turn DMs of match %s up to date", match_id)
