"""A turn DM edited through the player's newest click on it, not through the bot's own route.

Discord caps a bot's requests at 50 a second across every route but the interaction endpoints:
an interaction's callback and its webhook (``/webhooks/{application}/{token}/...``) count only
against their own small buckets. A component click on a DM leaves a token that can edit that
very message (the interaction's ``@original``) for 15 minutes. So when delivery edits a seat's
turn DM the player clicked moments ago (the next decision shown in place, the turn brought up to
date), it goes through that click: in the click's callback while the click is still
unanswered (one request instead of a defer and an edit), as an edit of the original after it.
Under load the bot's own route queues behind the channel posts of every match; these edits
no longer wait there, so a player sees their next decision as soon as it is drawn.

A click is remembered by the message it was made on, in this process's memory only (a token is
a secret: it is never stored), while its token lives, less a margin. A token Discord no longer
takes (expired, unknown) falls back to the bot's route; any other refusal is the message's own
(it was deleted, its edit is invalid) and is raised as the bot's route would raise it."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

import discord

from bot.discord import ack_window
from bot.discord.error_codes import UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK

TOKEN_LIFETIME = 15 * 60.0
"""Seconds Discord takes an interaction's token for after the interaction."""
MARGIN = 60.0
"""Seconds before the token's end it is no longer used: a request may wait (a rate limit, a
retry) between the choice of the route and its arrival."""
CLICKS_KEPT = 4096
"""Clicked messages remembered at most (the oldest go first; a forgotten one is edited through
the bot's route)."""
ANSWER_TIME = 3.0
"""Seconds Discord waits for an interaction's callback: a click still unanswered past them has no
callback left to carry an edit, and its token no webhook edit (it was never acknowledged)."""


class ClickToken:
    """What editing a clicked message through its click takes, once the click is answered: its
    token and the client state to send with, not the interaction (its parsed message, data and
    user would be held for minutes by every clicked DM)."""

    __slots__ = ("_session", "_state", "application_id", "channel", "token")

    def __init__(self, interaction: discord.Interaction) -> None:
        self.application_id = interaction.application_id
        self.token = interaction.token
        self._state = interaction._state
        self._session = interaction._session
        self.channel = interaction.channel

    async def edit_original_response(self, **fields: Any) -> None:
        """PATCH the click's ``@original`` (the clicked message), as the interaction would: the
        same discord.py code, which reads only what this keeps."""
        await discord.Interaction.edit_original_response(self, **fields)  # type: ignore[arg-type]


Click = discord.Interaction | ClickToken
"""A click as kept: the interaction while it may still be answered, its token after."""


class ClickedDms:
    """Message id -> the newest click on it and when this process received it. A click is kept
    whole until it is answered (delivery's edit may be its callback), then as its token."""

    def __init__(self, lifetime: float = TOKEN_LIFETIME - MARGIN, clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime = lifetime
        self._clock = clock
        self._clicks: OrderedDict[int, tuple[Click, float]] = OrderedDict()
        self._whole: deque[tuple[int, discord.Interaction, float]] = deque()
        """Clicks kept whole, oldest first: each becomes its token once answered (``_shrink``)."""

    def clicked(self, message_id: int, interaction: discord.Interaction) -> None:
        """The player clicked on DM ``message_id``: its edits may go through this click."""
        now = self._clock()
        self._shrink(now)
        self._clicks[message_id] = (interaction, now)
        self._clicks.move_to_end(message_id)
        self._whole.append((message_id, interaction, now))
        while len(self._clicks) > CLICKS_KEPT:
            self._clicks.popitem(last=False)

    def _shrink(self, now: float) -> None:
        """Keep the oldest clicks kept whole as their tokens once answered; past Discord's wait
        for a callback, an unanswered one is forgotten (it can carry nothing)."""
        while self._whole:
            message_id, interaction, received = self._whole[0]
            answered = interaction.response.is_done()
            if not answered and now - received <= ANSWER_TIME:
                return
            self._whole.popleft()
            kept = self._clicks.get(message_id)
            if kept is None or kept[0] is not interaction:
                continue  # a newer click on the message, or forgotten
            if answered:
                self._clicks[message_id] = (ClickToken(interaction), received)
            else:
                del self._clicks[message_id]

    def click_on(self, message_id: int) -> Click | None:
        """The newest click on the message whose token still lives, if any."""
        found = self._clicks.get(message_id)
        if found is None:
            return None
        click, received = found
        if self._clock() - received > self.lifetime:
            del self._clicks[message_id]
            return None
        return click

    def forget(self, message_id: int) -> None:
        self._clicks.pop(message_id, None)

    def __len__(self) -> int:
        return len(self._clicks)


def _token_refused(exc: discord.HTTPException) -> bool:
    """Whether Discord refused the click's token itself (expired, unknown), not the edit."""
    return exc.status == 401 or exc.code in (UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION)


async def edit(clicks: ClickedDms, dm: discord.PartialMessageable | discord.DMChannel, message_id: int,
               **fields: Any) -> None:
    """Edit DM ``message_id`` of channel ``dm`` as ``fields`` say (``PartialMessage.edit``'s
    content, view, attachments, allowed_mentions), through the player's newest click on it
    while its token lives, else (or when Discord no longer takes the token) through the bot's route."""
    click = clicks.click_on(message_id)
    if click is not None:
        try:
            if isinstance(click, ClickToken):
                await click.edit_original_response(**fields)
            else:
                await ack_window.update(click, **fields)
            return
        except discord.HTTPException as exc:
            if not _token_refused(exc):
                raise
            clicks.forget(message_id)
    await dm.get_partial_message(message_id).edit(**fields)
