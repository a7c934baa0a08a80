"""A whole Tiny Big Wars match played through slash commands and DM components."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from sqlmodel import select

from db.models import Notice as NoticeRow
from tests.bot.wording_scan import message_problems
from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for, wait_public_delivered
from tests.fakediscord import FakeDiscord, Player
from tests.fakediscord.models import Channel, Message

OVER = "The match is over"
DISCORD_PY_TRIES = 5  # discord.py sends a request at most this many times before raising


async def play_full_match(fake: FakeDiscord, start_bot: Any, alice: Player, bob: Player, db: Any) -> Any:
    """alice opens a lobby, bob joins, an AI fills the third seat; both humans answer every
    prompt until the match is over. Returns the bot."""
    bot = await start_bot(factory(settings_for(fake, db)))
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
    # alice builds her force first and bob waits until the open phase post tells who the table
    # still waits for (answers in one burst are gathered into the phase's closing edit)
    assert await autos[0].step()
    await alice.wait_for(lambda m: re.search(r"\d of 3 have chosen; waiting for", m.content) is not None)
    await play_until(fake, autos, lambda: any(OVER in m.content for m in fake.channel_messages(fake.channel)))
    assert all(a.answered for a in autos)
    return bot


async def test_full_match_two_humans_one_ai(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await play_full_match(fake, start_bot, alice, bob, tmp_path / "w.db")
    await wait_public_delivered(bot)  # the last phase post is closed with its map after the result shows
    posts = fake.channel_messages(fake.channel)
    contents = [m.content for m in posts]
    # Progress shows while a phase post is open; the closed post keeps only what happened.
    assert any(re.search(r"\d of 3 have chosen", text) for m in posts for text in m.texts)
    assert not any(re.search(r"\d of 3 have chosen", c) for c in contents)
    phase_posts = [m for m in posts if m.files.get("map.png")]
    assert len(phase_posts) >= 4
    for post in phase_posts:
        img = post.image()
        assert img.size == (1200, 1560)
    # The end is told at or after the last phase post (the result post, when the match ended
    # mid-round by influence, is a post of its own).
    last = posts.index(phase_posts[-1])
    assert any(OVER in m.content for m in posts[last:]), [m.content[:80] for m in posts[last:]]
    # Every text of the match, DMs and ephemeral replies included, reads cleanly (issue 25).
    assert message_problems(fake.messages.values()) == []


def bot_posts(fake: FakeDiscord, channel: Channel) -> list[Message]:
    """Messages the bot posted itself in `channel` (not interaction replies)."""
    return [m for m in fake.channel_messages(channel) if m.author is fake.bot_user and m.interaction_id is None]


async def drained(bot: Any, timeout: float = 60.0) -> None:
    """Wait until the outbox holds no undelivered notice."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while await bot.svc.outbox(limit=1):
        assert loop.time() < end, f"notices still undelivered after {timeout} s"
        await asyncio.sleep(0.05)


async def test_full_match_stays_inside_discord_rate_limits(fake, start_bot, alice, bob, tmp_path) -> None:
    """Under the fake's rate limits (the fixtures' 1/20 scale) discord.py paces the bot by the
    headers, so no bucket or global limit ever answers 429. The first channel posts also get
    more 429s in a row than discord.py retries, and the outbox still delivers every notice as
    exactly one message."""
    injected = DISCORD_PY_TRIES + 2
    fake.rate_limit("POST", "/channels/{id}/messages", times=injected, retry_after=0.01)
    started = time.monotonic()
    bot = await play_full_match(fake, start_bot, alice, bob, tmp_path / "w.db")
    await drained(bot)
    elapsed = time.monotonic() - started

    assert fake.rate_limiter.bucket_refusals() == [], f"429s from the fake's limits after {elapsed:.1f} s"
    assert [r.kind for r in fake.rate_limiter.refusals] == ["injected"] * injected
    async with bot.svc.store.read() as session:
        notices = (await session.exec(select(NoticeRow))).all()
    refs = [n.delivery_ref for n in notices if n.kind != "lobby" and n.delivery_ref and n.delivery_ref.isdigit()]
    lobby_refs = {n.delivery_ref for n in notices if n.kind == "lobby"}
    by_ref: dict[str, list[tuple[str, int | None]]] = {}
    for n in notices:
        if n.kind != "lobby" and n.delivery_ref and n.delivery_ref.isdigit():
            gathers = {"events": "phase post", "progress": "phase post", "phase": "phase post",
                       "last_to_choose": "prompt", "replay": "result"}.get(n.kind, n.kind)
            by_ref.setdefault(n.delivery_ref, []).append((gathers, n.seat))
    shared = {ref: kinds for ref, kinds in by_ref.items()
              if len(kinds) > 1 and not (len(set(kinds)) == 1 and kinds[0][0] in ("phase post", "prompt", "result"))}
    assert not shared, f"only a phase post, one seat's prompt DM or the result holds several notices: {shared}"
    places = [fake.channel, *(fake.dm_channel(p.user) for p in (alice, bob))]
    posted = [str(m.id) for place in places for m in bot_posts(fake, place)]
    assert len(posted) == len(set(posted))
    board = await bot.svc.board_message((await bot.svc.get_match(notices[0].match_id)).id)
    assert board is not None and sum(m.id == board for m in bot_posts(fake, fake.channel)) == 1
    assert set(posted) == set(refs) | lobby_refs | {str(board)}, \
        "a post without its notice (or the status board), or a notice without its post"
    # One result post; the lobby post (the match's summary) tells the end too.
    assert sum(OVER in m.content for m in bot_posts(fake, fake.channel) if str(m.id) not in lobby_refs) == 1
