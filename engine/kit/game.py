"""What the three Game classes of the engine contract had in common, written once.

A game module keeps its rules in submodules; its Game class only plumbs the contract to
them: which models it uses, checking that a state is its own, coercing options, wrapping
`view` and `result`. `KitGame` holds that plumbing, so a game class declares its `GameInfo`
and models and fills in the few hooks that are really its own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from engine.clone import clone
from engine.contract import Prompt, Result, Standing, State, Step
from engine.kit.errors import WrongGame
from engine.kit.info import GameInfo

StateT = TypeVar("StateT", bound=State)
OptionsT = TypeVar("OptionsT", bound=BaseModel)


class KitGame(ABC, Generic[StateT, OptionsT]):
    """Base of a game class: the contract's methods, delegating to the hooks below."""

    info: ClassVar[GameInfo]
    state_class: ClassVar[type[State]]
    options_class: ClassVar[type[BaseModel]]

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
        """``state`` as this game's state, or WrongGame."""
        if not isinstance(state, self.state_class):
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
        return self.apply(self.own(state), seat, choice, in_place=False)

    def play(self, state: State, seat: int, choice: dict[str, Any]) -> Step:
        """``submit`` without the copy: ``state`` itself becomes the step's state. Only for a
        state the caller owns and may lose: an IllegalChoice can leave it half changed
        (engine/working.py keeps a driver's working copy and undoes that)."""
        return self.apply(self.own(state), seat, choice, in_place=True)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self.view_of(self.own(state), seat)

    def result(self, state: State) -> Result | None:
        return self.result_of(self.own(state))

    def standing(self, view: dict[str, Any]) -> Standing:
        """Whose turn, the turn order and the score, read from a public view (``view_of(state,
        None)``); a game with turns or a score says how in its own ``standing``."""
        return Standing()


    # The hooks each game fills in.

    @abstractmethod
    def policies(self) -> dict[str, Any]:
        """Name -> policy object with ``choose(state, prompt, rng) -> dict``."""

    @abstractmethod
    def start(self, seats: int, options: OptionsT, seed: int) -> StateT:
        """A new match, run on until the first decision is owed."""

    @abstractmethod
    def prompts_of(self, state: StateT) -> list[Prompt]:
        """Every decision owed now."""

    @abstractmethod
    def apply(self, state: StateT, seat: int, choice: dict[str, Any], *, in_place: bool) -> Step:
        """One seat's answer applied to a copy of ``state`` (the rules' submit), or to ``state``
        itself when ``in_place``."""

    @abstractmethod
    def view_of(self, state: StateT, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: what anyone may see)."""

    @abstractmethod
    def result_of(self, state: StateT) -> Result | None:
        """The outcome once the match is over; None while it goes on."""
