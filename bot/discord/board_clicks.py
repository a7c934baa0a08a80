"""The status board's buttons: each answers the clicker alone (ephemeral), like the command
it stands for: Act = `/game act`, Map = `/game map`, Rules = the topics of `/game rules`."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord

import render
from bot.discord import ids
from bot.discord.mentions import plain_names
from bot.discord.prompt_ui import prompt_text, prompt_view
from bot.discord.replies import answer
from bot.naming import named_prompt
from bot.rules_text import rule_topics
from bot.service import NoMatch

if TYPE_CHECKING:
    from bot.discord.app import WarhostBot

NOT_HERE = "This button is not part of an open warhost match here, so nothing was done."


async def board_click(bot: WarhostBot, interaction: discord.Interaction, cid: ids.BoardId) -> None:
    """Judge the click against the match's guild and channel, then answer privately."""
    from bot.discord.router import clicked_here

    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        info = await bot.svc.get_match(cid.match_id)
    except NoMatch:
        info = None
    if info is None or not clicked_here(interaction, info):
        await answer(interaction, NOT_HERE)
        return
    if cid.action == "map":
        view = await bot.svc.public_view(info.id)
        png = await asyncio.to_thread(render.draw, info.game, view, names=info.names())
        await answer(interaction, f"**{info.title}** - {view.get('phase_label', '')}",
                     file=discord.File(io.BytesIO(png), "map.png"))
        return
    if cid.action == "rules":
        topics = sorted(rule_topics(info.game))
        await answer(interaction, f"**{info.title}** rule topics: {', '.join(topics) or 'none'}.\n"
                                  "Read one with `/game rules topic:`."[:1900])
        return
    pending = await bot.svc.pending_prompt(info.id, interaction.user.id)
    if pending is None:
        await answer(interaction, "You have no open decision right now.")
        return
    prompt = named_prompt(pending.prompt.model_dump(), info.names())
    written = named_prompt(pending.prompt.model_dump(), plain_names(info.names()))
    await answer(interaction, prompt_text(written, pending.deadline),
                 view=prompt_view(info.id, pending.seat, pending.version, prompt))
