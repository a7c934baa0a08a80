"""Host commands are applied once: the same command repeated within a minute answers "already
done" with what was done (a retried `/game extend` moves the deadline once), and an outcome whose
confirmation Discord refused (an expired interaction token) is told with the person's next command."""

from __future__ import annotations

import asyncio

from tests.e2e.harness import ephemeral_reply
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
