"""One resolution pass of a choice: the copied state, the step's RNG and the events it causes.

`submit` must never change the state it is given (the service keeps it, AIs try choices on
it), so a pass copies the state once, through engine/clone.py, and everything after works on
that copy; `play` (a driver's working copy, engine/working.py) skips the copy and changes the
state it is given. Handlers then take one `Flow` instead of threading (state, events, rng)
through every rule function.

Why the games' RNG differ, and stay so: each game fixed how a choice's RNG is derived from
(seed, step) when it was first written. Tiny Big Wars and Samurai Swords draw from
``rng_for(seed, step)`` of the step being answered and count the step once the choice is
applied; Tiny Epic Defenders counts the step first and draws from ``rng_for(seed, new step,
"step")``. A match is stored as its seed and choice log and rebuilt by replaying it, so a
different derivation would deal other cards and roll other dice in every stored match and
break every recorded replay digest. `StepRandom` writes each game's derivation down instead
of unifying it; a new game should take the default.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from engine.clone import clone, trusted
from engine.contract import Event, State, Step
from engine.kit.events import emit, set_field
from engine.rng import lazy_rng_for, rng_for

StateT = TypeVar("StateT", bound=State)


@dataclass(frozen=True)
class StepRandom:
    """How one game derives a choice's RNG from the match seed and step (fixed forever)."""

    salt: str = ""
    counts_first: bool = False
    """True: the step is counted before the choice is applied and the RNG is the new step's
    (Defenders); False: the RNG is that of the step being answered, which is counted after."""


class Flow(Generic[StateT]):
    """The state being changed, the step's RNG and the events so far, handed to every handler.

    ``log_field`` names the state's public log field (see engine/kit/events.py).
    """

    log_field: ClassVar[str] = "log"

    def __init__(self, state: StateT, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self._count_on_close = False

    @classmethod
    def for_choice(cls, state: StateT, randomness: StepRandom, *, in_place: bool = False) -> Self:
        """A pass answering one choice, with that step's RNG: on a copy of ``state``, or on
        ``state`` itself when the driver owns it (``in_place``: engine/working.py)."""
        target = state if in_place else clone(state)
        if randomness.counts_first:
            set_field(target, "step", target.step + 1)
        # rng_for is looked up here, per choice, so that tests may script the dice
        flow = cls(target, lazy_rng_for(target.seed, target.step, randomness.salt, rng_for))
        flow._count_on_close = not randomness.counts_first
        return flow

    def emit(self, kind: str, text: str, *, seats: list[int] | None = None, data: dict[str, Any] | None = None,
             phase_end: bool = False) -> Event:
        """Record an event; a public one also joins the state's log."""
        return emit(self.state, self.log_field, self.events, kind, text, seats=seats, data=data,
                    phase_end=phase_end)

    def close(self) -> Step:
        """The step this pass produced (its state counted one step on)."""
        if self._count_on_close:
            set_field(self.state, "step", self.state.step + 1)
            self._count_on_close = False
        return trusted(Step, {"state": self.state, "events": self.events})
