"""The bot asks Discord for the GUILDS intent alone: it needs no message, reaction, typing or voice
event, and with the default intents a real server would send it every chat line in every channel
it can see and an echo of each of its own posts and edits, all parsed for nothing."""

from __future__ import annotations

from tests.e2e.harness import factory, settings_for
from tests.fakediscord.message_events import DIRECT_MESSAGES, GUILD_MESSAGES

GUILDS = 1 << 0


async def test_chat_and_the_bots_own_posts_send_it_no_event(fake, start_bot, alice, bob, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    session = fake.sessions[0]
    assert session.intents == GUILDS
    await alice.slash("game new", game="tinybigwars")
    alice.say("who's in?")
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    bob.say("me!")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    await alice.dm.wait_for(lambda m: bool(m.buttons or m.selects))  # a DM prompt went out
    await fake.message_events.settled()
    assert not [event for event in session.events if event.startswith("MESSAGE_")]
    session.intents |= GUILD_MESSAGES | DIRECT_MESSAGES  # the fake does send them to a bot that asks
    alice.say("good luck")
    await fake.message_events.settled()
    assert [event for event in session.events if event.startswith("MESSAGE_")] == ["MESSAGE_CREATE"]
