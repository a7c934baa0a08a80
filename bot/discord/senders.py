"""Every notice kind delivery sends, and its sender: a function of what it uses of the delivery
(a Protocol its module names) and the notice, returning the ref to mark the notice delivered
with. ``Senders`` is all of those Protocols together; the delivery (delivery.py) is one.

The two senders with no module of their own are here: channel news and private lines."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from bot.discord import (
    asked_dms,
    lobby,
    nudges,
    phase_posts,
    prompt_dms,
    refusals,
    replays,
    seat_posts,
    undo_ui,
    vote_ui,
)
from bot.discord.asked_dms import AskingSender
from bot.discord.mentions import ROUTINE, mentions, only
from bot.discord.sending import channel_of, clip, inert, nonce_of, user_of
from bot.service import Notice
from bot.service.history import REPLAY_NOTICE
from bot.service.notify import THREAD
from bot.service.outbox import ALERT, PHASE_POST_KINDS

if TYPE_CHECKING:
    from bot.discord.wiring import Host, Messenger
    from bot.service.notify import NotifyPrefs


class ChannelPoster(Protocol):
    """What channel news uses of the delivery: the messenger."""

    @property
    def bot(self) -> Messenger: ...


class PrivateService(Protocol):
    """The service call private lines make: the player's notification settings."""

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs: ...


class PrivateSender(Protocol):
    """What private lines use of the delivery: the service and the DM step (dm_delivery.py)."""

    @property
    def svc(self) -> PrivateService: ...

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None: ...

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs: ...


async def post_text(delivery: ChannelPoster, notice: Notice) -> str:
    """Channel news as plain text (``timeout``, ``host``), pinging the users it names."""
    channel = delivery.bot.get_partial_messageable(channel_of(notice))
    text = inert(notice.payload.get("text", ""))
    users = [int(u) for u in notice.payload.get("user_ids", [])]
    if users:
        text = f"{mentions(users)} {text}"
    # news ("time is up", "away until") is routine; a host handover calls its heir to act
    msg = await channel.send(clip(text), nonce=nonce_of(notice), allowed_mentions=only(users),
                             silent=notice.kind == "timeout")
    return str(msg.id)


async def dm_text(delivery: PrivateSender, notice: Notice) -> str | None:
    """Lines only this seat may see (its own sealed choice, what its scouts saw); none for a
    player who asked for no DMs (`/game act` shows the seat's own view)."""
    prefs = await delivery.notify_prefs(notice.match_id, user_of(notice))
    if prefs.announce == THREAD:
        return prompt_dms.NO_DMS
    lines = notice.payload.get("events") or [notice.payload.get("text", "")]
    return await delivery.send_dm(notice, clip(inert("\n".join(lines))), silent=ROUTINE)


class SendersService(nudges.NudgeService, seat_posts.SeatPostService, phase_posts.PhasePostService,
                     replays.ReplayService, prompt_dms.TurnDmService, PrivateService, Protocol):
    """The service calls the senders make (each names its own)."""


class Senders(nudges.NudgeSender, seat_posts.SeatPoster, phase_posts.PhasePoster, replays.ReplayPoster,
              lobby.LobbyPoster, refusals.AlertSender, AskingSender, prompt_dms.TurnDms, ChannelPoster,
              PrivateSender, Protocol):
    """What the senders use of the delivery, all together."""

    @property
    def bot(self) -> Host: ...

    @property
    def svc(self) -> SendersService: ...


Sender = Callable[[Senders, Notice], Awaitable[str | None]]
"""How one kind of notice is sent: given what the senders use of the delivery and the notice,
it returns the ref to mark it delivered with."""

SENDERS: dict[str, Sender] = {
    "prompt": prompt_dms.dm_prompt,
    "private": dm_text,
    ALERT: refusals.alert,
    "consent": asked_dms.sender(undo_ui.CONSENT),
    "vote": asked_dms.sender(vote_ui.VOTE),
    "lobby": lobby.post_lobby,
    **dict.fromkeys(PHASE_POST_KINDS, phase_posts.post_phase),
    REPLAY_NOTICE: replays.post_replay,
    "turn": nudges.turn,
    "reminder": nudges.reminder,
    "heads_up": nudges.heads_up,
    "last_to_choose": prompt_dms.last_to_choose,
    "seat_open": seat_posts.post_open,
    "seat_taken": seat_posts.post_taken,
    "seat_passed": seat_posts.close_former_dm,
    "seat_welcome": seat_posts.welcome,
    "timeout": post_text,
    "host": post_text,
}
"""Every notice kind delivery sends, and its sender; any other kind is never posted."""
