"""Message events reach a bot that asked for them, as Discord sends them: every chat line and every
echo of the bot's own posts, edits and deletions, with other users' content blanked without the
MESSAGE_CONTENT intent; a bot that asked only for GUILDS gets none of them."""

from __future__ import annotations

import asyncio

import discord

from tests.fakediscord import FakeDiscord, Player
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.fixtures import BotRunner

WAIT = 30.0


class Heard:
    """What a bot's message listeners received, in order."""

    def __init__(self, bot: discord.Client) -> None:
        self.events: list[tuple[str, int, str]] = []
        self.changed = asyncio.Event()
        bot.add_listener(self.on_message, "on_message")
        bot.add_listener(self.on_raw_message_edit, "on_raw_message_edit")
        bot.add_listener(self.on_raw_message_delete, "on_raw_message_delete")

    async def on_message(self, message: discord.Message) -> None:
        self._add("create", message.id, message.content)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        self._add("edit", payload.message_id, payload.message.content)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self._add("delete", payload.message_id, "")

    def _add(self, kind: str, message_id: int, content: str) -> None:
        self.events.append((kind, message_id, content))
        self.changed.set()

    async def until(self, count: int) -> list[tuple[str, int, str]]:
        async def wait() -> None:
            while len(self.events) < count:
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), WAIT)
        return self.events


async def test_a_bot_with_the_default_intents_hears_chat_and_its_own_messages(
        fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    heard = Heard(bot)
    chat = alice.say("anyone up for a match?")
    channel = bot.get_partial_messageable(fake.channel.id)
    posted = await channel.send("a match opens")
    await posted.edit(content="a match opened")
    await posted.delete()
    events = await heard.until(4)
    assert events == [("create", chat.id, ""),  # no MESSAGE_CONTENT intent: others' words are blanked
                      ("create", posted.id, "a match opens"),
                      ("edit", posted.id, "a match opened"),
                      ("delete", posted.id, "")]


async def test_a_dm_is_heard_with_direct_messages(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    heard = Heard(bot)
    dm = await bot.create_dm(discord.Object(alice.id))
    sent = await dm.send("your turn")
    assert await heard.until(1) == [("create", sent.id, "your turn")]


async def test_a_bot_that_asked_for_guilds_alone_hears_no_message(
        fake: FakeDiscord, start_bot: BotRunner, alice: Player) -> None:
    quiet = await start_bot(lambda: DemoBot([g.id for g in fake.guilds], intents=discord.Intents(guilds=True)))
    sent = await quiet.get_partial_messageable(fake.channel.id).send("a match opens")
    await sent.edit(content="a match opened")
    alice.say("hello?")
    await (await quiet.create_dm(discord.Object(alice.id))).send("your turn")
    await fake.message_events.settled()
    assert not [event for session in fake.sessions.values() for event in session.events
                if event.startswith("MESSAGE_")]


async def test_an_ephemeral_answer_makes_no_event(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    await alice.slash("board")  # a public answer: the board, with its buttons
    await fake.message_events.settled()
    before = len(fake.sessions[0].events)
    answer = await alice.click("Info")
    await fake.message_events.settled()
    assert answer.ephemeral and answer.content == "Only you see this"
    assert not [event for event in fake.sessions[0].events[before:] if event.startswith("MESSAGE_")]
