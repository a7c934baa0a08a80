"""Pillow rendering: public or seat views to PNG bytes, and replay GIFs.

No database, no Discord: callers pass view dicts (see docs/design/*-view.md) or the view
models they dump from (engine/<game>/view_models.py) and get bytes back; each game parses
the dict into its model once (render/views.py) and draws from attributes. Every function is a plain function safe to call from worker threads
(`await asyncio.to_thread(render.draw, key, view)`); the only shared state is the
thread-safe cache of static map layers and text sprites.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from PIL import Image
from pydantic import BaseModel

import engine
from render.anim import DEFAULT_MAX_BYTES, animate, halve
from render.encode import Picture

__all__ = ["animate", "draw", "draw_private", "replay", "Picture", "Renderer", "RENDERERS"]


class Renderer(Protocol):
    """What ``render/<key>`` provides for a game: its public map and its private panel."""

    def draw(self, view: Any, names: list[str] | None) -> bytes: ...

    def draw_private(self, view: Any, names: list[str] | None) -> bytes: ...


@runtime_checkable
class Pictures(Protocol):
    """A renderer that also gives its map before encoding (every shipped game's): replays use it."""

    def picture(self, view: Any, names: list[str] | None) -> Picture: ...


RENDERERS: dict[str, Renderer] = {key: importlib.import_module(f"render.{key}") for key in engine.SHIPPED}
"""The renderer of every game the engine ships (``render/<key>``), imported up front so a drawing
worker forked from this module has them all. A game registered at run time brings its own
(``engine.register(game, renderer=...)``), drawn in this process."""


def _module(game_key: str) -> Renderer:
    """The renderer of a shipped game, else the one `engine.register` was given."""
    found = RENDERERS.get(game_key) or engine.extras(game_key).renderer
    if found is None:
        raise ValueError(f"no renderer for game {game_key!r}")
    return cast(Renderer, found)


def draw(game_key: str, public_view: BaseModel | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the public map. `names[seat]` are display names (default "Player N")."""
    return _module(game_key).draw(public_view, names)


def draw_private(game_key: str, seat_view: BaseModel | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the private panel for the seat in `seat_view["you"]`."""
    return _module(game_key).draw_private(seat_view, names)


def replay(game_key: str, public_views: Sequence[BaseModel | Mapping[str, Any]], names: list[str] | None = None,
           max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """A replay GIF of public views (at most ``max_bytes``): from each map's image and palette
    where the renderer gives them (each map halved as soon as it is drawn), else from its PNGs."""
    found = _module(game_key)
    if isinstance(found, Pictures):
        halved: list[Image.Image] = []
        palette: Image.Image | None = None
        for view in public_views:
            picture = found.picture(view, names)
            halved.append(halve(picture.image))
            palette = palette or picture.palette
        return animate(halved, max_bytes=max_bytes, palette=palette, frame_scale=0.5)
    return animate([found.draw(view, names) for view in public_views], max_bytes=max_bytes)
