"""`/game` fits Discord's limits on one command: at most 25 subcommands (and groups), and at most
4000 characters over every name, description and choice (the fake Discord refuses the sync past
them, so every end-to-end test would fail; this says at once which subcommand grew).

A game added by a server (or a test's toy game) joins every game choice of `/game`, so the shipped
games leave room for one more with a long title: otherwise the first added game breaks the sync."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest
from discord import app_commands

import engine
from bot.discord.commands import GameCommands
from tests.fakediscord.command_rules import MAX_COMMAND_SIZE, _size
from tests.service.coopgame import CoopGame


def _game_command() -> dict:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    return GameCommands(None).to_dict(tree)  # type: ignore[arg-type]


class LongTitled(CoopGame):
    """The toy co-op game (with its own options) under a 30-character title."""

    key = "longtitled"
    title = "A Long Game Title For Headroom"


@pytest.fixture
def one_more_game() -> Iterator[None]:
    engine.register(LongTitled())
    try:
        yield
    finally:
        engine.unregister(LongTitled.key)


def test_game_fits_discords_command_limits() -> None:
    command = _game_command()
    sizes = {option["name"]: _size(option) for option in command["options"]}
    assert len(sizes) <= 25, f"/game has {len(sizes)} subcommands; Discord allows 25"
    assert _size(command) <= MAX_COMMAND_SIZE, f"/game is {_size(command)} characters: {sizes}"


@pytest.mark.usefixtures("one_more_game")
def test_game_leaves_room_for_one_more_game() -> None:
    command = _game_command()
    titles = [choice["name"] for choice in next(o for o in command["options"] if o["name"] == "new")["options"][0]["choices"]]
    assert "A Long Game Title For Headroom" in titles
    sizes = {option["name"]: _size(option) for option in command["options"]}
    assert _size(command) <= MAX_COMMAND_SIZE, f"/game with one more game is {_size(command)} characters: {sizes}"
