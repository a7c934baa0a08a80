"""A whole Tiny Big Wars match played through slash commands and DM components."""

from __future__ import annotations

import re

from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for


async def test_full_match_two_humans_one_ai(fake, start_bot, alice, bob, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    r = await alice.slash("game new", game="tinybigwars", round_limit=3)
    assert r.ephemeral and "Lobby for **Tiny Big Wars** opened" in r.content
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    assert "alice opened a Tiny Big Wars lobby" in lobby.content
    join = await bob.click("Join")
    assert join.ephemeral and "You joined" in join.content
    await alice.wait_for(lambda m: "bob joined" in m.content and m.button("Start"))
    await alice.click("Add AI")
    await alice.wait_for(lambda m: "AI" in m.content and m.id == lobby.id and "joined" in m.content)
    start = await alice.click("Start")
    assert "has started" in start.content

    # The force is a secret choice made in DMs; the channel only shows progress.
    dm = await alice.dm.wait_for(lambda m: m.selects)
    assert "Build your force secretly" in dm.content and dm.files.get("you.png")
    autos = [AutoPlayer(alice), AutoPlayer(bob)]
    posts = lambda: fake.channel_messages(fake.channel)  # noqa: E731
    await play_until(fake, autos, lambda: any("The match is over" in m.content for m in posts()))

    contents = [m.content for m in posts()]
    assert any(re.search(r"\d of 3 have chosen", c) for c in contents)
    phase_posts = [m for m in posts() if m.files.get("map.png")]
    assert len(phase_posts) >= 4
    for post in phase_posts:
        img = post.image()
        assert img.size == (1200, 900)
    assert "The match is over" in phase_posts[-1].content
    assert all(a.answered for a in autos)
