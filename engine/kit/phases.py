"""A declarative phase table: which prompts a phase asks, which handler takes each answer.

Each game had grown its own machinery for this: an if-chain over ``state.phase`` in
`prompts`, then a dispatch dict or an if-chain over the prompt kind in `submit`. A table
states it once, in the spirit of boardgame.io's phases: per phase, who owes what, the handler
of each prompt kind, when the phase is done and what comes next.

Simultaneous sealed answers (forces built behind screens, bids) get their own hook, as in
OpenSpiel, where a simultaneous-move game collects every player's action and applies them
together in ``_apply_actions``: each answer is only stored (and may be revised while the
others are still out); ``Sealed.resolve`` runs once every answer is in.

The table changes no rule: a handler does exactly what the game's dispatch did, and the
checks after it (sealed answers all in, phase done) run in the order the games ran them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine.contract import Prompt, State
from engine.kit.flow import Flow

StateT = TypeVar("StateT", bound=State)

Owed = Callable[[StateT], list[tuple[int, str]]]
"""(seat, prompt kind) of every decision owed now, without building the prompts."""
Builder = Callable[[StateT, int], Prompt]
"""Builds the prompt of one kind for one seat."""
PromptsOf = Callable[[StateT, int | None], list[Prompt]]
"""Builds every prompt owed now (just that seat's when a seat is given)."""
Handler = Callable[..., None]
"""Applies one answer: ``handler(flow, *answer)``; the game decides what the answer is."""


@dataclass(frozen=True)
class Sealed(Generic[StateT]):
    """Answers given behind a screen, resolved together once all are in."""

    all_in: Callable[[StateT], bool]
    resolve: Callable[[Flow[StateT]], None]


@dataclass(frozen=True)
class Phase(Generic[StateT]):
    """One phase of a game: the prompts it asks and the handler of each prompt kind.

    Prompts are given one of two ways: ``owed`` and a ``builders`` entry per kind (a game
    that can say who owes what without building prompts, which makes `submit` cheap), or one
    ``prompts`` function that builds them all.
    """

    handlers: Mapping[str, Handler]
    owed: Owed[StateT] | None = None
    builders: Mapping[str, Builder[StateT]] = field(default_factory=dict)
    prompts: PromptsOf[StateT] | None = None
    sealed: Sealed[StateT] | None = None
    done: Callable[[StateT], bool] | None = None
    """Checked after every answer while the phase lasts; when true, ``next`` runs."""
    next: Callable[[Flow[StateT]], None] | None = None

    def __post_init__(self) -> None:
        if (self.owed is None) == (self.prompts is None):
            raise ValueError("a phase gives either owed (with builders) or prompts, not both")
        missing = sorted(set(self.handlers) - set(self.builders)) if self.owed is not None else []
        if missing:
            raise ValueError(f"no prompt builder for the kinds {missing}")
        if (self.done is None) != (self.next is None):
            raise ValueError("a phase that can be done says what comes next, and only then")


ASKS_NOTHING: Phase[Any] = Phase(handlers={}, prompts=lambda state, only: [])
"""A phase with no decisions (the match is over)."""


class PhaseTable(Generic[StateT]):
    """The phases of one game, looked up by the state's phase name."""

    def __init__(self, phases: Mapping[str, Phase[StateT]],
                 phase_of: Callable[[StateT], str] = lambda state: state.phase) -> None:  # type: ignore[attr-defined]
        self.phases = dict(phases)
        self.phase_of = phase_of

    def phase(self, state: StateT) -> Phase[StateT]:
        name = self.phase_of(state)
        found = self.phases.get(name)
        if found is None:
            raise ValueError(f"no phase {name!r} in this game's phase table")
        return found

    def owed(self, state: StateT) -> list[tuple[int, str]]:
        """(seat, kind) of every decision owed now."""
        phase = self.phase(state)
        if phase.owed is not None:
            return phase.owed(state)
        return [(prompt.seat, prompt.kind) for prompt in self.prompts(state)]

    def prompts(self, state: StateT, only: int | None = None) -> list[Prompt]:
        """Every decision owed now; with ``only``, just that seat's."""
        phase = self.phase(state)
        if phase.owed is not None:
            return [phase.builders[kind](state, seat) for seat, kind in phase.owed(state)
                    if only is None or seat == only]
        assert phase.prompts is not None
        return [prompt for prompt in phase.prompts(state, only) if only is None or prompt.seat == only]

    def handle(self, flow: Flow[StateT], kind: str, *answer: Any) -> None:
        """Apply one answer of ``kind``, then resolve sealed answers or end the phase if due."""
        name = self.phase_of(flow.state)
        phase = self.phase(flow.state)
        handler = phase.handlers.get(kind)
        if handler is None:
            raise ValueError(f"the {name} phase takes no {kind!r} answer")
        handler(flow, *answer)
        if phase.sealed is not None and self.phase_of(flow.state) == name and phase.sealed.all_in(flow.state):
            phase.sealed.resolve(flow)
        if phase.done is not None and self.phase_of(flow.state) == name and phase.done(flow.state):
            assert phase.next is not None
            phase.next(flow)
