"""Step 5: the views as types, the allow-list of what a player may see. The public view has
no field for where a lantern is hidden this round; only the seat's own `you` block has it."""

from __future__ import annotations

from typing import Literal

from engine.view_model import PromptView, ViewModel


class PlaceView(ViewModel):
    id: str
    name: str
    glow: int


class SeatPublic(ViewModel):
    seat: int
    score: int
    hidden: bool
    """Whether the seat has hidden its lantern (never where)."""
    searched: str | None


class ResultView(ViewModel):
    winners: list[int]
    reason: str


class PublicView(ViewModel):
    game: Literal["lanterns"]
    round: int
    round_limit: int
    phase: str
    phase_label: str
    places: list[PlaceView]
    seats: list[SeatPublic]
    turn: int | None
    revealed: list[str]
    log: list[str]
    prompts: list[PromptView]
    result: ResultView | None


class You(ViewModel):
    seat: int
    hidden: str | None


class SeatView(PublicView):
    you: You
