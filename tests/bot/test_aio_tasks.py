"""Stopping background tasks (bot/aio_tasks.py): every task ends, and the one stopping them can
itself still be cancelled."""

from __future__ import annotations

import asyncio

from bot.aio_tasks import cancel_and_wait


async def test_every_task_ends_whatever_it_raised() -> None:
    async def forever() -> None:
        await asyncio.Event().wait()

    async def fails() -> None:
        raise RuntimeError("broken")

    failed = asyncio.create_task(fails())
    await asyncio.sleep(0)
    tasks = [asyncio.create_task(forever()), failed, asyncio.create_task(forever())]
    await cancel_and_wait(tasks)
    assert all(task.done() for task in tasks)
    assert [task.cancelled() for task in tasks] == [True, False, True]


async def test_a_stop_that_is_cancelled_itself_ends_cancelled() -> None:
    """A task that takes long to end after its cancel: the stopper, cancelled while it waits,
    ends at once as cancelled rather than going on as if nothing happened."""
    release = asyncio.Event()

    async def slow_to_end() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await release.wait()

    worker = asyncio.create_task(slow_to_end())
    await asyncio.sleep(0)
    went_on = []

    async def stop() -> None:
        await cancel_and_wait([worker])
        went_on.append(True)

    stopper = asyncio.create_task(stop())
    await asyncio.sleep(0.01)
    stopper.cancel()
    await asyncio.wait([stopper])
    assert stopper.cancelled() and went_on == []
    release.set()
    await asyncio.wait([worker])


async def test_shutdown_waits_for_a_lease_release_a_bounded_time() -> None:
    """A release stuck in a database call that does not stop when cancelled must not hold the
    bot's close: it is given up after the bound (the lease expires by itself)."""
    from bot.discord.app import _at_most

    release = asyncio.Event()

    async def stuck() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await release.wait()  # ends only once the database answers

    async def fine() -> None:
        return None

    loop = asyncio.get_running_loop()
    started = loop.time()
    await _at_most([stuck(), fine()], 0.2)
    assert loop.time() - started < 5
    release.set()


async def test_a_gentle_stop_lets_each_loop_end_its_round() -> None:
    """A loop in the middle of its round (a database write, say) finishes that round and ends on
    its own, never cancelled half-way."""
    from bot.aio_tasks import idle, stop_gently

    stopping = asyncio.Event()
    in_round = asyncio.Event()
    finish_round = asyncio.Event()
    rounds: list[str] = []

    async def polite() -> None:
        while not await idle(stopping, 0.01):
            rounds.append("started")
            in_round.set()
            await finish_round.wait()  # the round's work: not interrupted by the stop
            rounds.append("finished")

    loop_task = asyncio.create_task(polite())
    await in_round.wait()
    stopper = asyncio.create_task(stop_gently([loop_task], stopping, grace=60.0))
    await asyncio.sleep(0.05)
    assert not stopper.done(), "the stop did not wait for the round under way"
    finish_round.set()
    await stopper
    assert rounds == ["started", "finished"] and not loop_task.cancelled()


async def test_a_loop_that_does_not_stop_is_cancelled_after_the_grace() -> None:
    from bot.aio_tasks import stop_gently

    async def deaf() -> None:
        await asyncio.Event().wait()

    loop_task = asyncio.create_task(deaf())
    await stop_gently([loop_task], asyncio.Event(), grace=0.05)
    assert loop_task.cancelled()


async def test_idle_returns_at_once_when_asked_to_stop() -> None:
    from bot.aio_tasks import idle

    stopping = asyncio.Event()
    stopping.set()
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await idle(stopping, 3600.0)
    assert loop.time() - started < 60
