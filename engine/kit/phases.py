"""A declarative phase table: who owes what, which handler takes each answer, what runs alone.

Per phase, in the spirit of boardgame.io's phases and stages:

- the prompts it asks: ``owed`` (seat, kind) pairs with a ``builders`` entry per kind (cheap:
  who owes what without building prompts), or one ``prompts`` function, optionally beside an
  ``owed`` that lists the (seat, kind) of exactly the prompts it builds, in order; with
  ``owed``, an ``answers`` model per kind lets an answer be parsed and handled without building
  the prompt at all (its options are built only if a handler or a refusal reads them: see
  `Asked`);
- the handler of each prompt kind, and a ``fallback`` for every other kind (a turn whose
  sub-steps share one answer table);
- ``sealed``: simultaneous answers given behind a screen, each only stored (and revisable)
  until ``all_in``, then resolved together, as OpenSpiel's simultaneous-move games collect
  every action before ``_apply_actions``;
- ``done``/``next``: checked once after every answer while the phase lasts;
- ``enter`` and ``step``: the automatic steps, which need nobody's decision. `settle` runs them
  after every answer until someone owes a decision again, like boardgame.io's ``Process``
  loop that re-checks ``endIf`` after every event; one answer may so cross several phases.

Across phases the table holds ``interrupts``: decisions asked of a seat in the middle of a
step (a counter-strike, a discard over the hand limit), queued in the state, asked before the
running phase's prompts and dropped once no longer owed; a ``watch`` run around every
automatic step, for a rule that can trigger at any point; and a ``glance``, an answer any
prompt may take that only moves the answering seat's view (boardgame.io's global moves).

The order is fixed and documented on `handle` and `settle`: a game's recorded replays depend
on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from engine.contract import Prompt, State
from engine.kit.flow import Flow
from engine.kit.on_read import built, on_read, unbuilt

StateT = TypeVar("StateT", bound=State)
AnswerT = TypeVar("AnswerT", contravariant=True)


class Asked:
    """The decision a seat is answering: its seat, its kind and its answer model, known
    without building the prompt when the phase declares them (``owed`` and ``answers``); the
    prompt itself (its options, its text) is built on first read of ``prompt``.

    Read ``prompt`` before changing the state: it is built from the state the answer was
    given on, which an in-place step (engine/working.py) changes as it goes.
    """

    __slots__ = ("seat", "kind", "_answer", "_build", "_prompt")

    def __init__(self, seat: int, kind: str, answer: type[BaseModel] | None = None,
                 build: Callable[[], Prompt] | None = None, prompt: Prompt | None = None) -> None:
        if prompt is None and build is None:
            raise ValueError("an Asked needs its prompt or a way to build it")
        self.seat = seat
        self.kind = kind
        self._answer = answer
        self._build = build
        self._prompt = prompt

    @classmethod
    def of(cls, prompt: Prompt) -> Asked:
        """A prompt already built, or one built on first read (`PromptOnRead`), which stays
        unbuilt until the answer's parse, check or handler reads it."""
        if unbuilt(prompt):
            return cls(prompt.seat, prompt.kind, prompt.__dict__.get("answer"), build=lambda: built(prompt))
        return cls(prompt.seat, prompt.kind, prompt.answer, prompt=prompt)

    @property
    def prompt(self) -> Prompt:
        """The full prompt, built once when first read."""
        if self._prompt is None:
            assert self._build is not None
            self._prompt = self._build()
        return self._prompt

    @property
    def built(self) -> bool:
        """Whether the prompt is built already (a check may then read its options for free)."""
        return self._prompt is not None

    @property
    def answer(self) -> type[BaseModel]:
        """The model an answer to it is parsed into."""
        return self._answer if self._answer is not None else self.prompt.answer


class Handler(Protocol[StateT, AnswerT]):
    """Applies one seat's answer to the decision it was asked: ``handler(flow, seat, asked,
    answer)``, the answer being what the game's parse made of the raw choice (its answer
    model, by default)."""

    def __call__(self, flow: Flow[StateT], seat: int, asked: Asked, answer: AnswerT, /) -> None: ...


AnyHandler = Handler[StateT, Any]
"""A handler of any answer model: a table holds handlers of different models side by side."""
Owed = Callable[[StateT], list[tuple[int, str]]]
"""(seat, prompt kind) of every decision owed now, without building the prompts."""
Builder = Callable[[StateT, int], Prompt]
"""Builds the prompt of one kind for one seat."""
Answered = Callable[[StateT, int, str], bool]
"""Whether ``seat``'s owed decision of ``kind`` is answered already, without building it."""
PromptsOf = Callable[[StateT, int | None], list[Prompt]]
"""Builds every prompt owed now (just that seat's when a seat is given)."""
Step = Callable[[Flow[StateT]], bool]
"""One automatic step: True when it moved the game on (settle looks again), False when the
game waits for a decision."""
Run = Callable[[Flow[StateT]], None]
"""Something the rules do on their own (resolve sealed answers, end a phase, enter one)."""


@dataclass(frozen=True)
class EachSeat(Generic[StateT]):
    """An ``owed`` where each seat of ``seats(state)`` owes at most one decision, of the kind
    ``kind_of(state, seat)`` (None: nothing). Called, it gives every seat's (seat, kind) in
    order; `of` gives one seat's kind without working out the others' (what an answer needs)."""

    seats: Callable[[StateT], Sequence[int]]
    kind_of: Callable[[StateT, int], str | None]

    def __call__(self, state: StateT) -> list[tuple[int, str]]:
        return list(self.each(state))

    def each(self, state: StateT) -> Iterator[tuple[int, str]]:
        """The (seat, kind) pairs one at a time, each seat's kind worked out only when reached
        (`PhaseTable.first_open` stops at the first open one)."""
        kind_of = self.kind_of
        for seat in self.seats(state):
            kind = kind_of(state, seat)
            if kind is not None:
                yield seat, kind

    def of(self, state: StateT, seat: int) -> str | None:
        return self.kind_of(state, seat) if seat in self.seats(state) else None


class Pending(Protocol):
    """What the table reads of an interrupt queued in the state."""

    @property
    def seat(self) -> int: ...

    @property
    def kind(self) -> str: ...


PendingT = TypeVar("PendingT", bound=Pending)


def _always(state: object, pending: object) -> bool:
    return True


@dataclass(frozen=True)
class Interrupts(Generic[StateT, PendingT]):
    """Decisions asked in the middle of a step, queued in the state, asked head first.

    While one is queued it is the only prompt; its handler (by the interrupt's kind) removes
    it from the queue, and may queue more. ``owed`` says whether a queued one is still owed:
    one that is not is dropped before anything else is asked.
    """

    queue: Callable[[StateT], list[PendingT]]
    builders: Mapping[str, Callable[[StateT, PendingT], Prompt]]
    handlers: Mapping[str, AnyHandler[StateT]]
    owed: Callable[[StateT, PendingT], bool] = _always

    def __post_init__(self) -> None:
        missing = sorted(set(self.handlers) ^ set(self.builders))
        if missing:
            raise ValueError(f"interrupt kinds without both a prompt and a handler: {missing}")

    def head(self, state: StateT) -> PendingT | None:
        queue = self.queue(state)
        return queue[0] if queue else None

    def drop_stale(self, state: StateT) -> None:
        """Drop the interrupts at the head of the queue that are no longer owed."""
        queue = self.queue(state)
        while queue and not self.owed(state, queue[0]):
            queue.pop(0)


@dataclass(frozen=True)
class Sealed(Generic[StateT]):
    """Answers given behind a screen, resolved together once all are in."""

    all_in: Callable[[StateT], bool]
    resolve: Run[StateT]


@dataclass(frozen=True)
class Phase(Generic[StateT]):
    """One phase of a game: the prompts it asks, the handler of each prompt kind, its
    automatic steps.

    Prompts are given one of two ways: ``owed`` and a ``builders`` entry per kind (a game
    that can say who owes what without building prompts), or one ``prompts`` function (a
    game whose prompt kinds depend on more than the seat). A ``prompts`` phase may also give
    ``owed``: the (seat, kind) of exactly the prompts ``prompts`` builds, in the same order,
    so that who owes what, and with ``answers`` an answer, needs no prompt built. Without
    ``answers`` such an ``owed`` serves who owes what and `PhaseTable.first_open`; an answer
    then builds its seat's prompt straight away (it is parsed against it).
    """

    handlers: Mapping[str, AnyHandler[StateT]] = field(default_factory=dict)
    owed: Owed[StateT] | None = None
    builders: Mapping[str, Builder[StateT]] = field(default_factory=dict)
    answers: Mapping[str, type[BaseModel]] = field(default_factory=dict)
    """With ``owed``: the answer model of a kind (the one its builder puts in the prompt), so
    that an answer is parsed and handled without building the prompt."""
    answered: Answered[StateT] | None = None
    """With ``owed``: whether a seat's owed decision of a kind is answered already (a sealed
    choice it may still revise), exactly as its prompt's ``answered`` says, so that
    `PhaseTable.first_open` passes over it without building its prompt."""
    prompts: PromptsOf[StateT] | None = None
    fallback: AnyHandler[StateT] | None = None
    """The handler of every prompt kind ``handlers`` does not name."""
    sealed: Sealed[StateT] | None = None
    done: Callable[[StateT], bool] | None = None
    """Checked after every answer while the phase lasts; when true, ``next`` runs."""
    next: Run[StateT] | None = None
    enter: Run[StateT] | None = None
    """Run by `PhaseTable.settle` when an answer or a step has just moved the game into this
    phase, before its first ``step``."""
    step: Step[StateT] | None = None
    """The phase's automatic step, run by `PhaseTable.settle` until it returns False."""

    def __post_init__(self) -> None:
        if self.owed is None and self.prompts is None:
            raise ValueError("a phase gives owed (with builders) or prompts")
        if self.prompts is not None and self.builders:
            raise ValueError("a phase built by its prompts function has no builders")
        if self.owed is None and self.answers:
            raise ValueError("answer models need owed, which says the kind owed without a prompt")
        if self.owed is None and self.answered is not None:
            raise ValueError("answered needs owed, which says the kind owed without a prompt")
        built = self.prompts is None
        if built and self.fallback is not None:
            raise ValueError("a phase with owed names the handler of every kind it builds")
        missing = sorted(set(self.handlers) - set(self.builders)) if built else []
        if missing:
            raise ValueError(f"no prompt builder for the kinds {missing}")
        unbuilt = sorted(set(self.answers) - set(self.builders)) if built else []
        if unbuilt:
            raise ValueError(f"answer models for kinds no builder asks: {unbuilt}")
        if (self.done is None) != (self.next is None):
            raise ValueError("a phase that can be done says what comes next, and only then")

    def handler(self, kind: str) -> AnyHandler[StateT] | None:
        return self.handlers.get(kind, self.fallback)


def _asks_nothing(state: Any, only: int | None) -> list[Prompt]:
    return []


ASKS_NOTHING: Phase[Any] = Phase(prompts=_asks_nothing)
"""A phase with no decisions and no steps (the match is over)."""


class Glance(Protocol[StateT]):
    """An answer any prompt may take that only changes the answering seat's view: True when
    ``answer`` was one (nothing else runs), False to let it through to the phase's handler."""

    def __call__(self, flow: Flow[StateT], seat: int, asked: Asked, answer: Any, /) -> bool: ...


_phase_attribute: Callable[[Any], str] = attrgetter("phase")
"""The default `PhaseTable.phase_of`: the state's ``phase`` field (a str in every game), read
several times a choice."""


class PhaseTable(Generic[StateT]):
    """The phases of one game, looked up by the state's phase name, and the loop that runs
    the game on between decisions.

    ``settle_limit``: automatic steps one answer may take before the table calls the game
    stuck (a step that keeps saying it moved on without changing anything is a bug, and
    must fail loudly rather than hang a match).
    """

    def __init__(self, phases: Mapping[str, Phase[StateT]],
                 phase_of: Callable[[StateT], str] = _phase_attribute, *,
                 interrupts: Interrupts[StateT, Any] | None = None,
                 watch: Run[StateT] | None = None,
                 glance: Glance[StateT] | None = None,
                 settle_limit: int = 100_000) -> None:
        self.phases = dict(phases)
        self.phase_of = phase_of
        self.interrupts = interrupts
        self.watch = watch
        self.glance = glance
        self.settle_limit = settle_limit

    def phase(self, state: StateT) -> Phase[StateT]:
        name = self.phase_of(state)
        return self.phases.get(name) or self.named(name)

    def named(self, name: str) -> Phase[StateT]:
        """The phase called ``name`` (what `phase_of` gives), or ValueError."""
        found = self.phases.get(name)
        if found is None:
            raise ValueError(f"no phase {name!r} in this game's phase table")
        return found

    # ------------------------------------------------------------------ who owes what

    def owed(self, state: StateT) -> list[tuple[int, str]]:
        """(seat, kind) of every decision owed now."""
        pending = self.interrupts.head(state) if self.interrupts is not None else None
        if pending is not None:
            return [(pending.seat, pending.kind)]
        phase = self.phase(state)
        if phase.owed is not None:
            return phase.owed(state)
        return [(prompt.seat, prompt.kind) for prompt in self.prompts(state)]

    def prompts(self, state: StateT, only: int | None = None) -> list[Prompt]:
        """Every decision owed now, a queued interrupt before (and instead of) the phase's;
        with ``only``, just that seat's."""
        if self.interrupts is not None:
            pending = self.interrupts.head(state)
            if pending is not None:
                if only is not None and pending.seat != only:
                    return []
                return [self.interrupts.builders[pending.kind](state, pending)]
        phase = self.phase(state)
        if phase.prompts is None:
            assert phase.owed is not None
            return [phase.builders[kind](state, seat) for seat, kind in phase.owed(state)
                    if only is None or seat == only]
        return [prompt for prompt in phase.prompts(state, only) if only is None or prompt.seat == only]

    def first_open(self, state: StateT, on_read: bool = False) -> tuple[Prompt, Prompt] | None:
        """The first open (not yet answered) decision of `prompts`, what an all-AI driver
        answers next, with the first decision its seat owes (what `asked_of` would build for
        that seat's answer); None when every decision is answered or none is owed.

        With ``owed`` only the prompts of the seats up to it are built (the k-th entry of a
        seat in ``owed`` is the k-th of the prompts built for that seat), and with the
        phase's ``answered`` not those of the decisions it says are answered. ``on_read``:
        where the phase says the decision is open (``answered``) and its seat owes nothing
        before it, the prompt is a `PromptOnRead`, built only if read (engine/kit/on_read.py;
        its answer model read from ``answers``, else from the prompt when first asked).
        """
        interrupts = self.interrupts
        if interrupts is not None and interrupts.head(state) is not None:
            prompts = self.prompts(state)
            return (prompts[0], prompts[0]) if prompts and not prompts[0].answered else None
        phase = self.phase(state)
        owed = phase.owed
        build_all = phase.prompts
        if owed is None:
            assert build_all is not None
            prompts = build_all(state, None)
            found = next((prompt for prompt in prompts if not prompt.answered), None)
            if found is None:
                return None
            return found, next(prompt for prompt in prompts if prompt.seat == found.seat)
        answered = phase.answered
        builders = phase.builders
        kinds: dict[int, list[str]] = {}
        built: dict[int, list[Prompt]] = {}
        for seat, kind in owed.each(state) if isinstance(owed, EachSeat) else owed(state):
            mine_kinds = kinds.get(seat)
            if mine_kinds is None:
                mine_kinds = kinds[seat] = [kind]
            else:
                mine_kinds.append(kind)
            if answered is not None and answered(state, seat, kind):
                continue
            index = len(mine_kinds) - 1
            if on_read and answered is not None and index == 0:
                lazy = _prompt_on_read(state, seat, kind, phase.answers.get(kind), builders.get(kind), build_all)
                return lazy, lazy
            mine = built.get(seat)
            if mine is None:
                mine = built[seat] = [] if build_all is None else \
                    [prompt for prompt in build_all(state, seat) if prompt.seat == seat]
            if build_all is None:
                while len(mine) <= index:
                    mine.append(builders[mine_kinds[len(mine)]](state, seat))
            prompt = mine[index]
            if not prompt.answered:
                return prompt, mine[0]
        return None

    def prompt_of(self, state: StateT, seat: int) -> Prompt | None:
        """The decision ``seat`` owes now (its first, when it owes several), or None."""
        asked = self.asked_of(state, seat)
        return None if asked is None else asked.prompt

    def asked_of(self, state: StateT, seat: int) -> Asked | None:
        """The decision ``seat`` owes now (its first, when it owes several), or None; its
        prompt is not built when the phase gives ``owed`` and the kind's answer model."""
        if self.interrupts is None or self.interrupts.head(state) is None:
            phase = self.phase(state)
            owed = phase.owed
            if owed is not None and (phase.prompts is None or phase.answers):
                if isinstance(owed, EachSeat):
                    kind = owed.of(state, seat)
                else:
                    kind = next((kind for owner, kind in owed(state) if owner == seat), None)
                if kind is None:
                    return None
                if phase.prompts is None:
                    builder = phase.builders[kind]
                    return Asked(seat, kind, phase.answers.get(kind), build=lambda: builder(state, seat))
                return Asked(seat, kind, phase.answers.get(kind), build=lambda: self.prompts(state, seat)[0])
        prompt = next(iter(self.prompts(state, seat)), None)
        return None if prompt is None else Asked.of(prompt)

    # ------------------------------------------------------------------ answers

    def handle(self, flow: Flow[StateT], seat: int, asked: Asked | Prompt, answer: object) -> None:
        """Apply ``seat``'s answer to the decision ``asked`` and run the game on until a
        decision is owed.

        In order: a glance takes the answer and nothing else runs; else a queued interrupt's
        handler takes it, or the phase's handler for the decision's kind, after which the
        phase's sealed answers are resolved if all are in and then its ``next`` runs if it is
        ``done`` (each only while the game is still in that phase); then `settle`.
        """
        if type(asked) is not Asked and isinstance(asked, Prompt):
            asked = Asked.of(asked)
        if self.glance is not None and self.glance(flow, seat, asked, answer):
            return
        interrupts = self.interrupts
        pending = interrupts.head(flow.state) if interrupts is not None else None
        if pending is not None:
            assert interrupts is not None
            interrupts.handlers[pending.kind](flow, seat, asked, answer)
        else:
            self.answer(flow, seat, asked, answer)
        self.settle(flow)

    def answer(self, flow: Flow[StateT], seat: int, asked: Asked, answer: object) -> None:
        """The phase's handler of ``asked.kind``, then its sealed and done checks."""
        phase_of = self.phase_of
        name = phase_of(flow.state)
        phase = self.phases.get(name) or self.named(name)
        handler = phase.handlers.get(asked.kind, phase.fallback)
        if handler is None:
            raise ValueError(f"the {name} phase takes no {asked.kind!r} answer")
        handler(flow, seat, asked, answer)
        sealed = phase.sealed
        if sealed is not None and phase_of(flow.state) == name and sealed.all_in(flow.state):
            sealed.resolve(flow)
        if phase.done is not None and phase_of(flow.state) == name and phase.done(flow.state):
            assert phase.next is not None
            phase.next(flow)

    def settle(self, flow: Flow[StateT], entered: str | None = None) -> None:
        """Run the automatic steps until a decision is owed.

        Each round: drop the interrupts no longer owed; stop at a phase without steps; run
        ``watch``; stop while an interrupt is queued; run the phase's ``enter`` if the game
        has just come into it (``entered``: the phase it was in before, None = unknown, as
        after an answer); run its ``step``, and when that waits for a decision, ``watch``
        once more and stop. More than ``settle_limit`` rounds raise RuntimeError.
        """
        state = flow.state
        interrupts = self.interrupts
        watch = self.watch
        phase_of = self.phase_of
        phases = self.phases
        seen = phase_of(state) if entered is None else entered
        for _ in range(self.settle_limit):
            if interrupts is not None:
                interrupts.drop_stale(state)
            name = phase_of(state)
            phase = phases.get(name) or self.named(name)
            step = phase.step
            enter = phase.enter
            if step is None and enter is None:
                return
            if watch is not None:
                watch(flow)
            if interrupts is not None and interrupts.head(state) is not None:
                return
            if name != seen:
                seen = name
                if enter is not None:
                    enter(flow)
                    continue
            if step is None or not step(flow):
                if watch is not None:
                    watch(flow)
                return
        raise RuntimeError(f"the game does not settle: more than {self.settle_limit} automatic steps")


def _prompt_on_read(state: StateT, seat: int, kind: str, answer: type[BaseModel] | None,
                    builder: Builder[StateT] | None, build_all: PromptsOf[StateT] | None) -> Prompt:
    """``seat``'s first owed decision, open, as a `PromptOnRead` of the phase's builder for
    ``kind`` or the first of its prompts function's prompts for ``seat``."""
    if builder is not None:
        return on_read(seat, kind, answer, lambda: builder(state, seat))
    assert build_all is not None
    return on_read(seat, kind, answer, lambda: next(prompt for prompt in build_all(state, seat) if prompt.seat == seat))
