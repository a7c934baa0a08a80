"""Answer models of the Samurai prompts: what a `choose` pick or a `numbers` form may hold."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Pick(BaseModel):
    """The answer to every `choose` prompt: `act` plus the fields that act needs."""

    model_config = ConfigDict(extra="forbid")

    act: str
    province: str | None = None
    target: str | None = None
    army: int | None = None
    seat: int | None = None
    to: Literal["garrison", "army"] | None = None
    count: int | None = Field(default=None, ge=1)
    region: str | None = None
    card: str | None = None
    position: int | None = None
    unit: str | None = None


class PlanAnswer(BaseModel):
    """All koku into the five bins; the build bin holds 0 or 2."""

    model_config = ConfigDict(extra="forbid")

    swords: int = Field(ge=0)
    build: int = Field(ge=0)
    levy: int = Field(ge=0)
    ronin: int = Field(ge=0)
    ninja: int = Field(ge=0)


class LevyAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    spearman: int = Field(ge=0)
    gunner: int = Field(ge=0)
    swordsman: int = Field(ge=0)
    bowman: int = Field(ge=0)


class ScreenAnswer(BaseModel):
    """Troops for one army behind the screen (Quick Start and LWTV setup)."""

    model_config = ConfigDict(extra="forbid")

    bowman: int = Field(ge=0)
    swordsman: int = Field(ge=0)
    gunner: int = Field(ge=0)


class UnitCounts(BaseModel):
    """Units by kind, ronin included: the losses of one side after a combat step, a garrison
    force that attacks or moves, or garrison units an army takes in (kinds not asked stay 0)."""

    model_config = ConfigDict(extra="forbid")

    ronin: int = Field(default=0, ge=0)
    spearman: int = Field(default=0, ge=0)
    gunner: int = Field(default=0, ge=0)
    swordsman: int = Field(default=0, ge=0)
    bowman: int = Field(default=0, ge=0)
