"""One way to answer a user privately, whatever state the interaction's response is in.

After a "thinking" defer Discord expects the answer as an edit of the original response; a
follow-up used in its place is the deprecated form (and a later follow-up would be a second
message). After a silent defer (a click's "deferred update") a new ephemeral follow-up is the
only private answer there is. A click handled inside an acknowledgement window (ack_window.py)
has its timer stopped first, so the answer and a defer never race."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord import ack_window

MAX_CONTENT = 2000


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Discord refuses content over 2,000 characters; keep the end readable."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def answer(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Reply to `interaction` so only its user sees `text` (plus a view or files in kwargs)."""
    text = clip(text)
    await ack_window.settle(interaction)
    response = interaction.response
    if not response.is_done():
        await response.send_message(text, ephemeral=True, **kwargs)
    elif response.type is discord.InteractionResponseType.deferred_channel_message:
        if "file" in kwargs:
            kwargs["attachments"] = [kwargs.pop("file")]
        await interaction.edit_original_response(content=text, **kwargs)
    else:
        await interaction.followup.send(text, ephemeral=True, **kwargs)
