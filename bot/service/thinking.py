"""AI choices that take thought (the search AI) made beside the event loop.

A heuristic answers in a millisecond, so it chooses on the loop inside the match's transaction.
A policy that says it searches (``offload = True``, engine/search.py) may spend a second of CPU
per decision: it runs in the thinking pool's worker processes (bot/service/drawing.py), the
way a map is drawn but in a pool of its own (maps never wait behind thinks), so
acknowledgements and other matches go on meanwhile. The worker gets the game's key, the
policy's name and the true state, and asks through ``engine.decide`` like every driver, so the
policy still sees only its seat's information state. A game outside the
pool's games (a test's stand-in), or a bot without workers, thinks in a thread instead.

Such a think never runs inside a match's transaction (on SQLite that would hold every other
match's writes for the whole think). A transaction that leaves a searching seat owing a
decision ends without it and hands a ``Think`` (the state and prompt it committed) to the
service's ``Thinkers``; the choice then goes in by a short transaction of its own, only if the
match has not moved meanwhile (bot/service/autoplay.py).

Decisions take turns at the workers, first come first served, and each gets a CPU budget that
shrinks while many wait (think_queue.py): a decision's wait stays near ``SEARCH_WAIT_SECONDS``
however many matches' AIs think at once, and one that would wait far longer is answered by the
game's heuristic at once.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import engine as eng
from bot.service import drawing
from bot.service.think_queue import DEFAULT_WAIT_SECONDS, ThinkQueue
from engine.search import budget_ms

log = logging.getLogger(__name__)


def offloaded(policy: object) -> bool:
    """Whether ``policy`` thinks long enough to leave the event loop."""
    return bool(getattr(policy, "offload", False))


def policy_name(policies: dict[str, Any], wanted: str | None) -> str | None:
    """The policy among a game's ``policies`` that plays for ``wanted``: itself if the game has
    it, else the heuristic, else any (None: the game has no policy, the prompt's default goes)."""
    if wanted in policies:
        return wanted
    return "heuristic" if "heuristic" in policies else next(iter(policies), None)


_POLICIES: dict[int, tuple[eng.Game, dict[str, Any]]] = {}


def policies_of(game: eng.Game) -> dict[str, Any]:
    """``game.policies()``, built once per game object: the AI's turns ask for a policy at
    every choice, and a game builds its search policy with the others at every call. The
    policies answer from what they are given, keeping nothing a later choice reads. Callers
    must not change the dict."""
    found = _POLICIES.get(id(game))
    if found is None or found[0] is not game:
        found = _POLICIES[id(game)] = (game, game.policies())
    return found[1]


_SEARCHING: dict[tuple[type, str, str | None], str | None] = {}


def searching(game: eng.Game, wanted: str | None) -> str | None:
    """The name of the policy that plays for ``wanted`` in ``game`` if it searches (so it thinks
    outside transactions), else None. Remembered per game: a game's policies do not change, and
    building them costs more than the question is worth in every transaction."""
    key = (type(game), game.key, wanted)
    if key not in _SEARCHING:
        policies = game.policies()
        name = policy_name(policies, wanted)
        _SEARCHING[key] = name if name is not None and offloaded(policies[name]) else None
    return _SEARCHING[key]


_queue = ThinkQueue()


def queue() -> ThinkQueue:
    """The process's queue of decisions waiting for the thinking workers."""
    return _queue


def configure(wait_seconds: float = DEFAULT_WAIT_SECONDS) -> ThinkQueue:
    """Aim each decision's wait at ``wait_seconds`` (the bot's ``SEARCH_WAIT_SECONDS``; 0: every
    decision gets ``WARHOST_SEARCH_MS`` however long it waits). A bad ``WARHOST_SEARCH_MS`` is
    refused here, when the bot starts, rather than in every think."""
    global _queue
    budget_ms()
    _queue = ThinkQueue(wait_seconds)
    return _queue


_QUICK: dict[tuple[type, str], bool] = {}


def has_quick_heuristic(game: eng.Game) -> bool:
    """Whether ``game`` has a heuristic that answers on the loop (what answers a searching
    seat's decision when too many wait). Remembered per game, like ``searching``."""
    key = (type(game), game.key)
    if key not in _QUICK:
        quick = game.policies().get("heuristic")
        _QUICK[key] = quick is not None and not offloaded(quick)
    return _QUICK[key]


def think(key: str, policy_name: str, state: eng.State, prompt: eng.Prompt, rng: random.Random,
          budget: float | None = None) -> dict[str, Any]:
    """In a worker: the named policy's choice with ``budget`` CPU milliseconds (None: the one it
    reads when it is made)."""
    game = eng.get(key)
    policy = game.policies()[policy_name]
    if budget is not None and hasattr(policy, "with_budget"):
        policy = policy.with_budget(budget)
    return eng.decide(game, policy, state, prompt, rng)


async def choose(game: eng.Game, policy_name: str, policy: object, state: eng.State, prompt: eng.Prompt,
                 rng: random.Random) -> dict[str, Any]:
    """The choice of ``policy`` (named ``policy_name`` among the game's policies) for ``prompt``:
    beside the loop when it searches (with the budget its turn gives, or by the heuristic on the
    loop when too many decisions wait), on it otherwise."""
    if not offloaded(policy):
        return eng.decide(game, policy, state, prompt, rng)  # type: ignore[arg-type]
    waited_on, joined = _queue, time.perf_counter()
    async with waited_on.turn(may_skip=has_quick_heuristic(game)) as budget:
        if budget is None:  # too many wait: the heuristic answers now
            return eng.decide(game, game.policies()["heuristic"], state, prompt, rng)
        turned = time.perf_counter()
        choice = await drawing.think(think, game.key, policy_name, state, prompt, rng, budget, game=game.key,
                                     since=joined)
        waited_on.observed(budget, time.perf_counter() - turned)
        return choice


RETRIES = 3
"""Tries of one decision whose transaction failed (the database busy, a connection lost)."""
RETRY_SECONDS = 1.0


@dataclass(frozen=True)
class Think:
    """A decision a searching AI seat owes, as the match stood at ``version`` (committed): the
    think runs on this state and prompt, outside any transaction, and its choice counts only
    while the match is still at that version."""

    match_id: int
    version: int
    game: str
    seat: int
    policy: str
    """The name of the policy among the game's policies."""
    prompt: eng.Prompt
    fingerprint: str
    prompt_version: int | None
    state: eng.State
    seed: int
    step: int

    def rng(self) -> random.Random:
        """The choice's random draws, derived like every AI choice's (seed, step, seat)."""
        return eng.rng_for(self.seed, self.step, f"ai:{self.seat}")


class Thinkers:
    """The decisions searching AI seats are thinking about: one task per match at most, each
    working through the newest decision its match owes (one handed meanwhile replaces the one
    waiting). Nothing here is stored: a restart finds what is owed again (Autoplay.recover)."""

    def __init__(self, work: Callable[[Think], Awaitable[None]]) -> None:
        self._work = work
        self._waiting: dict[int, Think] = {}
        self._working: dict[int, Think] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.on_applied: Callable[[], None] | None = None
        """Called after each decision's transaction: a front-end delivers what it wrote at once."""

    def hand(self, think: Think) -> None:
        """Think about ``think`` soon (unless the same decision is already under way or waiting)."""
        same = (think.version, think.seat)
        if any(other is not None and (other.version, other.seat) == same
               for other in (self._working.get(think.match_id), self._waiting.get(think.match_id))):
            return
        self._waiting[think.match_id] = think
        if think.match_id not in self._tasks:
            self._tasks[think.match_id] = asyncio.create_task(self._run(think.match_id),
                                                              name=f"ai-thinks-{think.match_id}")

    async def idle(self, match_id: int | None = None) -> None:
        """Return once no AI (of ``match_id``, or of any match) is thinking."""
        while True:
            tasks = [task for key, task in self._tasks.items() if match_id is None or key == match_id]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def stop(self) -> None:
        """Stop every think (nothing half done is stored; a restart thinks again)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._waiting.clear()

    async def _run(self, match_id: int) -> None:
        try:
            while (think := self._waiting.pop(match_id, None)) is not None:
                self._working[match_id] = think
                try:
                    await self._attempt(think)
                finally:
                    self._working.pop(match_id, None)
                if self.on_applied is not None:
                    self.on_applied()
        finally:
            self._tasks.pop(match_id, None)

    async def _attempt(self, think: Think) -> None:
        for attempt in range(1, RETRIES + 1):
            try:
                await self._work(think)
                return
            except Exception:
                if think.match_id in self._waiting:  # the match moved on: its newer decision is next
                    log.warning("The AI of seat %s in match %s could not play its decision", think.seat,
                                think.match_id, exc_info=True)
                    return
                if attempt == RETRIES:
                    log.exception("The AI of seat %s in match %s could not play its decision; it tries again "
                                  "when the match next changes or the bot restarts.", think.seat, think.match_id)
                    return
                log.warning("The AI of seat %s in match %s could not play its decision (try %s of %s)",
                            think.seat, think.match_id, attempt, RETRIES, exc_info=True)
                await asyncio.sleep(RETRY_SECONDS * attempt)
