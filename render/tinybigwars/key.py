"""Tiny Big Wars pictograms (minions, locations, heroes) and the icon key under the map.

The key is part of the static layer: it says once what every mark on the plates means,
in two rows at the maps' smallest text size (fonts.MAP_MIN_PX).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import fonts, palette, text, tokens
from render.tinybigwars import layout as lay

PX = fonts.MAP_MIN_PX


def minion(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A small grey figure (minions)."""
    draw.ellipse((cx - r * 0.45, cy - r, cx + r * 0.45, cy - r * 0.1), fill=palette.TEXT_DIM)
    draw.pieslice((cx - r * 0.9, cy - r * 0.1, cx + r * 0.9, cy + r * 1.6), 180, 360, fill=palette.TEXT_DIM)


def location(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A little plate (locations controlled)."""
    draw.rounded_rectangle((cx - r, cy - r * 0.7, cx + r, cy + r * 0.7), radius=3, fill=palette.PLATE_EDGE,
                           outline=palette.TEXT_DIM)


def hero(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A bigger, gold figure: heroes (minions are the small grey one)."""
    k = r * 1.2
    draw.ellipse((cx - k * 0.42, cy - k, cx + k * 0.42, cy - k * 0.18), fill=palette.COIN, outline=palette.OUTLINE)
    draw.pieslice((cx - k * 0.95, cy - k * 0.2, cx + k * 0.95, cy + k * 1.6), 180, 360, fill=palette.COIN,
                  outline=palette.OUTLINE)


def draw_key(img: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """What the pictograms mean, in two rows under everything (static)."""
    x0, y0, x1, y1 = lay.KEY_BOX
    rows = (y0 + 18, y0 + 52)
    dim = palette.TEXT_DIM

    def item(x: float, y: float, label: str) -> float:
        return text.stamp(img, (x, y), label, PX, stroke=0, fill=dim, anchor="lm")[2] + 22

    x: float = x0 + 12
    for icon, label in ((tokens.coin, "coin"), (tokens.star, "influence")):
        icon(draw, x, rows[0], 10)
        x = item(x + 16, rows[0], label)
    tokens.flag(draw, x - 4, rows[0] + 11, 22, palette.NEUTRAL)
    x = item(x + 16, rows[0], "start")
    for kind, label in (("dojo", "dojo"), ("market", "market"), ("watchtower", "watchtower")):
        tokens.infrastructure(draw, kind, x, rows[0] - 1, 11)
        x = item(x + 16, rows[0], label)
    item(x, rows[0], "2+1 = with building")
    x = x0 + 12
    tokens.swords(draw, x, rows[1], 11)
    x = item(x + 16, rows[1], "contested")
    draw.rounded_rectangle((x - 4, rows[1] - 11, x + 22, rows[1] + 11), radius=5, outline=palette.ALERT, width=3)
    x = item(x + 30, rows[1], "named in the latest events")
    minion(draw, x, rows[1], 10)
    x = item(x + 14, rows[1], "minions")
    hero(draw, x, rows[1], 10)
    x = item(x + 14, rows[1], "heroes")
    text.stamp(img, (x, rows[1]), text.ellipsize("grey name = acted", fonts.font(PX), x1 - x - 6), PX, stroke=0,
               fill=dim, anchor="lm")
