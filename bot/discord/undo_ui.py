"""Undo consent on Discord: a DM with Agree / Refuse to each player asked, and its clicks.

DMs, because that is where each player's prompts already go: the question reaches exactly the
players asked (nobody else sees the buttons), it survives restarts like every routed button,
and its answer edits the same message. The channel hears of the request and of its end from the
service's public notices; a player whose DMs are closed cannot answer, so the request expires.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.discord import ids
from bot.discord.asked_dms import Asking
from bot.discord.mentions import plain_name
from bot.discord.prompt_ui import timestamp
from bot.discord.replies import answer, clip
from bot.discord.texts import ONLY_IN_DMS, UNDO_ANSWERED, UNDO_CLOSED, UNDO_CONSENT, UNDO_OTHER

if TYPE_CHECKING:
    from bot.service import MatchService, Notice


def consent_text(notice: Notice) -> str:
    """The consent DM: who asks, what goes, why they are asked, and until when."""
    payload = notice.payload
    due = datetime.fromisoformat(str(payload["due"]))
    return clip(UNDO_CONSENT.format(channel_id=notice.channel_id, who=plain_name(str(payload["who"])),
                                    summary=discord.utils.escape_mentions(str(payload["summary"])),
                                    why=discord.utils.escape_mentions(str(payload["why"])), due=timestamp(due)),
                2000)


def closed_consent_text(notice: Notice, why: str) -> str:
    """A consent DM once its request can no longer be answered: what it was, and why it closed."""
    payload = notice.payload
    return clip(UNDO_CLOSED.format(channel_id=notice.channel_id, who=plain_name(str(payload["who"])),
                                   summary=discord.utils.escape_mentions(str(payload["summary"])),
                                   why=discord.utils.escape_mentions(why)), 2000)


CONSENT = Asking(name="undo consent DM", request="undo_id", text=consent_text,
                 closed_text=closed_consent_text, answers=(("Agree", "agree"), ("Refuse", "refuse")),
                 button=ids.UndoId,
                 closed=lambda service, match_id, undo_id, seat: service.undo_closed(match_id, undo_id, seat))
"""An undo's consent DM, with Agree / Refuse."""


async def undo_click(service: MatchService, interaction: discord.Interaction, cid: ids.UndoId) -> None:
    """Agree or refuse; the DM is edited to say what became of the request (no buttons left)."""
    if interaction.guild_id is not None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await answer(interaction, ONLY_IN_DMS)
        return
    await interaction.response.defer()
    outcome = await service.answer_undo(cid.match_id, cid.undo_id, interaction.user.id, cid.answer == "agree")
    text = UNDO_ANSWERED.get(outcome.status, UNDO_OTHER).format(
        summary=discord.utils.escape_mentions(outcome.summary), due=timestamp(outcome.due_at), status=outcome.status)
    await interaction.edit_original_response(content=text[:2000], view=None)
