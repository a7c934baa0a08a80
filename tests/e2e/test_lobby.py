"""Lobby and admin commands as players use them."""

from __future__ import annotations

from tests.e2e.harness import factory, settings_for
from tests.e2e.test_errors import forged_slash
from tests.fakediscord.models import Channel, snowflake


async def open_lobby(fake, start_bot, alice, tmp_path, **options):
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    r = await alice.slash("game new", game="tinybigwars", **options)
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    return bot, r, lobby


async def test_lobby_buttons_update_one_message(fake, start_bot, alice, bob, carol, tmp_path) -> None:
    _bot, r, lobby = await open_lobby(fake, start_bot, alice, tmp_path, seats=3)
    assert r.ephemeral and "match #1" in r.content
    assert [b.label for b in lobby.buttons] == ["Join", "Leave", "Add AI", "Start"]
    await bob.click("Join")
    await carol.click("Join")
    await alice.wait_for(lambda m: m.id == lobby.id and "carol joined" in m.content)
    full = await alice.click("Add AI")
    assert full.ephemeral and "The lobby is full (3 seats)." in full.content
    left = await carol.click("Leave")
    assert "You left the lobby." in left.content
    await alice.wait_for(lambda m: m.id == lobby.id and "carol left" in m.content)
    lobby_msgs = [m for m in fake.channel_messages(fake.channel) if m.button("Join")]
    assert len(lobby_msgs) == 1, "the lobby updates in place"


async def test_second_match_in_a_busy_channel_is_refused(fake, start_bot, alice, bob, tmp_path) -> None:
    await open_lobby(fake, start_bot, alice, tmp_path)
    r = await bob.slash("game new", game="tinybigwars")
    assert r.ephemeral and "already" in r.content.lower()
    status = await alice.slash("game status")
    assert "match #1" in status.content and "alice" in status.content


async def test_only_host_or_manager_may_start_and_abort(fake, start_bot, alice, bob, tmp_path) -> None:
    await open_lobby(fake, start_bot, alice, tmp_path)
    await bob.click("Join")
    refused = await bob.click("Start")
    assert refused.ephemeral and "Only the host (now alice) or a member with Manage Server can do that." in refused.content
    refused = await bob.slash("game abort")
    assert "Only the host (now alice) or a member with Manage Server can do that." in refused.content
    erin = fake.user("erin", manage_guild=True)
    done = await erin.slash("game abort")
    assert "The match was aborted." in done.content
    await alice.wait_for(lambda m: "aborted" in m.content)
    none = await alice.slash("game status")
    assert none.ephemeral and "no" in none.content.lower()


async def test_rules_topics_autocomplete_and_text(fake, start_bot, alice, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    choices = await alice.autocomplete("game rules", "topic", "com")
    assert [c["name"] for c in choices] == ["Combat"]
    r = await alice.slash("game rules", topic="Combat")
    assert r.ephemeral and "A 5 is one hit, a 6 two" in r.content
    unknown = await alice.slash("game rules", topic="Flying")
    assert "No rule topic 'Flying'" in unknown.content


async def test_new_with_a_bad_option_is_refused(fake, start_bot, alice, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    r = await alice.slash("game new", game="tinybigwars", mode="turbo")
    assert r.ephemeral and "has no option `mode`" in r.content
    status = await alice.slash("game status")
    assert "no" in status.content.lower() and "match" in status.content.lower()


async def test_lobby_through_slash_commands(fake, start_bot, alice, bob, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    modes = await alice.autocomplete("game new", "mode", "", game="samurai")
    assert {c["value"] for c in modes} >= {"base", "quickstart", "lwtv"}
    await alice.slash("game new", game="tinybigwars", seats=3, deadline_hours=12)
    assert "You joined" in (await bob.slash("game join")).content
    assert "already" in (await bob.slash("game join")).content.lower()
    assert "You left the lobby." in (await bob.slash("game leave")).content
    assert (await alice.slash("game addai")).content == "AI Ayame took a seat."
    assert (await alice.slash("game addai", policy="random")).content == (
        "AI Bruno took a seat; it plays any legal move at random.")
    started = await alice.slash("game start")
    assert "has started" in started.content
    status = await alice.slash("game status")
    assert "AI Ayame: AI" in status.content and "AI Bruno: AI" in status.content
    assert "owes a choice" in status.content
    dm = await alice.dm.wait_for(lambda m: m.selects)
    assert "Deadline <t:" in dm.content


async def test_a_seed_replays_a_known_shuffle(fake, start_bot, alice, tmp_path) -> None:
    bot, r, _lobby = await open_lobby(fake, start_bot, alice, tmp_path, seed=424242)
    assert r.ephemeral and "match #1" in r.content
    info = await bot.svc.find_match(fake.channel.id)
    async with bot.svc.store.read() as session:
        from db import Match

        match = await session.get(Match, info.id)
        assert match is not None and match.seed == 424242


async def test_a_forged_game_or_option_gets_a_plain_refusal(fake, start_bot, alice, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    r = await forged_slash(alice, "game new", game="nosuchgame")
    assert r.ephemeral and "There is no game called nosuchgame" in r.content, r.content
    assert "Tiny Big Wars (`tinybigwars`)" in r.content and "went wrong" not in r.content
    r = await forged_slash(alice, "game new", game="defenders", difficulty="impossible")
    assert r.ephemeral and "went wrong" not in r.content and "difficulty" in r.content, r.content
    r = await forged_slash(alice, "game new", game="tinybigwars", away="sometimes")
    assert r.ephemeral and "went wrong" not in r.content and "away" in r.content.lower(), r.content
    assert "no" in (await alice.slash("game status")).content.lower(), "nothing was created"


async def test_one_open_lobby_per_host_per_server(fake, start_bot, alice, bob, tmp_path) -> None:
    other = Channel(snowflake(), "other", guild=fake.guild, position=1)
    fake.guild.channels.append(other)
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="tinybigwars")
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    again = await alice.slash("game new", game="samurai")
    assert again.ephemeral and "You already have a lobby open on this server: **Tiny Big Wars #1**" in again.content
    assert f"<#{fake.channel.id}>" in again.content, again.content
    refused = await alice.at(other).slash("game new", game="samurai")
    assert "already have a lobby open" in refused.content, "nor in another channel of the server"
    assert len([m for m in fake.channel_messages(fake.channel) if m.button("Join")]) == 1, "no second lobby post"
    # Once it has started, the host may open the next one.
    await bob.click("Join", message=lobby)
    await alice.click("Start", message=lobby)
    assert "Lobby for **Tiny Big Wars**" not in (await alice.slash("game new", game="tinybigwars")).content
