"""The lobby message's buttons."""

from __future__ import annotations

import discord

from bot.discord.ids import LobbyId
from bot.discord.prompt_ui import PlainView


def lobby_view(match_id: int, status: str) -> discord.ui.View:
    view = PlainView()
    if status != "lobby":
        return view
    for action, label, style in (
        ("join", "Join", discord.ButtonStyle.success),
        ("leave", "Leave", discord.ButtonStyle.secondary),
        ("ai", "Add AI", discord.ButtonStyle.secondary),
        ("start", "Start", discord.ButtonStyle.primary),
    ):
        view.add_item(discord.ui.Button(label=label, style=style, custom_id=LobbyId(match_id, action).encode()))
    return view
