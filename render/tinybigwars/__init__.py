"""Tiny Big Wars: the public city map and a seat's private force panel.

The public map is drawn for phones (1200 px wide, taller than wide): a caption with the
combat or the newest event, the city across the full width with plates big enough to read
at Discord's 550 px preview (the places the latest events name are ringed), the players,
the combat's dice, the events and a key. A city of 9-18 locations fits whole at that size,
so unlike the 68 provinces of Samurai it needs no enlarged inset.

Draws only from the view model (engine/tinybigwars/view_models.py, the table of
docs/design/tinybigwars-view.md); a seat view's `you` is dropped when it is parsed, so
seat-only data can never leak into the public image.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.tinybigwars.view_models import PublicView
from render import action, legend
from render import encode as encoding
from render.tinybigwars import board, panel
from render.tinybigwars import layout as lay
from render.tinybigwars.board import _STATIC, Box, footprints, label_boxes, short_name, static_layer
from render.tinybigwars.layout import (
    CAPTION_BOX,
    HEADER_H,
    HEIGHT,
    KEY_BOX,
    LEGEND_H,
    LEGEND_Y,
    MAP_BOX,
    PLATE_H,
    PLATE_W,
    WIDTH,
    plate_box,
)
from render.tinybigwars.panel import RESULT_BOX
from render.tinybigwars.private import PRIVATE_SIZE, draw_private, render_private_image
from render.views import parse

MAX_NAMED = 4  # locations ringed for the latest events: more would ring half the city


def legend_origin(index: int, count: int) -> tuple[int, int, int]:
    """Top-left and width of a seat's legend card (tests sample the swatch there)."""
    return legend.card_origin(index, count, WIDTH, LEGEND_Y)


def named_locations(view: PublicView | Mapping[str, Any]) -> list[str]:
    """The locations the latest public events name, the newest first (at most MAX_NAMED)."""
    view = parse(PublicView, view)
    lines = [event for event in view.last_events if event]
    return action.mentioned(lines, static_layer(view).names)[:MAX_NAMED]


def render_image(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> Image.Image:
    """The public map as an RGB image (before PNG encoding)."""
    return drawn(view, names)[0]


def drawn(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> tuple[Image.Image, list[Box]]:
    """The public map as an RGB image, and the boxes of what it drew on the city (each
    location's name, plate marks, rings and hero rows) and in the header (``board.phase_boxes``)."""
    view = parse(PublicView, view)
    st = static_layer(view)
    img = st.canvas()
    draw = ImageDraw.Draw(img)
    combat = view.combat
    combat_location = combat.location if combat else None
    named = set(named_locations(view))
    marks: dict[str, list[Box]] = {}
    for location in view.locations:
        lid = location.id
        plate = board.draw_location(img, draw, location, st.centres[lid], lid == combat_location, lid in named)
        marks[lid] = [board.union((st.name_boxes[lid], *plate))]
    for lid, hs in board.heroes_by_location(view).items():
        if lid in st.centres:
            marks[lid].append(board.draw_heroes(img, draw, hs, st.centres[lid]))
    city = [box for boxes in marks.values() for box in board.joined(boxes)]
    city += board.joined(panel.header(img, draw, view))
    panel.caption(img, draw, view, st.names, names)
    panel.players(img, draw, view, names)
    if view.result or combat:  # the events panel moves or shrinks: start from the bare map there
        img.paste(st.bare_lower, board.LOWER_AREA[:2])
    top = panel.result(img, view.result, names) if view.result else lay.LOWER_Y
    lower = (8, top, lay.WIDTH - 8, lay.LOWER_BOTTOM)
    if combat:
        panel.combat_box(img, draw, view, st.names, (lower[0], lower[1], lower[0] + lay.COMBAT_W, lower[3]), names)
        lower = (lower[0] + lay.COMBAT_W + 8, lower[1], lower[2], lower[3])
    panel.events(img, draw, view, lower, names)
    return img, city


TITLE_ROWS = lay.HEADER_H
"""The map's top rows: the header, the only part of the map its ``phase_label`` changes."""


def title_rows(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> Image.Image:
    """The map's top ``TITLE_ROWS`` rows as ``render_image`` draws them, alone: a replay frame
    titled otherwise than its phase post's map (render.draw_and_frame) redraws only these."""
    view = parse(PublicView, view)
    st = static_layer(view)
    rows = st.background.crop((0, 0, lay.WIDTH, TITLE_ROWS))
    for tile, at in st.tiles:
        if at[1] < TITLE_ROWS:
            rows.paste(tile, at)
    panel.header(rows, ImageDraw.Draw(rows), view)
    return rows


def draw(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the public map for a public view."""
    view = parse(PublicView, view)
    return encoding.picture_png(picture(view, names))


def picture(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> encoding.Picture:
    """The public map before encoding, with its fixed palette (a replay's frame)."""
    view = parse(PublicView, view)
    st = static_layer(view)
    image, city = drawn(view, names)
    return encoding.Picture(image, st.palette, encoding.with_boxes(st.layer, image, board.phase_boxes(st, image, city)))


__all__ = ["CAPTION_BOX", "HEADER_H", "HEIGHT", "KEY_BOX", "LEGEND_H", "LEGEND_Y", "MAP_BOX", "PLATE_H", "PLATE_W",
           "PRIVATE_SIZE", "RESULT_BOX", "TITLE_ROWS", "WIDTH", "_STATIC", "draw", "drawn", "picture", "title_rows", "draw_private", "footprints", "label_boxes",
           "legend_origin", "named_locations", "plate_box", "render_image", "render_private_image", "short_name",
           "static_layer"]
