"""Samurai Swords: the public map of Japan's 68 provinces and a seat's private screen.

The public map is drawn for phones (1200 px wide, taller than wide): under the header an
enlarged inset of where the latest events happened (the battle, the declared attacks, the
provinces the events name), with big names and marks, then the whole of Japan with a frame
showing where the inset is, the players, the events, the war and a key.

Draws only from the view model (engine/samurai/view_models.py, the table of
docs/design/samurai-view.md): it has no field for army compositions or hidden ronin, and a
seat view's `you` is dropped when it is parsed, so seat-only data never reaches the public
image. The land is one indexed image (per map, and per inset crop): a
phase only swaps the palette entries of the provinces by owner, then draws marks on top.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.samurai.view_models import PublicView
from render import encode as encoding
from render import legend
from render.samurai import board, focus, land, panel
from render.samurai.land import OWNER_TINT
from render.samurai.layout import (
    CAPTION_H,
    EVENTS_BOX,
    HEADER_H,
    HEIGHT,
    INSET_BOX,
    INSET_MAP,
    KEY_BOX,
    LEGEND_H,
    LEGEND_Y,
    MAP_BOX,
    RESULT_BOX,
    WAR_BOX,
    WIDTH,
)
from render.samurai.private import PRIVATE_SIZE, draw_private, render_private_image
from render.samurai.scene import (
    _SCENES,
    _STATIC,
    Crop,
    Scene,
    Static,
    display_names,
    frame_box,
    scenes,
    short_name,
    static_layer,
)
from render.views import parse

Box = tuple[int, int, int, int]


def legend_origin(index: int, count: int) -> tuple[int, int, int]:
    """Top-left and width of a seat's legend card (tests sample the swatch there)."""
    return legend.card_origin(index, count, WIDTH, LEGEND_Y)


def layout(view: PublicView | Mapping[str, Any]) -> tuple[focus.Focus, Crop, tuple[str, ...], Scene, Scene]:
    """What this view's map shows: why, the inset's crop, the focus provinces it holds, the whole map and the inset."""
    view = parse(PublicView, view)
    st = static_layer(view)
    wanted = focus.focus(view, st)
    crop, shown = focus.crop(st, wanted)
    if wanted.kind == "region":
        shown = ()
    whole, inset = scenes(view, crop, shown)
    return wanted, crop, shown, whole, inset


def placements(view: PublicView | Mapping[str, Any]) -> dict[str, tuple[dict[str, Box], dict[str, Box], dict[str, Box]]]:
    """Per scene ("whole", "inset"): army badges, name labels drawn and node footprints, in canvas coordinates.

    Tests check that nothing drawn overlaps and that everything stays inside its scene.
    """
    view = parse(PublicView, view)
    _, _, shown, whole, inset = layout(view)
    out = {}
    for name, sc in (("whole", whole), ("inset", inset)):
        badges, names = board.placements(view, sc, board.important(view) | set(shown))
        out[name] = ({k: sc.to_canvas(b) for k, b in badges.items()}, {k: sc.to_canvas(b) for k, b in names.items()},
                     {k: sc.to_canvas(b) for k, b in sc.footprints.items()})
    return out


def render_image(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> Image.Image:
    """The public map as an RGB image (before PNG encoding)."""
    view = parse(PublicView, view)
    st = static_layer(view)
    wanted, crop, shown, whole, inset = layout(view)
    index = st.canvas.copy()
    index.paste(inset.land, INSET_MAP[:2])
    frame = index.convert("P")
    frame.putpalette(land.frame_lut(st.lut, st.atlas.order, view))
    img = frame.convert("RGB")
    for sc in (inset, whole):
        part = img.crop(sc.box)
        board.draw_scene(part, view, sc, set(shown), frame_box(st, crop) if sc is whole else None)
        if sc is whole:
            panel.compass(part, ImageDraw.Draw(part), 34, 40)
        img.paste(part, sc.box[:2])
    draw = ImageDraw.Draw(img)
    panel.header(img, draw, view)
    panel.caption(img, draw, view, st, wanted, shown, names)
    panel.players(img, draw, view, names)
    panel.events(img, draw, view, names)
    panel.war_box(img, draw, st, view, names)
    panel.key(img, draw)
    if view.result:
        panel.result(img, view.result, names)
    return img


def draw(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the public map for a public view."""
    view = parse(PublicView, view)
    return encoding.picture_png(picture(view, names))


def picture(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> encoding.Picture:
    """The public map before encoding, with its fixed palette (a replay's frame)."""
    view = parse(PublicView, view)
    return encoding.Picture(render_image(view, names), static_layer(view).png_palette)


__all__ = ["CAPTION_H", "EVENTS_BOX", "HEADER_H", "HEIGHT", "INSET_BOX", "INSET_MAP", "KEY_BOX", "LEGEND_H", "LEGEND_Y",
           "MAP_BOX", "OWNER_TINT", "PRIVATE_SIZE", "RESULT_BOX", "WAR_BOX", "WIDTH", "_SCENES", "_STATIC", "Crop",
           "Static", "display_names", "draw", "picture", "frame_box", "draw_private", "layout", "legend_origin", "placements", "render_image",
           "render_private_image", "short_name", "static_layer"]
