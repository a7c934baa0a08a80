"""The search AI: determinized rollouts over a seat's information state, in every game.

A decision goes like this. The heuristic (the game's rollout policy) proposes its choice, and a
few more candidates come from the prompt's own options or from other proposals (the heuristic
with other random draws, random legal answers). Then, round after round while the CPU budget
lasts, one plausible full world is dealt from the information state (``game.determinize``:
unseen cards placed at random, fresh dice), and every candidate still in the race is tried in
that same world: applied, then played on by the heuristic for every seat up to a depth limit
(or the end of the match), and scored for the seat by the result or the game's evaluation. All
candidates of a round share the world and the rollout's random draws, so their scores differ
by the choice and little else. A candidate that trails the leader clearly in the worlds both
were tried in (two standard errors of the paired gaps, after four worlds) is dropped, so the
budget goes to the close calls. Another candidate replaces the heuristic's choice only
when its gain in the same worlds is clear (at least one standard error over three worlds or more).
A rollout the budget cuts short counts for nothing: scored where it stopped, it would be set
against the other candidates' full rollouts of the same world, a comparison of two depths
rather than two choices (in Defenders, where the Threat only grows, the cut rollout looked
safer, and the candidate that happened to be running when time ran out won the comparison).

Where a game can rank a prompt's options (``order``: its heuristic's scores), the candidates
besides the heuristic's choice are its runners-up, the close calls a search can settle, rather
than options drawn at random that the heuristic rightly ranks far below.

It is honest by construction: it sees only the information state ``engine.decide`` gives it,
and every world it plays in is dealt from that with its own RNG.

The budget is CPU time of the thread that searches (``WARHOST_SEARCH_MS`` milliseconds, read
when the policy is made); ``with_budget`` gives one decision a smaller one (the bot's thinking
queue shrinks it while many decisions wait, bot/service/thinking.py). ``rounds`` bounds the
search by rounds instead, which makes a decision depend on nothing but its inputs (tests,
reproducible benchmarks).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.clone import clone
from engine.contract import Game, IllegalChoice, PlaysInPlace, Prompt, State
from engine.information import Policy
from engine.working import FindsFirstOpen

BUDGET_VARIABLE = "WARHOST_SEARCH_MS"
DEFAULT_BUDGET_MS = 1000.0
MAX_BUDGET_MS = 600_000.0

MIN_PAIRED = 3
"""Worlds a candidate must have been compared in with the heuristic's choice to replace it."""
CONFIDENCE = 1.0
"""How many standard errors its mean gain over the heuristic's choice must exceed."""

Evaluation = Callable[[Any, int], float]
"""A truncated rollout's worth to a seat, from 0 (lost) to 1 (won), read from a full world."""
Ranking = Callable[[Any, Prompt], list[dict[str, Any]]]
"""A prompt's option choices, the most promising first (from the seat's information state)."""
Horizon = Callable[[Any], object]
"""A mark of where a world stands (a round's number): a rollout stops when it changes."""


PRUNE_AFTER = 4
"""Worlds a candidate is tried in before it may be dropped."""
PRUNE_CONFIDENCE = 2.0
"""How many standard errors the leader's mean gain over a candidate must exceed to drop it."""


def budget_ms() -> float:
    """The CPU budget per decision from ``WARHOST_SEARCH_MS`` (default 1000 ms)."""
    raw = os.environ.get(BUDGET_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_BUDGET_MS
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (0 < value <= MAX_BUDGET_MS):
        raise ValueError(f"{BUDGET_VARIABLE} must be a number of CPU milliseconds above 0 and at most "
                         f"{MAX_BUDGET_MS:.0f}, not {raw!r}")
    return value


def lead(mine: float, others: list[float], scale: float) -> float:
    """A seat's lead over its best rival as a value in (0, 1): 0.5 when level, near 1 when
    ``scale`` ahead (the shape every game's evaluation shares)."""
    best = max(others, default=0.0)
    return 0.5 + 0.5 * math.tanh((mine - best) / scale)


def key_of(choice: dict[str, Any]) -> str:
    """A choice as text, so equal candidates count once."""
    return json.dumps(choice, sort_keys=True, separators=(",", ":"), default=str)


class Abandoned(Exception):
    """A rollout the rules refused half way (a heuristic's slip): it counts for nothing."""


class OutOfTime(Exception):
    """The budget ran out in the middle of a rollout: the rollout and its round stop uncounted."""


@dataclass
class Candidate:
    choice: dict[str, Any]
    total: float = 0.0
    tries: int = 0
    alive: bool = True
    values: dict[int, float] = field(default_factory=dict)
    """Its value in each round it was tried (the round's world), for paired comparisons."""

    @property
    def mean(self) -> float:
        return self.total / self.tries if self.tries else 0.0


def paired_gain(candidate: Candidate, other: Candidate) -> tuple[float, float, int]:
    """``candidate``'s mean gain over ``other`` in the worlds both were tried in, the standard
    error of that mean and the number of those worlds (an error of 0 below two worlds)."""
    rounds = [r for r in candidate.values if r in other.values]
    gains = [candidate.values[r] - other.values[r] for r in rounds]
    if not gains:
        return 0.0, 0.0, 0
    mean = sum(gains) / len(gains)
    if len(gains) < 2:
        return mean, 0.0, 1
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1) / len(gains))
    return mean, spread, len(gains)


@dataclass
class Decision:
    """What one search decision did (benchmarks and tests read it)."""

    cpu_ms: float = 0.0
    rounds: int = 0
    rollouts: int = 0
    steps: int = 0
    """Choices played in the rollouts (``cpu_ms / steps`` is about what a rollout step costs)."""
    candidates: int = 0
    searched: bool = False


@dataclass
class SearchPolicy:
    """Determinized rollouts with ``rollout`` (the game's heuristic) as the playing policy.

    ``proposers`` add candidates where a prompt enumerates none (a force, a bid, numbers);
    ``evaluate`` scores a world where a rollout stops before the end; ``depth`` is how many
    choices a rollout plays at most after the candidate."""

    game: Game
    rollout: Policy
    evaluate: Evaluation
    proposers: list[Policy] = field(default_factory=list)
    depth: int = 60
    width: int = 6
    """Candidates tried at most per decision (the heuristic's choice among them)."""
    budget: float = field(default_factory=budget_ms)
    """CPU milliseconds per decision."""
    rounds: int | None = None
    """Search this many rounds instead of by time (a decision then depends only on its inputs)."""
    order: Ranking | None = None
    """Ranks a prompt's options, so the candidates are the heuristic's runners-up (else drawn at random)."""
    horizon: Horizon | None = None
    """Where a rollout stops before ``depth``: when the world's mark changes (every candidate's
    rollout then stops at the same point of the game, the end of a round, and its evaluation
    compares like with like)."""
    reach: int = 0
    """Choices a rollout plays at least before its horizon may stop it (a decision at the end
    of a round then sees the next round too)."""
    reach_for: Callable[[float], int] | None = None
    """``reach`` for a budget in CPU milliseconds, where it follows the budget (``with_budget``)."""
    min_paired: int = MIN_PAIRED
    """Worlds a candidate must share with the heuristic's choice to replace it."""
    confidence: float = CONFIDENCE
    """Standard errors its paired gain over the heuristic's choice must exceed to replace it."""
    last: Decision = field(default_factory=Decision)
    name: str = "search"
    offload: bool = True
    """It thinks long: a service runs it beside its event loop (bot/service/thinking.py)."""

    def bounded(self, rounds: int, depth: int | None = None, width: int | None = None,
                to_end: bool = False) -> SearchPolicy:
        """This policy searching ``rounds`` rounds per decision (rollouts of ``depth`` choices at
        most, ``width`` candidates, past its horizon with ``to_end``), whatever the time: its
        choice then depends on its inputs alone."""
        return dataclasses.replace(self, proposers=list(self.proposers), depth=self.depth if depth is None else depth,
                                   width=self.width if width is None else width, rounds=rounds,
                                   horizon=None if to_end else self.horizon, last=Decision())

    def with_budget(self, budget: float) -> SearchPolicy:
        """This policy with ``budget`` CPU milliseconds per decision (and the reach that goes
        with it): what the bot gives a decision while others wait for its thinking workers."""
        if not budget > 0:
            raise ValueError(f"a search budget is a number of CPU milliseconds above 0, not {budget!r}")
        reach = self.reach if self.reach_for is None else self.reach_for(budget)
        return dataclasses.replace(self, proposers=list(self.proposers), budget=budget, reach=reach, last=Decision())

    def choose(self, state: State, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        started = time.thread_time()
        self.last = Decision()
        own = random.Random(rng.getrandbits(64))
        candidates = self._candidates(state, prompt, own)
        self.last.candidates = len(candidates)
        if len(candidates) > 1:
            self._search(state, prompt, candidates, own, started)
            self.last.searched = True
        best = self._pick(candidates, self.min_paired, self.confidence)
        self.last.cpu_ms = (time.thread_time() - started) * 1000
        return dict(best.choice)

    def _candidates(self, state: State, prompt: Prompt, rng: random.Random) -> list[Candidate]:
        """The heuristic's choice first, then the prompt's options or other proposals."""
        found: dict[str, Candidate] = {}

        def add(choice: dict[str, Any]) -> None:
            if len(found) < self.width:
                found.setdefault(key_of(choice), Candidate(dict(choice)))

        add(self.rollout.choose(state, prompt, random.Random(rng.getrandbits(64))))
        if prompt.input == "choose" and prompt.options:
            if self.order is not None:
                ranked = self.order(state, prompt)
            else:
                options = list(prompt.options)
                rng.shuffle(options)
                ranked = [option.choice for option in options]
            for choice in ranked:
                add(choice)
            return list(found.values())
        for _ in range(2 * self.width):
            if len(found) >= self.width:
                break
            for proposer in [self.rollout, *self.proposers]:
                add(proposer.choose(state, prompt, random.Random(rng.getrandbits(64))))
        return list(found.values())

    @staticmethod
    def _pick(candidates: list[Candidate], min_paired: int = MIN_PAIRED, confidence: float = CONFIDENCE) -> Candidate:
        """The candidate to play: the heuristic's own unless another beat it clearly in the same
        worlds (a mean over a few noisy rollouts must not overturn it by chance)."""
        heuristic = candidates[0]
        best, margin = heuristic, 0.0
        for candidate in candidates[1:]:
            mean, spread, count = paired_gain(candidate, heuristic)
            if count < min_paired:
                continue
            if mean > confidence * spread and mean > margin:
                best, margin = candidate, mean
        return best

    def _out_of_time(self, started: float) -> bool:
        if self.rounds is not None:
            return self.last.rounds >= self.rounds
        return (time.thread_time() - started) * 1000 >= self.budget

    def _search(self, state: State, prompt: Prompt, candidates: list[Candidate], rng: random.Random,
                started: float) -> None:
        seat = prompt.seat
        while not self._out_of_time(started):
            world = self.game.determinize(state, seat, rng)
            seed = rng.getrandbits(64)
            for candidate in candidates:
                if not candidate.alive:
                    continue
                if self.rounds is None and self._out_of_time(started):
                    return
                try:
                    value = self._rollout(clone(world), seat, candidate.choice, random.Random(seed), started)
                except Abandoned:
                    continue
                except OutOfTime:
                    return
                if value is None:  # the choice does not fit this world: never pick it
                    candidate.alive = False
                    candidate.tries = 0
                    continue
                candidate.total += value
                candidate.tries += 1
                candidate.values[self.last.rounds] = value
                self.last.rollouts += 1
            self.last.rounds += 1
            self._prune(candidates)
            if sum(c.alive for c in candidates) <= 1:
                break

    def _prune(self, candidates: list[Candidate]) -> None:
        """Drop candidates that trail the leader clearly in the worlds both were tried in (the
        heuristic's choice stays: the others are measured against it). Paired worlds share their
        luck, so a poor candidate shows up in a few rounds and the budget goes to the close calls."""
        alive = [c for c in candidates if c.alive and c.tries]
        if len(alive) <= 1:
            return
        leader = max(alive, key=lambda c: c.mean)
        for candidate in alive:
            if candidate is leader or candidate is candidates[0]:
                continue
            mean, spread, count = paired_gain(leader, candidate)
            if count >= PRUNE_AFTER and mean > PRUNE_CONFIDENCE * spread:
                candidate.alive = False

    def _rollout(self, world: State, seat: int, choice: dict[str, Any], rng: random.Random,
                 started: float) -> float | None:
        """``choice`` played in ``world`` (owned), the heuristic playing on; its worth to ``seat``.
        A rollout the budget runs out in raises ``OutOfTime`` (the budget holds to about one step)."""
        game = self.game
        play = game.play if isinstance(game, PlaysInPlace) else None

        def step(state: State, who: int, answer: dict[str, Any]) -> State:
            return (play(state, who, answer) if play is not None else game.submit(state, who, answer)).state

        horizon = self.horizon
        mark = horizon(world) if horizon is not None else None
        try:
            world = step(world, seat, choice)
        except (IllegalChoice, ValueError):
            return None
        finder = game if play is not None and isinstance(game, FindsFirstOpen) else None
        for played in range(self.depth):
            result = game.result(world)
            if result is not None:
                break
            if horizon is not None and horizon(world) != mark:
                if played >= self.reach:
                    break
                mark = horizon(world)
            asked: Prompt | None = None
            if finder is not None:  # the first open prompt, as the drivers pick, built alone
                found = finder.first_open(world)
                if found is None:
                    break
                prompt, asked = found
            else:
                prompts = [p for p in game.prompts(world) if not p.answered]  # as the drivers pick
                if not prompts:
                    break
                prompt = prompts[0]
            if self.rounds is None and self._out_of_time(started):
                raise OutOfTime
            self.last.steps += 1
            try:
                answer = self.rollout.choose(world, prompt, rng)
                if finder is not None and asked is not None:
                    world = finder.play(world, prompt.seat, answer, asked).state
                else:
                    world = step(world, prompt.seat, answer)
            except (IllegalChoice, ValueError) as error:  # the world may be half changed: not counted
                raise Abandoned from error
        return self.value(world, seat)

    def value(self, world: State, seat: int) -> float:
        """The world's worth to ``seat``: 1 won, 0 lost, a share on a shared win or draw, else
        the game's evaluation."""
        result = self.game.result(world)
        if result is None:
            return self.evaluate(world, seat)
        if seat not in result.winners:
            return 0.0
        if self.game.info.cooperative:
            return 1.0
        return 1.0 / len(result.winners)
