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
from collections import OrderedDict
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


class ClickedDms:
    """Message id -> the newest click on it and when this process received it."""

    def __init__(self, lifetime: float = TOKEN_LIFETIME - MARGIN, clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime = lifetime
        self._clock = clock
        self._clicks: OrderedDict[int, tuple[discord.Interaction, float]] = OrderedDict()

    def clicked(self, message_id: int, interaction: discord.Interaction) -> None:
        """The player clicked on DM ``message_id``: its edits may go through this click."""
        self._clicks[message_id] = (interaction, self._clock())
        self._clicks.move_to_end(message_id)
        while len(self._clicks) > CLICKS_KEPT:
            self._clicks.popitem(last=False)

    def click_on(self, message_id: int) -> discord.Interaction | None:
        """The newest click on the message whose token still lives, if any."""
        found = self._clicks.get(message_id)
        if found is None:
            return None
        interaction, received = found
        if self._clock() - received > self.lifetime:
            del self._clicks[message_id]
            return None
        return interaction

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
    interaction = clicks.click_on(message_id)
    if interaction is not None:
        try:
            await ack_window.update(interaction, **fields)
            return
        except discord.HTTPException as exc:
            if not _token_refused(exc):
                raise
            clicks.forget(message_id)
    await dm.get_partial_message(message_id).edit(**fields)
