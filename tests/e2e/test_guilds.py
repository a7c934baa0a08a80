"""Component ids carried to another guild or channel: a lobby or prompt button acts only on the
match of the channel it is clicked in, and Manage Server counts only in the match's own guild."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.harness import ephemeral_reply, factory, settings_for
from tests.fakediscord.models import Channel, Message
from tests.fakediscord.players import Place, Response

NOT_HERE = "This button is not part of an open warhost match here, so nothing was done."


def planted(fake: Any, channel: Channel, custom_id: str) -> Message:
    """A bot message in ``channel`` with one button carrying ``custom_id``, as if its id had been
    copied there from another guild's message."""
    button = {"type": 2, "style": 1, "label": "Copied", "custom_id": custom_id}
    return fake.create_message(channel, {"content": "copied", "components": [{"type": 1, "components": [button]}]}, [])


async def select_with(fake: Any, place: Place, message: Message, custom_id: str, values: list[str]) -> Response:
    """``place``'s player sends a select interaction with ``custom_id`` from ``message``'s channel."""
    data = {"custom_id": custom_id, "component_type": 3, "values": values}
    return await place._run(fake.new_interaction(3, place.user, message.channel, data, message=message), True)


@pytest.mark.fakediscord(guilds=2)
async def test_a_lobby_button_from_another_guild_changes_nothing(fake, start_bot, alice, bob, carol,
                                                                  tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    home, away = fake.guilds
    away_match = await bot.svc.create(away.id, away.channel.id, bob.id, bob.name, "tinybigwars", {})
    await bot.svc.add_ai(away.channel.id, bob.id)  # two seats: the away lobby could start
    bot.wake_delivery()
    away_lobby = await bob.at(away).wait_for(lambda m: m.button("Join") is not None)
    await alice.slash("game new", game="tinybigwars")
    home_lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    fake.add_user("mona", manage_guild=True, guilds=[home])  # Manage Server at home only
    mona = fake.user("mona")
    before = await bot.svc.get_match(away_match.id)
    for player in (carol, mona, bob):
        for button in away_lobby.buttons:
            copy = planted(fake, home.channel, button.custom_id)
            r = await player.at(home).click("Copied", message=copy)
            assert await ephemeral_reply(r) == NOT_HERE, (player, button.label)
    after = await bot.svc.get_match(away_match.id)
    assert (after.status, after.version, after.seats) == (before.status, before.version, before.seats)
    home_match = await bot.svc.find_match(home.channel.id)
    assert [s.user_id for s in home_match.seats] == [alice.id], "nor did they act on the home lobby"
    assert home_lobby.button("Join") is not None
    joined = await carol.at(away).click("Join", message=away_lobby)
    assert "You joined" in await ephemeral_reply(joined), "in its own guild the button works"


@pytest.mark.fakediscord(guilds=2)
async def test_a_prompt_from_another_guild_or_seat_is_refused(fake, start_bot, alice, bob, carol,
                                                              tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    home, away = fake.guilds
    await alice.slash("game new", game="tinybigwars")
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    force = await alice.dm.wait_for(lambda m: m.selects)
    custom_id, value = force.selects[0].custom_id, force.selects[0].options[0]["value"]
    before = (await bot.svc.find_match(home.channel.id)).step
    # carol holds no seat: her DM, the match's channel and another guild are all refused
    for place, message in ((carol.dm, planted(fake, fake.dm_channel(carol.user), custom_id)), (carol.at(home), planted(fake, home.channel, custom_id)),
                           (carol.at(away), planted(fake, away.channel, custom_id))):
        text = await ephemeral_reply(await select_with(fake, place, message, custom_id, [value]))
        assert text in (NOT_HERE, "This choice belongs to another player, so nothing was done."), text
    # alice's own choice, sent from another guild's channel, is not this match's either
    elsewhere = planted(fake, away.channel, custom_id)
    assert await ephemeral_reply(await select_with(fake, alice.at(away), elsewhere, custom_id, [value])) == NOT_HERE
    assert (await bot.svc.find_match(home.channel.id)).step == before
    r = await alice.dm.select(None, [value], message=force)
    assert r.ok
    await alice.dm.wait_for(lambda m: m.id == force.id and "stays sealed" in m.content)
