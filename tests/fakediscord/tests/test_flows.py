"""The demo bot driven through the fake: every flow a game bot needs, as players see it."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import FakeDiscord, Player, PlayerError
from tests.fakediscord.demo_bot import DemoBot


def test_patch_points_still_exist() -> None:
    """The fake relies on two internal discord.py class attributes; an upgrade that drops them must fail here."""
    import discord.gateway
    import discord.http

    assert isinstance(discord.http.Route.BASE, str)
    assert discord.http.Route.BASE.startswith("http")
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith(("wss://", "ws://"))
    assert discord.__version__ == "2.7.1"


async def test_login_and_sync(fake: FakeDiscord, bot: DemoBot) -> None:
    calls = [(c.method, c.path) for c in fake.calls]
    assert ("GET", "/users/@me") in calls
    assert ("GET", "/oauth2/applications/@me") in calls
    assert ("PUT", f"/applications/{fake.app_id}/commands") in calls
    assert ("PUT", f"/applications/{fake.app_id}/guilds/{fake.guild.id}/commands") in calls
    guild_cmds = {c["name"] for c in fake.commands[fake.guild.id]}
    assert {"board", "game", "slow", "ping"} <= guild_cmds
    game = next(c for c in fake.commands[fake.guild.id] if c["name"] == "game")
    assert {o["name"] for o in game["options"]} == {"new", "admin"}
    assert fake.identifies[0]["intents"] == discord.Intents.default().value
    assert bot.get_guild(fake.guild.id) is not None
    assert bot.get_channel(fake.channel.id) is not None
    assert bot.user is not None and bot.user.id == fake.app_id


async def test_slash_png_and_buttons(bot: DemoBot, alice: Player, bob: Player) -> None:
    resp = await alice.slash("board", size=4)
    assert resp.type == 4 and not resp.ephemeral
    msg = resp.message
    assert msg is not None and msg.content == "Board 4x4"
    assert [b.label for b in msg.buttons] == ["Join", "Info", "Closed", "Rules"]
    assert msg.button("Closed").disabled
    img = msg.image()
    assert img.format == "PNG" and img.size == (128, 128)
    callback = next(c for c in alice.fake.calls if c.path.endswith("/callback"))
    assert callback.multipart and callback.files[0][0] == "board.png"
    assert callback.body["data"]["attachments"] == [{"id": 0, "filename": "board.png"}]
    assert bob.sees("Board 4x4")  # a channel message: everyone in the guild sees it


async def test_click_gives_ephemeral_reply(bot: DemoBot, alice: Player, bob: Player) -> None:
    await alice.slash("board")
    resp = await alice.click("Info")
    assert resp.type == 4 and resp.ephemeral and resp.content == "Only you see this"
    assert alice.sees("Only you see this")
    assert not bob.sees("Only you see this")
    assert [m.content for m in alice.fake.channel.messages] == ["Board 3x3"]  # public messages only
    assert resp.message.audience == "ephemeral:alice"


async def test_impossible_clicks_fail_in_the_test(bot: DemoBot, alice: Player) -> None:
    board = (await alice.slash("board")).message
    calls = len(bot.guild_ids) and len(alice.fake.interactions)
    with pytest.raises(PlayerError, match="disabled"):
        await alice.click("Closed")
    with pytest.raises(PlayerError, match="not on"):
        await alice.click("Nope", message=board)
    with pytest.raises(PlayerError, match="link button"):
        await alice.click("Rules")
    with pytest.raises(PlayerError, match="not one of"):
        await alice.slash("bad", kind="nonsense")
    with pytest.raises(PlayerError, match="outside"):
        await alice.slash("board", size=9)
    assert len(alice.fake.interactions) == calls  # nothing was sent to the bot


async def test_dm_button_modal_round_trip(bot: DemoBot, alice: Player, bob: Player) -> None:
    await alice.slash("board")
    resp = await bob.click("Join")
    assert resp.ephemeral and resp.content == "bob joined"
    dm = await bob.dm.wait_for("Choose your secret move")
    assert [b.label for b in dm.buttons] == ["Spend 2"]
    assert not alice.dm.messages and dm not in alice.seen
    opened = await bob.dm.click("Spend 2")
    assert opened.type == 9 and opened.modal["title"] == "Secret orders"
    done = await bob.dm.submit_modal({"attack": "2", "defend": "1"})
    assert done.ephemeral and done.content == "Orders: attack 2, defend 1"
    assert bot.orders[bob.id] == ("2", "1")
    with pytest.raises(PlayerError, match="has not opened a modal"):
        await bob.dm.submit_modal({"attack": "1"})


async def test_modal_input_rules_checked_before_sending(bot: DemoBot, bob: Player) -> None:
    await bob.slash("dm")
    await bob.dm.click("Spend 2")
    with pytest.raises(PlayerError, match="no input"):
        await bob.dm.submit_modal({"attack": "2", "defend": "1", "retreat": "0"})
    with pytest.raises(PlayerError, match="required"):
        await bob.dm.submit_modal({"attack": "2"})
    with pytest.raises(PlayerError, match="length"):
        await bob.dm.submit_modal({"attack": "200", "defend": "1"})


async def test_defer_then_edit_original_in_place(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    resp = await alice.slash("slow")
    assert resp.type == 5
    msg = resp.message
    assert msg is not None and not msg.loading and msg.content == "done"
    assert msg.image().size == (64, 64)
    assert [v["content"] for v in msg.versions] == ["", "done"]  # one message, edited in place
    assert len(fake.channel_messages(fake.channel)) == 1


async def test_followup_and_edits(bot: DemoBot, alice: Player, bob: Player) -> None:
    resp = await alice.slash("followup")
    second = await resp.wait_followup()
    await alice.wait_for(lambda m: m.content == "first (edited)")
    await alice.wait_for(lambda m: m.content == "second (edited)")
    assert second.ephemeral and second.content == "second (edited)"
    assert resp.message.content == "first (edited)"
    assert bob.sees("first (edited)") and not bob.sees("second")


async def test_autocomplete_and_subcommands(bot: DemoBot, alice: Player) -> None:
    choices = await alice.autocomplete("game new", "game", "tiny")
    assert [c["value"] for c in choices] == ["tinybigwars", "tinybigwars-lite"]
    resp = await alice.slash("game new", game="tinybigwars", seats=3)
    assert resp.content == "New tinybigwars game for 3 seats"
    assert resp.interaction.payload["data"]["guild_id"] == str(alice.fake.guild.id)
    with pytest.raises(PlayerError, match="needs a subcommand"):
        await alice.slash("game")


async def test_permissions_from_member_data(fake: FakeDiscord, bot: DemoBot, alice: Player, bob: Player) -> None:
    denied = await alice.slash("game admin reset")
    assert denied.ephemeral and denied.content == "You need Manage Server"
    manager = fake.user("mia", manage_guild=True)
    ok = await manager.slash("game admin reset", target=bob)
    assert ok.content == "Reset done for bob"


async def test_select_menu_updates_message(bot: DemoBot, alice: Player) -> None:
    await alice.slash("target")
    resp = await alice.select("Target", ["jade", "Onyx"])
    assert resp.type == 7
    assert resp.message.content == "Target: jade, onyx"
    assert resp.message.selects == []  # view=None removed the select, in place
    with pytest.raises(PlayerError, match="sees no message"):
        await alice.select("Target", ["ruby"])


async def test_channel_messages_edit_fetch_typing(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    resp = await alice.slash("announce")
    assert resp.type == 5 and resp.ephemeral and resp.content == "posted Announcement (edited)"
    post = await alice.wait_for("Announcement (edited)")
    assert post.files["a.png"][:4] == b"\x89PNG" and [b.label for b in post.buttons][:2] == ["Join", "Info"]
    paths = [(c.method, c.path) for c in fake.calls]
    assert ("POST", f"/channels/{fake.channel.id}/typing") in paths
    assert ("PATCH", f"/channels/{fake.channel.id}/messages/{post.id}") in paths
    assert ("GET", f"/channels/{fake.channel.id}/messages/{post.id}") in paths


async def test_dm_slash_command(bot: DemoBot, carol: Player) -> None:
    resp = await carol.dm.slash("ping")
    assert resp.content == "pong" and resp.shard_id == 0
    assert resp.message.channel.is_dm and "data" in resp.interaction.payload
    assert "guild_id" not in resp.interaction.payload["data"]


async def test_restart_bot_keeps_fake_state(fake: FakeDiscord, start_bot, bot: DemoBot, alice: Player) -> None:
    board = (await alice.slash("board")).message
    bot2 = await start_bot.restart(bot, lambda: DemoBot([g.id for g in fake.guilds]))
    assert bot2 is not bot and bot.is_closed() and bot2.is_ready()
    resp = await alice.click("Join", message=board)  # persistent view of the old board, new process
    assert resp.content == "alice joined"
    await alice.dm.wait_for("Choose your secret move")
    assert len(fake.identifies) == 2


def test_e2e_conftest_exposes_the_fixtures() -> None:
    import tests.e2e.conftest as e2e

    for name in ("fake", "start_bot", "fake_process", "alice", "bob", "carol", "dave", "pytest_configure"):
        assert callable(getattr(e2e, name)), name


async def test_deferred_update_edits_component_message(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    posted = (await alice.slash("counter")).message
    first = await alice.click("+1")
    assert first.type == 6 and first.message is posted
    await alice.wait_for("Count: 1")
    await alice.click("+1", message=posted)
    await alice.wait_for("Count: 2")
    assert [m.content for m in alice.messages] == ["Count: 2"]
    assert posted.texts == ["Count: 0", "Count: 1", "Count: 2"]


async def test_leak_check_sees_every_version(fake: FakeDiscord, bot: DemoBot, alice: Player, bob: Player) -> None:
    await bob.slash("dm")
    dm = await bob.dm.wait_for("Secret orders")
    await bob.dm.click("Spend 2")
    await bob.dm.submit_modal({"attack": "4", "defend": "0"})
    assert bob.ever_saw("attack 4") and not alice.ever_saw("attack 4")
    assert fake.leaks("attack 4", allowed=[bob]) == []
    assert fake.leaks("Secret orders", allowed=[]) == [f"bob saw 'Secret orders' in dm:bob message {dm.id}"]
    resp = await alice.slash("followup")
    await alice.wait_for("first (edited)")
    assert not any(m.content == "first" for m in bob.messages)  # now shows "first (edited)" ...
    assert any("first" in t.split("\n") for m in bob.seen for t in m.texts)  # ... but bob saw "first"
    assert resp.message.texts[0] == "first"


async def test_attachment_urls_are_served(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    import aiohttp

    msg = (await alice.slash("board", size=2)).message
    url = msg.payload(fake.base_url)["attachments"][0]["url"]
    async with aiohttp.ClientSession() as http, http.get(url) as resp:
        assert resp.status == 200 and resp.content_type == "image/png"
        assert await resp.read() == msg.files["board.png"]


async def test_label_modal_layout_is_mirrored(bot: DemoBot, alice: Player, bob: Player) -> None:
    opened = await alice.slash("enlist")
    assert opened.type == 9 and [c["type"] for c in opened.modal["components"]] == [18, 18]
    with pytest.raises(PlayerError, match="has not opened"):
        await bob.submit_modal({"name": "Bo"})
    done = await alice.submit_modal({"name": "Al", "faction": ["ruby"]}, custom_id="enlist")
    assert done.content == "Al enlists with ruby" and bob.sees("Al enlists with ruby")
    submitted = done.interaction.payload["data"]["components"]
    assert submitted == [{"type": 18, "component": {"type": 4, "custom_id": "name", "value": "Al"}},
                         {"type": 18, "component": {"type": 3, "custom_id": "faction", "values": ["ruby"]}}]


async def test_delete_original(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    resp = await alice.slash("vanish")
    await fake.wait_until(lambda: resp.message is None)
    assert not alice.sees("poof") and alice.ever_saw("poof")
    assert ("DELETE", f"/webhooks/{fake.app_id}/{resp.interaction.token}/messages/@original") in [
        (c.method, c.path) for c in fake.calls]
