"""The fake refuses what Discord's OpenAPI spec refuses, with Discord's error shape, and the
bot's own command upload passes it."""

from __future__ import annotations

import copy
import io
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.discord.commands import MAX_SEED, GameCommands
from tests.fakediscord import FakeDiscord
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.spec import SPEC_ENV, DiscordSpec, load_spec, unavailable_reason

COMMANDS_ROUTE = "/applications/1/commands"


@pytest.fixture
def spec() -> DiscordSpec:
    loaded = load_spec()
    if loaded is None:
        pytest.skip(unavailable_reason() or "no spec")
    return loaded


def upload_payload() -> list[dict]:
    """The `/game` tree as the bot syncs it: `CommandTree.sync` sends `to_dict(tree)` of each."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.default()))
    tree.add_command(GameCommands(None))  # type: ignore[arg-type]
    return [command.to_dict(tree) for command in tree.get_commands()]


def option(payload: list[dict], sub: str, name: str) -> dict:
    group = next(o for o in payload[0]["options"] if o["name"] == sub)
    return next(o for o in group["options"] if o["name"] == name)


def test_the_bots_command_upload_is_valid(spec: DiscordSpec) -> None:
    payload = upload_payload()
    assert spec.check("PUT", COMMANDS_ROUTE, {}, payload) is None
    assert option(payload, "new", "seed")["max_value"] == MAX_SEED == 2**53 - 1
    assert payload[0]["contexts"] == [0], "/game is offered in servers only, not in DMs with the bot"
    assert payload[0]["integration_types"] == [0]


def test_one_past_int53_is_refused_with_the_path(spec: DiscordSpec) -> None:
    payload = copy.deepcopy(upload_payload())
    option(payload, "new", "seed")["max_value"] = 2**53
    refused = spec.check("PUT", COMMANDS_ROUTE, {}, payload)
    assert refused is not None and refused.status == 400 and refused.body["code"] == 50035
    new_index = next(i for i, o in enumerate(payload[0]["options"]) if o["name"] == "new")
    seed_index = next(i for i, o in enumerate(payload[0]["options"][new_index]["options"]) if o["name"] == "seed")
    leaf = refused.body["errors"]["0"]["options"][str(new_index)]["options"][str(seed_index)]["max_value"]
    assert leaf["_errors"][0]["code"] == "NUMBER_TYPE_MAX"


def test_routes_methods_and_queries(spec: DiscordSpec) -> None:
    missing = spec.check("GET", "/channels/1/nothing-here", {}, None)
    assert missing is not None and (missing.status, missing.body) == (404, {"message": "404: Not Found", "code": 0})
    wrong = spec.check("PUT", "/channels/1/messages", {}, {})
    assert wrong is not None and wrong.status == 405
    bad_query = spec.check("GET", "/channels/1/messages", {"limit": "many"}, None)
    assert bad_query is not None and "limit" in bad_query.body["errors"]
    assert spec.check("GET", "/channels/1/messages", {"limit": "50"}, None) is None
    bad_id = spec.check("GET", "/channels/abc", {}, None)
    assert bad_id is not None and "channel_id" in bad_id.body["errors"]


async def test_fake_refuses_a_body_against_the_spec(fake: FakeDiscord, bot: DemoBot) -> None:
    if fake.spec is None:
        pytest.skip(unavailable_reason() or "no spec")
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=fake.channel.id)
    with fake.expect_violation("spec") as found, pytest.raises(discord.HTTPException) as err:
        await bot.http.request(route, json={"content": "hi", "embeds": [{"title": "t" * 257}]})
    assert err.value.status == 400 and err.value.code == 50035
    assert "embeds.0.title" in found[0].detail
    assert not fake.channel_messages(fake.channel), "a refused message is not posted"


async def test_fake_validates_the_json_part_of_a_multipart_upload(fake: FakeDiscord, bot: DemoBot) -> None:
    if fake.spec is None:
        pytest.skip(unavailable_reason() or "no spec")
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    png = discord.File(io.BytesIO(b"\x89PNG"), "x.png", description="d" * 1025)
    with fake.expect_violation("spec") as found, pytest.raises(discord.HTTPException):
        await channel.send("with a file", file=png)
    assert "attachments.0.description" in found[0].detail


async def test_fake_refuses_a_route_discord_does_not_have(fake: FakeDiscord, bot: DemoBot) -> None:
    if fake.spec is None:
        pytest.skip(unavailable_reason() or "no spec")
    route = discord.http.Route("GET", "/channels/{channel_id}/nonsense", channel_id=fake.channel.id)
    with fake.expect_violation("spec"), pytest.raises(discord.NotFound) as err:
        await bot.http.request(route)
    assert err.value.text == "404: Not Found"


def test_missing_spec_is_explained(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(SPEC_ENV, str(tmp_path / "absent.json"))
    reason = unavailable_reason()
    assert reason is not None and "NOT validated" in reason and SPEC_ENV in reason
