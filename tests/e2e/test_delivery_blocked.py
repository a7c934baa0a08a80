"""Channels and DMs the bot may not post to: the notices wait (parked, not retried every round),
the host and players are told where they can be, `/game status` says why, other matches and other
targets go on, and delivery resumes by itself once the target works again."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from sqlmodel import select

from db.models import Notice, utcnow
from tests.e2e.harness import AutoPlayer, factory, open_prompt, settings_for
from tests.fakediscord.models import SEND_MESSAGES, Channel, snowflake
from tests.fakediscord.permissions import names_of

PROBE = 1.0
"""Seconds to the first probe of a parked target in these tests (60 s in production)."""


async def set_bot_overwrite(fake: Any, channel: Channel, deny: int) -> None:
    """Deny the bot permissions in a channel, as a server admin would; the gateway tells the bot."""
    channel.overwrites.clear()
    if deny:
        channel.deny(fake.bot_user, *names_of(deny))
    await fake.dispatch("CHANNEL_UPDATE", channel.payload(), channel.guild)


async def start_match(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any, probe: float = PROBE) -> Any:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", delivery_probe_seconds=probe)))
    await alice.slash("game new", game="tinybigwars", round_limit=2)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    return bot


def delivery_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("bot.discord")]


async def test_a_channel_without_send_messages_holds_its_posts_then_resumes(
    fake, start_bot, alice, bob, tmp_path, caplog
) -> None:
    caplog.set_level(logging.INFO)
    bot = await start_match(fake, start_bot, alice, bob, tmp_path, probe=3 * PROBE)  # no probe before the count
    force = await alice.dm.wait_for(lambda m: m.selects)
    bob_force = await bob.dm.wait_for(lambda m: m.selects)
    match = await bot.svc.find_match(fake.channel.id)
    for _ in range(1200):  # the running match has its status board before the admin takes the permission
        if await bot.svc.board_message(match.id) is not None:
            break
        await asyncio.sleep(0.05)
    posted_before = len(fake.channel.messages)
    await set_bot_overwrite(fake, fake.channel, SEND_MESSAGES)

    await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    alert = await alice.dm.wait_for(lambda m: "can't post in" in m.content)
    assert f"<#{fake.channel.id}>" in alert.content and "missing permission Send Messages" in alert.content
    assert "server admin" in alert.content
    assert await bob.dm.wait_for(lambda m: "can't post in" in m.content)
    # The match goes on in DMs: bob's choice reveals the forces, and the channel posts wait.
    await bob.dm.select(None, [bob_force.selects[0].options[1]["value"]], message=bob_force)
    # Whoever acts first in the Clan Phase is asked: alice in a new DM, or bob (whose seal led
    # to it) on the same DM, edited in place.
    await fake.wait_until(lambda: open_prompt(bob_force) or any(open_prompt(m) and m.id != force.id
                                                                for m in alice.dm.messages), 60)
    await asyncio.sleep(PROBE / 2)  # several delivery rounds: none of them asks Discord again
    probes = sum(b.probes for b in await bot.svc.blocked_targets(match.id))  # a slow machine may reach one
    assert len(fake.pop_violations("missing_permissions")) == 1 + probes, "one refusal parks the channel's posts"
    assert len(fake.channel.messages) == posted_before
    status = await alice.slash("game status")
    assert "can't post in" in status.content and "Send Messages" in status.content

    fake.allow("missing_permissions")  # a probe may still meet the refusal before the admin acts
    await set_bot_overwrite(fake, fake.channel, 0)
    await alice.wait_for(lambda m: "Forces revealed" in m.content, timeout=12 * PROBE + 5)
    held = [m.content for m in fake.channel.messages[posted_before:]]
    # The held lines come as one post, closed by the reveal: what happened, not who was awaited.
    assert held[0].startswith("**Force Building**") and "Forces revealed" in held[0], held
    assert not any("have chosen" in text for text in held), "a closed post shows no progress lines"
    assert not any("sealed a force" in text for text in held), "no channel post per seal"
    for _ in range(100):  # the last posts of the reveal may still be on their way
        if not [n for n in await bot.svc.outbox(limit=1000) if n.user_id is None]:
            break
        await asyncio.sleep(0.05)
    async with bot.store.read() as session:
        rows = (await session.exec(select(Notice).where(Notice.user_id.is_(None), Notice.kind != "lobby")
                                   .order_by(Notice.id))).all()
    refs = list(dict.fromkeys(r.delivery_ref for r in rows if r.delivered_at is not None))  # a phase post holds several
    posted = [str(m.id) for m in fake.channel.messages]
    assert [ref for ref in refs if ref in posted] == [p for p in posted if p in refs], "held posts keep their order"
    assert all(r.delivered_at is not None for r in rows)
    status = await alice.slash("game status")
    assert "can't post" not in status.content

    records = delivery_records(caplog)
    assert not [r for r in records if r.exc_info or r.levelno >= logging.ERROR], "no traceback for a refusal"
    assert len([r for r in records if "parked" in r.getMessage()]) == 1


async def test_a_dead_channels_backlog_never_delays_another_match(fake, start_bot, alice, bob, tmp_path) -> None:
    dead = Channel(snowflake(), "lounge", guild=fake.guild, position=1)
    fake.guild.channels.append(dead)
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", delivery_probe_seconds=PROBE)))
    await alice.at(dead).slash("game new", game="tinybigwars")
    await alice.at(dead).wait_for(lambda m: m.button("Join") is not None)
    info = await bot.svc.find_match(dead.id)
    fake.guild.channels.remove(dead)  # deleted: Discord answers 404 Unknown Channel from now on
    fake.allow("unknown_channel")
    async with bot.store.write() as session:
        for i in range(500):
            session.add(Notice(match_id=info.id, key=f"backlog:{i}", kind="events", channel_id=dead.id,
                               payload={"text": f"backlog {i}"}, created_at=utcnow()))
    bot.wake_delivery()
    loop = asyncio.get_running_loop()
    began = loop.time()
    await bob.slash("game new", game="tinybigwars")
    lobby = await bob.wait_for(lambda m: m.button("Join") is not None)
    lobby_seconds = loop.time() - began
    await alice.click("Join", message=lobby)
    await bob.click("Start", message=lobby)
    await bob.wait_for(lambda m: "begins" in m.content)
    await bob.dm.wait_for(lambda m: m.selects)
    started_seconds = loop.time() - began
    print(f"fairness: healthy lobby after {lobby_seconds:.2f} s, started and prompted after {started_seconds:.2f} s")
    # 2 s and 4 s on a quiet machine; the structural checks below are what fail when the backlog blocks.
    assert lobby_seconds < 20.0 and started_seconds < 40.0
    assert not any("backlog" in m.content for m in fake.channel.messages)
    assert len(fake.pop_violations("unknown_channel")) <= 2, "500 dead notices cost one refused request"
    alert = await alice.dm.wait_for(lambda m: "can't post in" in m.content)
    assert f"<#{dead.id}>" in alert.content


async def test_a_player_sharing_no_server_gets_the_held_dms_after_coming_back(
    fake, start_bot, alice, bob, tmp_path
) -> None:
    await start_match(fake, start_bot, alice, bob, tmp_path)
    force = await alice.dm.wait_for(lambda m: m.selects)
    bob_force = await bob.dm.wait_for(lambda m: m.selects)
    member = fake.guild.members.pop(bob.user.id)  # bob left the server
    fake.allow("no_mutual_guilds")
    # Bob seals first (his sealed total is in the reply to his click, no DM); alice's seal reveals
    # the forces. The game goes on with alice's AutoPlayer until the bot first needs a new DM to
    # bob (his first decision of the round), which Discord refuses.
    sealed = await bob.dm.select(None, [bob_force.selects[0].options[0]["value"]], message=bob_force)
    assert sealed.ok
    await bob.dm.wait_for(lambda m: m.id == bob_force.id and "stays sealed" in m.content)  # a valid force
    await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    auto = AutoPlayer(alice)
    loop = asyncio.get_running_loop()
    end = loop.time() + 120

    def alerted() -> bool:
        return any("can't send" in m.content and bob.mention in m.content for m in fake.channel.messages)

    while not alerted():
        assert loop.time() < end, "the bot never met bob's refusal"
        if not await auto.step():
            await asyncio.sleep(0.05)
    said = next(m for m in fake.channel.messages if "can't send" in m.content and bob.mention in m.content)
    assert said.allowed_mentions == {"parse": [], "users": [bob.user.id]}
    host = await alice.dm.wait_for(lambda m: "can't send" in m.content)
    assert "bob" in host.content
    fake.guild.members[bob.user.id] = member
    # Bob gets what was held for him: his decision, as soon as a probe finds him reachable again.
    held = await bob.dm.wait_for(lambda m: open_prompt(m) and m.id != bob_force.id, timeout=4 * PROBE + 5)
    assert held.buttons or held.selects
