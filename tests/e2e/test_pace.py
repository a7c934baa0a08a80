"""Players set their pace, through the fake Discord: a clock deadline in `/game new` (its zone
autocompleted, typos refused), a pause that ends by itself, and time away from every match."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tests.e2e.harness import factory, settings_for
from tests.e2e.test_threads import INVITED, open_match
from tests.e2e.test_undo_away import Clock


async def test_a_clock_deadline_is_worded_and_shown_in_everyones_own_time(fake, start_bot, alice, tmp_path) -> None:
    clock = Clock()  # 2026-12-01 12:00 UTC, 13:00 in Berlin
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db"), clock=clock))
    zones = await alice.autocomplete("game new", "timezone", "berl", game="tinybigwars")
    assert [z["value"] for z in zones] == ["Europe/Berlin"]
    assert len(await alice.autocomplete("game new", "timezone", "", game="tinybigwars")) == 25
    typo = await alice.slash("game new", game="tinybigwars", deadline_at="21:00", timezone="Europe/Berlinn")
    assert typo.ephemeral and "'Europe/Berlinn' is not a time zone I know" in typo.content
    bad = await alice.slash("game new", game="tinybigwars", deadline_at="9pm", timezone="Europe/Berlin")
    assert "'9pm' is not a time of day" in bad.content and "Nothing was created" in bad.content
    assert await bot.svc.find_match(fake.channel.id) is None, "a refused /game new creates nothing"

    opened = await alice.slash("game new", game="tinybigwars", round_limit=1, deadline_at="21:00",
                               timezone="Europe/Berlin", min_hours=12)
    assert "deadline every day at 21:00 Europe/Berlin, at least 12 h" in opened.content, opened.content
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    assert "Deadline every day at 21:00 Europe/Berlin, at least 12 h after a decision opens." in lobby.content
    await alice.click("Add AI")
    await alice.click("Start")
    await alice.dm.wait_for(lambda m: m.selects)
    # Opened at 13:00 Berlin time: 8 h to 21:00 is under 12 h, so the next evening.
    due = int(datetime(2026, 12, 2, 21, 0, tzinfo=ZoneInfo("Europe/Berlin")).timestamp())
    status = await alice.slash("game status")
    assert f"Deadline <t:{due}:f> (<t:{due}:R>)" in status.content, status.content


async def test_a_pause_ends_by_itself_and_says_so_once(fake, start_bot, alice, tmp_path) -> None:
    clock = Clock()
    await start_bot(factory(settings_for(fake, tmp_path / "w.db"), clock=clock))
    await alice.slash("game new", game="tinybigwars", round_limit=1)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await alice.click("Add AI")
    await alice.click("Start")
    await alice.dm.wait_for(lambda m: m.selects)
    paused = await alice.slash("game pause", days=2)
    end = int((clock.now + timedelta(days=2)).timestamp())
    assert f"paused until <t:{end}:f> (<t:{end}:R>)" in paused.content, paused.content
    status = await alice.slash("game status")
    assert f"Paused until <t:{end}:f>" in status.content and "goes on by itself" in status.content
    clock.now += timedelta(days=2, minutes=1)
    over = await alice.wait_for(lambda m: "The pause is over" in m.content and not m.ephemeral_to, timeout=60)
    assert "goes on by itself" in over.content
    await fake.quiesce(quiet=0.3, timeout=3)
    assert sum("The pause is over" in m.content for m in fake.channel_messages(fake.channel)) == 1
    status = await alice.slash("game status")
    assert "Paused" not in status.content and "Deadline <t:" in status.content


@INVITED
async def test_away_everywhere_covers_each_running_match_and_names_them(fake, start_bot, alice, bob, carol,
                                                                        tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    none = await bob.slash("game away", hours=3, everywhere=True)
    assert none.ephemeral and "no seat in a running match on this server" in none.content
    one, lobby_one = await open_match(alice, "Tiny Big Wars #1")
    two, lobby_two = await open_match(carol, "Tiny Big Wars #2")
    for lobby in (lobby_one, lobby_two):
        assert (await bob.click("Join", message=lobby)).ok
        await bob.wait_for(lambda m, lobby=lobby: m.id == lobby.id and "bob joined" in m.content)
    for host, lobby in ((alice, lobby_one), (carol, lobby_two)):
        assert (await host.click("Start", message=lobby)).ok
    away = await bob.slash("game away", hours=3, everywhere=True)
    assert away.ephemeral and "You are away until <t:" in away.content and "in 2 matches" in away.content
    assert "**Tiny Big Wars #1** in <#" in away.content and "**Tiny Big Wars #2** in <#" in away.content
    assert "(the AI plays)" in away.content
    # Each match tells its own table, in its own thread.
    await fake.wait_until(lambda: all(any("bob is away until" in m.content for m in thread.messages)
                                      for thread in (one, two)), timeout=60)
