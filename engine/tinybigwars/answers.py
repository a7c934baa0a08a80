"""The answer models of every Tiny Big Wars prompt: what ``submit`` accepts, field by field."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ForceAnswer(_Answer):
    picks: list[str] = Field(max_length=25)


class ClanAnswer(_Answer):
    action: Literal["recruit", "build", "done"]
    location: str | None = None


class RecruitAnswer(_Answer):
    count: int


class BuildAnswer(_Answer):
    infrastructure: Literal["dojo", "market", "watchtower"]


class ActivateAnswer(_Answer):
    hero: str


class ActionAnswer(_Answer):
    action: Literal["move", "train_health", "train_energy", "end"]
    to: str | None = None


class EscortAnswer(_Answer):
    minions: int


class EnergyAnswer(_Answer):
    attack: int
    guard: int


class DamageAnswer(_Answer):
    hero: str
