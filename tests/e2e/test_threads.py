"""A thread per match: `/game new` posts the lobby in the channel and runs the match in a public
thread started from it, so several matches run from one channel; `/game new` in a thread uses
that thread; without thread permissions the match runs in the channel; a restart keeps using
the same thread and board."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.permissions import CREATE_PUBLIC_THREADS, INVITE_PERMISSIONS
from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for, wait_public_delivered
from tests.e2e.test_delivery_blocked import set_bot_overwrite
from tests.fakediscord.models import Message, Thread, now_iso, snowflake
from tests.fakediscord.threads import channel_event

INVITED = pytest.mark.fakediscord(bot_permissions=INVITE_PERMISSIONS)
"""The bot's role as the invite link grants it (Create Public Threads, Send Messages in Threads...)."""
OVER = "The match is over"


def lobby_of(place: Any, thread: Thread) -> Message:
    """The lobby message in the channel that started `thread`."""
    return next(m for m in place.messages if m.thread is thread)


def bot_posts(fake: Any, channel: Any) -> list[Message]:
    """What the bot posted in a channel or thread (Discord's own notices left out)."""
    return [m for m in fake.channel_messages(channel)
            if m.author is fake.bot_user and m.type == 0 and not m.ephemeral and not m.deleted]


async def open_match(host: Any, name: str, **options: Any) -> tuple[Any, Message]:
    """`/game new` in the channel: the host at the match's thread, and its lobby in the channel."""
    r = await host.slash("game new", game="tinybigwars", seats=2, round_limit=1, **options)
    assert r.ephemeral and "its own thread" in r.content, r.content
    thread = await host.wait_for_thread(name)
    return thread, lobby_of(host, thread.channel)


@INVITED
async def test_three_matches_in_three_threads_of_one_channel(fake, start_bot, alice, bob, carol, dave,
                                                             tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    erin = fake.user("erin")
    one, lobby_one = await open_match(alice, "Tiny Big Wars #1")
    two, lobby_two = await open_match(carol, "Tiny Big Wars #2")
    three, lobby_three = await open_match(erin, "Tiny Big Wars #3")
    # Everyone joins from the channel, where each lobby is one message.
    assert (await bob.click("Join", message=lobby_one)).ok
    assert (await dave.click("Join", message=lobby_two)).ok
    assert (await erin.click("Add AI", message=lobby_three)).ok
    await bob.wait_for(lambda m: m.id == lobby_one.id and "bob joined" in m.content)
    await dave.wait_for(lambda m: m.id == lobby_two.id and "dave joined" in m.content)
    await erin.wait_for(lambda m: m.id == lobby_three.id and "AI Ayame" in m.content)
    # A command in the channel finds the match the player sits in, or names the threads.
    assert "match #2" in (await dave.slash("game status")).content
    lost = await fake.user("frank").slash("game status")
    assert "Several matches run from this channel" in lost.content
    assert all(f"<#{t.channel.id}>" in lost.content for t in (one, two, three))
    for host, lobby in ((alice, lobby_one), (carol, lobby_two), (erin, lobby_three)):
        assert (await host.click("Start", message=lobby)).ok
    # Commands typed in a thread act on that thread's match.
    for player, thread, number in ((bob, one, 1), (carol, two, 2), (erin, three, 3)):
        status = await player.at(thread.channel).slash("game status")
        assert f"match #{number}" in status.content, status.content
    autos = [AutoPlayer(p) for p in (alice, bob, carol, dave)] + [AutoPlayer(erin, via_act=True)]
    erin.go(three.channel)  # erin's DMs work too; she answers with /game act in her thread
    await play_until(fake, autos, lambda: all(any(OVER in m.content for m in t.messages) for t in (one, two, three)))
    names = {one: ("alice", "bob"), two: ("carol", "dave"), three: ("erin",)}
    everyone = {"alice", "bob", "carol", "dave", "erin"}
    for thread, own in names.items():
        posts = bot_posts(fake, thread.channel)
        assert sum(OVER in m.content for m in posts) == 1
        strangers = everyone - set(own)
        assert not [m for m in posts if any(s in m.content for s in strangers)], "a thread shows only its match"
    # The channel keeps one line per match: its lobby (closed now), nothing else of the bot.
    assert {m.id for m in bot_posts(fake, fake.channel)} == {lobby_one.id, lobby_two.id, lobby_three.id}, \
        [m.content[:80] for m in bot_posts(fake, fake.channel)]
    assert all(not m.buttons for m in (lobby_one, lobby_two, lobby_three))


async def user_thread(fake: Any, owner: Any, name: str) -> Thread:
    """A public thread a member started in the channel (the bot hears of it by gateway)."""
    channel = fake.channel
    thread = Thread(snowflake(), name, guild=channel.guild, parent=channel, owner=owner.user,
                    members={owner.id: now_iso()})
    channel.guild.threads.append(thread)
    await channel_event(fake, "THREAD_CREATE", {**thread.payload(), "newly_created": True}, thread)
    return thread


@INVITED
async def test_game_new_inside_a_thread_runs_the_match_there(fake, start_bot, alice, bob, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    thread = await user_thread(fake, alice, "our table")
    here, there = alice.at(thread), bob.at(thread)
    r = await here.slash("game new", game="tinybigwars", seats=2, round_limit=1)
    assert r.ephemeral and "own thread" not in r.content
    lobby = await here.wait_for(lambda m: m.button("Join") is not None)
    await there.click("Join", message=lobby)
    await here.click("Start", message=lobby)
    await here.wait_for(lambda m: "begins" in m.content)
    assert len(fake.channel.guild.threads) == 1, "no thread of its own"
    assert not bot_posts(fake, fake.channel)
    again = await there.slash("game new", game="tinybigwars")
    assert "already open" in again.content
    assert "match #1" in (await there.slash("game status")).content


@INVITED
async def test_without_thread_permissions_the_match_runs_in_the_channel(fake, start_bot, alice, bob,
                                                                         tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await set_bot_overwrite(fake, fake.channel, CREATE_PUBLIC_THREADS)
    r = await alice.slash("game new", game="tinybigwars", seats=2, round_limit=1)
    assert r.ephemeral and "own thread" not in r.content
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join", message=lobby)
    await alice.click("Start", message=lobby)
    await alice.wait_for(lambda m: "begins" in m.content)
    assert not fake.channel.guild.threads
    refused = await bob.slash("game new", game="tinybigwars")
    assert "already open in this channel" in refused.content


@INVITED
async def test_a_restart_keeps_the_thread_and_its_board(fake, start_bot, alice, bob, tmp_path) -> None:
    settings = settings_for(fake, tmp_path / "w.db")
    bot = await start_bot(factory(settings))
    thread, lobby = await open_match(alice, "Tiny Big Wars #1")
    await bob.click("Join", message=lobby)
    await alice.click("Start", message=lobby)
    board = await thread.wait_for(lambda m: "(match #1)" in m.content and m.author is fake.bot_user)
    await wait_public_delivered(bot)
    posts = len(bot_posts(fake, thread.channel))
    bot = await start_bot.restart(bot, factory(settings))
    await wait_public_delivered(bot)  # the restarted bot's first work is done: the thread falls quiet
    # The thread auto-archived meanwhile: the next post reopens it, the board is edited again.
    thread.channel.set_archived(True)
    await channel_event(fake, "THREAD_UPDATE", thread.channel.payload(), thread.channel)
    await play_until(fake, [AutoPlayer(alice), AutoPlayer(bob)], lambda: any(OVER in m.content for m in thread.messages))
    assert not thread.channel.archived
    await thread.wait_for(lambda m: m.id == board.id and "over" in m.content.lower())
    assert [m.id for m in bot_posts(fake, thread.channel) if "(match #1)" in m.content] == [board.id]
    assert len(bot_posts(fake, thread.channel)) > posts
    assert len(fake.channel.guild.threads) == 1
    assert {m.id for m in bot_posts(fake, fake.channel)} == {lobby.id}


def live_decisions(fake: Any, *places: Any) -> list[str]:
    """Enabled components in these channels that ask for a decision (not the board's Map/Rules)."""
    found = []
    for place in places:
        for m in bot_posts(fake, place):
            for b in m.buttons:
                looks = b.custom_id and b.custom_id.startswith("wh:b:") and b.label in ("Map", "Rules")
                if not b.disabled and not looks:
                    found.append(f"{b.label} on {m.content[:60]!r}")
            found += [f"a select on {m.content[:60]!r}" for s in m.selects if not s.disabled]
    return found


@INVITED
async def test_the_lobby_post_follows_the_match_to_its_result_then_the_thread_is_archived(
        fake, start_bot, alice, bob, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db", thread_archive_seconds=0)))
    thread, lobby = await open_match(alice, "Tiny Big Wars #1", seed=3)
    assert "hosted by alice" in lobby.content and "Seats 1 of 2: alice (host)" in lobby.content, lobby.content
    assert (await bob.click("Join", message=lobby)).ok
    await bob.wait_for(lambda m: m.id == lobby.id and "Seats 2 of 2: alice (host), bob" in m.content)
    assert (await alice.click("Start", message=lobby)).ok
    link = f"<#{thread.channel.id}>"
    running = await alice.wait_for(lambda m: m.id == lobby.id and "Now: Force Building." in m.content)
    assert "Players: alice (host), bob" in running.content and link in running.content, running.content
    assert not running.buttons, "a started lobby asks nothing"
    await play_until(fake, [AutoPlayer(alice), AutoPlayer(bob)],
                     lambda: any(OVER in m.content for m in thread.messages))
    result = next(m for m in thread.messages if OVER in m.content)
    verdict = result.content.split("The match is over: ")[1].split("**")[0]  # "alice won", "a draw", ...
    ended = await alice.wait_for(lambda m: m.id == lobby.id and OVER in m.content, timeout=60)
    assert verdict in ended.content and link in ended.content and "Now:" not in ended.content, ended.content
    await fake.wait_until(lambda: thread.channel.archived, 60)
    # One message in the channel all along, edited: never a second post, never a ping.
    assert {m.id for m in bot_posts(fake, fake.channel)} == {lobby.id}
    phases = {line for m in thread.messages for line in m.content.splitlines()[:1] if line.startswith("**Round")}
    assert len(lobby.versions) <= len(phases) + 8, "the lobby post follows phases, not every move"
    assert not live_decisions(fake, fake.channel, thread.channel), live_decisions(fake, fake.channel, thread.channel)
    # Each phase post keeps the heading of its phase; a closed one tells what happened, not whom it waited for.
    for post in bot_posts(fake, thread.channel):
        if "(match #1)" in post.content:
            continue  # the status board, which follows the phase
        headings = {version["content"].splitlines()[0] for version in post.versions if version["content"]}
        assert len(headings) <= 1, headings
        if post.files.get("map.png"):
            assert "have chosen; waiting for" not in post.content, post.content


@INVITED
async def test_an_abort_says_who_in_the_thread_and_on_the_lobby_post(fake, start_bot, alice, bob, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db", thread_archive_seconds=0)))
    thread, lobby = await open_match(alice, "Tiny Big Wars #1")
    await bob.click("Join", message=lobby)
    await alice.click("Start", message=lobby)
    await thread.wait_for(lambda m: "(match #1)" in m.content and m.author is fake.bot_user)
    await bob.dm.wait_for(lambda m: m.selects)
    assert "The match was aborted." in (await alice.at(thread.channel).slash("game abort")).content
    told = await thread.wait_for(lambda m: m.content == "alice aborted the match.")
    assert told.author is fake.bot_user
    await alice.wait_for(lambda m: m.id == lobby.id and "The match was aborted by alice." in m.content)
    await fake.wait_until(lambda: thread.channel.archived, 60)
    board = await thread.wait_for(lambda m: "(match #1)" in m.content and "aborted" in m.content)
    assert board.button("Act") is None or board.button("Act").disabled
    assert not live_decisions(fake, fake.channel, thread.channel), live_decisions(fake, fake.channel, thread.channel)


@INVITED
async def test_a_lobby_left_empty_is_closed_and_its_thread_archived(fake, start_bot, alice, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db", thread_archive_seconds=0)))
    thread, lobby = await open_match(alice, "Tiny Big Wars #1")
    assert "You left the lobby." in (await alice.click("Leave", message=lobby)).content
    closed = await alice.wait_for(lambda m: m.id == lobby.id and "no player was left" in m.content)
    assert not closed.buttons
    await fake.wait_until(lambda: thread.channel.archived, 60)
    assert not [m for m in bot_posts(fake, thread.channel)], "nothing to say in a thread nobody played in"
