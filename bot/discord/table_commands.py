"""`/game mine`, `/game undo` and `/game away`: a player's matches, taking choices back, time away.

The commands live in a plain holder class and are bound into ``GameCommands`` (commands.py) by
name, so ``self`` is the `/game` group there: ``self.svc``, ``self._private`` and the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.mentions import plain_name
from bot.discord.prompt_ui import timestamp
from bot.discord.replies import clip
from bot.service.away import AWAY_HOURS
from bot.service.undo import MAX_BACK

if TYPE_CHECKING:
    from bot.service.mine import MyMatch


def mine_line(found: MyMatch, user_id: int) -> str:
    """One match of `/game mine`: where, the phase, what it waits for, the deadline."""
    where = f"**{plain_name(found.title)}** in <#{found.channel_id}>"
    if found.status == "lobby":
        return f"- {where}: lobby, not started yet"
    parts = [plain_name(found.phase)]
    if found.away_until is not None:
        parts.append(f"you are away until {timestamp(found.away_until)}")
    if found.owe is not None:
        parts.append(f"**your turn**: {plain_name(found.owe)}")
    if found.waiting_for:
        parts.append("waiting for " + ", ".join(plain_name(n) for n in found.waiting_for))
    elif found.owe is None:
        parts.append("nobody owes a choice now")
    if found.status == "paused":
        parts.append("paused")
    elif found.deadline is not None:
        parts.append(f"deadline {timestamp(found.deadline)}")
    return f"- {where}: " + "; ".join(parts)


class TableCommands:
    """Holder of the commands; never instantiated."""

    svc: Any
    bot: Any

    @app_commands.command(name="mine", description="Your open matches: whose turn it is and your deadlines")
    @app_commands.describe(everywhere="also the matches on the other servers you share with this bot")
    async def mine(self, interaction: discord.Interaction, everywhere: bool = False) -> None:
        await self._private(interaction)  # type: ignore[attr-defined]
        found = await self.svc.my_matches(interaction.user.id, None if everywhere else interaction.guild_id)
        if everywhere:  # only servers the bot is still on: a channel elsewhere is no link at all
            found = [m for m in found if m.guild_id is None or self.bot.get_guild(m.guild_id) is not None]
        if not found:
            where = "on any server we share" if everywhere else "on this server"
            await self._done(interaction, f"You hold no seat in an open match {where}.")  # type: ignore[attr-defined]
            return
        lines = [mine_line(m, interaction.user.id) for m in found]
        await self._done(interaction, clip("\n".join(["Your open matches:", *lines])))  # type: ignore[attr-defined]

    @app_commands.command(name="undo", description="Take the last choices back (host; the players affected agree)")
    @app_commands.describe(back="how many player choices to take back, newest first (default 1)")
    async def undo(self, interaction: discord.Interaction,
                   back: app_commands.Range[int, 1, MAX_BACK] = 1) -> None:
        await self._private(interaction)  # type: ignore[attr-defined]
        channel_id = interaction.channel_id
        manager = await self._manager(interaction)  # type: ignore[attr-defined]
        outcome = await self.svc.request_undo(channel_id, interaction.user.id, back, is_manager=manager)
        if outcome.status == "done":
            text = (f"Undone: {outcome.summary} ({outcome.why}). The open decisions were sent again; "
                    "the same choices bring the same dice.")
        else:
            asked = ", ".join(plain_name(n) for n in outcome.asked)
            text = (f"Asked {asked} to agree to undo {outcome.summary}, because {outcome.why}. "
                    f"It is cancelled by a refusal or {timestamp(outcome.due_at)} without an answer.")
        await self._done(interaction, text)  # type: ignore[attr-defined]

    @app_commands.command(name="away", description="Be away for some hours: the AI plays for you, or your deadlines wait")
    @app_commands.describe(hours="how long you will be away")
    async def away(self, interaction: discord.Interaction,
                   hours: app_commands.Range[float, AWAY_HOURS[0], AWAY_HOURS[1]]) -> None:
        await self._private(interaction)  # type: ignore[attr-defined]
        outcome = await self.svc.go_away(interaction.channel_id, interaction.user.id, hours)
        meanwhile = ("the AI plays your seat meanwhile" if outcome.mode == "ai"
                     else "your deadlines wait for you meanwhile")
        await self._done(interaction, f"You are away until {timestamp(outcome.until)}: {meanwhile}. "  # type: ignore[attr-defined]
                                      "Make a choice or use `/game act` to take your seat back sooner.")
