"""Player legend rows: seat token, name, a progress bar towards the goal and small facts.

Shared by the game maps so every game shows players the same way: the seat's shape and
number next to its colour, the name ellipsised to the panel width.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render import fonts, palette, text, tokens

Icon = Callable[[ImageDraw.ImageDraw, float, float, float], None]


@dataclass(frozen=True)
class Entry:
    """One player's legend row."""

    seat: int
    name: str
    progress: int | None = None  # e.g. influence
    target: int | None = None  # e.g. 10 to win
    progress_icon: Icon | None = None
    facts: list[tuple[Icon, str]] = field(default_factory=list)
    status: str = ""
    status_colour: tuple[int, int, int] = palette.TEXT_DIM
    highlight: bool = False  # whose turn it is


NAME_PX = 22
FACT_PX = 20  # the public maps' smallest text (fonts.MAP_MIN_PX)
ROW_H = 108  # a card's height: name, progress bar, facts


def card_origin(index: int, count: int, width: int, y: int) -> tuple[int, int, int]:
    """Top-left and width of the `index`-th of `count` legend cards spread across `width` px."""
    w = (width - 16 - 8 * (count - 1)) // max(1, count)
    return (8 + index * (w + 8), y, w)


def name_for(names: list[str] | None, seat: int) -> str:
    """The seat's display name, falling back to "Player N" for missing or blank names."""
    if names and seat < len(names) and names[seat] and names[seat].strip():
        return names[seat].strip()
    return f"Player {seat + 1}"


def draw_card(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, seat: int, highlight: bool = False) -> None:
    """A legend card's frame, its seat's colour bar and token: what every card shows before its
    name row, bar and facts (the Tiny Big Wars layer holds the empty cards drawn by this)."""
    edge = palette.ALERT if highlight else palette.PANEL_EDGE
    draw.rounded_rectangle((x, y, x + w, y + h - 4), radius=8, fill=palette.PLATE, outline=edge, width=3 if highlight else 1)
    draw.rectangle((x + 1, y + 6, x + 5, y + h - 10), fill=palette.seat_colour(seat))
    tokens.seat_token(draw, seat, x + 24, y + 21, 15)


def draw_entry(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, e: Entry) -> None:
    """Draw one legend card inside the box (x, y, x+w, y+h): name row, progress bar, facts."""
    colour = palette.seat_colour(e.seat)
    draw_card(draw, x, y, w, h, e.seat, e.highlight)
    status_w = 0
    if e.status:
        f = fonts.font(FACT_PX, bold=True)
        status_w = int(f.getlength(e.status)) + 6
        text.stamp(image, (x + w - 8, y + 21), e.status, FACT_PX, bold=True, fill=e.status_colour, stroke=0, anchor="rm")
    name, name_px = text.fitted(e.name, w - 52 - status_w, (NAME_PX, 21, FACT_PX), bold=True)
    text.stamp(image, (x + 44, y + 21), name, name_px, bold=True, stroke=0, anchor="lm")
    cy = y + 52
    if e.progress is not None and e.target:
        if e.progress_icon:
            e.progress_icon(draw, x + 22, cy, 11)
        label = f"{e.progress}/{e.target}"
        label_w = int(fonts.font(FACT_PX, bold=True).getlength(label))
        bx0, bx1 = x + 38, x + w - 16 - label_w
        draw.rectangle((bx0, cy - 8, bx1, cy + 8), fill=palette.BACKGROUND, outline=palette.PANEL_EDGE)
        frac = max(0.0, min(1.0, e.progress / e.target))
        if frac > 0:
            draw.rectangle((bx0 + 1, cy - 7, bx0 + 1 + (bx1 - bx0 - 2) * frac, cy + 7), fill=colour)
        text.stamp(image, (x + w - 8, cy), label, FACT_PX, bold=True, stroke=0, anchor="rm")
    fx = x + 12
    fy = y + 82
    for icon, label in e.facts:
        if fx > x + w - 30:
            break
        icon(draw, fx + 9, fy, 9)
        label = text.ellipsize(label, fonts.font(FACT_PX), x + w - 8 - (fx + 20))
        fx = text.stamp(image, (fx + 20, fy), label, FACT_PX, stroke=0, anchor="lm")[2] + 12
