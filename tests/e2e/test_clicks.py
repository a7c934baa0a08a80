"""Clicks the bot must refuse: stale, forged, foreign. Each refusal is ephemeral and changes nothing."""

from __future__ import annotations

from tests.e2e.harness import AutoPlayer, ephemeral_reply, factory, open_prompt, settings_for


async def started_match(fake, start_bot, alice, bob, tmp_path, **options):
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="tinybigwars", **options)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    return bot


async def test_stale_button_after_a_phase_change(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await started_match(fake, start_bot, alice, bob, tmp_path)
    force = await alice.dm.wait_for(lambda m: m.selects)
    await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    sealed = await alice.dm.wait_for(lambda m: m.id == force.id and m.button("Change") is not None)
    change_id = sealed.button("Change").custom_id
    bob_force = await bob.dm.wait_for(lambda m: m.selects)
    await bob.dm.select(None, [bob_force.selects[0].options[1]["value"]], message=bob_force)
    # The forces are revealed: a new phase. Alice's DM says what she sealed and offers no [Change].
    await alice.wait_for(lambda m: "Forces revealed" in m.content)
    done = await alice.dm.wait_for(lambda m: m.id == force.id and not m.buttons and not m.selects)
    assert "You chose: **" in done.content and "you can change it" not in done.content, done.content
    info = await bot.svc.find_match(fake.channel.id)
    before = info.step
    # Its old button, clicked anyway (a client that kept it), is refused and changes nothing.
    rec = fake.new_interaction(3, alice.user, done.channel, {"custom_id": change_id, "component_type": 2},
                               message=done)
    assert "no longer open" in await ephemeral_reply(await alice.dm._run(rec, True))
    assert (await bot.svc.find_match(fake.channel.id)).step == before


async def test_forged_custom_id_is_refused(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await started_match(fake, start_bot, alice, bob, tmp_path)
    force = await alice.dm.wait_for(lambda m: m.selects)
    before = (await bot.svc.find_match(fake.channel.id)).step
    for forged in ("wh:p:1:0:999:o:ember", "wh:l:1:steal", "not-ours", "wh:p:1:1:0:m"):
        rec = fake.new_interaction(3, alice.user, force.channel,
                                   {"custom_id": forged, "component_type": 2}, message=force)
        r = await alice.dm._run(rec, True)
        text = await ephemeral_reply(r)
        assert any(word in text for word in ("no longer open", "not part of an open", "another player")), text
    assert (await bot.svc.find_match(fake.channel.id)).step == before


async def test_non_player_cannot_act(fake, start_bot, alice, bob, carol, tmp_path) -> None:
    await started_match(fake, start_bot, alice, bob, tmp_path)
    force = await alice.dm.wait_for(lambda m: m.selects)
    act = await carol.slash("game act")
    assert act.ephemeral and "You have no seat in this match." in act.content
    # carol replays alice's component id from her own DM channel: refused as someone else's choice
    cid = force.selects[0].custom_id
    rec = fake.new_interaction(3, carol.user, force.channel,
                               {"custom_id": cid, "component_type": 3, "values": ["ember"]}, message=force)
    r = await carol.dm._run(rec, True)
    assert "belongs to another player" in await ephemeral_reply(r)
    status = await alice.slash("game status")
    assert "owes a choice" in status.content
    late_join = await carol.slash("game join")
    assert late_join.ephemeral and "started" in late_join.content


async def test_closed_dms_play_through_game_act(fake, start_bot, alice, bob, tmp_path) -> None:
    bob.dms_closed = True
    fake.allow("dms_closed")  # the bot's one attempt to DM bob is answered 403/50007
    await started_match(fake, start_bot, alice, bob, tmp_path, round_limit=2)
    notice = await alice.wait_for(lambda m: "DMs are closed" in m.content)
    assert bob.mention in notice.content and "/game act" in notice.content
    autos = [AutoPlayer(alice), AutoPlayer(bob, via_act=True)]
    from tests.e2e.harness import play_until

    await play_until(fake, autos, lambda: any("The match is over" in m.content for m in alice.messages))
    warnings = [m for m in fake.channel_messages(fake.channel) if "DMs are closed" in m.content]
    assert len(warnings) == 1, "said once"
    assert autos[1].answered, "bob answered through /game act"
    assert not bob.dm.messages
    attempts = fake.pop_violations("dms_closed")
    assert len(attempts) == 1, "after the first 403 the bot stops trying to DM bob"


async def test_restart_mid_match_old_buttons_still_work(fake, start_bot, alice, bob, tmp_path) -> None:
    settings = settings_for(fake, tmp_path / "w.db")
    bot = await start_bot(factory(settings))
    await alice.slash("game new", game="tinybigwars", round_limit=2)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    force = await alice.dm.wait_for(lambda m: m.selects)
    await bob.dm.wait_for(lambda m: m.selects)
    bot = await start_bot.restart(bot, factory(settings))
    # The DM sent by the old process is answered on the new one.
    r = await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    assert r.ok
    await alice.dm.wait_for(lambda m: m.id == force.id and "stays sealed" in m.content)
    autos = [AutoPlayer(alice), AutoPlayer(bob)]
    from tests.e2e.harness import play_until

    await play_until(fake, autos, lambda: any("The match is over" in m.content for m in alice.messages))
    assert not [m for m in alice.dm.messages if open_prompt(m) and m.id == force.id]
