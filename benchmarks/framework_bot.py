"""The framework's floor bot: a discord.py bot with no warhost code, for benchmarks/framework_floor.py.

    DISCORD_API_BASE=... DISCORD_GATEWAY_URL=... FLOOR_POSTS=0.4 FLOOR_EDITS=0.7 python benchmarks/framework_bot.py

What any discord.py bot pays for a click and nothing else: it logs in with the GUILDS intent alone
(as warhost does), and discord.py parses each INTERACTION_CREATE (its Interaction and Message
objects, the view store's dispatch) and hands it to an ``on_interaction`` listener. The listener
answers a button click with an UPDATE_MESSAGE callback that rewrites the clicked message (text and
a button, as a turn DM's reply does), then makes ``FLOOR_POSTS`` channel posts and ``FLOOR_EDITS``
channel edits per click on average (the fractions carried from click to click: a click makes the
whole part or one more) in the channel the button's custom_id names, through discord.py's HTTPClient like any bot. No database,
no engine, no rendering.

The button's custom_id is ``floor:<clicks so far>:<channel id>:<message id>``: the channel takes
the posts, the message there takes the edits.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys

import discord
import yarl
from discord.ext import commands

PREFIX = "floor"


def button_view(clicks: int, channel_id: int, message_id: int) -> discord.ui.View:
    """The clicked message's one button, counting the clicks so far."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Next", style=discord.ButtonStyle.primary,
                                    custom_id=f"{PREFIX}:{clicks}:{channel_id}:{message_id}"))
    return view


class FloorBot(commands.Bot):
    """Answers each click with its UPDATE_MESSAGE callback and the channel writes it owes."""

    def __init__(self, posts: float, edits: float) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True),
                         help_command=None, allowed_mentions=discord.AllowedMentions.none())
        self.posts_per_click, self.edits_per_click = posts, edits
        self.owed = [0.0, 0.0]
        """Posts and edits owed (the fractions left by earlier clicks)."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, object] = dict(interaction.data or {})
        parts = str(data.get("custom_id", "")).split(":")
        if len(parts) != 4 or parts[0] != PREFIX:
            return
        count, channel_id, message_id = int(parts[1]) + 1, int(parts[2]), int(parts[3])
        await interaction.response.edit_message(
            content=f"Click {count} by {interaction.user.display_name}: noted. Your next choice:",
            view=button_view(count, channel_id, message_id))
        owed = self.owed
        owed[0] += self.posts_per_click
        owed[1] += self.edits_per_click
        target = self.get_partial_messageable(channel_id)
        while owed[0] >= 1.0:
            owed[0] -= 1.0
            await target.send(f"{interaction.user.display_name} made choice {count}.")
        while owed[1] >= 1.0:
            owed[1] -= 1.0
            await target.get_partial_message(message_id).edit(content=f"Board: {count} choices made so far.")


async def main() -> None:
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"].rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
    discord.utils.setup_logging(level=logging.INFO)
    bot = FloorBot(float(os.environ.get("FLOOR_POSTS", "0")), float(os.environ.get("FLOOR_EDITS", "0")))
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
