"""`/game replace`: the host opens a seat for a replacement (seat_posts.py offers it).

The command lives in a plain holder class bound into ``GameCommands`` (commands.py) by name, as
table_commands.py does, so ``self`` is the `/game` group there."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord import texts
from bot.discord.mentions import plain_name
from bot.discord.permissions import is_manager
from bot.discord.table_commands import CommandBase, channel_of
from bot.service.replacements import seat_label
from bot.service.types import Place


class SeatCommands(CommandBase, app_commands.Group):
    """Holder of the command; never instantiated. A Group, as the ``self`` it runs with is."""

    @app_commands.command(name="replace", description="Open a player's seat for someone else (host or Manage Server)")
    @app_commands.describe(player="whose seat to open (the AI plays it until it is taken)")
    async def replace(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._private(interaction)
        here = Place(channel_of(interaction), interaction.user.id)
        info = await self.service.find_match(here)
        if info is None:
            await self._done(interaction, texts.NO_MATCH_HERE)
            return
        manager = is_manager(interaction, info.guild_id)

        async def apply() -> str:
            opened = await self.service.open_seat(here, interaction.user.id, player.id, player.display_name,
                                                  is_manager=manager)
            name = plain_name(opened.name)
            meanwhile = texts.REPLACE_MEANWHILE.format(name=name) if opened.was_playing else texts.REPLACE_STILL_AI
            return texts.REPLACE_OPENED.format(name=name, seat=seat_label(opened.seat), meanwhile=meanwhile)

        await self._once(interaction, f"replace:{player.id}", apply)
