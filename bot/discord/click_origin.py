"""Where a click comes from: a custom_id copied onto a message elsewhere must not act on a match.

Apart from router.py so that the click handlers beside it (board_clicks.py, seat_posts.py),
which the router imports, can ask the same question."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import discord

    from bot.service import MatchInfo


def clicked_here(interaction: discord.Interaction, info: MatchInfo, *, lobby: bool = False) -> bool:
    """Whether the interaction comes from the match's own guild and channel (or thread; for the
    lobby's buttons, the channel the lobby was posted in): a custom_id copied onto a message
    elsewhere must not act on (or lend Manage Server to) a match it is not in."""
    places = {info.channel_id, info.lobby_channel_id} if lobby else {info.channel_id}
    return interaction.guild_id == info.guild_id and interaction.channel_id in places
