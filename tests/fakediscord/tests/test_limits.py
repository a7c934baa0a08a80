"""Each Discord rule the fake enforces: the bot gets Discord's real error and a violation is recorded."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import FakeDiscord, Player
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.fixtures import running_fake


@pytest.mark.fakediscord(ack_deadline=0.1)
async def test_late_ack_gets_10062(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    with fake.expect_violation("late_ack") as found:
        resp = await alice.slash("sleepy")
    assert resp.error["code"] == 10062 and resp.type is None and resp.message is None
    assert bot.errors == [10062]
    assert found[0].status == 404


@pytest.mark.fakediscord(ack_deadline=0.05)
async def test_never_acknowledged_is_recorded(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    fake.ack_grace = 0.05
    with fake.expect_violation("no_ack"):
        resp = await alice.slash("sleepy")
    assert resp.type is None
    await fake.wait_until(lambda: bot.errors)
    assert bot.errors == [10062]
    assert [v.kind for v in fake.pop_violations()] == ["late_ack"]


async def test_double_ack_gets_40060(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    with fake.expect_violation("double_ack"):
        resp = await alice.slash("twice")
        await fake.wait_until(lambda: bot.errors)
    assert resp.content == "once"
    assert bot.errors == [40060]


@pytest.mark.parametrize(("kind", "violation", "code", "needle"), [
    ("rows", "invalid_message", 50035, "6 action rows"),
    ("row_width", "invalid_message", 50035, "6 components in one row"),
    ("custom_id", "invalid_message", 50035, "custom_id is 101 characters"),
    ("content", "invalid_message", 50035, "2001 characters"),
    ("options", "invalid_message", 50035, "26 select options"),
    ("modal_inputs", "invalid_modal", 50035, "6 components"),
    ("min_max", "invalid_message", 50035, "min_values 3 exceeds max_values 2"),
    ("empty_option", "invalid_message", 50035, "label must not be empty"),
    ("mentions", "invalid_message", 50035, "mutually exclusive"),
    ("select_row", "invalid_message", 50035, "alone in its action row"),
])
async def test_payload_limits(fake: FakeDiscord, bot: DemoBot, alice: Player, kind: str, violation: str,
                              code: int, needle: str) -> None:
    fake.spec = None  # the prose rules alone (tests/fakediscord/tests/test_spec.py covers the schema)
    with fake.expect_violation(violation) as found:
        resp = await alice.slash("bad", kind=kind)
    assert needle in found[0].detail
    assert resp.error["code"] == code and resp.message is None
    assert bot.errors == [code]
    assert not alice.messages  # Discord rejected it: nothing was posted


@pytest.mark.fakediscord(attachment_size_limit=1024)
async def test_attachment_over_limit_gets_413(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    with fake.expect_violation("attachment_too_large") as found:
        resp = await alice.slash("bad", kind="bigfile")
    assert resp.error["code"] == 40005 and found[0].status == 413
    assert bot.errors == [40005]


async def test_closed_dms_get_403_50007(fake: FakeDiscord, bot: DemoBot, bob: Player) -> None:
    bob.dms_closed = True
    with fake.expect_violation("dms_closed"):
        resp = await bob.slash("dm")
    assert resp.ephemeral and resp.content == "I can't DM you: open your DMs"
    assert bot.dm_errors == [50007]
    assert not bob.dm.messages


@pytest.mark.fakediscord(token_ttl=0.15)
async def test_expired_token_gets_50027(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    with fake.expect_violation("expired_token"):
        resp = await alice.slash("latefollowup")
        await fake.wait_until(lambda: bot.errors)
    assert resp.content == "working"
    assert bot.errors == [50027]


async def test_429_is_retried_by_discord_py(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    fake.rate_limit("POST", "/channels/{id}/messages", times=1, retry_after=0.05)
    resp = await alice.slash("announce")
    assert resp.content == "posted Announcement (edited)"
    posts = [c.status for c in fake.calls if c.method == "POST" and c.path == f"/channels/{fake.channel.id}/messages"]
    assert posts == [429, 200]
    assert fake.rate_limited == [f"POST /channels/{fake.channel.id}/messages"]
    assert not fake.violations


async def test_unhandled_route_is_a_loud_404(fake: FakeDiscord, bot: DemoBot) -> None:
    route = discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=fake.guild.id)
    with fake.expect_violation("unhandled_route"), pytest.raises(discord.NotFound) as err:
        await bot.http.request(route)
    assert err.value.text == f"fakediscord: unhandled GET /guilds/{fake.guild.id}/bans"
    assert err.value.code == 0


async def test_unexpected_violation_fails_teardown() -> None:
    async with running_fake() as fake:
        fake.violation("late_ack", 10062, 404, "POST /x", "test")
    with pytest.raises(AssertionError, match="late_ack"):
        fake.assert_no_violations()
    fake.allow("late_ack")
    fake.assert_no_violations()
    with pytest.raises(AssertionError, match="expected a 'double_ack'"), fake.expect_violation("double_ack"):
        pass


async def test_bot_exception_becomes_a_violation(fake: FakeDiscord, bot: DemoBot, alice: Player) -> None:
    @bot.tree.command(name="crash", description="raises")
    async def crash(interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    fake.ack_deadline = fake.ack_grace = 0.05  # the crashing command never acknowledges
    bot.tree.copy_global_to(guild=discord.Object(fake.guild.id))
    await bot.tree.sync(guild=discord.Object(fake.guild.id))
    with fake.expect_violation("bot_error") as found:
        await alice.slash("crash")
        await fake.wait_until(lambda: any(v.kind == "bot_error" for v in fake.violations))
    assert "boom" in found[0].detail
    fake.pop_violations("no_ack")


async def _callback(fake: FakeDiscord, rec: object, body: dict) -> tuple[int, dict]:
    """POST an interaction callback as a bot would (the interaction's token authenticates it)."""
    import aiohttp

    url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"  # type: ignore[attr-defined]
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        return response.status, await response.json() if response.status != 204 else {}


async def test_update_message_needs_the_message_it_updates(fake: FakeDiscord, alice: Player) -> None:
    """UPDATE_MESSAGE edits the message a component (or the form it opened) is on: a form
    opened by a command has none, and Discord refuses it (the interaction stays unanswered)."""
    form = fake.new_interaction(5, alice.user, fake.channel, {"custom_id": "form", "components": []})
    with fake.expect_violation("bad_callback_type"):
        status, body = await _callback(fake, form, {"type": 7, "data": {"content": "updated"}})
    assert (status, body["code"]) == (400, 50035) and form.ack_type is None
    command = fake.new_interaction(2, alice.user, fake.channel, {"name": "x", "type": 1})
    with fake.expect_violation("bad_callback_type"):
        status, body = await _callback(fake, command, {"type": 7, "data": {"content": "updated"}})
    assert (status, body["code"]) == (400, 50035)


async def test_a_click_acknowledged_by_a_defer_cannot_be_updated_in_a_second_callback(
        fake: FakeDiscord, alice: Player) -> None:
    posted = fake.create_message(fake.channel, {"content": "ask"}, [])
    click = fake.new_interaction(3, alice.user, fake.channel, {"custom_id": "b", "component_type": 2}, message=posted)
    assert (await _callback(fake, click, {"type": 6}))[0] == 200
    with fake.expect_violation("double_ack"):
        status, body = await _callback(fake, click, {"type": 7, "data": {"content": "answer"}})
    assert (status, body["code"]) == (400, 40060) and posted.content == "ask"
