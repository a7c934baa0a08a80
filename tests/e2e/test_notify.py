"""Issue 29, `/game notify` through the fake Discord: a player who wants no DMs is mentioned in the
thread and answers with its Act button; quiet hours keep reminders and the turn DM from buzzing;
routine posts are silent and only turn announcements, reminders and refusals buzz."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.e2e.harness import ephemeral_reply, factory, set_deadline_hours, settings_for


def quiet_around_now() -> str:
    """Quiet hours (UTC) running now and for the next hours."""
    now = datetime.now(UTC)
    start, end = now - timedelta(hours=1), now + timedelta(hours=3)
    return f"{start:%H:00}-{end:%H:00}"


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_a_player_without_dms_is_called_in_the_thread_and_routine_posts_are_silent(
        fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "n.db")))
    await alice.slash("game new", game="tinybigwars", round_limit=1)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    refused = await ephemeral_reply(await bob.slash("game notify", zone="Mars/Olympus"))
    assert "not a time zone" in refused
    said = await ephemeral_reply(await bob.slash("game notify", announce="thread", heads_up=True))
    assert "this match only" in said and "a mention in the match's thread, no DMs" in said
    zones = await bob.autocomplete("game notify", "zone", "berl")
    assert [c["value"] for c in zones] == ["Europe/Berlin"]
    await alice.click("Start")
    called = await bob.wait_for(lambda m: f"<@{bob.id}>" in m.content and m.button("Act") is not None, timeout=60)
    assert "your turn" in called.content and called.buzzes
    alice_dm = await alice.dm.wait_for(lambda m: m.selects or m.buttons, timeout=60)
    assert alice_dm.buzzes  # her turn DM is a turn announcement
    assert [m for m in bob.dm.messages if not m.deleted] == []  # no DM at all for bob
    opened = await bob.click("Act", message=called)
    assert opened.ephemeral
    mine = await ephemeral_reply(await bob.slash("game mine"))
    assert "turns in the thread" in mine and "heads-up on" in mine
    await fake.quiesce(quiet=0.3, timeout=5)
    posted = [m for m in fake.messages.values() if m.author is fake.bot_user and not m.ephemeral
              and m.channel.recipient is None]
    loud = [m.content for m in posted if m.buzzes]
    assert loud and all(f"<@{bob.id}>" in text for text in loud), loud  # only the call to bob buzzed
    routine = [m for m in posted if m.button("Join") is not None or m.button("Map") is not None]
    assert routine and all(m.silent for m in routine)  # the lobby post and the status board


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_quiet_hours_hold_back_a_reminder_and_silence_the_turn_dm(
        fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any) -> None:
    db = tmp_path / "q.db"
    await start_bot(factory(settings_for(fake, db)))
    await alice.slash("game new", game="tinybigwars", round_limit=1)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    said = await ephemeral_reply(await bob.slash("game notify", everywhere=True, quiet=quiet_around_now(),
                                                 zone="UTC"))
    assert "all your matches on this server" in said and "quiet now, until" in said
    await set_deadline_hours(db, 0.002)  # 7.2 s: reminders at 3.6 s and 6.5 s, all inside bob's quiet hours
    await alice.click("Start")
    first = await bob.dm.wait_for(lambda m: m.selects or m.buttons, timeout=60)
    assert first.silent  # it is there when he looks, but it buzzed nobody
    reminder = await alice.dm.wait_for(lambda m: m.content.startswith("Reminder:"), timeout=60)
    assert reminder.buzzes
    await alice.wait_for("Time is up for bob", timeout=60)
    # the deadline came before bob's quiet hours end: his reminder was dropped, not sent late
    assert not any(m.content.startswith("Reminder:") for m in bob.dm.messages)
    assert not any("Reminder:" in m.content and f"<@{bob.id}>" in m.content for m in fake.channel_messages(fake.channel))


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_a_heads_up_dm_when_the_seat_before_starts_its_turn(fake: Any, start_bot: Any, alice: Any, bob: Any,
                                                                  tmp_path: Any) -> None:
    """Bob asked for a heads-up: when Alice, just before him in a round's turn order, starts her
    turn, a DM tells him he is next (and buzzes: he asked for it). Alice asked for none."""
    from tests.e2e.harness import AutoPlayer, play_until

    await start_bot(factory(settings_for(fake, tmp_path / "h.db")))
    await alice.slash("game new", game="tinybigwars", round_limit=2, seed=3)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    said = await ephemeral_reply(await bob.slash("game notify", heads_up=True))
    assert "Heads-up when the seat before yours starts its turn: on" in said
    await alice.click("Start")

    def heads_up() -> list[Any]:
        return [m for m in bob.dm.messages if "you are next" in m.content]

    await play_until(fake, [AutoPlayer(alice), AutoPlayer(bob)], lambda: bool(heads_up()), timeout=300)
    [told, *_] = heads_up()
    assert "alice has started their turn" in told.content and told.buzzes, told.content
    assert not [m for m in alice.dm.messages if "you are next" in m.content]  # alice asked for none
