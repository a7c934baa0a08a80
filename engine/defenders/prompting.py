"""What every Defenders prompt is built from: the answer model, options and the 25-option fit.

Kept apart from actions.py so the campaign's Rebuild prompts (campaign.py) share them without
importing the whole decision module.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.contract import Option
from engine.defenders.content import content
from engine.defenders.state import Defender

MAX_OPTIONS = 25


class Answer(BaseModel):
    """Any answer is one of the prompt's option dicts (checked against them exactly)."""

    model_config = ConfigDict(extra="allow")
    act: str


def dname(d: Defender) -> str:
    return content().defender(d.key).name


def fit(options: list[Option], tail: list[Option]) -> list[Option]:
    """At most 25 options; `tail` (End, Pass, focus switches) is always kept."""
    return options[: MAX_OPTIONS - len(tail)] + tail
