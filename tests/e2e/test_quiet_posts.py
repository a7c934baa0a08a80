"""The quiet channel as a player sees it: one post per phase, edited in place and closed with the
map; one DM per decision sequence; a small number picked in one click; a restarted bot goes on
editing the same phase post."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.harness import (
    AutoPlayer,
    ephemeral_reply,
    factory,
    open_prompt,
    set_deadline_hours,
    settings_for,
    wait_public_delivered,
    wait_recorded,
)
from tests.fakediscord.models import Message

OVER = "The match is over"


async def open_match(fake: Any, start_bot: Any, alice: Any, bob: Any, db: Any, **options: Any) -> Any:
    bot = await start_bot(factory(settings_for(fake, db)))
    await alice.slash("game new", game="tinybigwars", **options)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    return bot


def posts(fake: Any) -> list[Message]:
    return [m for m in fake.channel_messages(fake.channel) if m.author.id == fake.bot_user.id
            and m.ephemeral_to is None]


def phase_posts(fake: Any) -> list[Message]:
    return [m for m in posts(fake) if m.content.startswith("**Round ")]


async def play(fake: Any, players: list[AutoPlayer], done: Any, timeout: float = 600.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not done():
        assert loop.time() < end, "the match did not get there"
        acted = [await p.step() for p in players]
        if not any(acted):
            await asyncio.sleep(0.05)


async def test_one_post_per_phase_and_one_dm_per_turn(fake, start_bot, alice, bob, tmp_path) -> None:
    await open_match(fake, start_bot, alice, bob, tmp_path / "w.db", round_limit=2, seed=3)
    players = [AutoPlayer(alice), AutoPlayer(bob)]
    await play(fake, players, lambda: any(OVER in m.content for m in posts(fake)))
    await fake.quiesce(quiet=1.0, timeout=60)

    headings = [m.content.splitlines()[0] for m in phase_posts(fake)]
    for phase in ("Clan Phase", "Hero Activation"):
        for round_no in (1, 2):
            # One post per phase: a busy one carries on in an embed of the same post.
            same = [h for h in headings if h.startswith(f"**Round {round_no} - {phase}")]
            assert len(same) == 1, headings
    for post in phase_posts(fake):
        assert len(post.content) <= 2000
    closed = [m for m in phase_posts(fake) if m.files.get("map.png")]
    assert len(closed) >= 4, "every phase closes with its map"
    gathered = [m for m in phase_posts(fake) if len(m.versions) > 1]
    assert gathered, "the lines of a phase are added by editing its post"
    assert not any("sealed a force" in m.content for m in posts(fake))

    # A whole activation is one DM, edited from decision to decision, saying what was chosen.
    for player in (alice, bob):
        dms = [m for m in player.dm.messages if m.author.id == fake.bot_user.id and m.ephemeral_to is None]
        edited = [m for m in dms if len(m.versions) > 2]
        assert edited, f"{player.name}'s decisions each came as a new DM"
        assert any("You chose: **" in v.get("content", "") for m in edited for v in m.versions)
        answered = sum(1 for a in players if a.player is player for _ in a.answered)
        assert len(dms) * 2 <= answered, f"{player.name}: {len(dms)} DMs for {answered} answers"
        assert not [m for m in dms if open_prompt(m)], "no live buttons left after the match"


async def test_a_small_number_is_one_click_and_a_forged_one_is_refused(fake, start_bot, alice, bob,
                                                                        tmp_path) -> None:
    bot = await open_match(fake, start_bot, alice, bob, tmp_path / "w.db", round_limit=2, seed=3)
    players = [AutoPlayer(alice), AutoPlayer(bob)]

    def quick() -> Message | None:
        for m in alice.dm.messages:
            if open_prompt(m) and m.selects and m.selects[0].custom_id.endswith(":q"):
                return m
        return None

    loop = asyncio.get_running_loop()
    end = loop.time() + 300
    while quick() is None:
        assert loop.time() < end, "alice was never asked for a small number"
        acted = [await p.step() for p in players]
        if not any(acted):
            await asyncio.sleep(0.05)
    msg = quick()
    assert msg is not None
    select = msg.selects[0]
    values = [int(o["value"]) for o in select.options]
    assert values == list(range(values[0], values[-1] + 1)), "every value of the field, in order"
    assert sum(o.get("description") == "suggested" for o in select.options) == 1
    match = await bot.svc.find_match(fake.channel.id)
    step = (await bot.svc.get_match(match.id)).step

    forged = fake.new_interaction(3, alice.user, msg.channel, {"custom_id": select.custom_id, "component_type": 3,
                                                               "values": [str(values[-1] + 1)]}, message=msg)
    refusal = await ephemeral_reply(await alice.dm._run(forged, True))
    assert f"is not from {values[0]} to {values[-1]}. Nothing was changed." in refusal, refusal
    assert (await bot.svc.get_match(match.id)).step == step

    before = len(msg.versions)
    await alice.dm.select(None, [str(values[0])], message=msg)  # one click: no form to fill
    await fake.wait_until(lambda: len(msg.versions) > before, 60)
    assert (await bot.svc.get_match(match.id)).step == step + 1
    label = select.placeholder.split(" (")[0]
    assert f"{label} {values[0]}" in msg.content, msg.content


async def test_a_restarted_bot_goes_on_editing_the_open_phase_post(fake, start_bot, alice, bob, tmp_path) -> None:
    db = tmp_path / "w.db"
    bot = await open_match(fake, start_bot, alice, bob, db, round_limit=2, seed=3)
    players = [AutoPlayer(alice), AutoPlayer(bob)]

    def activation() -> list[Message]:
        return [m for m in phase_posts(fake) if m.content.startswith("**Round 1 - Hero Activation")]

    await play(fake, players, lambda: bool(activation()) and len(activation()[0].content.splitlines()) >= 3)
    await fake.quiesce(quiet=0.5, timeout=60)
    before = activation()
    assert len(before) == 1 and not before[0].files.get("map.png"), "the phase is still on"
    lines = len(before[0].content.splitlines())

    await start_bot.restart(bot, factory(settings_for(fake, db)))
    await play(fake, players, lambda: len(before[0].content.splitlines()) > lines or
               bool(before[0].files.get("map.png")))
    assert activation()[0].id == before[0].id, "the same post goes on after the restart"
    await play(fake, players, lambda: any(m.content.startswith("**Round 2") for m in phase_posts(fake)))
    assert [m.id for m in activation()][:1] == [before[0].id]


async def test_the_last_to_choose_is_told_on_the_prompt_it_already_has(fake, start_bot, alice, bob,
                                                                       tmp_path) -> None:
    await open_match(fake, start_bot, alice, bob, tmp_path / "w.db", round_limit=2, seed=3)
    force = await alice.dm.wait_for(lambda m: m.selects)
    bob_force = await bob.dm.wait_for(lambda m: m.selects)
    dms_before = len(bob.dm.messages)
    his_map = dict(bob_force.files)
    await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    told = await bob.dm.wait_for(lambda m: m.id == bob_force.id and "Everyone else has chosen" in m.content)
    assert told.selects, "the prompt is still there to answer"
    assert his_map and told.files == his_map, "the edit keeps his private map"
    assert len(bob.dm.messages) == dms_before, "told by an edit of the prompt, not a new DM"
    assert not any("Everyone else" in m.content for m in alice.dm.messages)
    # A seal is one message: the confirmation with its own line (the sealed total), no second DM.
    sealed = await alice.dm.wait_for(lambda m: m.id == force.id and "stays sealed" in m.content)
    assert "You sealed a force of" in sealed.content and sealed.button("Change") is not None
    assert [m.id for m in alice.dm.messages if "You sealed a force" in m.content] == [force.id]
    progress = await alice.wait_for(lambda m: "waiting for bob" in m.content)
    assert progress.content.startswith("**Force Building**") and bob.mention not in progress.content


async def test_a_reminder_says_so_once_the_player_answered(fake, start_bot, alice, tmp_path) -> None:
    db = tmp_path / "w.db"
    bot = await start_bot(factory(settings_for(fake, db)))
    await alice.slash("game new", game="tinybigwars", round_limit=1)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    # 72 s to decide: the half-time reminder comes at 36 s, leaving as long again to answer on a busy machine.
    await set_deadline_hours(db, 0.02)
    await alice.click("Add AI")
    await alice.click("Start")
    force = await alice.dm.wait_for(lambda m: m.selects)
    reminder = await alice.dm.wait_for(lambda m: m.content.startswith("Reminder:"), timeout=120)
    assert "still waits for your choice" in reminder.content
    await wait_recorded(bot, reminder)  # she reads it first: an answer before that finds no reminder to take back
    await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    done = await alice.dm.wait_for(lambda m: m.id == reminder.id and "answered in time" in m.content)
    assert "still waits" not in done.content, "a reminder left standing would be untrue"


async def test_a_turn_mention_says_so_once_the_player_answered(fake, start_bot, alice, bob, tmp_path) -> None:
    bob.dms_closed = True  # his turns are announced in the channel; he answers with /game act
    fake.allow("dms_closed")
    bot = await open_match(fake, start_bot, alice, bob, tmp_path / "w.db", round_limit=2, seed=3)
    await alice.wait_for(lambda m: bob.mention in m.content and "cannot send you direct messages" in m.content)
    auto_alice, auto_bob = AutoPlayer(alice), AutoPlayer(bob, via_act=True)
    loop = asyncio.get_running_loop()
    end = loop.time() + 300

    def pings() -> list[Message]:
        return [m for m in posts(fake) if bob.mention in m.content and "your turn" in m.content]

    while not pings():  # bob's first decision was announced by the DMs-closed post; play to his next turn
        assert loop.time() < end, "bob never got a turn mention"
        if await auto_alice.step():
            continue
        await wait_public_delivered(bot)  # alice has nothing to do: bob's turn; its mention is on its way
        if not pings() and not await auto_bob.step():
            await asyncio.sleep(0.05)
    ping = pings()[0]
    assert ping.allowed_mentions == {"parse": [], "users": [bob.user.id]}
    await wait_recorded(bot, ping)  # he reads it first: an answer before that finds no mention to take back
    assert await auto_bob.step(), "bob had nothing to answer on his turn"  # bob answers with /game act
    done = await alice.wait_for(lambda m: m.id == ping.id and "bob has chosen" in m.content)
    assert bob.mention not in done.content and "your turn" not in done.content
