"""Issue 25, the DMs: whole matches of each game, each player clicking the newest live component
of their own DMs at every quiet moment. No answer says "no longer open"; every enabled component
seen belongs to a decision its player has open; at the end no DM asks for anything and each turn
DM says how it ended. Tiny Big Wars: at most 3 new DMs a player per round, fights included."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e.defenders_play import DefendersTable
from tests.e2e.harness import ephemeral_reply, factory, settings_for
from tests.e2e.turn_dm_play import TurnDmTable, defenders_chooser, live_components


def quick_boards(fake: Any, db_path: Any) -> Any:
    """The table waits for the status board's edit after every click (see turn_dm_play.quiet);
    at the real pace (an edit per 2 s) most of a whole match's time was that wait. The DMs
    these tests check do not depend on the board's pace (tests/e2e/test_board_turns.py does)."""
    return factory(settings_for(fake, db_path, board_edit_seconds=0.1))


ENDED = ("You chose", "the AI chose", "The AI chose", "before you chose", "A teammate answered", "You let it pass",
         "The game moved on")
"""What a final turn DM says of its decision (turn_dm.py)."""


async def start(fake: Any, bot_factory: Any, start_bot: Any, players: list[Any], ais: int, **options: Any) -> tuple[Any, int]:
    bot = await start_bot(bot_factory)
    host, guests = players[0], players[1:]
    await host.slash("game new", **options)
    await host.wait_for(lambda m: m.button("Start") is not None, timeout=60)
    for guest in guests:
        await guest.click("Join")
        await host.wait_for(lambda m, g=guest: f"{g.name} joined" in m.content, timeout=60)
    for _ in range(ais):
        assert "took a seat" in await ephemeral_reply(await host.click("Add AI"))
    await host.click("Start")
    info = None
    while info is None or info.status == "lobby":
        info = await bot.svc.find_match(fake.channel.id)
        await asyncio.sleep(0.05)
    return bot, info.id


def assert_ended_well(table: TurnDmTable) -> None:
    assert table.clicks > 5, "the players hardly played"
    assert table.stale_answers() == [], "an answer said the clicked component was dead"
    assert table.dead == [], "a component was live on a decision its player no longer had"
    for player in table.players:
        dms = [m for m in player.dm.messages if not m.deleted]
        assert dms, f"{player.name} got no DM"
        for msg in dms:
            assert live_components(msg) == [], f"{player.name}'s DM still asks after the end: {msg.content!r}"
            assert "you can change it until then" not in msg.content, msg.content
            assert "** in <#" in msg.content or not msg.content.startswith("You sealed"), \
                "a sealed confirmation came as a DM of its own"
        turn_dms = [m for m in dms if "** in <#" in m.content]
        assert turn_dms
        for msg in turn_dms:
            assert any(word in msg.content for word in ENDED), f"{player.name}'s final DM says nothing of its end: {msg.content!r}"


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_tiny_big_wars_dms_stay_true(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any) -> None:
    bot, match_id = await start(fake, quick_boards(fake, tmp_path / "t.db"), start_bot, [alice, bob], 1,
                                game="tinybigwars", round_limit=3, seed=3)
    table = TurnDmTable(fake, bot, [alice, bob])
    await table.play(match_id)
    assert_ended_well(table)
    fights = [m for m in alice.dm.messages + bob.dm.messages if any("Fight at" in v for v in m.texts)]
    assert fights, "no fight came to a player's DMs: the round count below proves nothing about fights"
    for label, counts in table.dms_per_round.items():
        for name, count in counts.items():
            assert count <= 3, f"{name} got {count} new DMs in round {label}"


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_samurai_dms_stay_true(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any) -> None:
    bot, match_id = await start(fake, quick_boards(fake, tmp_path / "s.db"), start_bot, [alice, bob], 2,
                                game="samurai", seats=4, mode="base", round_limit=1, seed=1)
    table = TurnDmTable(fake, bot, [alice, bob])
    await table.play(match_id)
    assert_ended_well(table)


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_defenders_dms_stay_true(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any) -> None:
    bot, match_id = await start(fake, quick_boards(fake, tmp_path / "d.db"), start_bot, [alice, bob], 0,
                                game="defenders", mode="single", seats=2, round_limit=2, seed=5)
    table = TurnDmTable(fake, bot, [alice, bob], chooser=defenders_chooser(DefendersTable([alice, bob])))
    await table.play(match_id)
    assert_ended_well(table)


@pytest.mark.fakediscord(players=("alice", "bob"))
async def test_an_abort_leaves_no_dm_asking(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any) -> None:
    """Alice sealed her force, Bob had not chosen: the host aborts. Alice's DM says what she
    sealed and that the match was aborted; Bob's says the match was aborted before he chose."""
    bot, _match_id = await start(fake, quick_boards(fake, tmp_path / "a.db"), start_bot, [alice, bob], 0,
                                 game="tinybigwars")
    force = await alice.dm.wait_for(lambda m: m.selects)
    await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    await alice.dm.wait_for(lambda m: m.id == force.id and m.button("Change") is not None)
    await bob.dm.wait_for(lambda m: m.selects)
    assert "The match was aborted." in (await alice.slash("game abort")).content
    for player in (alice, bob):
        await player.dm.wait_for(lambda m: "aborted" in m.content and not live_components(m), timeout=60)
    await fake.quiesce(quiet=0.3, timeout=10)
    for player in (alice, bob):
        assert [m.content for m in player.dm.messages if live_components(m)] == []
    [alice_dm] = [m for m in alice.dm.messages if m.id == force.id]
    assert "You chose: **" in alice_dm.content and "The match was aborted." in alice_dm.content
    assert "you can change it" not in alice_dm.content
    assert any("The match was aborted before you chose." in m.content for m in bob.dm.messages)
