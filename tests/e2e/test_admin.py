"""Host and manager commands, the map and the log, deadlines with reminders, and the 3-second rule."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from tests.e2e.harness import ephemeral_reply, factory, settings_for


class Clock:
    """A clock the test moves by hand; the bot's deadline loop reads it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


async def two_player_match(fake, start_bot, alice, bob, tmp_path, clock=None, **options):
    kwargs = {"clock": clock} if clock else {}
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db"), **kwargs))
    await alice.slash("game new", game="tinybigwars", **options)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    await alice.dm.wait_for(lambda m: m.selects)
    return bot


async def test_map_log_and_status(fake, start_bot, alice, bob, tmp_path) -> None:
    await two_player_match(fake, start_bot, alice, bob, tmp_path)
    force = next(m for m in alice.dm.messages if m.selects)
    await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    # The channel gets no post per seal, one progress line per secret step.
    await alice.wait_for(lambda m: "1 of 2 have chosen; waiting for bob." in m.content)
    assert not any("sealed a force" in m.content for m in fake.channel.messages)
    shown = await bob.slash("game map")
    assert shown.ephemeral and "Tiny Big Wars" in shown.content, "the map on request is for the asker only"
    assert shown.message.image().size == (1200, 1560)
    log = await bob.slash("game log", lines=5)
    assert log.ephemeral and "alice sealed a force." in log.content
    status = await bob.slash("game status")
    assert "alice" in status.content and "bob" in status.content and "owes a choice" in status.content
    assert "<t:" in status.content, "the deadline is a Discord timestamp"
    # The status board: one message in the channel, edited in place, with Act / Map / Rules.
    board = await alice.wait_for(lambda m: "(match #" in m.content and m.button("Map") is not None)
    await alice.wait_for(lambda m: m.id == board.id and "alice (host): chosen ✓" in m.content
                         and "bob: owes a choice" in m.content)
    assert [b.label for b in board.buttons] == ["Act", "Map", "Rules"] and "<t:" in board.content
    assert sum("(match #" in m.content and m.button("Map") is not None for m in fake.channel.messages) == 1
    shown = await bob.click("Map", message=board)
    assert shown.ephemeral and shown.message.image().size == (1200, 1560)
    act = await bob.click("Act", message=board)
    assert act.ephemeral and act.message.selects, "Act opens bob's open decision, to him alone"


async def test_kick_extend_pause_resume(fake, start_bot, alice, bob, carol, tmp_path) -> None:
    bot = await two_player_match(fake, start_bot, alice, bob, tmp_path)
    for cmd, opts in (("game extend", {"hours": 2}), ("game pause", {}), ("game kick", {"player": alice})):
        refused = await bob.slash(cmd, **opts)
        assert refused.ephemeral and "Only the host (now alice) or a member with Manage Server can do that." in refused.content, cmd
    before = (await bot.svc.status(fake.channel.id)).deadline
    ext = await alice.slash("game extend", hours=2)
    assert "Deadline extended" in ext.content
    assert (await bot.svc.status(fake.channel.id)).deadline - before >= timedelta(hours=2) - timedelta(seconds=5)
    assert "paused" in (await alice.slash("game pause")).content
    await alice.wait_for(lambda m: "paused" in m.content and not m.ephemeral_to)
    force = next(m for m in bob.dm.messages if m.selects)
    r = await bob.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    assert "paused" in await ephemeral_reply(r), "refused in private (in the callback, or after a defer)"
    assert "goes on" in (await alice.slash("game resume")).content
    kicked = await alice.slash("game kick", player=bob)
    assert "bob's seat is now played by the AI" in kicked.content
    status = await alice.slash("game status")
    assert "the AI plays for them" in status.content or "AI" in status.content
    nobody = await alice.slash("game kick", player=carol)
    assert "carol has no seat in this match." in nobody.content


async def test_a_kicked_host_hands_host_powers_on(fake, start_bot, alice, bob, tmp_path) -> None:
    await two_player_match(fake, start_bot, alice, bob, tmp_path)
    moderator = fake.user("erin", manage_guild=True)
    kicked = await moderator.slash("game kick", player=alice)
    assert "alice's seat is now played by the AI" in kicked.content
    notice = await bob.wait_for(lambda m: "bob is now the host" in m.content and not m.ephemeral_to)
    assert bob.mention in notice.content and "in place of alice" in notice.content
    assert alice.sees("bob is now the host"), "the channel sees who hosts now"
    refused = await alice.slash("game pause")
    assert refused.ephemeral
    assert "Only the host (now bob) or a member with Manage Server can do that." in refused.content
    assert (await bob.slash("game status")).content.count("host") == 1
    assert "paused" in (await bob.slash("game pause")).content
    await bob.wait_for(lambda m: "paused" in m.content and not m.ephemeral_to)


async def test_deadline_reminders_and_ai_takeover(fake, start_bot, alice, bob, tmp_path) -> None:
    clock = Clock()
    await two_player_match(fake, start_bot, alice, bob, tmp_path, clock=clock, deadline_hours=1.0)
    force = next(m for m in alice.dm.messages if m.selects)
    await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    clock.advance(minutes=31)
    # Reminders come by DM (bob's DMs are open): no channel post, no ping.
    reminder = await bob.dm.wait_for(lambda m: "Reminder" in m.content and "waits for your choice" in m.content)
    assert "<t:" in reminder.content and "Tiny Big Wars" in reminder.content
    clock.advance(minutes=24)
    await bob.dm.wait_for(lambda m: "Reminder" in m.content and m.id != reminder.id)
    clock.advance(minutes=6)
    timeout = await alice.wait_for(lambda m: "Time is up for bob" in m.content)
    assert bob.mention not in timeout.content, "nobody must act on a timeout: no ping"
    await alice.wait_for(lambda m: "Forces revealed" in m.content)
    await asyncio.sleep(0.5)
    assert not any("Reminder" in m.content for m in fake.channel.messages)
    assert not any("Reminder" in m.content for m in alice.dm.messages), "alice had chosen"
    reminders = [m for m in bob.dm.messages if "Reminder" in m.content]
    assert len(reminders) == 2, "one at half time, one near the end"


@pytest.mark.fakediscord(ack_deadline=0.3)
async def test_a_late_acknowledgement_fails_the_test(fake, start_bot, alice, tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    original = bot.game.on_interaction  # the game cog's listener hands clicks to the router

    async def slow(interaction):  # a handler that does slow work before acknowledging
        await asyncio.sleep(0.6)
        await original(interaction)

    bot.remove_listener(original, "on_interaction")
    bot.add_listener(slow, "on_interaction")
    await alice.slash("game new", game="tinybigwars")
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    with fake.expect_violation("late_ack") as late:
        await alice.click("Leave", message=lobby, settle=False)
        for _ in range(40):
            if any(v.kind == "late_ack" for v in fake.violations):
                break
            await asyncio.sleep(0.05)
    assert late and late[0].kind == "late_ack"
    fake.allow("bot_error")  # discord.py logs the 10062 it got back


async def test_map_without_a_match_answers_the_asker_only(fake, start_bot, alice, bob, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    shown = await alice.slash("game map")
    assert shown.ephemeral and "No match in this channel" in shown.content
    assert not any("No match" in m.content for m in bob.messages), "nobody else sees the refusal"
