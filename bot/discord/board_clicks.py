"""The status board's buttons: each answers the clicker alone (ephemeral), like the command
it stands for: Act = `/game act`, Map = `/game map`, Rules = the topics of `/game rules`."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from bot.discord import ids, texts
from bot.discord.click_origin import clicked_here
from bot.discord.mentions import plain_names
from bot.discord.prompt_ui import prompt_text, prompt_view
from bot.discord.replies import answer
from bot.naming import named_prompt, shown_prompt
from bot.rules_text import rule_topics
from bot.service import NoMatch, drawing

if TYPE_CHECKING:
    from bot.service import MatchService


async def board_click(service: MatchService, interaction: discord.Interaction, cid: ids.BoardId) -> None:
    """Judge the click against the match's guild and channel, then answer privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        info = await service.get_match(cid.match_id)
    except NoMatch:
        info = None
    if info is None or not clicked_here(interaction, info):
        await answer(interaction, texts.NOT_HERE)
        return
    if cid.action == "map":
        view = await service.public_view(info.id)
        png = await drawing.draw(info.game, view, names=info.names())
        await answer(interaction, texts.MAP_CAPTION.format(title=info.title, phase=view.get("phase_label", "")),
                     file=discord.File(io.BytesIO(png), "map.png"))
        return
    if cid.action == "rules":
        topics = sorted(rule_topics(info.game))
        listed = ", ".join(topics) or texts.NO_TOPICS
        await answer(interaction, texts.RULE_TOPICS.format(title=info.title, topics=listed)[:1900])
        return
    pending = await service.pending_prompt(info.id, interaction.user.id)
    if pending is None:
        await answer(interaction, texts.NO_DECISION)
        return
    shown = shown_prompt(pending.prompt)
    prompt = named_prompt(shown, info.names())
    written = named_prompt(shown, plain_names(info.names()))
    await answer(interaction, prompt_text(written, pending.deadline),
                 view=prompt_view(info.id, pending.seat, pending.version, prompt))
