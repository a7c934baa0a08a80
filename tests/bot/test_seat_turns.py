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


async def test_reconciling_holds_the_players_seats_while_it_reads_and_writes() -> None:
    """The turn DMs after a drain are read and written holding every seat players held last
    time: a click's reply on one of them waits, and no seat is read a second time."""
    over = sealed_turn(status="finished", version=None, answered=False, secret=False)
    delivery, dm = delivery_for(over)
    reads: list[str] = []
    svc: Any = delivery.bot.svc
    one, all_seats = svc.seat_turn, svc.seat_turns

    async def seat_turn(*args: Any, **kwargs: Any) -> Any:
        reads.append("seat")
        return await one(*args, **kwargs)

    async def seat_turns(match_id: int) -> Any:
        reads.append("all")
        if delivery.players.get(match_id):
            await asyncio.sleep(0.05)  # a click comes while the turns are read under the hold
        return await all_seats(match_id)

    svc.seat_turn, svc.seat_turns = seat_turn, seat_turns
    await delivery.reconcile(7)  # the players' seats are not known yet: the DM out of date is read again
    assert reads == ["all", "seat"] and len(dm.edits) == 1 and delivery.players[7] == [0]

    reads.clear()
    delivery.turns.shown.clear()  # as after a restart: the DM is written again
    written: list[str] = []

    async def reply_to_click() -> None:
        await asyncio.sleep(0.01)
        async with delivery.turns.hold(7, 0):
            written.append(f"reply after {len(dm.edits)} edits")

    replying = asyncio.create_task(reply_to_click())
    await delivery.reconcile(7)
    await replying
    assert reads == ["all"], "one read for every seat, none again"
    assert written == ["reply after 2 edits"], "the reply waited for the reconciling's write"
    assert len(delivery.turns) == 0


async def test_several_seats_are_held_in_seat_order() -> None:
    turns = SeatTurns()
    entered: list[str] = []

    async def many() -> None:
        async with turns.hold_seats(7, [2, 0, 1]):
            entered.append("many")
            await asyncio.sleep(0.02)

    async def one(seat: int) -> None:
        async with turns.hold(7, seat):
            entered.append(f"seat {seat}")

    async with turns.hold(7, 1):
        task = asyncio.create_task(many())
        await asyncio.sleep(0.01)
        assert entered == [], "it waits for seat 1, holding seat 0"
        other = asyncio.create_task(one(0))
        await asyncio.sleep(0.01)
        assert entered == []
    await asyncio.gather(task, other)
    assert entered == ["many", "seat 0"]
    assert len(turns) == 0
