"""A seat's next prompt is written into the DM the player just clicked, and the reply to that
click edits the same message: both hold the seat's turn, so the prompt lands after the reply
(seen once in a 200-match load run: the player was left with "Done" and nothing to answer)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bot.discord.seat_turns import SeatTurns
from tests.bot.test_turn_dm import DM, delivery_for, notice, sealed_turn


async def test_the_next_prompt_waits_for_the_reply_to_the_click() -> None:
    before = sealed_turn(version=9, answered=False, secret=False)  # the seat's next prompt, version 9, is open
    delivery, dm = delivery_for(before)
    written: list[str] = []
    reply_may_finish = asyncio.Event()

    async def reply_to_click() -> None:
        async with delivery.turns.hold(7, 0):
            await reply_may_finish.wait()
            written.append("reply")

    replying = asyncio.create_task(reply_to_click())
    await asyncio.sleep(0)
    payload: dict[str, Any] = {**before.subject.payload, "version": 9, "in_place": True,  # type: ignore[union-attr]
                               "game": "tinybigwars", "view": {}}
    delivering = asyncio.create_task(delivery.deliver(notice("prompt", payload)))
    for _ in range(5):
        await asyncio.sleep(0)
    assert dm.edits == [], "the prompt waits while the click's reply is on its way"
    reply_may_finish.set()
    await replying
    assert await delivering == str(DM)
    assert written == ["reply"] and [ref for ref, _ in dm.edits] == [DM]
    assert len(delivery.turns) == 0, "no lock is kept once nobody holds or waits"


async def test_other_seats_do_not_wait_for_each_other() -> None:
    turns = SeatTurns()
    async with turns.hold(7, 0), turns.hold(7, 1):  # would deadlock if seats shared a lock
        assert len(turns) == 2
    assert len(turns) == 0


def test_replace_keeps_facts() -> None:
    assert replace(sealed_turn(), version=3).version == 3
