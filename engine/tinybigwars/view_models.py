"""Tiny Big Wars views as types (docs/design/tinybigwars-view.md): the allow-list, field by field.

`views.view` builds these from the state and sends their dump; render/ and the terminal table
parse the dict back and read attributes. The public model has no field for a sealed force or
an energy spend: only `SeatView.you` carries the seat's own.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from engine.view_model import IntPair, NamePair, PromptView, SeatDice, ViewModel


class SeatPublic(ViewModel):
    """A clan as everyone sees it (influence, locations and income are 0 until forces are revealed)."""

    seat: int
    influence: int
    coins: int
    locations: int
    minions: int
    heroes: int
    activations: int
    passed: bool
    force_ready: bool
    eliminated: bool
    income: int
    charters: list[str]


class LocationView(ViewModel):
    """A location on the city map; x and y are 0..1 of the drawing area."""

    id: str
    name: str
    x: float
    y: float
    coin: int
    influence: int
    influence_total: int
    coin_total: int
    ability: str
    infrastructure: str | None
    controller: int | None
    contested: bool
    start_seat: int | None
    minions: list[IntPair]  # [seat, count], only nonzero
    card: str


class HeroView(ViewModel):
    """A hero on the board."""

    id: str
    card: str
    name: str
    seat: int
    location: str | None
    health: int
    max_health: int
    energy: int
    max_energy: int
    power: int
    activated: bool
    defeated: bool
    ability: str


class CombatView(ViewModel):
    """A fight in progress: dice are public once rolled; who still owes a spend, never how much."""

    location: str
    seats: list[int]
    dice: list[SeatDice]
    hits: list[IntPair]
    waiting: list[int]
    attacker: int | None
    stage: str


class ResultView(ViewModel):
    """The end of the match."""

    winners: list[int]
    reason: str
    draw: bool


class PublicView(ViewModel):
    """What every player and spectator sees."""

    game: Literal["tinybigwars"]
    round: int
    round_limit: int
    phase: str
    phase_label: str
    to_win: int
    map: str
    seats: list[SeatPublic]
    locations: list[LocationView]
    roads: list[NamePair]
    heroes: list[HeroView]
    combat: CombatView | None
    active_seat: int | None
    turn_order: list[int] = Field(default_factory=list)
    """The Hero Activation order of the round (announced when it is drawn); empty outside it."""
    waiting: list[int]
    last_events: list[str]
    result: ResultView | None
    point_limit: int
    prompts: list[PromptView]


class ForceView(ViewModel):
    """The seat's own force with the card names spelled out."""

    heroes: list[str]
    minion_cards: list[str]
    buildings: list[str]
    points: int
    minion_card_names: list[str]
    building_names: list[str]


class You(ViewModel):
    """What only this seat sees."""

    seat: int
    force: ForceView | None
    # this seat's own sealed choice still open, as the rules hold it: {"kind": "force", <the force>}
    # or {"kind": "energy", "attack": n, "guard": n}; drawn as "key: value" lines
    sealed: dict[str, Any] | None
    coins: int


class SeatView(PublicView):
    """The public view plus the seat's own `you` block."""

    you: You
