"""Samurai Swords views as types (docs/design/samurai-view.md): the allow-list, field by field.

An army is public only as a marker (`ArmyMarker`: no units); its composition, hidden ronin,
sealed choices and objective cards exist only on `You`, the seat's own block.
"""

from __future__ import annotations

from typing import Any, Literal

from engine.view_model import NamePair, ViewModel


class PlanView(ViewModel):
    """The five planning bins, public once every plan is in."""

    swords: int
    build: int
    levy: int
    ronin: int
    ninja: int


class SeatPublic(ViewModel):
    """A house as everyone sees it."""

    seat: int
    provinces: int
    koku: int
    sword: int | None
    eliminated: bool
    armies: int
    armies_destroyed: int
    plan: PlanView | None
    ready: bool
    event_cards: int
    vp: int | None


class ArmyMarker(ViewModel):
    """An army's marker on the board: where, what level; never its units."""

    seat: int
    army: int
    alive: bool
    location: str | None
    level: int
    assassinated: bool
    ronin: int | None


class ProvinceView(ViewModel):
    """A province: owner, garrison counts per kind, fort, revealed ronin, the army marker on it."""

    id: str
    name: str
    region: str
    x: float
    y: float
    owner: int | None
    neutral: bool
    garrison: dict[str, int]
    garrison_total: int
    fort: str | None
    ronin: int | None
    army: ArmyMarker | None


class SupplyView(ViewModel):
    """What is left in the common supply."""

    castles: int
    fortress_bases: int
    ronin: int


class DeclarationView(ViewModel):
    """A declared attack."""

    source: str
    force: str
    army: int | None
    target: str
    count: int | None
    units: dict[str, int] | None


class LossesView(ViewModel):
    """Dice rolled, the owners choosing their losses (sealed)."""

    step: str
    hits: dict[str, int]
    choosing: list[int]


class BattleView(ViewModel):
    """The battle being fought."""

    target: str
    attacker: int
    defender: int | None
    naval: bool
    round: int
    fort_defenders: int
    losses_pending: LossesView | None


class WarView(ViewModel):
    """Action 7 for the house at war now."""

    seat: int
    phase: str
    declarations: list[DeclarationView]
    battle: BattleView | None


class ResultView(ViewModel):
    """The end of the match (scores keyed by seat as a string, as in JSON)."""

    winners: list[int]
    reason: str
    scores: dict[str, int]


class PublicView(ViewModel):
    """What every player and spectator sees."""

    game: Literal["samurai"]
    mode: str
    round: int
    round_limit: int | None
    end_round: int | None
    phase: str
    phase_label: str
    to_win: int | None
    map: str
    canvas: list[int]
    seats: list[SeatPublic]
    turn_order: list[int]
    provinces: list[ProvinceView]
    armies: list[ArmyMarker]
    borders: list[NamePair]
    sea_lanes: list[NamePair]
    supply: SupplyView
    ninja: int | None
    war: WarView | None
    waiting: list[int]
    last_events: list[str]
    result: ResultView | None


class ArmyScreen(ViewModel):
    """An army card behind the seat's own screen."""

    army: int
    alive: bool
    location: str | None
    level: int
    units: dict[str, int]
    ronin: int
    assassinated: bool


class HiddenRonin(ViewModel):
    """Ronin on a face-down province card of the seat's own."""

    province: str
    ronin: int


class CardView(ViewModel):
    """An objective card in the seat's hand (LWTV)."""

    id: str
    title: str
    text: str


class You(ViewModel):
    """What only this seat sees. `vp` and `objective_vp` are sent in LWTV only."""

    seat: int
    koku: int
    tray: dict[str, int]
    armies: list[ArmyScreen]
    ronin: list[HiddenRonin]
    sealed: dict[str, Any] | None  # the open secret choice as the rules keep it (plan, sword, muster, setup)
    hand: list[CardView]
    vp: int | None = None
    objective_vp: int | None = None


class SeatView(PublicView):
    """The public view plus the seat's own `you` block."""

    you: You
