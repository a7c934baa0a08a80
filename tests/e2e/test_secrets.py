"""Every Tiny Big Wars prompt kind answered through Discord, and no secret seen before its reveal."""

from __future__ import annotations

import random

from sqlmodel import select

from db.models import Choice
from db.models import Notice as NoticeRow
from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for

KINDS = {"force", "clan", "recruit", "build", "activate", "action", "escort", "energy"}
"""Every Tiny Big Wars prompt kind but damage_order, which test_damage_order.py sets up."""
SEEDS = (2, 5)
"""Match seeds known to bring every kind up, each on its own, with the auto players' choices seeded
as below (random seeds left "energy" to chance: a fight where a hero has trained energy); the
second is a spare, in case a busy machine's timing sends one player's answers another way."""


async def player_kinds(bot, match_id: int) -> set[str]:
    async with bot.svc.store.read() as session:
        rows = (await session.exec(select(Choice).where(Choice.match_id == match_id))).all()
    return {r.kind for r in rows if r.by == "player"}


async def public_notices(bot) -> list[NoticeRow]:
    async with bot.svc.store.read() as session:
        rows = (await session.exec(select(NoticeRow))).all()
    return [r for r in rows if r.user_id is None]


def record_public_payloads(bot) -> list[tuple[str, dict]]:
    """Every public notice's payload as delivery fetches it, before it is sent: once delivered a
    notice keeps no view (db/outbox.py), so only this sees the views the maps were drawn from."""
    seen: list[tuple[str, dict]] = []
    fetch = bot.svc.next_batch

    async def next_batch(match_id: int, limit: int = 50, **kwargs):
        batch = await fetch(match_id, limit, **kwargs)
        seen.extend((n.kind, dict(n.payload)) for n in batch.notices if n.user_id is None)
        return batch

    bot.svc.next_batch = next_batch
    return seen


async def test_every_prompt_kind_through_discord_and_no_leaks(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    fetched = record_public_payloads(bot)
    seen: set[str] = set()
    for game_no, seed in enumerate(SEEDS):  # until every prompt kind came up (one match does it)
        await alice.slash("game new", game="tinybigwars", round_limit=6, point_limit=40, seed=seed)
        lobby = await alice.wait_for(lambda m, n=game_no: m.button("Join") is not None and f"(match #{n + 1})" in m.content)
        await bob.click("Join", message=lobby)
        await alice.wait_for(lambda m, lid=lobby.id: m.id == lid and "bob joined" in m.content)
        await alice.click("Start", message=lobby)
        info = await bot.svc.find_match(fake.channel.id)

        # Alice's sealed force: distinctive heroes nobody else may read about before the reveal.
        force = await alice.dm.wait_for(lambda m, after=lobby: m.selects and m.id > after.id)
        await alice.dm.select(None, ["Spirit Lamp (6 points)", "Golden Hand (8 points)"], message=force)
        await alice.dm.wait_for(lambda m, fid=force.id: m.id == fid and "stays sealed" in m.content)
        if game_no == 0:
            assert fake.leaks("Spirit Lamp", allowed=[alice]) == []
            assert fake.leaks("Golden Hand", allowed=[alice]) == []
            assert any(payload.get("view") for _kind, payload in fetched), "maps were drawn from views"
            for kind, payload in fetched:
                assert "you" not in (payload.get("view") or {}), kind
                assert "spirit" not in str(payload).lower(), f"{kind} notice names the sealed force"
            for row in await public_notices(bot):
                assert "spirit" not in str(row.payload).lower(), f"{row.kind} notice names the sealed force"

        autos = [AutoPlayer(alice, rng=random.Random(0)), AutoPlayer(bob, rng=random.Random(100))]
        await play_until(fake, autos, lambda lid=lobby.id: any(
            "The match is over" in m.content for m in fake.channel.messages if m.id > lid))
        seen |= await player_kinds(bot, info.id)
        if seen >= KINDS:
            break
    assert seen >= KINDS, f"never answered through Discord in the matches of seeds {SEEDS}: {KINDS - seen}"

    # After the reveal the force is public; the private confirmations never left their owner's DMs.
    assert alice.sees("Spirit Lamp")
    for msg in fake.messages.values():
        if "You sealed" in msg.content or "You revised" in msg.content:
            assert msg.channel.is_dm, f"private line outside a DM: {msg.content!r}"
