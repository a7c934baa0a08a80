"""A click wakes the delivery for its own match: that match's worker starts without the round
reading the whole queue; a wake that names no match, and every round period, still read it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from bot.discord.delivery import Delivery
from tests.bot.test_delivery_marks import Outbox, notice, quiet
from tests.bot.test_discord_hot_paths import _host


class CountingOutbox(Outbox):
    def __init__(self, notices: list[Any]) -> None:
        super().__init__(notices)
        self.rounds = 0

    async def delivery_round(self, limit: int, marks: Any = None) -> Any:
        self.rounds += 1
        return await super().delivery_round(limit, marks)


def of_match(notice_id: int, match_id: int) -> Any:
    made = notice(notice_id, "private", 0)
    made.match_id = match_id
    return made


async def marked(svc: Outbox, notice_id: int) -> None:
    while notice_id not in svc.marked:
        await asyncio.sleep(0.01)


async def test_a_wake_for_one_match_reads_no_queue() -> None:
    svc = CountingOutbox([of_match(1, 1), of_match(2, 2)])
    delivery = Delivery(_host(svc))
    quiet(delivery)

    async def deliver(sent: Any) -> str:
        return str(1000 + sent.id)

    async def reconcile(match_id: int) -> None:
        await delivery.read_seat_turns(match_id)  # as dm_delivery.reconcile reads: the marks with it

    delivery.deliver = deliver  # type: ignore[method-assign]
    delivery.reconcile = reconcile  # type: ignore[method-assign]
    stopping = asyncio.Event()
    loop = asyncio.create_task(delivery.run_forever(30.0, stopping))  # no round comes of the period here
    try:
        delivery.wake_for(1)  # the first round reads the queue: everything waiting goes
        await asyncio.wait_for(asyncio.gather(marked(svc, 1), marked(svc, 2)), 10)
        assert svc.rounds == 1

        svc.notices.append(of_match(3, 1))
        delivery.wake_for(1)
        await asyncio.wait_for(marked(svc, 3), 10)
        assert svc.rounds == 1, "the click's match was started without reading the queue"

        svc.notices.append(of_match(4, 5))
        delivery.wake_for(None)  # a deadline fired, an AI decided: whichever match it was
        await asyncio.wait_for(marked(svc, 4), 10)
        assert svc.rounds == 2
    finally:
        stopping.set()
        delivery.wake.set()
        await asyncio.wait_for(loop, 10)


async def test_a_loop_cancelled_as_it_is_woken_stops() -> None:
    """A delivery replaced in its process (its loop cancelled) starts no worker afterwards, even
    when a wake comes in the same turn as the cancellation: two loops would deliver the same
    match at once, each remembering its own phase posts."""
    svc = CountingOutbox([of_match(1, 1)])
    delivery = Delivery(_host(svc))
    quiet(delivery)
    stopping = asyncio.Event()
    loop = asyncio.create_task(delivery.run_forever(30.0, stopping))
    await asyncio.sleep(0.05)  # the loop waits for a wake
    delivery.wake_for(1)
    loop.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.wait_for(loop, 10)
    assert loop.cancelled(), "the cancellation was not swallowed by the wake"
    assert svc.rounds == 0 and not delivery.workers and svc.marked == [], "nothing was delivered after it"
