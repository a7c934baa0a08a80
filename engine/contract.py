"""The engine contract every game implements (see DESIGN.md, "Engine contract").

Games are pure: no I/O, no asyncio, no clocks. The service and the front-ends only ever
talk to a game through these types.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from engine.kit.info import GameInfo


class IllegalChoice(Exception):
    """A submitted choice breaks a rule; the message is shown to the player as is."""


class State(BaseModel):
    """Base of every game's state: plain data that round-trips through JSON exactly."""

    model_config = ConfigDict(extra="forbid")

    step: int = 0
    """How many choices have been accepted; the RNG of the next step is (seed, step)."""
    seed: int = 0


class Option(BaseModel):
    """One enumerated answer: `choice` is the exact dict to submit when it is picked."""

    value: str = Field(max_length=50)
    label: str = Field(max_length=80)
    description: str = Field(default="", max_length=100)
    choice: dict[str, Any] = Field(default_factory=dict)


class NumberField(BaseModel):
    """One integer of a number allocation (a modal input on Discord)."""

    name: str
    label: str = Field(max_length=45)
    min: int = 0
    max: int


InputKind = Literal["choose", "multi", "numbers"]


class PromptShape(BaseModel):
    """What a front-end may know of a decision one seat owes: everything of the engine's
    ``Prompt`` but its answer model. ``Prompt`` (the engine's) and the front-ends' ``ShownPrompt``
    (bot/naming.py, read back from a stored notice) are both this shape, so a field added here
    reaches every front-end at once.

    The input shape tells a front-end how to ask:
    - ``choose``: pick one of ``options``; submit ``option.choice``.
    - ``multi``: pick between ``min_picks`` and ``max_picks`` of ``options``; submit
      ``{field: [option.value, ...]}``.
    - ``numbers``: fill every ``fields`` entry; submit ``{field.name: int, ...}``.
    """

    seat: int
    kind: str
    text: str
    input: InputKind = "choose"
    options: list[Option] = Field(default_factory=list)
    field: str = "picks"
    min_picks: int = 0
    max_picks: int = 1
    fields: list[NumberField] = Field(default_factory=list)
    secret: bool = False
    """Sealed until every open secret prompt of the same step is answered."""
    answered: bool = False
    """A secret prompt already answered: the seat may still revise until the step locks. Also
    an optional prompt the seat passed on that stays open (nobody waits for it; drivers and AIs
    skip answered prompts, the seat may still pick one of its options)."""
    shared: bool = False
    """Offered to several seats at once (co-op shared action points, a defence any Defender
    present may make): the first answer wins and the others' copies change or close."""
    optional: bool = False
    """Not owed: the game goes on without it (a skill usable on another player's turn).
    No deadline waits for it, no reminder names it, and a missed one counts as nothing."""
    default: dict[str, Any] = Field(default_factory=dict)
    """A rule-legal choice used when the deadline passes."""
    deadline_hours: float | None = None
    """This phase's own time limit; None = the match's deadline option."""

    def public(self) -> dict[str, Any]:
        """What anyone may know of this prompt: who owes what kind of decision."""
        return {"seat": self.seat, "kind": self.kind, "secret": self.secret, "answered": self.answered,
                "shared": self.shared, "optional": self.optional}


class Prompt(PromptShape):
    """A decision one seat owes now, with the model its answer is parsed into (which never
    leaves the engine: it is excluded from every dump)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    answer: type[BaseModel] = Field(exclude=True)


class Event(BaseModel):
    """Something that happened. ``seats`` None = public; otherwise only those seats see it."""

    kind: str
    text: str
    seats: list[int] | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    phase_end: bool = False
    """Marks the end of a phase: front-ends draw the map here."""

    def visible_to(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)


class Step(BaseModel):
    """What ``submit`` returns: the new state and the events the choice caused."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    state: Any
    events: list[Event] = Field(default_factory=list)


class Result(BaseModel):
    winners: list[int]
    """Winning seats; empty for a loss of everyone (co-op) or a draw with no winner."""
    reason: str
    scores: dict[int, int] = Field(default_factory=dict)
    draw: bool = False


class Standing(BaseModel):
    """Where the table stands, read from the public view only (the status board shows it):
    whose turn it is and in what order the seats take turns in this phase, and the score."""

    turn: int | None = None
    """The seat on turn in a phase played in turns; None when nobody is (everyone chooses at once)."""
    order: list[int] = Field(default_factory=list)
    """The seats in turn order, when the public view shows it."""
    scores: dict[int, int] = Field(default_factory=dict)
    """Each seat's score, in ``score_name``."""
    score_name: str = ""
    """What a score counts ("influence", "provinces")."""
    team_score: str | None = None
    """The whole table's score in a cooperative game, in words ("Aldmere's threat 3")."""


@runtime_checkable
class Game(Protocol):
    """A game; engine/kit/game.py's `KitGame` is the one way to write one."""

    @property
    def info(self) -> GameInfo:
        """What the game declares: key, title, seats, modes, cooperative, team (engine/kit/info.py)."""
        ...

    @property
    def key(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def seats(self) -> range: ...

    def options_model(self) -> type[BaseModel]: ...

    def setup(self, seats: int, options: BaseModel, seed: int) -> State: ...

    def prompts(self, state: State) -> list[Prompt]: ...

    def submit(self, state: State, seat: int, choice: dict[str, Any]) -> Step: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def result(self, state: State) -> Result | None: ...

    def standing(self, view: dict[str, Any]) -> Standing:
        """Whose turn, the turn order and the score, from a public view."""
        ...

    def state_model(self) -> type[State]: ...

    def policies(self) -> dict[str, Any]:
        """Name -> policy object with ``choose(state, prompt, rng) -> dict``; the state a
        policy receives is the information state of its seat (engine/information.py)."""
        ...

    def information(self, state: State, seat: int) -> State:
        """``state`` as ``seat`` may know it: everything hidden from that seat replaced by a
        canonical value, so states differing only there give equal information states."""
        ...

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A full world consistent with ``seat``'s information state ``state``, its unseen
        parts dealt at random from ``rng`` (a search AI's sample of what it cannot see)."""
        ...


@runtime_checkable
class LabelsPhases(Protocol):
    """A game that can name the phase a state is in without building its view: the service
    heads every change's posts with the phase it started and ended in, and most changes end no
    phase, so a whole public view for one line of text was most of their view cost."""

    def phase_label(self, state: State) -> str:
        """The public view's ``phase_label`` of ``state``, exactly ("Round 2 - Hero Activation")."""
        ...


@runtime_checkable
class ViewsGivenPrompts(Protocol):
    """A game whose views show the open prompts of the state (who is waited for, what each
    seat may do): a caller that built ``prompts(state)`` already hands them over instead of
    having the view build them again (the service builds them once a state, for its prompt
    versions and the AI's turns, and then asks for views of the same state)."""

    def view_given(self, state: State, seat: int | None, prompts: Sequence[Prompt]) -> dict[str, Any]:
        """``view(state, seat)``, exactly, from ``prompts``, which must be ``prompts(state)``."""
        ...


@runtime_checkable
class PlaysInPlace(Protocol):
    """A game whose steps can change a state the driver owns instead of copying it: the one
    copy per transaction that engine/working.py's `Working` takes. Every KitGame does;
    ``submit`` stays the contract, ``play`` is the fast path beside it."""

    def play(self, state: State, seat: int, choice: dict[str, Any]) -> Step:
        """``submit`` applied to ``state`` itself (returned as the step's state); an
        IllegalChoice may leave it half changed, so only its owner may call this."""
        ...


_IMPLEMENTS: dict[tuple[type, type], bool] = {}


def implements(game: object, protocol: type) -> bool:
    """``isinstance(game, protocol)`` for a runtime-checkable protocol, worked out once per
    class: a protocol check costs tens of µs, more than a rules step's share of it, and the
    service asks at every transaction (engine.Working, engine.view)."""
    key = (type(game), protocol)
    found = _IMPLEMENTS.get(key)
    if found is None:
        found = _IMPLEMENTS[key] = isinstance(game, protocol)
    return found
