"""`/game concede` and `/game propose draw|abandon`: players end a match themselves.

The commands live in a plain holder class and are bound into ``GameCommands`` (commands.py) by
name, as table_commands.py does, so ``self`` is the `/game` group there. ``propose`` is a
subcommand group of `/game` (two subcommands); its commands are bound with it.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord import texts
from bot.discord.mentions import plain_name
from bot.discord.prompt_ui import timestamp
from bot.discord.replies import answer
from bot.discord.table_commands import CommandBase, channel_of
from bot.discord.vote_ui import concede_view
from bot.service.types import Place
from bot.service.votes import ABANDON, DRAW


class VoteCommands(CommandBase, app_commands.Group):
    """Holder of the commands; never instantiated. A Group, as the ``self`` they run with is."""

    @app_commands.command(name="concede", description="Give your seat to the AI for good; the match counts as your loss")
    async def concede(self, interaction: discord.Interaction) -> None:
        await self._private(interaction)
        seat = await self.service.seat_to_concede(Place(channel_of(interaction), interaction.user.id),
                                                  interaction.user.id)
        # Nothing changes until the button is clicked: it cannot be undone.
        await answer(interaction, texts.CONCEDE_CONFIRM.format(title=plain_name(seat.title)),
                     view=concede_view(seat.match_id, seat.seat))

    propose = app_commands.Group(name="propose", description="Ask the others to end the match early")

    @propose.command(name="draw", description="Ask the others to end the match as a draw")
    async def propose_draw(self, interaction: discord.Interaction) -> None:
        await _propose(self, interaction, DRAW)

    @propose.command(name="abandon", description="Ask the others to abandon the match (no ratings)")
    async def propose_abandon(self, interaction: discord.Interaction) -> None:
        await _propose(self, interaction, ABANDON)


async def _propose(commands: CommandBase, interaction: discord.Interaction, kind: str) -> None:
    """Open a vote to end the match (or end it at once when nobody else has to agree)."""
    await commands._private(interaction)

    async def apply() -> str:
        outcome = await commands.service.propose(Place(channel_of(interaction), interaction.user.id),
                                                 interaction.user.id, kind,
                                                 is_manager=await commands._manager(interaction))
        if outcome.status == "passed":
            return texts.VOTE_PASSED[kind]
        return texts.VOTE_ASKED.format(asked=", ".join(plain_name(n) for n in outcome.asked),
                                       what=texts.VOTE_WHAT[kind], due=timestamp(outcome.due_at))

    # a retried or double-sent proposal answers what was done instead of refusing a second vote
    await commands._once(interaction, f"propose:{kind}", apply)
