"""Step 4: the prompts, their options built with `opt`; the hiding place is chosen behind a
screen (``secret=True``); each has a default for the deadline."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine import Option, Prompt
from engine.kit import opt
from tests.addgame.lanterns.content import places
from tests.addgame.lanterns.state import LanternState


class PlaceAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    place: str


def _options(verb: str) -> list[Option]:
    return [opt(place.id, f"{verb} the {place.name}", {"place": place.id}, f"worth {place.glow} when found")
            for place in places().values()]


def hide_prompt(state: LanternState, seat: int) -> Prompt:
    first = next(iter(places()))
    return Prompt(seat=seat, kind="hide", answer=PlaceAnswer, secret=True, options=_options("Hide in"),
                  answered=state.hidden[seat] is not None, default={"place": first},
                  text=f"Round {state.round} of {state.options.round_limit}: hide your lantern. "
                       "Nobody sees where until the round is reckoned.")


def seek_prompt(state: LanternState, seat: int) -> Prompt:
    first = next(iter(places()))
    return Prompt(seat=seat, kind="seek", answer=PlaceAnswer, options=_options("Search"), default={"place": first},
                  text=f"Round {state.round}: your turn to search one place for the other lanterns.")
