"""Answer models of the Samurai prompts: what a `choose` pick or a `numbers` form may hold."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.clone import set_dict, set_extra, set_fields_set, set_private


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


_PICK_TYPES: dict[str, type] = {name: str for name in Pick.model_fields} | {
    "army": int, "seat": int, "count": int, "position": int}
"""The type of each `Pick` field's value when it is not None."""
_PICK_NONE = dict.fromkeys(Pick.model_fields)
_PICK_TO = frozenset(("garrison", "army"))
_new_object = object.__new__


def plain_pick(choice: dict[str, Any]) -> Pick | None:
    """The `Pick` validation would make of ``choice`` when every value is plainly of its
    field's type (an act, known fields only, a count of at least 1, a "to" it allows),
    built without validating; None for anything else, which validation then parses or
    refuses as it always has. Nearly every choice a match takes is a pick."""
    if type(choice.get("act")) is not str:
        return None
    values = _PICK_NONE.copy()
    for name, value in choice.items():
        kind = _PICK_TYPES.get(name)
        if kind is None or (value is not None and type(value) is not kind):
            return None
        values[name] = value
    count = values["count"]
    if count is not None and count < 1:
        return None
    to = values["to"]
    if to is not None and to not in _PICK_TO:
        return None
    pick = _new_object(Pick)
    set_dict(pick, values)
    set_fields_set(pick, set(choice))
    set_extra(pick, None)
    set_private(pick, None)
    return pick
