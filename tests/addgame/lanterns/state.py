"""Step 1: the options model and the state (everything the rules need, nothing else: it is stored)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import State

Phase = Literal["hide", "seek", "reckon", "over"]


class Options(BaseModel):
    """What a host picks: a described field appears in `/game new` (``round_limit``, shared with
    the shipped games' option of the same name and description)."""

    model_config = ConfigDict(extra="forbid")

    round_limit: int = Field(default=2, ge=1, le=5, description="end the match after this many rounds")
    wind: Literal["calm", "gusty"] = "calm"
    """Tuning without a description, so not offered by `/game new`: /game's 4000 characters are
    nearly spent (tests/bot/test_command_size.py)."""


class LanternState(State):
    seats: int
    options: Options
    round: int = 1
    phase: Phase = "hide"
    hidden: list[str | None]
    """Where each seat hid its lantern this round: secret until the reckoning."""
    searched: list[str | None]
    turn: int = 0
    """The seat searching now, in the seek phase."""
    score: list[int]
    revealed: list[str] = Field(default_factory=list)
    """Where the lanterns were last round, by seat (public once reckoned)."""
    log: list[str] = Field(default_factory=list)
    winners: list[int] | None = None
