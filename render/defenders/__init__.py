"""Tiny Epic Defenders: the public map (the capital ringed by six regions) and a seat's Defender panel.

The public map is drawn for phones (1200 px wide, taller than wide): a caption with the
attack or the card in play, the ring across the full width with plates big enough to read
at Discord's 550 px preview (the region attacked glows red; those the card or the newest log
lines name are outlined), a key, then the boss, the turn, supplies, the Dark War, the team
and the log. Seven regions fit whole at that size, so the map needs no enlarged inset.

Draws only from the view model (engine/defenders/view_models.py, the table of
docs/design/defenders-view.md); a seat view's `you` is dropped when it is parsed, so the seat
block can never reach the public image. The ring is
fixed, so the background, roads and key are one cached static layer shared by every match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.defenders.view_models import PublicView
from render import action
from render import encode as encoding
from render.defenders import layout as lay
from render.defenders import panel, ring
from render.defenders.common import region_names
from render.defenders.layout import (
    CAPTION_BOX,
    HEADER_H,
    HEIGHT,
    KEY_BOX,
    LOG_BOX,
    PANEL_Y,
    RING_BOTTOM,
    WIDTH,
    capital_box,
    plate_box,
    region_boxes,
)
from render.defenders.private import PRIVATE_W, draw_private, private_size, render_private_image
from render.defenders.ring import _STATIC, static_layer
from render.views import parse

NAMED_LOG_LINES = 2  # regions named by this many of the newest log lines are outlined as "in play"


def in_play(view: PublicView | Mapping[str, Any]) -> set[str]:
    """Regions outlined as in play: the card's regions and those the newest log lines name."""
    view = parse(PublicView, view)
    current = view.deck.current
    marked = set(current.regions) if current else set()
    log = [event for event in view.log if event][-NAMED_LOG_LINES:]
    names = {k: v for k, v in region_names(view).items() if k != "capital" or v != "Capital"}
    return marked | set(action.mentioned(log, names))


def render_image(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> Image.Image:
    """The public map as an RGB image (before PNG encoding)."""
    view = parse(PublicView, view)
    base, _ = static_layer()
    img = base.copy()
    draw = ImageDraw.Draw(img)
    marked = in_play(view)
    attacked = view.attack.region if view.attack else None
    ring.draw_capital(img, draw, view, marked, attacked)
    for r in view.ring[:6]:
        ring.draw_region(img, draw, view, r, marked, attacked)
    panel.header(img, view, names)
    panel.caption(img, draw, view, names)
    y = lay.PANEL_Y
    left = panel.boss_box(img, draw, view, lay.LEFT_X, y)
    panel.turn_box(img, draw, view, names, lay.LEFT_X, left)
    right = panel.supply_box(img, draw, view, lay.RIGHT_X, y)
    right = panel.war_box(img, draw, view, lay.RIGHT_X, right)
    panel.team_box(img, draw, view, names, lay.RIGHT_X, right)
    top = panel.result_box(img, draw, view) if view.result else lay.LOG_BOX[1]
    panel.log_box(img, draw, view, names, top)
    return img


def draw(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the public map for a public view."""
    view = parse(PublicView, view)
    return encoding.picture_png(picture(view, names))


def picture(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> encoding.Picture:
    """The public map before encoding, with its fixed palette (a replay's frame)."""
    view = parse(PublicView, view)
    return encoding.Picture(render_image(view, names), static_layer()[1])


__all__ = ["CAPTION_BOX", "HEADER_H", "HEIGHT", "KEY_BOX", "LOG_BOX", "PANEL_Y", "PRIVATE_W", "RING_BOTTOM", "WIDTH",
           "_STATIC", "capital_box", "draw", "picture", "draw_private", "in_play", "plate_box", "private_size", "region_boxes",
           "render_image", "render_private_image", "static_layer"]
