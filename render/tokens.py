"""Vector tokens and icons: seat shapes, dice, pips and small pictograms.

Icons are drawn as polygons rather than font glyphs so they look the same in every font
and at every size; seat tokens carry the seat number so colour is never the only cue.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from render import fonts, palette

RGB = tuple[int, int, int]


def _regular(n: int, cx: float, cy: float, r: float, rotation: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(rotation + 2 * math.pi * i / n), cy + r * math.sin(rotation + 2 * math.pi * i / n))
        for i in range(n)
    ]


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]] | None:
    """Polygon of a seat shape (None for a circle); sized so all shapes look equally big."""
    if shape == "square":
        s = r * 0.86
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "triangle":
        return _regular(3, cx, cy + r * 0.18, r * 1.22, -math.pi / 2)
    if shape == "diamond":
        return _regular(4, cx, cy, r * 1.15, -math.pi / 2)
    if shape == "hexagon":
        return _regular(6, cx, cy, r * 1.05, 0)
    return None


def draw_shape(
    draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: RGB, outline: RGB, width: int = 2
) -> None:
    """Draw one seat shape centred at (cx, cy)."""
    pts = shape_points(shape, cx, cy, r)
    if pts is None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=width)
    else:
        draw.polygon(pts, fill=fill, outline=outline, width=width)


def seat_token(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float, label: bool = True) -> None:
    """A seat's token: its shape in its colour with the seat number (1-based) inside."""
    colour = palette.seat_colour(seat)
    draw_shape(draw, palette.seat_shape(seat), cx, cy, r, colour, palette.OUTLINE, 2)
    if label and r >= 9:
        dy = r * 0.12 if palette.seat_shape(seat) == "triangle" else 0
        number(draw, str(seat + 1), max(fonts.MIN_FONT_PX, round(r * 1.3)), cx, cy + dy, palette.text_on(colour))


_NUMBERS: dict[tuple[str, int, float, float], tuple[Image.Image, tuple[int, int]]] = {}
"""A seat number's glyph mask per size and sub-pixel start, as ImageDraw.text renders it."""
NUMBERS_KEPT = 1024


def number(draw: ImageDraw.ImageDraw, label: str, size: int, x: float, y: float, fill: RGB) -> None:
    """What ``draw.text((x, y), label, font=fonts.font(size, bold=True), fill=fill, anchor="mm")``
    draws, from a kept mask: a token's number is drawn on every card and banner of every map, and
    Pillow lays it out and renders it each time (~40 us). ImageDraw.text renders a one-line text
    at the fractions of its position (``start``) and draws the mask at their whole parts plus the
    mask's offset; so does this, with the mask rendered once for each fraction."""
    fraction_x, whole_x = math.modf(x)
    fraction_y, whole_y = math.modf(y)
    key = (label, size, fraction_x, fraction_y)
    made = _NUMBERS.get(key)
    if made is None:
        if len(_NUMBERS) >= NUMBERS_KEPT:
            _NUMBERS.clear()
        core, offset = fonts.font(size, bold=True).getmask2(label, "L", anchor="mm", start=(fraction_x, fraction_y))
        mask = Image.new("L", core.size)
        if core.size[0] and core.size[1]:
            mask.im.paste(core, (0, 0, *core.size))
        made = _NUMBERS[key] = (mask, offset)
    mask, (dx, dy) = made
    draw.bitmap((int(whole_x) + dx, int(whole_y) + dy), mask, fill=fill)


def coin(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A gold coin with a square hole (coin value)."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=palette.COIN, outline=palette.OUTLINE, width=1)
    h = r * 0.32
    draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=palette.OUTLINE)


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB = palette.INFLUENCE) -> None:
    """A five-pointed star (influence value)."""
    draw.polygon(_star_points(cx, cy, r), fill=fill, outline=palette.OUTLINE, width=1)


@functools.lru_cache(maxsize=1024)
def _star_points(cx: float, cy: float, r: float) -> tuple[tuple[float, float], ...]:
    """A star's corners (kept: the maps draw the same stars, ~16 a map, at the same places)."""
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + math.pi * i / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return tuple(pts)


def heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB = palette.HEALTH) -> None:
    """A heart (health)."""
    draw.ellipse((cx - r, cy - r * 0.8, cx, cy + r * 0.1), fill=fill)
    draw.ellipse((cx, cy - r * 0.8, cx + r, cy + r * 0.1), fill=fill)
    draw.polygon([(cx - r * 0.97, cy - r * 0.2), (cx + r * 0.97, cy - r * 0.2), (cx, cy + r * 0.95)], fill=fill)


def bolt(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB = palette.ENERGY) -> None:
    """A lightning bolt (energy)."""
    pts = [(0.25, -1), (-0.55, 0.12), (-0.02, 0.12), (-0.3, 1), (0.6, -0.2), (0.05, -0.2), (0.35, -1)]
    draw.polygon([(cx + x * r, cy + y * r) for x, y in pts], fill=fill, outline=palette.OUTLINE, width=1)


def fist(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """An eight-point burst (hero power), unlike the five-point influence star."""
    pts = []
    for i in range(16):
        rr = r if i % 2 == 0 else r * 0.55
        a = math.pi * i / 8
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    draw.polygon(pts, fill=(255, 150, 80), outline=palette.OUTLINE, width=1)


def swords(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB = palette.TEXT) -> None:
    """Two crossed blades on a dark disc: the contested / combat badge."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=palette.COMBAT, outline=palette.OUTLINE, width=2)
    k = r * 0.62
    for sx in (1, -1):
        draw.line([(cx - k * sx, cy + k), (cx + k * sx, cy - k)], fill=fill, width=max(2, round(r / 4)))
        draw.line(
            [(cx - k * sx - r * 0.25, cy + k - r * 0.25), (cx - k * sx + r * 0.25, cy + k + r * 0.25)],
            fill=fill,
            width=2,
        )


def infrastructure(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    """Pictogram of a building: dojo (pagoda roof), market (awning stall), watchtower."""
    line = palette.OUTLINE
    if kind == "dojo":
        draw.polygon([(cx - r, cy - r * 0.1), (cx, cy - r), (cx + r, cy - r * 0.1)], fill=(200, 60, 60), outline=line)
        draw.rectangle((cx - r * 0.65, cy - r * 0.1, cx + r * 0.65, cy + r), fill=(240, 230, 210), outline=line)
        draw.rectangle((cx - r * 0.2, cy + r * 0.3, cx + r * 0.2, cy + r), fill=(90, 60, 40))
    elif kind == "market":
        draw.rectangle((cx - r * 0.8, cy - r * 0.2, cx + r * 0.8, cy + r), fill=(240, 230, 210), outline=line)
        stripes = 4
        w = 2 * r / stripes
        for i in range(stripes):
            colour = (60, 160, 220) if i % 2 == 0 else (250, 250, 250)
            draw.polygon(
                [(cx - r + i * w, cy - r * 0.8), (cx - r + (i + 1) * w, cy - r * 0.8),
                 (cx - r + (i + 1) * w, cy - r * 0.1), (cx - r + i * w, cy - r * 0.1)],
                fill=colour,
            )
        draw.rectangle((cx - r, cy - r * 0.8, cx + r, cy - r * 0.1), outline=line)
    elif kind == "watchtower":
        draw.polygon([(cx - r * 0.6, cy - r * 0.45), (cx, cy - r), (cx + r * 0.6, cy - r * 0.45)], fill=(150, 90, 60), outline=line)
        draw.rectangle((cx - r * 0.45, cy - r * 0.45, cx + r * 0.45, cy - r * 0.05), fill=(240, 230, 210), outline=line)
        draw.polygon(
            [(cx - r * 0.3, cy - r * 0.05), (cx + r * 0.3, cy - r * 0.05), (cx + r * 0.5, cy + r), (cx - r * 0.5, cy + r)],
            fill=(170, 150, 120),
            outline=line,
        )


def flag(draw: ImageDraw.ImageDraw, x: float, y: float, h: float, colour: RGB) -> None:
    """A pennant on a pole with its foot at (x, y): marks a start location."""
    draw.line([(x, y), (x, y - h)], fill=palette.TEXT, width=2)
    draw.polygon([(x + 1, y - h), (x + h * 0.8, y - h * 0.72), (x + 1, y - h * 0.4)], fill=colour, outline=palette.TEXT)


def pips(
    draw: ImageDraw.ImageDraw, x: float, cy: float, filled: int, total: int, colour: RGB, size: int = 7, gap: int = 2
) -> float:
    """A row of small squares, `filled` of `total` lit; returns the x after the row."""
    for i in range(total):
        fill = colour if i < filled else palette.EMPTY_PIP
        draw.rectangle((x, cy - size / 2, x + size, cy + size / 2), fill=fill, outline=palette.OUTLINE)
        x += size + gap
    return x


_DIE_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def die(draw: ImageDraw.ImageDraw, x: float, y: float, size: float, value: int, hit: int) -> None:
    """A d6 face at top-left (x, y); hits (5 = one, 6 = two) get a bright frame."""
    face = (250, 250, 245) if hit else (150, 150, 158)
    edge = palette.ALERT if hit else palette.OUTLINE
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size * 0.18, fill=face, outline=edge, width=3 if hit else 1)
    c = size / 2
    step = size * 0.26
    pr = max(1.5, size * 0.09)
    for dx, dy in _DIE_PIPS.get(value, []):
        px, py = x + c + dx * step, y + c + dy * step
        draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=palette.OUTLINE)


def private_canvas(size: tuple[int, int], seat: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The frame every private panel shares: a header bar in the seat's colour and its token."""
    w, _h = size
    img = Image.new("RGB", size, palette.PANEL)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, w, 52), fill=palette.BACKGROUND_EDGE)
    draw.rectangle((0, 50, w, 53), fill=palette.seat_colour(seat))
    seat_token(draw, seat, 28, 26, 15)
    return img, draw
