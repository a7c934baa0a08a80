"""DMs that ask a player to agree: what an undo's consent (undo_ui.py) and a vote to end a match
(vote_ui.py) share on Discord, as the service shares bot/service/consents.py.

Each asked player gets a DM with two buttons (agree in green, refuse in red); delivery keeps
the DMs it sent, and once a seat can no longer answer (the request passed, was refused, ran out
of time, or the match moved on) the DM loses its buttons and says why. What each asks, its
wording and its service call differ; the sending, keeping and closing live here once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord.mentions import NOBODY
from bot.discord.prompt_ui import PlainView
from bot.discord.sending import seat_of, user_of
from bot.service.consents import ANSWERED

if TYPE_CHECKING:
    from bot.service import Notice

log = logging.getLogger(__name__)


class AskedService(Protocol):
    """The service calls saying whether a seat can still answer a request (None) or why not."""

    async def undo_closed(self, match_id: int, undo_id: int, seat: int) -> str | None: ...

    async def vote_closed(self, match_id: int, vote_id: int, seat: int) -> str | None: ...


class ButtonId(Protocol):
    """A button's routed id (ids.py), made from the match, the request and the answer."""

    def encode(self) -> str: ...


@dataclass(frozen=True)
class Asking:
    """One kind of request asked in DMs: its DM, its two answers, its DM once closed, and
    whether a seat can still answer it."""

    name: str
    """What its DM is called in the logs."""
    request: str
    """The payload key of the request's id."""
    text: Callable[[Notice], str]
    closed_text: Callable[[Notice, str], str]
    """Its DM once it can no longer be answered, given why."""
    answers: tuple[tuple[str, str], tuple[str, str]]
    """(label, answer) of the agreeing button, then of the refusing one."""
    button: Callable[[int, int, str], ButtonId]
    """The routed id of a button: match, request, answer."""
    closed: Callable[[AskedService, int, int, int], Awaitable[str | None]]
    """Why a seat can no longer answer (match, request, seat), or None while it can."""

    def view(self, notice: Notice) -> PlainView:
        """The two buttons: the agreeing answer in green, the refusing one in red."""
        view = PlainView()
        request_id = int(notice.payload[self.request])
        styles = (discord.ButtonStyle.success, discord.ButtonStyle.danger)
        for (label, answer), style in zip(self.answers, styles, strict=True):
            custom_id = self.button(notice.match_id, request_id, answer).encode()
            view.add_item(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        return view


@dataclass(frozen=True)
class SentAsk:
    """An asking DM this process sent whose buttons still ask."""

    asking: Asking
    notice: Notice


class AskingSender(Protocol):
    """What sending an asking DM uses of the delivery: the DM step and the DMs kept."""

    @property
    def asked(self) -> dict[int, dict[int, SentAsk]]:
        """Match -> asking DMs sent whose buttons still ask (message id -> what it asks)."""
        ...

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None: ...


class AskedCloser(Protocol):
    """What closing asking DMs uses of the delivery: the service, the DMs kept, the seat's DM
    channel and the send slots."""

    @property
    def svc(self) -> AskedService: ...

    @property
    def asked(self) -> dict[int, dict[int, SentAsk]]: ...

    @property
    def gate(self) -> asyncio.Semaphore: ...

    async def dm_channel_for(self, match_id: int, seat: int | None,
                             user_id: int) -> discord.PartialMessageable | discord.DMChannel: ...


async def send(delivery: AskingSender, asking: Asking, notice: Notice) -> str | None:
    """The asking DM, kept so its buttons can be closed once its request is settled."""
    ref = await delivery.send_dm(notice, asking.text(notice), view=asking.view(notice))
    if ref is not None and ref.isdigit():
        delivery.asked.setdefault(notice.match_id, {})[int(ref)] = SentAsk(asking, notice)
    return ref


def sender(asking: Asking) -> Callable[[AskingSender, Notice], Awaitable[str | None]]:
    """The sender of this kind's notices (senders.py)."""

    async def send_asking(delivery: AskingSender, notice: Notice) -> str | None:
        return await send(delivery, asking, notice)

    return send_asking


async def close(delivery: AskedCloser, match_id: int) -> None:
    """Asking DMs of the match whose seat can no longer answer lose their buttons and say why
    (a seat that answered itself was told by its click's reply)."""
    sent = delivery.asked.get(match_id)
    if sent is None:
        return
    for ref, ask in list(sent.items()):
        notice = ask.notice
        request_id = int(notice.payload[ask.asking.request])
        why = await ask.asking.closed(delivery.svc, match_id, request_id, seat_of(notice))
        if why is None:
            continue
        del sent[ref]
        if why == ANSWERED:
            continue
        try:
            dm = await delivery.dm_channel_for(match_id, seat_of(notice), user_of(notice))
            async with delivery.gate:
                await dm.get_partial_message(ref).edit(content=ask.asking.closed_text(notice, why), view=None,
                                                       allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            log.info("could not close %s %s of match %s: %s", ask.asking.name, ref, match_id, exc)
    if not sent:
        delivery.asked.pop(match_id, None)
