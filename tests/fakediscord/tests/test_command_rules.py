"""The fake refuses a command upload Discord would refuse, with Discord's nested form errors."""

from __future__ import annotations

import aiohttp

from tests.fakediscord.command_rules import check_commands
from tests.fakediscord.server import FakeDiscord


async def test_an_upload_breaking_a_rule_is_refused_whole(fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/applications/{fake.app_id}/commands"
    body = _command(_option("a"), _option("a"))
    async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as session:
        with fake.expect_violation("invalid_commands"):
            async with session.put(url, json=body) as resp:
                refused = await resp.json()
    assert resp.status == 400 and refused["code"] == 50035
    assert refused["errors"] == {"0": {"options": {"1": {"name": {"_errors": [{
        "code": "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "message": "Option names must be unique"}]}}}}}
    assert fake.commands == {}


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
    assert check_commands(_command(_option("a", min_value=5, max_value=1))).flat == [
        "0.options.0.min_value: min_value must be less than or equal to max_value"]
    choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(3)]
    assert check_commands(_command(_option("a", choices=choices, autocomplete=True))).flat == [
        "0.options.0.autocomplete: Autocomplete cannot be set on an option with choices"]
    assert check_commands([{"type": 1, "name": "game"}]).flat == ["0.description: Must be between 1 and 100 in length."]
    long_options = [_option(f"o{j}", description="d" * 100) for j in range(2)]
    huge = [{"type": 1, "name": f"s{i}", "description": "d" * 100, "options": long_options} for i in range(25)]
    assert check_commands(_command(*huge)).flat == ["0: Command exceeds maximum size (4000)"]
