"""Errors reach players in plain words: a refusal in its own words, a refused option naming what it
allows, anything else as an error id (logged in full under the same id), and never silence."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import pytest
import sqlalchemy.exc

from tests.e2e.harness import ephemeral_reply, factory, open_prompt, settings_for
from tests.e2e.samurai_play import BOUNDS, SamuraiPlayer
from tests.fakediscord.players import PlayerError, modal_text_inputs

ERROR_ID = re.compile(r"^Something went wrong on our side \(error id ([A-Z0-9]{6})\)\. Nothing was changed; "
                      r"try again, and tell the host the id if it keeps happening\.$")
RAW = ("sqlalchemy", "SELECT", "http", "pydantic", "Traceback", "Bad Request", "validation error")


def plain(text: str) -> str:
    for word in RAW:
        assert word not in text, f"{word!r} reached the player: {text}"
    return text


async def started_match(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any, game: str = "tinybigwars",
                        **options: Any) -> Any:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game=game, **options)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    if game == "samurai":
        await alice.click("Add AI")
        await alice.wait_for(lambda m: "AI" in m.content and m.button("Join") is not None)
    await alice.click("Start")
    return bot


async def forged_slash(player: Any, command: str, **values: Any) -> Any:
    """A slash command with option values Discord's client would not send (past its limits)."""
    cmd, path, specs = player._command(command)
    types = {o["name"]: o["type"] for o in specs}
    leaf = [{"name": name, "type": types[name], "value": value} for name, value in values.items()]
    rec = player.fake.new_interaction(2, player.user, player.channel, player._command_data(cmd, path, leaf, {}))
    return await player._run(rec, True)


async def test_database_error_on_a_dm_click_is_answered_with_an_error_id(fake, start_bot, alice, bob, tmp_path,
                                                                         caplog) -> None:
    bot = await started_match(fake, start_bot, alice, bob, tmp_path)
    force = await alice.dm.wait_for(lambda m: m.selects)

    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise sqlalchemy.exc.OperationalError("SELECT seats.user_id FROM seats", {}, Exception("disk I/O error"))

    bot.svc.pending_prompt = bot.svc.submit = broken  # a DM click reads its prompt in the submit's transaction
    with caplog.at_level(logging.ERROR, logger="bot"):
        r = await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
        text = plain(await ephemeral_reply(r))
    found = ERROR_ID.match(text)
    assert found, text
    logged = [rec for rec in caplog.records if found.group(1) in rec.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None
    assert "disk I/O error" in str(logged[0].exc_info[1])


async def test_bad_game_option_names_the_option_and_its_values(fake, start_bot, alice, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    r = await alice.slash("game new", game="samurai", mode="bogus")
    assert plain(r.content) == "Bad options for Samurai Swords: mode must be one of base, quickstart, lwtv."
    assert r.ephemeral


async def test_overlong_rule_topic_is_refused_in_plain_words(fake, start_bot, alice, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    with pytest.raises(PlayerError, match="length 2000"):  # Discord's client keeps topics to 100 characters
        await alice.slash("game rules", topic="x" * 2000)
    r = await forged_slash(alice, "game rules", topic="x" * 2000)
    text = plain(r.content)
    assert text.startswith("No rule topic '" + "x" * 99 + "…'. Topics: ") and len(text) < 2000, text
    assert r.ephemeral and r.error is None


async def test_out_of_range_numbers_past_discord_are_refused(fake, start_bot, alice, bob, tmp_path) -> None:
    await started_match(fake, start_bot, alice, bob, tmp_path)
    r = await forged_slash(alice, "game log", lines=10**9)
    assert plain(r.content) == "lines must be a whole number from 1 to 50. Nothing was changed."
    r = await forged_slash(alice, "game extend", hours=1e12)
    assert plain(r.content) == "hours must be a number from 0.1 to 336 hours. Nothing was changed."
    r = await forged_slash(alice, "game new", game="tinybigwars", deadline_hours=1e12)
    assert "deadline_hours must be a number from 0.05 to 720 hours" in plain(r.content)


async def test_kick_of_someone_without_a_seat(fake, start_bot, alice, bob, carol, tmp_path) -> None:
    await started_match(fake, start_bot, alice, bob, tmp_path)
    r = await alice.slash("game kick", player=carol)
    assert plain(r.content) == "carol has no seat in this match."


async def test_modal_number_outside_its_field_is_refused(fake, start_bot, alice, bob, tmp_path) -> None:
    """A forged or stale modal value past the field's bounds gets the field's own range back."""
    await started_match(fake, start_bot, alice, bob, tmp_path, game="samurai", mode="base", round_limit=1)
    players = [SamuraiPlayer(alice), SamuraiPlayer(bob)]
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while True:
        numbers = [m for m in alice.dm.messages if open_prompt(m) and m.button("Enter numbers") is not None]
        if numbers:
            break
        assert loop.time() < end, f"alice never got a numbers prompt: {alice.dm.messages}"
        acted = [await p.step() for p in players]
        if not any(acted):
            await asyncio.sleep(0.05)
    r = await alice.dm.click("Enter numbers", message=numbers[-1])
    inputs = modal_text_inputs(r.modal)
    low, high = (int(n) for n in BOUNDS.search(inputs[0]["label"]).groups())
    values = {c["custom_id"]: str(low) for c in inputs}
    values[inputs[0]["custom_id"]] = str(high + 1)
    reply = plain(await ephemeral_reply(await alice.submit_modal(values)))
    label = inputs[0]["label"].rsplit(" (", 1)[0]
    assert reply == f"{label}: {high + 1} is not from {low} to {high}. Nothing was changed.", reply


async def test_a_click_the_database_cannot_take_in_time_is_told_the_bot_is_busy(fake, start_bot, alice, bob,
                                                                                tmp_path) -> None:
    """Overload: the click waits for its write turn a bounded time, then the player is told to try
    again, and nothing of it was taken: the same click a moment later seals the force."""
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", db_wait_seconds=0.5)))
    await alice.slash("game new", game="tinybigwars")
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    force = await alice.dm.wait_for(lambda m: m.selects)
    value = force.selects[0].options[0]["value"]
    writer = bot.svc.store.writer
    assert writer is not None
    async with writer:  # every write of the bot waits for this one
        reply = await alice.dm.select(None, [value], message=force)
        text = plain(await ephemeral_reply(reply))
    assert text == "The bot is very busy; your click was not taken, try again in a moment.", text
    info = await bot.svc.find_match(fake.channel.id)
    pending = await bot.svc.pending_prompt(info.id, alice.user.id)
    assert pending is not None and not pending.prompt.answered, "the refused click was taken"
    await alice.dm.select(None, [value], message=force)
    await alice.dm.wait_for(lambda m: m.id == force.id and m.button("Change") is not None)
