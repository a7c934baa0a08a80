"""Step 8: Lantern Hunt's pictures (what ``render/<key>/`` holds): the public board and a
seat's private panel, drawn from the typed views. The public view is parsed with
render.views.parse, which drops a seat view's ``you``: the board cannot draw a hidden lantern."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from render import fonts, palette, panels
from render.views import parse
from tests.addgame.lanterns.view_models import PublicView, SeatView

WIDTH, HEIGHT = 900, 420
PRIVATE = (480, 140)


def _name(seat: int, names: list[str] | None) -> str:
    return names[seat] if names and seat < len(names) else f"Player {seat + 1}"


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def draw(view: PublicView | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """The places, who searched where, the scores and the newest events."""
    shown = parse(PublicView, view)
    image = Image.new("RGB", (WIDTH, HEIGHT), palette.BACKGROUND)
    pen = ImageDraw.Draw(image)
    pen.text((20, 14), f"Lantern Hunt - {shown.phase_label}", font=fonts.font(26, bold=True), fill=palette.TEXT)
    width = (WIDTH - 40) // len(shown.places)
    for index, place in enumerate(shown.places):
        left = 20 + index * width
        pen.rounded_rectangle((left, 60, left + width - 12, 190), 10, fill=palette.PANEL)
        pen.text((left + 12, 70), place.name, font=fonts.font(22, bold=True), fill=palette.TEXT)
        pen.text((left + 12, 100), f"glow {place.glow}", font=fonts.font(18), fill=palette.TEXT_DIM)
        for seat in shown.seats:
            if seat.searched == place.id:
                pen.ellipse((left + 12 + 30 * seat.seat, 150, left + 36 + 30 * seat.seat, 174),
                            fill=palette.seat_colour(seat.seat))
    for seat in shown.seats:
        y = 205 + 28 * seat.seat
        pen.rectangle((20, y + 4, 36, y + 20), fill=palette.seat_colour(seat.seat))
        status = "hidden" if seat.hidden else "hiding..."
        pen.text((46, y), f"{_name(seat.seat, names)}: {seat.score} glow, {status}", font=fonts.font(18),
                 fill=palette.TEXT)
    waiting = [prompt.seat for prompt in shown.prompts if not prompt.answered]
    panels.events_box(image, (20, 300, WIDTH - 20, HEIGHT - 10), waiting, shown.log, names, 18, 24)
    return _png(image)


def draw_private(view: SeatView | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """Where the seat hid its lantern this round."""
    shown = parse(SeatView, view)
    image = Image.new("RGB", PRIVATE, palette.PANEL)
    panels.private_title(image, f"{_name(shown.you.seat, names)}'s lantern", PRIVATE[0])
    where = next((place.name for place in shown.places if place.id == shown.you.hidden), None)
    ImageDraw.Draw(image).text((20, 70), f"Hidden in the {where}" if where else "Not hidden yet",
                               font=fonts.font(22), fill=palette.TEXT)
    return _png(image)
