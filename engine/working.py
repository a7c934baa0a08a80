"""A driver's working copy: one copy per transaction, steps applied in place.

``submit`` (the contract) copies the whole state on every choice so that the state it was
given stays as it was: a copy costs more than most rules do. A driver that plays several
choices in a row (a replay, an all-AI match, the AI seats answering after a player) only
needs the state it started from kept, not every state in between. `Working` copies that state
once, on the first step (copy on write), and applies every step to the copy in place
(``play``). The starting state is never changed; prompts are built only when asked.

A refused choice (IllegalChoice, or any error in the rules) must change nothing, as with
``submit``; an in-place step may have changed the copy half way, so the copy is rebuilt from
the starting state and the steps accepted so far (rare: a driver's own choices are legal).
"""

from __future__ import annotations

from typing import Any, Protocol, cast, runtime_checkable

from engine.clone import clone
from engine.contract import Event, Game, PlaysInPlace, Prompt, State, Step, implements
from engine.kit.on_read import forget


@runtime_checkable
class FindsFirstOpen(Protocol):
    """A game that finds the first open prompt without building every seat's (every KitGame)."""

    def first_open(self, state: State, on_read: bool = False) -> tuple[Prompt, Prompt] | None:
        """The first unanswered prompt of ``prompts(state)`` and the first its seat owes;
        ``on_read``: they may be built on first read (engine/kit/on_read.py)."""
        ...

    def play(self, state: State, seat: int, choice: dict[str, Any], asked: Prompt | None = None) -> Step:
        """``PlaysInPlace.play``, given the seat's first prompt when it is built already."""
        ...


class Working:
    """The state a driver plays on, starting from ``state`` (which is never changed).

    ``owned``: the caller hands ``state`` over and will not use it again (a fresh setup, a
    state just read from storage), so not even the first copy is taken; a refused choice then
    rebuilds nothing and the working copy is spoiled (its owner starts again from storage).
    """

    def __init__(self, game: Game, state: State, *, owned: bool = False) -> None:
        self.game = game
        self._play = cast(PlaysInPlace, game).play if implements(game, PlaysInPlace) else None
        self._start: State | None = None if owned else state
        self._state: State | None = state if owned else None
        self._accepted: list[tuple[int, dict[str, Any]]] = []
        self._spoiled = False
        self._finder = cast(FindsFirstOpen, game) if implements(game, FindsFirstOpen) else None
        self._asked: Prompt | None = None
        """The first prompt of the seat `next_prompt` found, built from the current state."""
        self._shown: Prompt | None = None
        """The prompt `next_prompt` gave, which may be built on first read."""

    @property
    def state(self) -> State:
        """The state after every accepted step (the starting state itself before any)."""
        if self._spoiled:
            raise RuntimeError("this working copy was left half changed by a refused choice")
        if self._state is not None:
            return self._state
        assert self._start is not None
        return self._start

    @property
    def steps(self) -> int:
        """Choices accepted so far."""
        return len(self._accepted)

    def prompts(self) -> list[Prompt]:
        """Every decision owed now, built only when asked."""
        return self.game.prompts(self.state)

    def next_prompt(self) -> Prompt | None:
        """The first decision of `prompts` not yet answered (what an all-AI driver answers
        next), building only the prompts up to it where the game can; its seat's prompt is
        kept for that seat's `submit`, which so does not build it again. It may be built when
        first read (engine/kit/on_read.py): read it before the next `submit`, after which an
        unread one cannot be built any more."""
        self._asked = None
        if self._finder is None:
            return next((prompt for prompt in self.prompts() if not prompt.answered), None)
        found = self._finder.first_open(self.state, on_read=True)
        if found is None:
            return None
        self._asked = found[1]
        self._shown = found[0]
        return found[0]

    def submit(self, seat: int, choice: dict[str, Any]) -> list[Event]:
        """Apply one choice; its events. A refused choice raises as ``submit`` does and
        leaves the working state as it was."""
        state = self.state
        asked, self._asked = self._asked, None
        shown, self._shown = self._shown, None
        if asked is not None and asked.seat != seat:
            asked = None
        if self._play is None:
            step = self.game.submit(state, seat, choice)
            self._state = step.state
            self._accepted.append((seat, choice))
            return step.events
        if self._state is None:
            state = self._state = clone(state)
        try:
            if asked is not None and self._finder is not None:
                step = self._finder.play(state, seat, choice, asked)
            else:
                step = self._play(state, seat, choice)
        except BaseException:
            self._rebuild()
            raise
        finally:
            if shown is not None:
                forget(shown)  # built from the state before this step, which is gone
        self._accepted.append((seat, choice))
        return step.events

    def _rebuild(self) -> None:
        """The working state again from the starting state and the accepted steps."""
        if self._start is None:
            self._spoiled = True
            return
        self._state = None
        if not self._accepted:
            return
        state = clone(self._start)
        assert self._play is not None
        for seat, choice in self._accepted:
            self._play(state, seat, choice)
        self._state = state
