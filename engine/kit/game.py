"""The Game class of the engine contract, written once for every game.

A game module keeps its rules in submodules; its Game class declares its `GameInfo`, its
models, its phase table and how it derives a choice's RNG, and fills in the few hooks that
are really its own. `KitGame.submit` is the one way an answer is applied: find what the seat
was asked (its prompt built only if needed), parse the answer, open a `Flow`, let the phase table handle it and settle, close.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from engine.clone import clone
from engine.contract import IllegalChoice, Prompt, Result, Standing, State, Step
from engine.kit.errors import WrongGame
from engine.kit.flow import Flow, StepRandom
from engine.kit.info import GameInfo
from engine.kit.phases import Asked, PhaseTable
from engine.validate import parse_choice

StateT = TypeVar("StateT", bound=State)
OptionsT = TypeVar("OptionsT", bound=BaseModel)


class KitGame(ABC, Generic[StateT, OptionsT]):
    """Base of a game class: the contract's methods, delegating to the hooks below."""

    info: ClassVar[GameInfo]
    state_class: ClassVar[type[State]]
    options_class: ClassVar[type[BaseModel]]
    phases: ClassVar[PhaseTable[Any]]
    """Who owes what in each phase and what answers and automatic steps do."""
    randomness: ClassVar[StepRandom] = StepRandom()
    """How a choice's RNG derives from the seed and step (fixed forever: engine/kit/flow.py)."""
    flow_class: ClassVar[type[Flow[Any]]] = Flow
    """The `Flow` a choice runs in (a subclass names the state's log field)."""
    nothing_asked: ClassVar[str] = "You have no decision to make right now."
    """The refusal of an answer from a seat that owes nothing."""
    prompts_on_read: ClassVar[bool] = False
    """Whether `first_open` may give a driver's next prompt unbuilt, built when first read: a
    game whose heuristic works most choices out from the state, not from the options."""

    # The attributes the contract and the front-ends read, all from `info` (read-only).

    @property
    def key(self) -> str:
        return self.info.key

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def seats(self) -> range:
        return self.info.seats

    @property
    def modes(self) -> tuple[str, ...]:
        return self.info.modes

    @property
    def cooperative(self) -> bool:
        return self.info.cooperative

    @property
    def team(self) -> str:
        return self.info.team

    def options_model(self) -> type[BaseModel]:
        return self.options_class

    def state_model(self) -> type[State]:
        return self.state_class

    def own(self, state: object) -> StateT:
        """``state`` as this game's state, or WrongGame (its very class tried first: a model
        class's ``isinstance`` goes through pydantic's metaclass, and this runs every choice)."""
        if type(state) is not self.state_class and not isinstance(state, self.state_class):
            raise WrongGame(f"This is not a {self.info.title} match.")
        return state  # type: ignore[return-value]

    def copy(self, state: State) -> StateT:
        """An independent copy of this game's ``state`` (an AI trying a choice): the one copy
        idiom, engine/clone.py, which is equal to a JSON round trip and several times faster."""
        return clone(self.own(state))

    def options(self, options: BaseModel | dict[str, Any] | None) -> OptionsT:
        """``options`` as this game's options model (another model's fields, a dict or none)."""
        if isinstance(options, self.options_class):
            return options  # type: ignore[return-value]
        raw = options.model_dump() if isinstance(options, BaseModel) else options or {}
        return self.options_class.model_validate(raw)  # type: ignore[return-value]

    # The contract.

    def setup(self, seats: int, options: BaseModel, seed: int) -> State:
        self.info.check_seats(seats)
        return self.start(seats, self.options(options), seed)

    def prompts(self, state: State) -> list[Prompt]:
        return self.prompts_of(self.own(state))

    def submit(self, state: State, seat: int, choice: dict[str, Any]) -> Step:
        """One seat's answer applied to a copy of ``state`` (never changed itself)."""
        return self.answer(self.own(state), seat, choice, in_place=False)

    def play(self, state: State, seat: int, choice: dict[str, Any], asked: Prompt | None = None) -> Step:
        """``submit`` without the copy: ``state`` itself becomes the step's state. Only for a
        state the caller owns and may lose: an IllegalChoice can leave it half changed
        (engine/working.py keeps a driver's working copy and undoes that). ``asked``: the
        first prompt ``seat`` owes in ``state``, when the caller built it already
        (`first_open`), so that it is not built again."""
        return self.answer(self.own(state), seat, choice, in_place=True, asked=asked)

    def first_open(self, state: State, on_read: bool = False) -> tuple[Prompt, Prompt] | None:
        """The first prompt of ``prompts(state)`` not yet answered, and the first prompt its
        seat owes (what its answer is checked against), building only what is needed;
        ``on_read`` (and `prompts_on_read`): a prompt the phase table can find unbuilt is
        built when first read (engine/kit/on_read.py)."""
        return self.phases.first_open(self.own(state), on_read and self.prompts_on_read)

    def answer(self, state: StateT, seat: int, choice: dict[str, Any], *, in_place: bool,
               asked: Prompt | None = None) -> Step:
        """The template of every answer: refuse what no prompt allows (``refuse``, then a seat
        that owes nothing), parse the answer for what the seat was asked (``parse``), open the
        choice's `Flow` (on a copy unless ``in_place``), let the phase table handle it and
        run the game on until a decision is owed, close the step. ``asked``: the seat's first
        prompt in ``state``, already built (else found, and built only if needed)."""
        refused = self.refuse(state, seat)
        if refused is not None:
            raise IllegalChoice(refused)
        found = self.phases.asked_of(state, seat) if asked is None else Asked.of(asked)
        if found is None:
            raise IllegalChoice(self.nothing_asked)
        answer = self.parse(state, seat, found, choice)
        flow = self.flow_class.for_choice(state, self.randomness, in_place=in_place)
        self.phases.handle(flow, seat, found, answer)
        return flow.close()

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self.view_of(self.own(state), seat)

    def phase_label(self, state: State) -> str:
        """The public view's ``phase_label``, without the view where the game names it itself."""
        return self.phase_label_of(self.own(state))

    def phase_label_of(self, state: StateT) -> str:
        """The phase heading of ``state``; a game whose label needs no view says so cheaply."""
        return str(self.view_of(state, None).get("phase_label") or "")

    def result(self, state: State) -> Result | None:
        return self.result_of(self.own(state))

    def standing(self, view: dict[str, Any]) -> Standing:
        """Whose turn, the turn order and the score, read from a public view (``view_of(state,
        None)``); a game with turns or a score says how in its own ``standing``."""
        return Standing()

    # The hooks each game fills in.

    @abstractmethod
    def policies(self) -> dict[str, Any]:
        """Name -> policy object with ``choose(information_state, prompt, rng) -> dict``, asked
        only through ``engine.decide`` (engine/information.py)."""

    @abstractmethod
    def information(self, state: State, seat: int) -> State:
        """``state`` as ``seat`` may know it: all hidden from that seat replaced by a canonical
        value (the only state a policy is given)."""

    @abstractmethod
    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A full world consistent with the information state ``state``, its unseen parts dealt
        from ``rng`` (a search AI's sample)."""

    @abstractmethod
    def start(self, seats: int, options: OptionsT, seed: int) -> StateT:
        """A new match, run on until the first decision is owed."""

    def prompts_of(self, state: StateT) -> list[Prompt]:
        """Every decision owed now: the phase table's."""
        return self.phases.prompts(state)

    def refuse(self, state: StateT, seat: int) -> str | None:
        """Why no answer from ``seat`` can be taken now (the match is over, no such seat), in
        the game's words; None lets the answer through to its prompt."""
        return None

    def parse(self, state: StateT, seat: int, asked: Asked, choice: dict[str, Any]) -> object:
        """The raw choice as the decision's answer model (an IllegalChoice a player can read
        when it does not fit); what the phase's handler receives."""
        return parse_choice(asked.answer, choice)

    @abstractmethod
    def view_of(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: what anyone may see)."""

    @abstractmethod
    def result_of(self, state: StateT) -> Result | None:
        """The outcome once the match is over; None while it goes on."""
