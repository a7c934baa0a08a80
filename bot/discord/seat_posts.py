"""Replacements on Discord: the posts that offer an open seat (with its Take seat button), the
click that takes it, and the DMs of the seat's two players.

- The match's channel (its thread) gets a post offering the seat; once someone takes it, that
  post takes its final form (who took it, no button) and the channel hears who plays it now.
- The lobby post shows the open seat with the same button while it is open (lobby.py).
- The player who left gets their turn DM of the seat edited: it says the seat passed on and
  keeps no component, so nothing of the seat is live in their DMs any more.
- The player who took it gets a DM with the seat's private panel; its open decision follows
  as a new turn DM, the way any new turn is sent (dm_delivery.py).
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord import texts
from bot.discord.click_origin import clicked_here
from bot.discord.ids import SeatId
from bot.discord.mentions import NOBODY
from bot.discord.prompt_ui import PlainView
from bot.discord.replies import answer
from bot.discord.seat_turns import Shown
from bot.discord.sending import channel_of, clip, inert, nonce_of, seat_of, user_of
from bot.service import NoMatch, drawing
from bot.service.replacements import seat_label

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from bot.discord.seat_turns import SeatTurns
    from bot.discord.wiring import Messenger
    from bot.service import MatchInfo, MatchService, Notice

log = logging.getLogger(__name__)


class SeatPostService(Protocol):
    """The service calls the replacement posts and DMs make."""

    async def get_match(self, match_id: int) -> MatchInfo: ...

    async def open_seat_posts(self, match_id: int, seat_no: int) -> list[int]: ...

    async def former_turn_dm(self, match_id: int, seat_no: int, user_id: int) -> int | None: ...

    def seat_fence(self, match_id: int, seat_no: int) -> AbstractAsyncContextManager[object]: ...


class SeatPoster(Protocol):
    """What the replacement posts and DMs use of the delivery: the messenger, the service, the
    seat turns and the DM steps (dm_delivery.py)."""

    @property
    def bot(self) -> Messenger: ...

    @property
    def svc(self) -> SeatPostService: ...

    @property
    def turns(self) -> SeatTurns: ...

    @property
    def closed_dms(self) -> dict[tuple[int, int], bool]: ...

    async def ensure_lease(self) -> None: ...

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None: ...

    async def dm_channel_for(self, match_id: int, seat: int | None,
                             user_id: int) -> discord.PartialMessageable | discord.DMChannel: ...

RUNNING = ("active", "paused")


def take_button(match_id: int, seat: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=texts.TAKE_SEAT.format(seat=seat_label(seat)), style=discord.ButtonStyle.success,
                             custom_id=SeatId(match_id, seat).encode())


def open_view(match_id: int, seat: int) -> PlainView:
    view = PlainView()
    view.add_item(take_button(match_id, seat))
    return view


async def post_open(delivery: SeatPoster, notice: Notice) -> str:
    """The channel post offering the seat, with its Take seat button."""
    channel = delivery.bot.get_partial_messageable(channel_of(notice))
    msg = await channel.send(clip(inert(str(notice.payload.get("text", "")))), view=open_view(notice.match_id,
                             int(notice.payload["seat"])), nonce=nonce_of(notice), allowed_mentions=NOBODY)
    return str(msg.id)


async def post_taken(delivery: SeatPoster, notice: Notice) -> str:
    """Who plays the seat now, in the channel; the posts that offered it lose their button."""
    channel = delivery.bot.get_partial_messageable(channel_of(notice))
    closed = clip(inert(str(notice.payload.get("closed", ""))))
    for ref in await delivery.svc.open_seat_posts(notice.match_id, int(notice.payload["seat"])):
        try:
            await channel.get_partial_message(ref).edit(content=closed, view=None, allowed_mentions=NOBODY)
        except discord.NotFound:
            log.info("the open-seat post %s of match %s is gone", ref, notice.match_id)
    msg = await channel.send(clip(inert(str(notice.payload.get("text", "")))), nonce=nonce_of(notice),
                             allowed_mentions=NOBODY)
    return str(msg.id)


async def close_ended(delivery: SeatPoster, match_id: int) -> None:
    """The match ended: the posts still offering one of its seats take their final form. Best effort."""
    try:
        info = await delivery.svc.get_match(match_id)
        if info.status in RUNNING:
            return
        channel = delivery.bot.get_partial_messageable(info.channel_id)
        for seat in (s for s in info.seats if s.open_since is not None):
            text = texts.SEAT_OPEN_ENDED.format(seat=seat_label(seat.seat))
            for ref in await delivery.svc.open_seat_posts(match_id, seat.seat):
                await channel.get_partial_message(ref).edit(content=text, view=None, allowed_mentions=NOBODY)
    except discord.HTTPException as exc:
        log.info("could not close the open-seat posts of match %s: %s", match_id, exc)


async def close_former_dm(delivery: SeatPoster, notice: Notice) -> str:
    """The player who left the seat: their turn DM of it says so, with no component left."""
    seat, user_id = seat_of(notice), user_of(notice)
    ref = await delivery.svc.former_turn_dm(notice.match_id, seat, user_id)
    if ref is None:
        return "skipped"  # no turn DM of the seat ever reached them
    info = await delivery.svc.get_match(notice.match_id)
    text = f"**{inert(info.title)}** in <#{info.channel_id}>\n{inert(str(notice.payload.get('text', '')))}"
    async with delivery.turns.hold(notice.match_id, seat, delivery.svc.seat_fence):
        dm = await delivery.dm_channel_for(notice.match_id, None, user_id)
        try:
            await dm.get_partial_message(ref).edit(content=clip(text), view=None, attachments=[],
                                                   allowed_mentions=NOBODY)
        except discord.NotFound:
            return "skipped"  # deleted by its reader: nothing of it is live
        delivery.turns.shown[ref] = Shown(final=True)
    return str(ref)


async def welcome(delivery: SeatPoster, notice: Notice) -> str | None:
    """The seat's new player: what the seat is, and its private panel (their DMs, not the old player's)."""
    delivery.closed_dms.pop((notice.match_id, seat_of(notice)), None)
    payload = notice.payload
    png = await drawing.draw_private(str(payload["game"]), payload["view"], list(payload.get("names") or []))
    await delivery.ensure_lease()  # a process paused while it drew sends nothing
    return await delivery.send_dm(notice, clip(inert(str(payload.get("text", "")))),
                              files=[discord.File(io.BytesIO(png), "seat.png")])


async def take_click(service: MatchService, interaction: discord.Interaction, cid: SeatId) -> None:
    """Take the seat: judged against the match's guild and channel (its thread or lobby channel)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        info = await service.get_match(cid.match_id)
    except NoMatch:
        info = None
    if info is None or not clicked_here(interaction, info, lobby=True):
        await answer(interaction, texts.NOT_HERE)
        return
    user = interaction.user
    taken = await service.take_seat(cid.match_id, cid.seat, user.id, user.display_name)
    await answer(interaction, texts.SEAT_TAKEN.format(seat=seat_label(taken.seat), title=inert(taken.title),
                                          channel_id=taken.channel_id, name=inert(taken.before)))
