"""A bot that closes lets the interaction handlers still running finish first: a submit under
way is answered instead of meeting a closed store."""

from __future__ import annotations

import asyncio

from bot.discord.cog import HANDLER_TASKS, handlers_done


async def test_closing_waits_for_a_handler_under_way() -> None:
    release = asyncio.Event()
    finished: list[str] = []

    async def handler() -> None:
        await release.wait()
        finished.append("answered")

    running = asyncio.create_task(handler(), name=HANDLER_TASKS[0])
    other = asyncio.create_task(asyncio.Event().wait(), name="board-7")  # not a handler: not waited for
    closing = asyncio.create_task(handlers_done(timeout=600))
    await asyncio.sleep(0)
    assert not closing.done(), "the close waits while the handler runs"
    release.set()
    assert await closing == 0
    assert finished == ["answered"] and running.done()
    other.cancel()


async def test_a_handler_that_never_ends_does_not_hold_the_close_forever() -> None:
    stuck = asyncio.create_task(asyncio.Event().wait(), name=HANDLER_TASKS[1])
    assert await handlers_done(timeout=0.01) == 1
    stuck.cancel()
