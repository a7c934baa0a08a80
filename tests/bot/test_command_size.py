"""`/game` fits Discord's limits on one command: at most 25 subcommands (and groups), and at most
4000 characters over every name, description and choice (the fake Discord refuses the sync past
them, so every end-to-end test would fail; this says at once which subcommand grew)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.commands import GameCommands
from tests.fakediscord.command_rules import MAX_COMMAND_SIZE, _size


def test_game_fits_discords_command_limits() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    command = GameCommands(None).to_dict(tree)  # type: ignore[arg-type]
    sizes = {option["name"]: _size(option) for option in command["options"]}
    assert len(sizes) <= 25, f"/game has {len(sizes)} subcommands; Discord allows 25"
    assert _size(command) <= MAX_COMMAND_SIZE, f"/game is {_size(command)} characters: {sizes}"
