"""Host commands are applied once: the same command repeated within a minute answers "already
done" with what was done (a retried `/game extend` moves the deadline once), and an outcome whose
confirmation Discord refused (an expired interaction token) is told with the person's next command."""

from __future__ import annotations

import asyncio

from tests.e2e.harness import AutoPlayer, ephemeral_reply
from tests.e2e.test_delivery_blocked import start_match


async def test_a_repeated_extend_moves_the_deadline_once(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_match(fake, start_bot, alice, bob, tmp_path)
    await alice.dm.wait_for(lambda m: m.selects)
    before = (await bot.svc.status(fake.channel.id)).deadline
    first = await alice.slash("game extend", hours=2)
    assert "Deadline extended" in first.content
    extended = (await bot.svc.status(fake.channel.id)).deadline
    assert round((extended - before).total_seconds()) == 7200
    again = await alice.slash("game extend", hours=2)
    assert again.content.startswith("Already done") and "Deadline extended" in again.content
    assert "Nothing was done again" in again.content
    assert (await bot.svc.status(fake.channel.id)).deadline == extended, "the retry moved nothing"
    more = await alice.slash("game extend", hours=3)  # another command is another command
    assert "Deadline extended" in more.content and not more.content.startswith("Already")
    assert "paused" in (await alice.slash("game pause")).content
    assert "Already done" in (await alice.slash("game pause")).content
    assert "Already done" not in (await alice.slash("game resume")).content
    assert "Already done" not in (await alice.slash("game pause")).content, "pause, resume, pause: each goes"


async def test_an_outcome_discord_would_not_confirm_is_told_with_the_next_command(
    fake, start_bot, alice, bob, tmp_path
) -> None:
    await start_match(fake, start_bot, alice, bob, tmp_path)
    await alice.dm.wait_for(lambda m: m.selects)
    refused = fake.fail("PATCH", "/webhooks/{app}/{token}/messages/@original", 50027)  # the token expired
    await alice.slash("game pause", settle=False)
    await fake.wait_until(lambda: refused.hits == 1, timeout=30)
    await asyncio.sleep(0.5)  # the bot notes what it could not say
    mine = await alice.slash("game mine")
    assert "earlier command went through" in mine.content and "The match is paused" in mine.content, mine.content
    later = await alice.slash("game mine")
    assert "earlier command" not in later.content, "told once"
    assert "Already done" in await ephemeral_reply(await alice.slash("game pause"))


async def test_a_repeated_undo_is_applied_once(fake, start_bot, alice, bob, tmp_path) -> None:
    """A double-sent `/game undo` (a retry, a double tap) must not take back a second choice."""
    bot = await start_match(fake, start_bot, alice, bob, tmp_path)
    for player in (alice, bob):  # the sealed first step: both choose, it is revealed into the log
        await AutoPlayer(player).answer(await player.dm.wait_for(lambda m: m.selects))
    match = await bot.svc.find_match(fake.channel.id)

    async def log() -> tuple[int, int]:
        async with bot.store.read() as session:
            rows = await bot.store.choices(session, match.id)
            return sum(row.by == "player" for row in rows), len(await bot.store.undos(session, match.id))

    for _ in range(600):
        if (await log())[0] == 2:
            break
        await asyncio.sleep(0.05)
    assert await log() == (2, 0)
    first = await alice.slash("game undo")
    assert first.content.startswith(("Undone", "Asked")), first.content
    after = await log()
    assert after[1] == 1
    again = await alice.slash("game undo")
    assert again.content.startswith("Already done") and first.content[:40] in again.content, again.content
    assert await log() == after, "the repeat changed nothing"
