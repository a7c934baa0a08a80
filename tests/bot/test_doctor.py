"""`python -m bot doctor` against the fake Discord: a refused token, a channel that takes Send
Messages away, a refused command upload, and a good setup whose /game upload the fake stores."""

from __future__ import annotations

import pytest

import bot.discord.cog as cog_module
from bot.cli.doctor import doctor
from bot.discord.commands import GameCommands
from bot.discord.permissions import INVITE_PERMISSIONS, invite_url
from bot.discord.setup_check import REFUSED_TOKEN
from bot.settings import Settings
from tests.fakediscord.fixtures import running_fake
from tests.fakediscord.server import FakeDiscord


def _settings(fake: FakeDiscord, token: str | None = "fake-token", dev_guild_id: int | None = None) -> Settings:
    return Settings(_env_file=None, discord_token=token, discord_api_base=fake.api_base,  # type: ignore[call-arg]
                    dev_guild_id=dev_guild_id)


async def _doctor(settings: Settings, **kwargs: int) -> tuple[int, list[str]]:
    lines: list[str] = []
    code = await doctor(settings, write=lines.append, **kwargs)
    return code, lines


async def test_a_refused_token_is_one_plain_line_and_exit_1() -> None:
    async with running_fake() as fake:
        code, lines = await _doctor(_settings(fake, token="an-old-token"))
        assert fake.pop_violations("unauthorized")
        fake.assert_no_violations()
    assert code == 1
    assert lines[0] == f"✗ {REFUSED_TOKEN}"
    assert "Discord refused the token: reset it under Bot in the developer portal and put it in .env as " \
           "DISCORD_TOKEN=..." in lines[0]
    assert fake.commands == {}, "nothing is uploaded with a refused token"


async def test_no_token_explains_how_to_get_one() -> None:
    async with running_fake() as fake:
        code, lines = await _doctor(_settings(fake, token=None))
    assert code == 1 and lines[0].startswith("✗ no bot token")
    assert any(f"permissions={INVITE_PERMISSIONS}" in line for line in lines)


async def test_a_channel_without_send_messages_names_it_and_exits_1() -> None:
    async with running_fake(bot_permissions=INVITE_PERMISSIONS) as fake:
        fake.channel.deny(fake.guild.everyone, "send_messages")  # a read-only channel
        code, lines = await _doctor(_settings(fake), channel_id=fake.channel.id)
        fake.assert_no_violations()
    assert code == 1
    assert "✗ the bot cannot play in #game on Guild 1: it lacks Send Messages, Attach Files" in lines
    missing = next(line for line in lines if "Send Messages (required) is missing" in line)
    assert missing.lstrip().startswith("✗") and "allow it for the bot's role in #game" in missing
    assert any(line.strip().startswith("✓ View Channel (required)") for line in lines)
    assert lines[-1].startswith("✗ not ready")


async def test_a_good_setup_passes_every_line_and_uploads_the_commands() -> None:
    async with running_fake(bot_permissions=INVITE_PERMISSIONS) as fake:
        code, lines = await _doctor(_settings(fake), channel_id=fake.channel.id)
        fake.assert_no_violations()
        stored = fake.commands[None]
    assert code == 0, "\n".join(lines)
    assert all(line.lstrip().startswith("✓") for line in lines), "\n".join(lines)
    assert any(invite_url(fake.app_id) in line for line in lines)
    assert [c["name"] for c in stored] == ["game"]
    subcommands = {o["name"] for o in stored[0]["options"]}
    assert {"new", "join", "start", "status"} <= subcommands
    assert any(f"uploaded /game with {len(subcommands)} subcommands globally" in line for line in lines)


async def test_dev_guild_commands_go_to_that_server() -> None:
    async with running_fake(bot_permissions=INVITE_PERMISSIONS) as fake:
        code, lines = await _doctor(_settings(fake, dev_guild_id=fake.guild.id), guild_id=fake.guild.id)
        fake.assert_no_violations()
        assert [c["name"] for c in fake.commands[fake.guild.id]] == ["game"]
    assert code == 0, "\n".join(lines)
    assert lines[-2].startswith("· a channel's own permission settings"), "a server alone is not the channel"


async def test_a_refused_upload_says_where_in_plain_words(monkeypatch: pytest.MonkeyPatch) -> None:
    def two_subcommands_named_new(wiring: cog_module.GameCog) -> GameCommands:
        group = GameCommands(wiring)
        group.get_command("join").name = "new"  # type: ignore[union-attr]
        return group

    monkeypatch.setattr(cog_module, "GameCommands", two_subcommands_named_new)
    async with running_fake() as fake:
        code, lines = await _doctor(_settings(fake))
        assert fake.pop_violations("invalid_commands")
        fake.assert_no_violations()
    assert code == 1
    refused = next(i for i, line in enumerate(lines) if line.startswith("✗ Discord refused the /game commands"))
    assert "400 code 50035: Invalid Form Body" in lines[refused]
    details = "\n".join(lines[refused + 1:])
    assert "In command 'game new' defined in function 'GameCommands.join'" in details
    assert "name: Option names must be unique" in details
    assert fake.commands == {}


async def test_a_channel_the_bot_cannot_see_or_that_does_not_exist() -> None:
    async with running_fake(bot_permissions=INVITE_PERMISSIONS) as fake:
        fake.channel.deny(fake.guild.everyone, "view_channel")
        code, lines = await _doctor(_settings(fake), channel_id=fake.channel.id)
        assert fake.pop_violations("missing_access")
        assert code == 1 and any(line.startswith(f"✗ the bot cannot see channel {fake.channel.id}") for line in lines)
        code, lines = await _doctor(_settings(fake), channel_id=12345)
        assert fake.pop_violations("unknown_channel")
        assert code == 1 and any(line.startswith("✗ there is no channel 12345") for line in lines)
        fake.assert_no_violations()


async def test_optional_permissions_missing_still_exit_0() -> None:
    async with running_fake() as fake:  # invited with no permissions: only @everyone's
        code, lines = await _doctor(_settings(fake), channel_id=fake.channel.id)
        fake.assert_no_violations()
    assert code == 0, "\n".join(lines)
    assert any(line.strip().startswith("✗ Create Public Threads (optional) is missing") for line in lines)
    assert any("matches opened in #game run in the channel itself, one match at a time" in line for line in lines)


async def test_an_unreachable_discord_is_said_plainly() -> None:
    async with running_fake() as fake:  # restores discord.py's REST base afterwards
        settings = Settings(_env_file=None, discord_token="fake-token",  # type: ignore[call-arg]
                            discord_api_base="http://127.0.0.1:9/api/v10")
        code, lines = await _doctor(settings)
        fake.assert_no_violations()
    assert code == 1
    assert lines[0].startswith("✗ could not reach Discord at http://127.0.0.1:9/api/v10")


async def test_a_slowmode_channel_the_bot_cannot_bypass_is_reported() -> None:
    async with running_fake(bot_permissions=INVITE_PERMISSIONS) as fake:
        fake.channel.rate_limit_per_user = 600
        code, lines = await _doctor(_settings(fake), channel_id=fake.channel.id)
        fake.channel.allow(fake.bot_user, "bypass_slowmode")
        _, bypassed = await _doctor(_settings(fake), channel_id=fake.channel.id)
        fake.assert_no_violations()
    slow = [line for line in lines if "slowmode" in line]
    assert len(slow) == 1 and slow[0].startswith("✗ #game has slowmode (600 s between posts)"), "\n".join(lines)
    assert "Bypass Slowmode" in slow[0] and code == 0, "a warning, not a failure: the bot can still play"
    assert not [line for line in bypassed if "slowmode" in line]
