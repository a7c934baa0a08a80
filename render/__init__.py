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
from render.anim import DEFAULT_MAX_BYTES, animate, halve, keep_frame, kept_frame
from render.encode import Picture, png

__all__ = ["animate", "draw", "draw_keeping_frame", "draw_private", "replay", "Picture", "Renderer", "RENDERERS"]


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


def draw_keeping_frame(game_key: str, public_view: BaseModel | Mapping[str, Any], names: list[str] | None,
                       key: str) -> bytes:
    """``draw``, keeping the map's replay frame under ``key`` in this process (``anim.keep_frame``)
    for a ``replay`` given the same key: a drawing worker that will draw the match's replay too."""
    found = _module(game_key)
    if not isinstance(found, Pictures):
        return found.draw(public_view, names)
    picture = found.picture(public_view, names)
    if picture.palette is not None:
        keep_frame(key, picture.image, picture.palette)
    return png(picture.image, picture.palette)


def replay(game_key: str, public_views: Sequence[BaseModel | Mapping[str, Any]], names: list[str] | None = None,
           max_bytes: int = DEFAULT_MAX_BYTES, keys: Sequence[str] | None = None) -> bytes:
    """A replay GIF of public views (at most ``max_bytes``): from each map's image and palette
    where the renderer gives them (each map halved as soon as it is drawn), else from its PNGs.
    ``keys[i]``: the key view ``i``'s frame may have been kept under (``draw_keeping_frame``)."""
    found = _module(game_key)
    if isinstance(found, Pictures):
        halved: list[Image.Image] = []
        palette: Image.Image | None = None
        for index, view in enumerate(public_views):
            kept = kept_frame(keys[index]) if keys is not None else None
            if kept is not None:
                halved.append(kept[0])
                palette = palette or kept[1]
                continue
            picture = found.picture(view, names)
            halved.append(halve(picture.image))
            palette = palette or picture.palette
        return animate(halved, max_bytes=max_bytes, palette=palette, frame_scale=0.5)
    return animate([found.draw(view, names) for view in public_views], max_bytes=max_bytes)
