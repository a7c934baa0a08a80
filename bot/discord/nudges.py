"""Turn mentions and reminders: a player hears of a decision once, where they can be reached.

A player whose prompt DM arrived needs no channel mention (the DM is the notification); one
whose DMs are closed or refused gets one mention per turn (the service writes a ``turn`` notice
only when a new owed prompt opens for someone other than the actor). Reminders go to each
late player's DMs; the channel hears only about those the DMs cannot reach, or who asked for
a mention in the thread instead of DMs (`/game notify`). A turn mention to players who are all
in their quiet hours is posted silently."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord.error_codes import DMS_CLOSED
from bot.discord.ids import BoardId
from bot.discord.mentions import NOBODY, mentions, only
from bot.discord.prompt_ui import PlainView, timestamp
from bot.discord.sending import channel_of, clip, inert, nonce_of, parse_time, user_of
from bot.discord.texts import (
    HAS_CHOSEN,
    HEADS_UP_MENTION,
    REMINDER_ANSWERED,
    REMINDER_DEADLINE,
    REMINDER_DM,
    TURN_IN_THREAD,
)
from bot.service.core import DM_REFS
from bot.service.notify import THREAD

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from bot.discord.wiring import Messenger
    from bot.service import MatchInfo, Notice, Status
    from bot.service.notify import NotifyPrefs
    from bot.service.types import Blocked

log = logging.getLogger(__name__)


class NudgeService(Protocol):
    """The service calls turn mentions and reminders make."""

    @property
    def clock(self) -> Callable[[], datetime]: ...

    async def get_match(self, match_id: int) -> MatchInfo: ...

    async def status_of(self, match_id: int) -> Status: ...

    async def blocked_targets(self, match_id: int) -> list[Blocked]: ...

    async def dms_closed_at(self, match_id: int, seat: int) -> datetime | None: ...

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs: ...


class NudgeSender(Protocol):
    """What turn mentions and reminders use of the delivery: the messenger, the service, and
    the DM steps (dm_delivery.py)."""

    @property
    def bot(self) -> Messenger: ...

    @property
    def svc(self) -> NudgeService: ...

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None: ...

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool: ...

    async def blocked_users(self, match_id: int) -> set[int]: ...

    async def dms_closed_at(self, match_id: int, seat: int) -> datetime | None: ...

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs: ...

    async def dm_channel_for(self, match_id: int, seat: int | None,
                             user_id: int) -> discord.PartialMessageable | discord.DMChannel: ...


async def unreachable(delivery: NudgeSender, notice: Notice, user_ids: list[int]) -> list[int]:
    """The players among ``user_ids`` whose DMs refuse the match's notices, except those the
    channel was told about after this notice was written (that post mentioned them already),
    and those who asked to hear of their turns in the thread instead of by DM (`/game notify`)."""
    svc = delivery.svc
    info = await svc.get_match(notice.match_id)
    blocked = await delivery.blocked_users(notice.match_id)
    found = []
    for user_id in user_ids:
        seat = info.seat_of(user_id)
        closed_at = None if seat is None else await delivery.dms_closed_at(notice.match_id, seat)
        refused = user_id in blocked or (closed_at is not None and closed_at < notice.created_at)
        if refused or (await delivery.notify_prefs(notice.match_id, user_id)).announce == THREAD:
            found.append(user_id)
    return found


async def all_quiet(delivery: NudgeSender, match_id: int, user_ids: list[int]) -> bool:
    """Whether every one of these players is in their quiet hours now (then a post to them is silent)."""
    now = delivery.svc.clock()
    for user_id in user_ids:
        if (await delivery.notify_prefs(match_id, user_id)).quiet_until(now) is None:
            return False
    return bool(user_ids)


async def turn(delivery: NudgeSender, notice: Notice) -> str:
    """Mention the players who must act and whose DMs could not tell them, or who asked for a
    mention instead of DMs: then the post has an Act button that opens their decision privately."""
    users = await unreachable(delivery, notice, [int(u) for u in notice.payload.get("user_ids", [])])
    if users:  # a mention that arrives after the player answered would be untrue: only those still owing
        waiting = {s.user_id for s in (await delivery.svc.status_of(notice.match_id)).waiting}
        users = [u for u in users if u in waiting]
    if not users:
        return "dm"
    svc = delivery.svc
    in_thread = [u for u in users if (await delivery.notify_prefs(notice.match_id, u)).announce == THREAD]
    channel = delivery.bot.get_partial_messageable(channel_of(notice))
    extra: dict[str, Any] = {}
    said = inert(notice.payload.get("text", ""))
    if in_thread:
        info = await svc.get_match(notice.match_id)
        said = TURN_IN_THREAD.format(title=inert(info.title))
        extra["view"] = act_view(notice.match_id)
    text = f"{mentions(users)} {said}"
    msg = await channel.send(clip(text), nonce=nonce_of(notice), allowed_mentions=only(users),
                             silent=await all_quiet(delivery, notice.match_id, users), **extra)
    return str(msg.id)


def act_view(match_id: int) -> discord.ui.View:
    """One Act button: the status board's own (router.py answers it with the clicker's decision)."""
    view = PlainView()
    view.add_item(discord.ui.Button(label="Act", style=discord.ButtonStyle.primary,
                                    custom_id=BoardId(match_id, "act").encode()))
    return view


async def heads_up(delivery: NudgeSender, notice: Notice) -> str | None:
    """The seat before this player's started its turn: by DM, or a mention in the thread for a
    player who wants no DMs; nothing if they have meanwhile gone quiet or turned it off."""
    user_id = user_of(notice)
    prefs = await delivery.notify_prefs(notice.match_id, user_id)
    if not prefs.heads_up or prefs.quiet_until(delivery.svc.clock()) is not None:
        return "skipped"
    text = inert(str(notice.payload.get("text", "")))
    if prefs.announce == THREAD:
        channel = delivery.bot.get_partial_messageable(channel_of(notice))
        msg = await channel.send(clip(f"<@{user_id}> " + HEADS_UP_MENTION.format(text=text)), nonce=nonce_of(notice),
                                 allowed_mentions=only([user_id]))
        return str(msg.id)
    return await delivery.send_dm(notice, clip(text))


async def reminder(delivery: NudgeSender, notice: Notice) -> str:
    """A DM to each late player; one channel post mentioning those the DMs do not reach."""
    payload = notice.payload
    waiting = {s.user_id for s in (await delivery.svc.status_of(notice.match_id)).waiting}
    # who answered between the reminder's writing and now needs none: it would be untrue
    users = [int(u) for u in payload.get("user_ids", []) if int(u) in waiting]
    if not users:
        return "skipped"
    deadline = parse_time(payload.get("deadline"))
    when = REMINDER_DEADLINE.format(deadline=timestamp(deadline)) if deadline is not None else ""
    info = await delivery.svc.get_match(notice.match_id)
    stuck = await unreachable(delivery, notice, users)
    refs: list[str] = []
    for user_id in users:
        if user_id in stuck:
            continue
        try:
            dm = await delivery.dm_channel_for(notice.match_id, info.seat_of(user_id), user_id)
            msg = await dm.send(REMINDER_DM.format(title=inert(info.title), channel_id=notice.channel_id,
                                                     deadline=when), nonce=nonce_of(notice, str(user_id)),
                                  allowed_mentions=NOBODY)
            refs.append(f"{user_id}:{msg.id}")
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("reminder DM to %s of match %s refused (%s); mentioning them in the channel",
                     user_id, notice.match_id, exc)
            seat = info.seat_of(user_id)
            if getattr(exc, "code", None) == DMS_CLOSED and seat is not None:
                await delivery.mark_dms_closed(notice.match_id, seat)
            stuck.append(user_id)
    if not stuck:
        return DM_REFS + ";".join(refs) if refs else "dm"  # each DM, so an answer can take it back
    channel = delivery.bot.get_partial_messageable(channel_of(notice))
    text = f"{mentions(stuck)} {inert(payload.get('text', ''))}{when}"
    msg = await channel.send(clip(text), nonce=nonce_of(notice), allowed_mentions=only(stuck))
    return str(msg.id)


async def answered(interaction: discord.Interaction, reminders: list[int], title: str) -> None:
    """The player answered: the reminders that said the match still waits for them say so no more."""
    channel = interaction.channel
    if not reminders or interaction.guild_id is not None or not isinstance(
            channel, (discord.DMChannel, discord.PartialMessageable)):
        return  # answered with /game act in the server: the DM reminders stay (a rare path)
    for ref in reminders:
        try:
            await channel.get_partial_message(ref).edit(
                content=REMINDER_ANSWERED.format(title=title), allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            log.info("could not take back reminder DM %s: %s", ref, exc)


async def turn_done(messenger: Messenger, channel_id: int, pings: list[int], name: str) -> None:
    """The mentioned player answered: the "your turn" post says so, without the mention."""
    channel = messenger.get_partial_messageable(channel_id)
    for ref in pings:
        try:
            await channel.get_partial_message(ref).edit(content=HAS_CHOSEN.format(name=name), view=None,
                                                        allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            log.info("could not take back the turn mention %s: %s", ref, exc)
