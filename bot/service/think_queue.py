"""The queue of search AI decisions waiting for the thinking workers, and the budget each gets.

A search AI may spend ``WARHOST_SEARCH_MS`` CPU milliseconds on a decision (a second by
default). With one worker and forty matches' AIs waiting, each decision waited for the forty
ahead of it: half a minute a move (a load run's think wall p50 was 30 s), growing with the
number of matches. Here a decision's budget follows the crowd instead, so that its wall wait,
queue and think together, stays near ``SEARCH_WAIT_SECONDS``:

- A decision that finds an idle worker gets the configured budget. One that reaches a worker
  while ``crowd`` decisions are running or waiting gets ``wait × workers / (crowd × stretch)``:
  when every one of them gets as much, each waits about ``wait`` in all. ``stretch`` is the wall
  time a budget millisecond took lately, from the decision's turn to its answer back on the
  event loop: more than one on a busy host (a worker shares its core, the loop answers late),
  less when many decisions need no search (one candidate) and hand the worker on at once.
- Never less than ``FLOOR_MS``, where the search still beats the heuristic (docs/benchmarks.md,
  issue 31: every strength figure there is at 100 ms), nor more than the configured budget.
- A decision that arrives when even the floor would keep it past ``wait`` (the queue ahead of it
  is that long) does not queue: the game's heuristic answers it at once, on the event loop, as
  it answers for a heuristic seat. While that happens (within ``wait`` of the last one), every
  decision that reaches a worker thinks for the floor alone: the workers then search as many
  decisions as they can. (A load run with 40 instant players gave the floor only to the
  decisions the crowd formula gave it: 204 searched, 959 turned away.) The queue is served in the order decisions arrived, and a
  match has at most one decision in it (bot/service/thinking.py ``Thinkers``), so matches take
  turns: no match's AIs wait behind another's several decisions.
- ``wait = 0`` turns all this off: every decision gets the configured budget however long it waits.

The budget goes to the worker with the decision (``SearchPolicy.with_budget``); the engine
reads no setting of the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from bot import metrics
from engine.search import budget_ms

log = logging.getLogger(__name__)

FLOOR_MS = 100.0
"""The least CPU a decision gets (unless ``WARHOST_SEARCH_MS`` is less): the search at 100 ms
beats the heuristic in every game (docs/benchmarks.md, issue 31's strength sections)."""
DEFAULT_WAIT_SECONDS = 3.0
"""A decision's wall wait, queue and think together, that the budgets aim at (``SEARCH_WAIT_SECONDS``)."""
STRETCH_WEIGHT = 0.2
"""How much the newest decision moves ``stretch`` (a running mean over the last few)."""
STRETCH_RANGE = (0.1, 20.0)
"""The least and most wall time a budget millisecond is taken to cost: one odd decision (the
first, which starts the workers) cannot starve the budgets for long."""
SAMPLES = 4096
"""Searched decisions whose waits are kept (the newest)."""
LOG_EVERY_SECONDS = 60.0
"""At most one warning this often while decisions go to the heuristic."""


def idle_workers() -> int:
    """The thinking pool's size (a pool of 0 thinks in a thread: one at a time)."""
    from bot.service import drawing

    return max(1, drawing.thinking_pool().workers)


@dataclass
class QueueFigures:
    """What the queue did: decisions given a worker, how many of them a smaller budget, how
    many the heuristic answered because the queue was too long, and the newest searched
    decisions' wall seconds from joining the queue to their answer."""

    thought: int = 0
    shrunk: int = 0
    heuristic: int = 0
    waits: deque[float] = field(default_factory=lambda: deque(maxlen=SAMPLES))


class ThinkQueue:
    """First come, first served turns at the thinking workers, each with its CPU budget."""

    def __init__(self, wait_seconds: float = DEFAULT_WAIT_SECONDS, floor_ms: float = FLOOR_MS,
                 workers: Callable[[], int] = idle_workers, configured_ms: Callable[[], float] = budget_ms,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if wait_seconds < 0 or floor_ms <= 0:
            raise ValueError("a thinking queue waits 0 (no limit) or more seconds, with a floor above 0 ms")
        self.wait_seconds = wait_seconds
        self.floor_ms = floor_ms
        self._workers = workers
        self._configured_ms = configured_ms
        self._clock = clock
        self._turned_away_at: float | None = None
        """When the heuristic last answered a decision because the queue was too long."""
        self.stretch = 1.0
        """Wall milliseconds a budget millisecond took lately at the workers."""
        self.figures = QueueFigures()
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._running = 0
        self._unlogged = 0
        self._logged_at: float | None = None

    @property
    def crowd(self) -> int:
        """Decisions thinking or waiting to."""
        return self._running + self._queued()

    def _queued(self) -> int:
        return sum(not future.cancelled() for future in self._waiting)

    def budget(self, crowd: int) -> float:
        """The CPU milliseconds for a decision that reaches a worker among ``crowd`` decisions
        (itself included) thinking or waiting: the floor while decisions are turned away."""
        configured = self._configured_ms()
        if self.wait_seconds == 0:
            return configured
        if self._turned_away_at is not None and self._clock() - self._turned_away_at < self.wait_seconds:
            return min(self.floor_ms, configured)
        share = self.wait_seconds * 1000 * self._workers() / (max(1, crowd) * self.stretch)
        return max(min(self.floor_ms, configured), min(configured, share))

    def hopeless(self) -> bool:
        """Whether a decision arriving now would wait past ``wait`` even if it and every one
        ahead of it thought for the floor alone."""
        if self.wait_seconds == 0:
            return False
        floor = min(self.floor_ms, self._configured_ms())
        return (self.crowd + 1) * floor * self.stretch / self._workers() > self.wait_seconds * 1000

    @contextlib.asynccontextmanager
    async def turn(self, may_skip: bool = True) -> AsyncIterator[float | None]:
        """Wait for a worker and hold it: gives the decision's CPU budget in milliseconds, or
        None at once when the queue is too long and the decision ``may_skip`` it (its game has
        a quick heuristic to answer it; no worker is held)."""
        if may_skip and self.hopeless():
            self._fell_back()
            yield None
            return
        joined = time.perf_counter()
        await self._enter()
        try:
            budget = self.budget(self.crowd)
            self.figures.thought += 1
            if budget < self._configured_ms():
                self.figures.shrunk += 1
            metrics.THINK_BUDGET_SECONDS.observe(budget / 1000)
            yield budget
            self.figures.waits.append(time.perf_counter() - joined)
        finally:
            self._leave()

    def observed(self, budget_ms: float, wall_seconds: float) -> None:
        """A decision given ``budget_ms`` held its turn ``wall_seconds``: how fast the queue drains now."""
        low, high = STRETCH_RANGE
        sample = min(high, max(low, wall_seconds * 1000 / budget_ms))
        self.stretch += STRETCH_WEIGHT * (sample - self.stretch)

    def log_figures(self) -> None:
        """Say what the queue did (the bot's close), if it did anything."""
        figures = self.figures
        if figures.thought or figures.heuristic:
            waits = sorted(figures.waits) or [0.0]
            log.info("search AI decisions: %s thought (%s with less than WARHOST_SEARCH_MS while others waited; "
                     "queue and think p50 %.2f s, p99 %.2f s), %s answered by the heuristic (the queue too long)",
                     figures.thought, figures.shrunk, waits[len(waits) // 2], waits[int(0.99 * (len(waits) - 1))],
                     figures.heuristic)

    async def _enter(self) -> None:
        if self._running < self._workers() and not self._queued():
            self._running += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        try:
            await future  # the decision leaving hands its worker over (``_leave``)
        except asyncio.CancelledError:
            if future.cancelled():
                with contextlib.suppress(ValueError):  # passed over already by ``_leave``
                    self._waiting.remove(future)
            else:  # handed a worker as it was cancelled: hand it on
                self._leave()
            raise

    def _leave(self) -> None:
        self._running -= 1
        while self._waiting and self._running < self._workers():
            future = self._waiting.popleft()
            if not future.cancelled():  # a cancelled one leaves on its own (``_enter``)
                self._running += 1
                future.set_result(None)

    def _fell_back(self) -> None:
        self.figures.heuristic += 1
        self._unlogged += 1
        metrics.THINK_HEURISTIC.inc()
        now = self._clock()
        self._turned_away_at = now
        if self._logged_at is None or now - self._logged_at >= LOG_EVERY_SECONDS:
            log.warning("%s search AI decisions wait for the thinking workers (a budget ms takes %.1f wall ms): %s "
                        "were answered by the heuristic instead (since the last warning), to keep a decision's wait "
                        "near SEARCH_WAIT_SECONDS (%g s)", self.crowd, self.stretch, self._unlogged, self.wait_seconds)
            self._logged_at, self._unlogged = now, 0
