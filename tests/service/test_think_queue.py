"""The thinking queue: a decision's CPU budget shrinks while many wait for the workers and comes
back when they have gone, never below the floor; a queue too long for even the floor sends
the decision to the heuristic; turns go in the order decisions came; a bad setting is refused."""

from __future__ import annotations

import asyncio
import logging

import pytest
from pydantic import ValidationError

from bot.service import think_queue, thinking
from bot.service.think_queue import FLOOR_MS, ThinkQueue
from bot.settings import Settings

WAIT = 60.0
"""Seconds a test waits on an event that should come at once: only a broken build waits this long."""


class Decision:
    """A decision that takes its turn in ``queue`` and holds its worker until released."""

    def __init__(self, queue: ThinkQueue, name: str, order: list[str], may_skip: bool = True) -> None:
        self.name, self.order = name, order
        self.turned, self.release = asyncio.Event(), asyncio.Event()
        self.budget: float | None = -1.0
        self.task = asyncio.create_task(self._run(queue, may_skip))

    async def _run(self, queue: ThinkQueue, may_skip: bool) -> None:
        async with queue.turn(may_skip) as budget:
            self.budget = budget
            self.order.append(self.name)
            self.turned.set()
            if budget is not None:
                await self.release.wait()

    async def turn(self) -> float | None:
        """The budget it was given, once its turn came."""
        await asyncio.wait_for(self.turned.wait(), WAIT)
        return self.budget

    async def finish(self) -> None:
        self.release.set()
        await asyncio.wait_for(self.task, WAIT)


class Ticks:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def one_worker_queue(wait_seconds: float = 3.0, configured_ms: float = 1000.0, clock: Ticks | None = None) -> ThinkQueue:
    return ThinkQueue(wait_seconds, workers=lambda: 1, configured_ms=lambda: configured_ms, clock=clock or Ticks())


async def crowd(queue: ThinkQueue, count: int, order: list[str], may_skip: bool = True) -> list[Decision]:
    """``count`` decisions: the first thinks, the rest wait in the order made."""
    decisions = []
    for number in range(count):
        decisions.append(Decision(queue, f"d{number}", order, may_skip))
        await asyncio.sleep(0)  # it runs up to its place in the queue
    assert queue.crowd == count
    return decisions


async def test_the_budget_shrinks_while_many_wait_and_comes_back_as_the_queue_drains(
        caplog: pytest.LogCaptureFixture) -> None:
    queue, order = one_worker_queue(), []
    decisions = await crowd(queue, 10, order)
    assert await decisions[0].turn() == 1000.0  # it found the worker idle: the whole budget
    budgets = []
    for decision, following in zip(decisions, decisions[1:], strict=False):
        await decision.finish()
        budgets.append(await following.turn())
    await decisions[-1].finish()
    # The second reached the worker with 8 behind it: 3 s shared by 9 decisions, ~333 ms each.
    assert budgets[0] == pytest.approx(3000 / 9)
    assert budgets == sorted(budgets) and budgets[-1] == 1000.0  # more as fewer wait, all of it at the end
    assert order == [f"d{number}" for number in range(10)], "turns went out of the order decisions came in"
    assert queue.figures.thought == 10 and queue.figures.shrunk == 6
    with caplog.at_level(logging.INFO, logger=think_queue.__name__):
        queue.log_figures()  # what the bot says as it closes
    assert "10 thought (6 with less than WARHOST_SEARCH_MS" in caplog.text and len(queue.figures.waits) == 10
    alone = Decision(queue, "alone", order)
    assert await alone.turn() == 1000.0  # the queue drained: a decision has its whole budget again
    await alone.finish()


async def test_the_budget_never_goes_below_the_floor() -> None:
    queue, order = one_worker_queue(), []
    decisions = await crowd(queue, 40, order, may_skip=False)  # 40 decisions share 3 s: 75 ms each
    await decisions[0].finish()
    assert await decisions[1].turn() == FLOOR_MS
    for decision in decisions[1:]:
        await decision.finish()
    assert queue.crowd == 0
    below = one_worker_queue(configured_ms=40.0)  # WARHOST_SEARCH_MS under the floor is the most
    assert below.budget(1) == below.budget(100) == 40.0


async def test_a_decision_past_all_hope_of_the_wait_goes_to_the_heuristic_and_the_others_think_the_floor() -> None:
    clock, order = Ticks(), []
    queue = one_worker_queue(clock=clock)
    decisions = await crowd(queue, 30, order)  # 30 at the floor (100 ms) take the 3 s already
    late = Decision(queue, "late", order)
    assert await late.turn() is None  # no worker: the heuristic answers it
    await late.finish()
    assert queue.crowd == 30 and queue.figures.heuristic == 1
    await decisions[0].finish()
    queued = Decision(queue, "queued", order)  # one fewer ahead: it waits for its turn again
    await asyncio.sleep(0)
    assert queue.crowd == 30 and not queued.turned.is_set()
    budgets = []
    for decision, following in zip(decisions[:20], decisions[1:21], strict=True):
        await decision.finish()
        budgets.append(await following.turn())
    # The last of them reached the worker with 10 behind it (3000 / 11 ms each by the crowd), but
    # while decisions are turned away every one thinks the floor: the worker searches all it can.
    assert budgets == [FLOOR_MS] * 20 and queue.crowd == 11
    clock.now += 3.0  # the last decision turned away was 3 s ago: the crowd's share again
    await decisions[20].finish()
    assert await decisions[21].turn() == pytest.approx(3000 / 10)
    for decision in decisions[21:]:
        await decision.finish()
    assert await queued.turn() == 1000.0
    await queued.finish()


async def test_the_budget_follows_the_wall_time_a_budget_millisecond_takes() -> None:
    queue = one_worker_queue()
    assert queue.budget(6) == 500.0
    for _ in range(40):
        queue.observed(budget_ms=200.0, wall_seconds=0.4)  # the worker has half a core
    assert queue.stretch == pytest.approx(2.0, rel=1e-3)
    assert queue.budget(6) == pytest.approx(250.0, rel=1e-3)
    queue.observed(budget_ms=200.0, wall_seconds=3600.0)  # the first think, which started the workers
    assert queue.stretch < 6.0, "one odd decision starved every budget after it"
    for _ in range(40):
        queue.observed(budget_ms=1000.0, wall_seconds=0.01)  # one candidate each: nothing to search
    assert queue.budget(6) == 1000.0  # the queue drains at once: all of it


async def test_a_wait_of_zero_gives_every_decision_its_whole_budget() -> None:
    queue, order = one_worker_queue(wait_seconds=0), []
    decisions = await crowd(queue, 40, order)
    budgets = []
    for decision in decisions:
        budgets.append(await decision.turn())
        await decision.finish()
    assert budgets == [1000.0] * 40 and queue.figures.heuristic == 0


async def test_a_decision_cancelled_while_it_waits_leaves_its_place() -> None:
    queue, order = one_worker_queue(), []
    first, gone, last = await crowd(queue, 3, order)
    gone.task.cancel()
    await asyncio.gather(gone.task, return_exceptions=True)
    assert queue.crowd == 2
    await first.finish()
    assert await last.turn() == 1000.0
    await last.finish()
    assert order == ["d0", "d2"] and queue.crowd == 0


def test_a_bad_search_wait_is_refused_with_what_it_may_be(monkeypatch: pytest.MonkeyPatch) -> None:
    for bad in ("0.5", "-1", "601", "nan", "soon"):
        monkeypatch.setenv("SEARCH_WAIT_SECONDS", bad)
        with pytest.raises(ValidationError, match="search_wait_seconds"):
            Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("SEARCH_WAIT_SECONDS", "0.5")
    with pytest.raises(ValidationError, match=r"0 \(no limit\) or from 1 to 600 seconds"):
        Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.setenv("SEARCH_WAIT_SECONDS", "0")
    assert Settings(_env_file=None).search_wait_seconds == 0  # type: ignore[call-arg]
    monkeypatch.delenv("SEARCH_WAIT_SECONDS")
    assert Settings(_env_file=None).search_wait_seconds == think_queue.DEFAULT_WAIT_SECONDS  # type: ignore[call-arg]


def test_a_bad_search_budget_stops_the_bot_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARHOST_SEARCH_MS", "fast")
    with pytest.raises(ValueError, match="WARHOST_SEARCH_MS must be a number of CPU milliseconds"):
        thinking.configure(3.0)
