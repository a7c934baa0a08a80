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
from render import anim, encode
from render.anim import DEFAULT_MAX_BYTES, animate, halve
from render.encode import Picture

__all__ = ["animate", "draw", "draw_and_frame", "draw_private", "post_and_frame", "replay", "replay_frame", "Picture", "Renderer",
           "RENDERERS"]


class Renderer(Protocol):
    """What ``render/<key>`` provides for a game: its public map and its private panel."""

    def draw(self, view: Any, names: list[str] | None) -> bytes: ...

    def draw_private(self, view: Any, names: list[str] | None) -> bytes: ...


@runtime_checkable
class Pictures(Protocol):
    """A renderer that also gives its map before encoding (every shipped game's): replays use it."""

    def picture(self, view: Any, names: list[str] | None) -> Picture: ...


@runtime_checkable
class Titles(Protocol):
    """A renderer that draws its map's title rows alone (the only rows ``phase_label`` changes):
    a replay frame titled otherwise than its phase post's map is that map with these redrawn."""

    TITLE_ROWS: int

    def title_rows(self, view: Any, names: list[str] | None) -> Image.Image: ...


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


def draw_and_frame(game_key: str, public_view: Mapping[str, Any], names: list[str] | None,
                   frame_view: Mapping[str, Any] | None) -> tuple[bytes, bytes | None]:
    """``draw``'s PNG of ``public_view`` and the replay frame of ``frame_view`` made ahead
    (``replay_frame``'s), from the same picture: when the two views are one, or differ only in
    ``phase_label`` where the renderer redraws its title rows alone (``Titles``: the frame is the
    map with those rows drawn again). None where it would take a whole second drawing (the replay
    draws that frame), or when ``frame_view`` is None."""
    found = _module(game_key)
    if not isinstance(found, Pictures):
        return found.draw(public_view, names), None
    return post_and_frame(game_key, found.picture(public_view, names), public_view, names, frame_view)


def post_and_frame(game_key: str, picture: Picture, public_view: Mapping[str, Any], names: list[str] | None,
                   frame_view: Mapping[str, Any] | None) -> tuple[bytes, bytes | None]:
    """``draw_and_frame`` of a map already drawn (``picture``, the renderer's of ``public_view``)."""
    found = _module(game_key)
    if frame_view is None or picture.palette is None:
        return encode.picture_png(picture), None
    titles = found if isinstance(found, Titles) and found.TITLE_ROWS % 2 == 0 else None
    retitled = frame_view != public_view
    if retitled and (titles is None or not _retitled(public_view, frame_view)):
        return encode.picture_png(picture), None
    below = titles.TITLE_ROWS if retitled and titles is not None else 0
    rows, frame = anim.indices(picture, below)  # the PNG's rows and the frame, from one cut of each box
    if retitled and titles is not None:  # the frame's title rows (left the layer's above ``below``)
        frame.paste(anim.on_palette(halve(titles.title_rows(frame_view, names)), picture.palette), (0, 0))
    return encode.rows_png(rows, picture.image.size, encode.palette_entries(picture.palette)), anim.piece(frame)


def _retitled(view: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """The two views differ in their ``phase_label`` alone."""
    return {**view, "phase_label": None} == {**other, "phase_label": None}


def draw_private(game_key: str, seat_view: BaseModel | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the private panel for the seat in `seat_view["you"]`."""
    return _module(game_key).draw_private(seat_view, names)


def replay_frame(game_key: str, public_view: BaseModel | Mapping[str, Any], names: list[str] | None = None,
                 picture: Picture | None = None) -> bytes | None:
    """One frame of a replay made ahead (``anim.piece``), from the view's ``picture`` when the
    caller has drawn it already; None for a renderer without pictures."""
    found = _module(game_key)
    if picture is None:
        if not isinstance(found, Pictures):
            return None
        picture = found.picture(public_view, names)
    if picture.palette is None:
        return None
    return anim.piece(anim.half_on_palette(picture))


def _may_fit(pieces: Sequence[bytes | None], max_bytes: int) -> bool:
    """Some frames are made ahead, and the GIF joined from them all would fit ``max_bytes`` as
    far as they tell (the missing ones as big as them on average): else none is drawn to join."""
    known = [len(piece) for piece in pieces if piece]
    return bool(known) and sum(known) * len(pieces) / len(known) <= max_bytes


def replay(game_key: str, public_views: Sequence[BaseModel | Mapping[str, Any]], names: list[str] | None = None,
           max_bytes: int = DEFAULT_MAX_BYTES, pieces: Sequence[bytes | None] | None = None) -> bytes:
    """A replay GIF of public views (at most ``max_bytes``): from each map's image and palette
    where the renderer gives them (each map halved as soon as it is drawn), else from its PNGs.

    ``pieces[i]``: the frame of ``public_views[i]`` made ahead (``replay_frame``), None where
    there is none. With at least one, the frames missing are made here and the GIF is joined
    from them (the same frames); when they do not join (two palettes) or the GIF is over
    ``max_bytes`` (its frames are whole, not cut to what changed: about a fifth bigger), every
    map is drawn again as without pieces, at once where the pieces say it will not fit."""
    found = _module(game_key)
    if pieces is not None and len(pieces) == len(public_views) and isinstance(found, Pictures) and _may_fit(
            pieces, max_bytes):
        made = [known or replay_frame(game_key, view, names) for view, known in zip(public_views, pieces, strict=True)]
        joined = anim.join([frame for frame in made if frame is not None]) if all(made) else None
        if joined is not None and len(joined) <= max_bytes:
            return joined
    if isinstance(found, Pictures):
        halved: list[Image.Image] = []
        palette: Image.Image | None = None
        for view in public_views:
            picture = found.picture(view, names)
            halved.append(halve(picture.image))
            palette = palette or picture.palette
        return animate(halved, max_bytes=max_bytes, palette=palette, frame_scale=0.5)
    return animate([found.draw(view, names) for view in public_views], max_bytes=max_bytes)
