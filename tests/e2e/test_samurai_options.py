"""Samurai Swords' options through `/game new`: `setup=classic` gives the rulebook's
setup turns (one spearman at a time in sword order, in the open), the default one sealed
sequence for everyone at once; `losses` is stored; a game without the option refuses it and
opens nothing; an LWTV match plays to its end through DMs."""

from __future__ import annotations

import asyncio

from bot.service.wording import ai_name
from tests.e2e.harness import ephemeral_reply, factory, open_prompt, settings_for
from tests.e2e.samurai_play import SamuraiPlayer

SPEAR = "add one spearman to a province you own"


async def _open_with_two_ai(fake, alice, mode: str = "base", **options) -> tuple[str, str]:
    """Open a 3-seat match as Alice with two AI seats and start it; her reply and the lobby's first text."""
    r = await alice.slash("game new", game="samurai", seats=3, mode=mode, round_limit=1, seed=5, **options)
    reply = await ephemeral_reply(r)
    lobby = await alice.wait_for(lambda m: m.button("Add AI") is not None)
    opened = lobby.content
    for count in (1, 2):
        await alice.click("Add AI", message=lobby)
        await alice.wait_for(lambda m, n=count: m.id == lobby.id and ai_name(n) in m.content)
    await alice.click("Start", message=lobby)
    await alice.wait_for(lambda m: m.id == lobby.id and f"Players: alice (host), {ai_name(1)}" in m.content and "Now: " in m.content)
    return reply, opened


async def test_setup_classic_through_the_slash_command_gives_the_turn_order_setup(fake, start_bot, alice,
                                                                                  tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    refused = await alice.slash("game new", game="tinybigwars", setup="classic")
    assert "has no option `setup`" in await ephemeral_reply(refused)
    assert await bot.svc.find_match(fake.channel.id) is None, "a refused option opened a lobby"

    reply, lobby = await _open_with_two_ai(fake, alice, setup="classic", steps="classic", losses="asked")
    assert "classic setup" in reply and "classic steps" in reply and "losses asked" in reply, reply
    assert "at most 1 round," in reply, "a counted noun agrees with its number"
    assert "classic setup" in lobby and "classic steps" in lobby and "losses asked" in lobby, lobby
    assert "at most 1 round" in lobby, "the lobby's line words its options as the reply does"
    info = await bot.svc.find_match(fake.channel.id)
    assert info.options["setup"] == "classic" and info.options["steps"] == "classic"
    assert info.options["losses"] == "asked"
    prompt = await alice.dm.wait_for(lambda m: open_prompt(m) and SPEAR in m.content, timeout=120)
    # The rulebook's turns: one spearman a turn, in the open (no count of twelve, nothing sealed).
    assert "(at most 3 per province)." in prompt.content
    assert "left)" not in prompt.content and "secret" not in prompt.content


async def test_default_setup_through_the_slash_command_is_one_sealed_sequence(fake, start_bot, alice,
                                                                              tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    reply, lobby = await _open_with_two_ai(fake, alice)
    assert "setup" not in reply and "setup" not in lobby
    info = await bot.svc.find_match(fake.channel.id)
    assert info.options["setup"] == "simultaneous" and info.options["steps"] == "combined"
    assert info.options["losses"] == "standing"
    prompt = await alice.dm.wait_for(lambda m: open_prompt(m) and SPEAR in m.content, timeout=120)
    assert "12 of 12 left" in prompt.content and "secret: only you see this" in prompt.content
    assert any("remaining 12 spearmen for me" in o["label"] for sel in prompt.selects for o in sel.options) or \
        prompt.button("Place the remaining 12 spearmen for me") is not None


async def test_an_lwtv_match_through_dms_finishes(fake, start_bot, alice, tmp_path) -> None:
    """Little Wars TV (event cards, the hand limit, the standing losses order) from the lobby
    to the final score, Alice answering every DM as a person would."""
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await _open_with_two_ai(fake, alice, mode="lwtv")
    player = SamuraiPlayer(alice)
    posts = lambda: fake.channel_messages(fake.channel)  # noqa: E731
    loop = asyncio.get_running_loop()
    end = loop.time() + 300
    while not any("The match is over" in m.content for m in posts()):
        assert loop.time() < end, f"the LWTV match did not finish; last posts: {[m.content for m in posts()[-3:]]}"
        if not await player.step():
            await asyncio.sleep(0.05)
    assert any("victory points" in m.content for m in posts())
    texts = [seen["content"] for seen in player.prompts_seen]
    assert any("Plan:" in text for text in texts) and any("Levy:" in text for text in texts)
