"""Samurai Swords pictograms drawn as polygons: forts, sword, koku, banner, units, ronin, provinces.

Polygons rather than glyphs, so they look the same in every font and at every size; colours
come from the shared palette plus the castle's own roof and wall.
"""

from __future__ import annotations

from PIL import ImageDraw

from render import palette

RGB = tuple[int, int, int]

CASTLE_ROOF: RGB = (200, 60, 60)
CASTLE_WALL: RGB = (240, 230, 210)
RONIN: RGB = (210, 180, 110)
KOKU: RGB = (225, 200, 140)


def castle(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fortress: bool = False) -> None:
    """A castle (one roof) or a fortress (two roofs, gold walls)."""
    wall = palette.COIN if fortress else CASTLE_WALL
    line = palette.OUTLINE
    draw.rectangle((cx - r * 0.6, cy, cx + r * 0.6, cy + r), fill=wall, outline=line)
    draw.rectangle((cx - r * 0.18, cy + r * 0.45, cx + r * 0.18, cy + r), fill=line)
    draw.polygon([(cx - r, cy + r * 0.05), (cx + r, cy + r * 0.05), (cx + r * 0.55, cy - r * 0.4),
                  (cx - r * 0.55, cy - r * 0.4)], fill=CASTLE_ROOF, outline=line)
    if fortress:
        draw.polygon([(cx - r * 0.7, cy - r * 0.4), (cx + r * 0.7, cy - r * 0.4), (cx + r * 0.3, cy - r),
                      (cx - r * 0.3, cy - r)], fill=CASTLE_ROOF, outline=line)


def sword(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A katana (turn order position)."""
    draw.line([(cx - r * 0.8, cy + r * 0.8), (cx + r * 0.9, cy - r * 0.9)], fill=palette.TEXT, width=3)
    draw.line([(cx - r * 0.75, cy + r * 0.15), (cx - r * 0.15, cy + r * 0.75)], fill=palette.COIN, width=3)


def koku(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A rice bale (koku)."""
    draw.rounded_rectangle((cx - r, cy - r * 0.7, cx + r, cy + r * 0.7), radius=r * 0.5, fill=KOKU,
                           outline=palette.OUTLINE)
    for k in (-0.4, 0.4):
        draw.line([(cx + k * r, cy - r * 0.7), (cx + k * r, cy + r * 0.7)], fill=(150, 90, 60), width=2)


def banner(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB = palette.TEXT_DIM) -> None:
    """A sashimono banner (armies)."""
    draw.line([(cx - r * 0.5, cy + r), (cx - r * 0.5, cy - r)], fill=palette.TEXT, width=2)
    draw.rectangle((cx - r * 0.5, cy - r, cx + r * 0.7, cy + r * 0.1), fill=colour, outline=palette.OUTLINE)


def unit_icon(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    """Pictograms of the four unit kinds: spear, gun, sword, bow."""
    light, dark = palette.TEXT, palette.OUTLINE
    if kind == "spearman":
        draw.line([(cx - r * 0.7, cy + r), (cx + r * 0.5, cy - r * 0.6)], fill=light, width=3)
        draw.polygon([(cx + r * 0.3, cy - r * 0.45), (cx + r, cy - r), (cx + r * 0.65, cy - r * 0.25)], fill=light)
    elif kind == "gunner":
        draw.line([(cx - r, cy - r * 0.1), (cx + r, cy - r * 0.5)], fill=(170, 150, 120), width=4)
        draw.polygon([(cx - r, cy - r * 0.3), (cx - r * 0.3, cy - r * 0.4), (cx - r * 0.5, cy + r * 0.6),
                      (cx - r, cy + r * 0.5)], fill=(150, 90, 60), outline=dark)
    elif kind == "swordsman":
        draw.arc((cx - r * 2.2, cy - r, cx + r, cy + r * 3.2), 270, 330, fill=light, width=3)
        draw.line([(cx - r * 0.8, cy + r * 0.5), (cx - r * 0.2, cy + r)], fill=palette.COIN, width=3)
    elif kind == "bowman":
        draw.arc((cx - r * 1.6, cy - r, cx + r * 0.6, cy + r), 300, 60, fill=(170, 150, 120), width=3)
        draw.line([(cx + r * 0.05, cy - r * 0.9), (cx + r * 0.05, cy + r * 0.9)], fill=light, width=1)
        draw.line([(cx - r, cy), (cx + r * 0.9, cy)], fill=light, width=2)


def ronin_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A straw hat (ronin)."""
    draw.polygon([(cx - r, cy + r * 0.3), (cx, cy - r * 0.7), (cx + r, cy + r * 0.3)], fill=RONIN,
                 outline=palette.OUTLINE)


def province(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A little land shape (province count)."""
    draw.polygon([(cx - r, cy + r * 0.8), (cx - r * 0.3, cy - r), (cx + r, cy - r * 0.4), (cx + r * 0.6, cy + r)],
                 fill=palette.TEXT_DIM, outline=palette.OUTLINE)
