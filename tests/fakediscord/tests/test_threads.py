"""Threads through the demo bot as players see them, and Discord's refusals for raw requests."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, Player
from tests.fakediscord.control import info_json
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.models import Thread
from tests.fakediscord.permissions import bits

BOT = {"Authorization": "Bot fake-token"}
THREADS = bits("create_public_threads", "create_private_threads", "send_messages_in_threads")


@pytest.mark.fakediscord(bot_permissions=THREADS)
async def test_a_public_thread_without_a_message(fake: FakeDiscord, bot: DemoBot, alice: Player,
                                                 bob: Player) -> None:
    await alice.slash("thread", name="Match 1")
    match = await alice.wait_for_thread("Match 1")
    welcome = await match.wait_for("Welcome to Match 1")
    thread = match.channel
    assert isinstance(thread, Thread) and thread.type == 11 and thread.parent is fake.channel
    assert thread.owner is fake.bot_user and welcome.channel is thread
    assert bob.at(thread).sees("Welcome to Match 1") and not bob.sees("Welcome to Match 1")
    assert welcome.audience == "thread:#Match 1"
    start = next(c for c in fake.calls if c.path == f"/channels/{fake.channel.id}/threads")
    assert start.body["type"] == 11 and start.body["auto_archive_duration"] == 60 and start.status == 201
    payload = thread.payload()
    assert payload["message_count"] == 1 and payload["member_count"] == 1
    assert payload["thread_metadata"]["archived"] is False
    cached = bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.parent_id == fake.channel.id
    assert cached.me is not None, "THREAD_MEMBERS_UPDATE told discord.py the bot is a member"
    events = fake.sessions[0].events
    assert events.index("THREAD_CREATE") < events.index("THREAD_MEMBERS_UPDATE")
    listed = info_json(fake)["guilds"][0]["threads"]  # what a standalone fake's /_control/info shows
    assert listed == [{"id": str(thread.id), "name": "Match 1", "parent_id": str(fake.channel.id), "type": 11,
                       "archived": False, "locked": False}]


@pytest.mark.fakediscord(bot_permissions=THREADS)
async def test_a_thread_from_the_reply_shares_its_id(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    resp = await alice.slash("thread", name="Match 2", from_message=True)
    match = await alice.wait_for_thread("Match 2")
    await match.wait_for("Welcome to Match 2")
    thread = match.channel
    assert resp.message is not None and thread.id == resp.message.id and resp.message.thread is thread
    assert resp.message.payload(fake.base_url)["thread"]["id"] == str(thread.id)
    starter, welcome = match.messages
    assert starter.type == 21 and starter.text == "Opening Match 2", "Discord's starter notice quotes the message"
    assert thread.payload()["message_count"] == 1, "the starter notice is not counted"
    async with aiohttp.ClientSession(headers=BOT) as session:
        url = f"{fake.api_base}/channels/{fake.channel.id}/messages/{resp.message.id}/threads"
        async with session.post(url, json={"name": "again"}) as again:
            assert (again.status, (await again.json())["code"]) == (400, 160004)
    assert fake.pop_violations("thread_exists")


@pytest.mark.fakediscord(bot_permissions=THREADS)
async def test_a_private_thread_is_seen_by_its_members_only(fake: FakeDiscord, bot: DemoBot, alice: Player,
                                                            bob: Player) -> None:
    await alice.slash("thread", name="Secret", private=True)
    await fake.wait_until(lambda: fake.guild.threads and fake.guild.threads[0].messages)
    thread = fake.guild.threads[0]
    assert thread.type == 12 and not alice.threads and not alice.at(thread).messages
    assert fake.leaks("Welcome to Secret", allowed=[]) == []
    async with aiohttp.ClientSession(headers=BOT) as session:
        async with session.put(f"{fake.api_base}/channels/{thread.id}/thread-members/{bob.id}") as added:
            assert added.status == 204
        async with session.get(f"{fake.api_base}/channels/{thread.id}/thread-members") as listed:
            assert {m["user_id"] for m in await listed.json()} == {str(fake.bot_user.id), str(bob.id)}
    assert bob.at(thread).sees("Welcome to Secret") and bob.threads == [thread]
    assert fake.leaks("Welcome to Secret", allowed=[bob]) == []
    erin = fake.user("erin")
    fake.guild.manager_role.permissions |= bits("manage_threads")
    fake.guild.add_member(erin.user, manage_guild=True)
    assert erin.at(thread).sees("Welcome to Secret"), "Manage Threads sees every private thread"


async def test_without_create_public_threads_the_bot_is_refused(fake: FakeDiscord, bot: DemoBot,
                                                                alice: Player) -> None:
    with fake.expect_violation("missing_permissions") as found:
        await alice.slash("thread", name="Match 3")
        await fake.wait_until(lambda: bot.errors)
    assert bot.errors == [50013] and "Create Public Threads" in found[0].detail
    assert fake.guild.threads == []


@pytest.mark.fakediscord(bot_permissions=bits("create_public_threads"))
async def test_posting_in_a_thread_takes_send_messages_in_threads(fake: FakeDiscord, bot: DemoBot,
                                                                  alice: Player) -> None:
    with fake.expect_violation("missing_permissions") as found:
        await alice.slash("thread", name="Mute")
        await fake.wait_until(lambda: bot.errors)
    assert bot.errors == [50013] and "Send Messages in Threads" in found[0].detail
    assert fake.guild.threads[0].messages == [], "Send Messages (which the bot has) does not count in threads"


@pytest.mark.fakediscord(bot_permissions=THREADS | bits("pin_messages"))
async def test_a_v2_board_in_a_thread_pinned_and_clicked(fake: FakeDiscord, bot: DemoBot, alice: Player,
                                                         bob: Player) -> None:
    await alice.slash("thread", name="Match 4")
    match = await alice.wait_for_thread("Match 4")
    await match.wait_for("Welcome to Match 4")
    resp = await match.slash("statusboard")
    assert resp.content == "posted and pinned" and resp.interaction.payload["channel"]["type"] == 11
    board = await match.wait_for(lambda m: m.is_v2)
    assert board.channel is match.channel and board.content == "" and board.pinned
    assert board.text_displays == ["# Status board", "Round 1", "2 seats"]
    assert "Round 1" in board.text and [b.label for b in board.buttons] == ["Join", "Advance"]
    assert board.image().size == (64, 64), "the gallery shows the attached map"
    notice = match.last
    assert notice is not None and notice.type == 6 and notice.text == "GameMaster pinned a message to this channel."
    assert notice.payload(fake.base_url)["message_reference"]["message_id"] == str(board.id)
    assert match.channel.pins == [board] and "CHANNEL_PINS_UPDATE" in fake.sessions[0].events
    listed = [m async for m in bot.board_messages[0].channel.pins()]  # GET /channels/{thread}/messages/pins
    assert [m.id for m in listed] == [board.id] and listed[0].pinned and listed[0].flags.components_v2
    assert isinstance(listed[0].components[0], discord.Container)
    joined = await bob.at(match.channel).click("Join")
    assert joined.ephemeral and joined.content == "bob takes a seat"
    await match.click("Advance", message=board)
    assert board.text_displays[1] == "Round 2" and board.image() is not None and board.is_v2
    ids = [c["id"] for c in board.payload(fake.base_url)["components"][0]["components"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids), "Discord numbers the components"


async def _send(session: aiohttp.ClientSession, method: str, url: str, body: dict | None = None) -> tuple[int, dict]:
    async with session.request(method, url, json=body) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else {})


@pytest.mark.fakediscord(bot_permissions=THREADS)
async def test_where_threads_cannot_start_and_bad_bodies(fake: FakeDiscord, alice: Player) -> None:
    api = fake.api_base
    async with aiohttp.ClientSession(headers=BOT) as session:
        status, made = await _send(session, "POST", f"{api}/channels/{fake.channel.id}/threads",
                                   {"name": "ok", "type": 11})
        assert status == 201 and made["type"] == 11 and made["member"]["user_id"] == str(fake.bot_user.id)
        assert made["thread_metadata"]["auto_archive_duration"] == 1440
        dm = fake.dm_channel(alice.user)
        for where in (dm.id, made["id"]):
            status, err = await _send(session, "POST", f"{api}/channels/{where}/threads", {"name": "x", "type": 11})
            assert (status, err["code"]) == (400, 50024)
        assert len(fake.pop_violations("wrong_channel_type")) == 2
        if fake.spec is not None:  # Discord's own schema refuses these (a run without the spec: below)
            status, err = await _send(session, "POST", f"{api}/channels/{fake.channel.id}/threads", {"name": "x" * 101})
            assert (status, err["code"]) == (400, 50035) and "name" in err["errors"]
            status, err = await _send(session, "POST", f"{api}/channels/{fake.channel.id}/threads",
                                      {"name": "x", "auto_archive_duration": 30})
            assert (status, err["code"]) == (400, 50035)
            assert len(fake.pop_violations("spec")) == 2
        fake.spec = None  # the same rules hold without the spec
        status, err = await _send(session, "POST", f"{api}/channels/{fake.channel.id}/threads",
                                  {"name": "", "auto_archive_duration": 30})
        assert (status, err["code"]) == (400, 50035)
        assert "1-100 characters" in fake.pop_violations("invalid_thread")[0].detail
        status, made = await _send(session, "POST", f"{api}/channels/{fake.channel.id}/threads", {"name": "p"})
        assert status == 201 and made["type"] == 12, "without a type Discord starts a private thread"


@pytest.mark.fakediscord(bot_permissions=THREADS)
async def test_archived_threads_reopen_on_a_post_unless_locked(fake: FakeDiscord) -> None:
    api = fake.api_base
    async with aiohttp.ClientSession(headers=BOT) as session:
        _, made = await _send(session, "POST", f"{api}/channels/{fake.channel.id}/threads", {"name": "m", "type": 11})
        thread = fake.find_channel(int(made["id"]))
        assert isinstance(thread, Thread)
        posts = f"{api}/channels/{thread.id}/messages"
        status, first = await _send(session, "POST", posts, {"content": "one"})
        assert status == 200
        thread.set_archived(True)
        status, _ = await _send(session, "PATCH", f"{posts}/{first['id']}", {"content": "edited"})
        assert status == 400 and fake.pop_violations("archived_thread")
        assert (await _send(session, "POST", posts, {"content": "two"}))[0] == 200
        assert not thread.archived, "a post unarchives the thread"
        thread.set_archived(True, locked=True)
        status, err = await _send(session, "POST", posts, {"content": "three"})
        assert (status, err) == (403, {"message": "Thread is archived", "code": 50083})
        thread.set_archived(False)
        status, err = await _send(session, "POST", posts, {"content": "four"})
        assert (status, err["code"]) == (403, 160005)
        status, err = await _send(session, "PATCH", f"{api}/channels/{thread.id}", {"locked": False})
        assert (status, err["code"]) == (403, 50013), "unlocking takes Manage Threads"
        assert len(fake.pop_violations("archived_thread")) == 1 and fake.pop_violations("locked_thread")
        assert fake.pop_violations("missing_permissions")
        thread.set_archived(True)
        fake.channel.allow(fake.bot_user, "manage_threads")
        assert (await _send(session, "POST", posts, {"content": "five"}))[0] == 200
        assert not thread.archived and thread.locked, "Manage Threads posts, and reopens, a locked thread"
        status, edited = await _send(session, "PATCH", f"{api}/channels/{thread.id}",
                                     {"archived": True, "locked": False, "name": "done"})
        assert status == 200 and edited["thread_metadata"]["archived"] and edited["name"] == "done"
        status, err = await _send(session, "PATCH", f"{api}/channels/{thread.id}", {"name": "again"})
        assert (status, err["code"]) == (400, 50083), "an archived thread changes only by unarchiving"
        assert fake.pop_violations("archived_thread")
    assert [m.content for m in thread.messages] == ["one", "two", "five"]


@pytest.mark.fakediscord(bot_permissions=THREADS | bits("manage_threads"))
async def test_a_restarted_bot_finds_its_active_threads(fake: FakeDiscord, start_bot, bot: DemoBot,
                                                        alice: Player) -> None:
    await alice.slash("thread", name="Long match")
    thread = (await alice.wait_for_thread("Long match")).channel
    await alice.at(thread).wait_for("Welcome to Long match")
    await bot.threads[0].edit(archived=True, locked=True)
    assert thread.archived and thread.locked and "THREAD_UPDATE" in fake.sessions[0].events
    await bot.threads[0].edit(archived=False)
    bot2 = await start_bot.restart(bot, lambda: DemoBot([g.id for g in fake.guilds]))
    cached = bot2.get_channel(thread.id)
    assert isinstance(cached, discord.Thread) and cached.me is not None and cached.locked
    thread.set_archived(True)
    bot3 = await start_bot.restart(bot2, lambda: DemoBot([g.id for g in fake.guilds]))
    assert bot3.get_channel(thread.id) is None, "GUILD_CREATE lists active threads only"
    assert isinstance(await bot3.fetch_channel(thread.id), discord.Thread)
