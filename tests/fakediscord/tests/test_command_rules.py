"""The fake refuses a command upload Discord would refuse, with Discord's nested form errors."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from tests.fakediscord.command_rules import INT53, check_commands
from tests.fakediscord.server import FakeDiscord


@app_commands.command(name="roll", description="roll a die")
async def roll_too_far(interaction: discord.Interaction, seed: app_commands.Range[int, 0, INT53 + 1]) -> None:
    """An option one past Discord's Int53 bound."""


@app_commands.command(name="roll", description="roll a die")
async def roll_in_bounds(interaction: discord.Interaction, seed: app_commands.Range[int, 0, INT53]) -> None:
    """The largest bound Discord accepts."""


async def _sync(command: app_commands.Command) -> list[app_commands.AppCommand]:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    tree.add_command(command)
    await client.login("fake-token")
    try:
        return await tree.sync()
    finally:
        await client.close()


async def test_an_integer_bound_past_int53_is_refused_by_path(fake: FakeDiscord) -> None:
    with fake.expect_violation("invalid_commands"), pytest.raises(app_commands.CommandSyncFailure) as failure:
        await _sync(roll_too_far)
    text = str(failure.value)
    assert "In command 'roll' defined in function 'roll_too_far'" in text
    assert "In parameter 'seed'" in text and f"less than or equal to {INT53}" in text
    assert fake.commands == {}
    assert [c.name for c in await _sync(roll_in_bounds)] == ["roll"]


def _option(name: str, **extra: object) -> dict:
    return {"type": 3, "name": name, "description": "d", **extra}


def _command(*options: dict, name: str = "game") -> list[dict]:
    return [{"type": 1, "name": name, "description": "d", "options": list(options)}]


def test_discords_documented_rules() -> None:
    assert check_commands(_command(_option("a", required=True), _option("b"))).flat == []
    errors = check_commands(_command(_option("a"), _option("b", required=True)))
    assert errors.tree == {"0": {"options": {"1": {"_errors": [{
        "code": "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
        "message": "Required options must be placed before non-required options"}]}}}}
    assert check_commands(_command(name="Game")).flat == ["0.name: Command name is invalid"]
    assert check_commands(_command(_option("a"), _option("a"))).flat == ["0.options.1.name: Option names must be unique"]
    assert check_commands(_command(*[_option(f"o{i}") for i in range(26)])).flat == [
        "0.options: Must be 25 or fewer in length."]
    choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(3)]
    assert check_commands(_command(_option("a", choices=choices, autocomplete=True))).flat == [
        "0.options.0.autocomplete: Autocomplete cannot be set on an option with choices"]
    group = {"type": 2, "name": "g", "description": "d", "options": [_option("not_a_subcommand")]}
    assert check_commands(_command(group)).flat == ["0.options.0.options.0.type: Value must be one of [1]."]
    long_options = [_option(f"o{j}", description="d" * 100) for j in range(2)]
    huge = [{"type": 1, "name": f"s{i}", "description": "d" * 100, "options": long_options} for i in range(25)]
    assert check_commands(_command(*huge)).flat == ["0: Command exceeds maximum size (4000)"]
