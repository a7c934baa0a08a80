"""Tiny Epic Defenders through the fake Discord with the real bot: a solo Turn played with DM
buttons, an All Defenders card shared by two people (first come, first served), and a defence
decided from a DM."""

from __future__ import annotations

from tests.bot.wording_scan import message_problems
from tests.e2e.defenders_play import ALL, DEFEND, TURN, DefendersTable, labels, pick
from tests.e2e.harness import ephemeral_reply, factory, settings_for


def posts(fake):
    return fake.channel_messages(fake.channel)


def stale_click(msg, label: str) -> dict:
    """The interaction data of choosing ``label`` on ``msg`` as it shows now, to send later."""
    if msg.selects:
        select = msg.selects[0]
        value = next(o["value"] for o in select.options if o["label"] == label)
        return {"custom_id": select.custom_id, "component_type": select.type, "values": [value]}
    button = next(b for b in msg.buttons if b.label == label)
    return {"custom_id": button.custom_id, "component_type": 2}


def no_raw_refs(fake) -> None:
    import os

    if os.environ.get("DEFENDERS_DUMP"):
        with open(os.environ["DEFENDERS_DUMP"], "a") as out:
            for msg in sorted(fake.messages.values(), key=lambda m: m.id):
                out.write(f"--- {msg.channel.id} {msg.ephemeral_to} {[b.label for b in msg.buttons]} "
                          f"{[o['label'] for s in msg.selects for o in s.options]}\n{msg.content}\n")
    for msg in fake.messages.values():
        assert "[[seat:" not in msg.content, msg.content
        for button in msg.buttons:
            assert "[[seat:" not in button.label and len(button.label) <= 80
        for sel in msg.selects:
            assert len(sel.options) <= 25


async def test_solo_turn_through_dm_buttons(fake, start_bot, alice, tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    r = await alice.slash("game new", game="defenders", mode="single", difficulty="easy", round_limit=2, seed=2)
    assert "single mode" in await ephemeral_reply(r) and "easy difficulty" in await ephemeral_reply(r)
    lobby = await alice.wait_for(lambda m: m.button("Start") is not None)
    assert "easy difficulty" in lobby.content
    await alice.click("Start")
    info = await bot.svc.find_match(fake.channel.id)
    assert info.options["difficulty"] == "easy" and info.options["mode"] == "single"
    await alice.wait_for(lambda m: m.id == lobby.id and "Players: alice (host)" in m.content and "Now: " in m.content)

    table = DefendersTable([alice], walk=False)
    # Solo: seat 0 keeps a skill for each of its two Defenders, then plays a Turn.
    _, turn = await table.until(lambda p, m: TURN in m.content)
    skills = [s for s in table.seen if "Choose the first skill" in s[1]]
    assert len(skills) == 2 and skills[0][1] != skills[1][1]
    for _, content, options in skills:
        # Buttons carry no description: the DM lists what each skill does.
        assert len(options) == 2 and all(f"- {o}: " in content for o in options), content
    # Solo: nobody to race for the All Defenders AP, so no "first come, first served" notes.
    alone = [c for _, c, _ in table.seen if "All Defenders card:" in c]
    assert all("your teammates" not in c for c in alone)
    offered = labels(turn)
    assert offered[-1] == "End the Turn" and any(": move to " in o for o in offered)
    assert "3 AP left" in turn.content
    move = next(o for o in offered if ": move to " in o and "escorting" not in o)
    hero, where = move.split(": move to ")[0], move.split(": move to ")[1].split(" (")[0]
    await pick(alice, turn, move)
    # The same Turn goes on in the same DM, edited in place: what she chose, then the AP the move
    # left; the move is in the channel.
    left = 3 - int(move.rsplit("(", 1)[1].split(" AP")[0])
    nxt = await alice.dm.wait_for(lambda m: TURN in m.content and f"{left} AP left" in m.content and m.buttons)
    assert nxt.id == turn.id, "one DM per Turn"
    assert nxt.content.startswith(f"You chose: **{move}**.")
    assert f"{hero} in {where}" in nxt.content
    await fake.wait_until(lambda: any(f"{hero} (alice) moves to {where}." in m.content for m in posts(fake)), 60)
    secure = [o for o in labels(nxt) if ": Secure" in o or "clear the storm" in o]
    if secure:
        await pick(alice, nxt, secure[0])
        nxt = await alice.dm.wait_for(lambda m: TURN in m.content and f"{left - 1} AP left" in m.content
                                      and m.buttons)
    await pick(alice, nxt, "End the Turn")
    await fake.wait_until(lambda: any(f"{hero} (alice) ends the Turn." in m.content for m in posts(fake)), 60)

    # The rules of the game played here, by topic.
    rules = await alice.slash("game rules", topic="All Defenders card")
    assert "first come first served" in rules.content and rules.ephemeral
    names = [c["name"] for c in await alice.autocomplete("game rules", "topic", "def")]
    assert "Defend" in names and "All Defenders card" in names

    # The rest of the (two-round) battle: maps after phases, then the team's result.
    table.walk = True
    await table.finish(lambda: any("The match is over" in m.content for m in posts(fake)))
    # the result post, the newest that tells the end (the lobby post says it too)
    over = [m for m in posts(fake) if "The match is over" in m.content][-1]
    assert "The Defenders lost: the horde still stood after the 2-round limit." in over.content or \
        "The Defenders won:" in over.content, over.content
    assert "nobody won" not in over.content
    phases = [m for m in posts(fake) if m.content.startswith("**Battle 1 - Round")]
    assert phases and all(m.files.get("map.png") and m.image().size[0] > 0 for m in phases)
    assert over.files.get("map.png")
    no_raw_refs(fake)
    assert message_problems(fake.messages.values()) == []  # every text of the match reads cleanly (issue 25)


async def two_player_match(fake, start_bot, alice, bob, tmp_path, seed: int):
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="defenders", mode="single", seats=2, seed=seed)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content and m.button("Start"))
    info = await bot.svc.find_match(fake.channel.id)
    await alice.click("Start")
    return bot, info


async def test_all_defenders_card_shared_by_two_players(fake, start_bot, alice, bob, tmp_path) -> None:
    bot, info = await two_player_match(fake, start_bot, alice, bob, tmp_path, seed=5)
    table = DefendersTable([alice, bob])
    # the card is both players' decision: stop at the first to show it (a click's answer may
    # show it to the clicking player before delivery shows it to the other), answered by neither
    await table.until(lambda p, m: ALL in m.content)
    a_dm = await alice.dm.wait_for(lambda m: ALL in m.content and (m.buttons or m.selects))
    b_old = await bob.dm.wait_for(lambda m: ALL in m.content and (m.buttons or m.selects))
    for dm in (a_dm, b_old):
        assert "AP left for the whole group" in dm.content and "first come, first served" in dm.content
        assert labels(dm)[-1].startswith("Pass")
    ap = int(a_dm.content.split("All Defenders card: ")[1].split(" AP")[0])
    # Bob's copy as it is now, before Alice spends (the fake's message follows later edits).
    b_move = next(o for o in labels(b_old) if ": move to " in o and "escorting" not in o and "(1 AP)" in o)
    b_stale = stale_click(b_old, b_move)
    step = (await bot.svc.get_match(info.id)).step

    a_move = next(o for o in labels(a_dm) if ": move to " in o and "escorting" not in o and "(1 AP)" in o)
    await pick(alice, a_dm, a_move)
    await alice.dm.wait_for(lambda m: m.id == a_dm.id and m.content.startswith(f"You chose: **{a_move}**"))
    # Bob's copy from before Alice spent: refused, clearly, and nothing changes.
    r = await bob.dm._run(fake.new_interaction(3, bob.user, b_old.channel, b_stale, message=b_old), True)
    refusal = await ephemeral_reply(r)
    assert "Someone else answered first" in refusal, refusal
    assert (await bot.svc.get_match(info.id)).step == step + 1
    # Bob's DM, edited in place (he had not answered), shows the shrunken pool; he spends from it too.
    b_new = await bob.dm.wait_for(lambda m: ALL in m.content and f"{ap - 1} AP left" in m.content
                                  and (m.buttons or m.selects))
    assert b_new.id == b_old.id
    b_move = next(o for o in labels(b_new) if ": move to " in o and "escorting" not in o and "(1 AP)" in o)
    await pick(bob, b_new, b_move)
    await bob.dm.wait_for(lambda m: m.id == b_new.id and f"You chose: **{b_move}**" in m.content)
    a_hero, a_where = a_move.split(": move to ")[0], a_move.split(": move to ")[1].split(" (")[0]
    b_hero, b_where = b_move.split(": move to ")[0], b_move.split(": move to ")[1].split(" (")[0]
    await fake.wait_until(lambda: any(f"{a_hero} (alice) moves to {a_where}" in m.content for m in posts(fake))
                          and any(f"{b_hero} (bob) moves to {b_where}" in m.content for m in posts(fake)), 60)
    view = await bot.svc.public_view(info.id)
    assert view["active"]["card"] == "all" and view["active"]["ap"] == ap - 2
    no_raw_refs(fake)


async def test_defence_decided_from_a_dm(fake, start_bot, alice, bob, tmp_path) -> None:
    bot, info = await two_player_match(fake, start_bot, alice, bob, tmp_path, seed=5)
    table = DefendersTable([alice, bob])
    player, dm = await table.until(lambda p, m: DEFEND in m.content)
    assert "under attack" in dm.content and "A defence earns 1 XP" in dm.content
    defend = next(o for o in labels(dm) if o.startswith("Defend with "))
    hero = defend.removeprefix("Defend with ").split(" (")[0]
    cost = int(defend.split("(-")[1].split(" HP")[0])
    hp_before = next(d["hp"] for d in (await bot.svc.public_view(info.id))["defenders"] if d["name"] == hero)
    assert "Let it through" in labels(dm)
    await pick(player, dm, defend)
    await player.dm.wait_for(lambda m: m.id == dm.id and f"You chose: **{defend}**" in m.content)
    await fake.wait_until(lambda: any(f"{hero} ({player.name}) defends" in m.content for m in posts(fake)), 60)
    line = next(m.content for m in posts(fake) if f"{hero} ({player.name}) defends" in m.content)
    assert f"for {cost} HP" in line or cost == 0
    hp_after = next(d["hp"] for d in (await bot.svc.public_view(info.id))["defenders"] if d["name"] == hero)
    assert hp_after == hp_before - cost
    no_raw_refs(fake)
