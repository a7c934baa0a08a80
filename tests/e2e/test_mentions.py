"""Names cannot ping: a player named like another player's mention, and one named @everyone,
play a whole match; no public post carries a live mention of anyone it does not mean to ping,
and every post's allowed_mentions lists exactly the players it means."""

from __future__ import annotations

import asyncio
import re

from sqlmodel import select

from db.models import Notice
from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for

LIVE_USER = re.compile(r"<@!?(\d{17,20})>")
LIVE_EVERYONE = re.compile(r"@(everyone|here)")


def live_mentions(text: str) -> set[str]:
    """What Discord would render as a mention (escaped ones have a zero-width space after the @)."""
    return {f"user:{u}" for u in LIVE_USER.findall(text)} | {f"@{m}" for m in LIVE_EVERYONE.findall(text)}


async def test_names_that_look_like_mentions_ping_nobody(fake, start_bot, bob, tmp_path) -> None:
    mallory = fake.user(f"<@{bob.user.id}>")
    eve = fake.user("@everyone")
    bob.dms_closed = True  # the only one who needs mentions: the others' DMs tell them
    fake.allow("dms_closed")  # the bot learns it from the first refused DM
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await mallory.slash("game new", game="tinybigwars", round_limit=2)
    lobby = await mallory.wait_for(lambda m: m.button("Join") is not None)
    await eve.click("Join", message=lobby)
    await bob.click("Join", message=lobby)
    await mallory.wait_for(lambda m: m.id == lobby.id and "bob joined" in m.content)
    await mallory.click("Start", message=lobby)
    autos = [AutoPlayer(mallory), AutoPlayer(eve), AutoPlayer(bob, via_act=True)]
    await play_until(fake, autos, lambda: any("The match is over" in m.content for m in fake.channel.messages))
    await fake.quiesce()

    posts = [m for m in fake.channel.messages if m.author is fake.bot_user and m.interaction_id is None]
    # A sent post's delivered mark may wait for the delivery's next round (it is written with
    # that round's read): read the notices until every post but the board and the closed-DMs
    # notice names its notice.
    for _ in range(300):
        async with bot.store.read() as session:
            notices = list((await session.exec(select(Notice))).all())
        meant: dict[str, set[int]] = {}
        for n in notices:
            if (n.delivery_ref or "").isdigit():
                users = {int(u) for u in n.payload.get("user_ids", [])}
                if n.kind in ("turn", "reminder"):
                    users &= {bob.user.id}  # mentioned only where the DMs do not reach
                meant[n.delivery_ref] = meant.get(n.delivery_ref, set()) | users
        board = await bot.svc.board_message(notices[0].match_id)
        unmarked = [m for m in posts if m.id != board and str(m.id) not in meant
                    and not m.content.startswith(bob.mention + " I cannot send you direct messages")]
        if not unmarked:
            break
        await asyncio.sleep(0.1)
    assert any("<@\u200b" in t and "@\u200beveryone" in t for m in posts for t in m.texts), "names are shown, inert"
    pinged = 0
    for msg in posts:
        if msg.content.startswith(bob.mention + " I cannot send you direct messages"):
            assert set(msg.allowed_mentions.get("users") or []) == {bob.user.id}
            continue
        if msg.id == board:
            assert msg.allowed_mentions == {"parse": []}, "the status board pings nobody"
            continue
        intended = meant[str(msg.id)]
        for text in msg.texts:
            assert live_mentions(text) <= {f"user:{u}" for u in intended}, (text, intended)
        allowed = msg.allowed_mentions
        assert allowed is not None and allowed.get("parse") == [], msg
        assert set(allowed.get("users") or []) == intended, (msg.content, allowed, intended)
        pinged += bool(intended)
    assert pinged, "the turn posts still ping the player whose DMs are closed"
    dms = [m for p in (mallory, eve) for m in fake.dm_channel(p.user).log if m.interaction_id is None]
    assert dms and all(m.allowed_mentions == {"parse": []} for m in dms), "a DM pings nobody"
    for m in dms:
        assert not live_mentions(m.content), m.content
