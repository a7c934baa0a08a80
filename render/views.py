"""The typed views render/ reads: each game's view dict parsed into its view model.

Views reach the renderer as JSON dicts (from the database, notices, fixtures). Parsing them
once at the entry points means the drawing code reads attributes of a checked model, never
`.get` with a guessed default, and a field the contract lacks cannot be drawn at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from engine.defenders import view_models as defenders
from engine.samurai import view_models as samurai
from engine.tinybigwars import view_models as tinybigwars

View = TypeVar("View", bound=BaseModel)
AnyPublic = tinybigwars.PublicView | samurai.PublicView | defenders.PublicView

PUBLIC: dict[str, type[AnyPublic]] = {
    "tinybigwars": tinybigwars.PublicView,
    "samurai": samurai.PublicView,
    "defenders": defenders.PublicView,
}


def parse(model: type[View], view: View | Mapping[str, Any]) -> View:
    """`view` as `model`. A public model drops a seat view's `you` block: the public map never draws it."""
    if isinstance(view, model):
        return view
    if not isinstance(view, Mapping):
        raise TypeError(f"a {type(view).__name__} is not a {model.__name__} nor a view dict")
    fields = {key: value for key, value in view.items() if key != "you" or "you" in model.model_fields}
    return model.model_validate(fields)


def public(game_key: str, view: AnyPublic | Mapping[str, Any]) -> AnyPublic:
    """The public view of any game, typed (the terminal table reads its header from it)."""
    try:
        model = PUBLIC[game_key]
    except KeyError:
        raise ValueError(f"no view model for game {game_key!r}") from None
    return parse(model, view)
