"""The land of Japan as an indexed image, painted once per map (and once per inset crop).

Every pixel holds a value, not a colour: 0 is sea, 1..68 the provinces in view order, then
shore, edges, coast, borders and lanes. A phase only swaps the palette entries of the
provinces by owner (a few ms) instead of repainting 68 polygons.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.samurai.view_models import ProvinceView, PublicView
from render import palette

RGB = tuple[int, int, int]
Point = tuple[float, float]

SEA, SHORE, PROV_EDGE, COAST, BORDER, LANE, HEADER_BG, PANEL_BG, RULE = 0, 100, 101, 102, 103, 104, 105, 106, 107
REGION_EDGE = 108
SEA_RGB: RGB = (24, 42, 64)
SHORE_RGB: RGB = (36, 62, 90)
PROV_EDGE_RGB: RGB = (28, 30, 36)
COAST_RGB: RGB = (14, 16, 20)
BORDER_RGB: RGB = (150, 140, 118)
LANE_RGB: RGB = (120, 170, 220)
REGION_EDGE_RGB: RGB = (236, 226, 200)  # light: the eight regions show whoever owns the land (names drawn the same)
REGION_RGB: dict[str, RGB] = {  # muted, greyish: unowned land only, never mistaken for a seat
    "Kinai": (112, 104, 96), "Tokaido": (98, 104, 96), "Tosando": (92, 98, 108), "Hokurikudo": (104, 100, 112),
    "San'indo": (108, 108, 92), "San'yodo": (100, 96, 88), "Nankaido": (90, 104, 104), "Saikaido": (106, 96, 100),
}
REGION_DEFAULT: RGB = (100, 100, 100)
OWNER_TINT = tuple(palette.tint(c, 0.42) for c in palette.SEAT_COLOURS)
LAND_COLOURS: list[RGB] = [SEA_RGB, SHORE_RGB, PROV_EDGE_RGB, COAST_RGB, BORDER_RGB, LANE_RGB, REGION_EDGE_RGB,
                           *REGION_RGB.values(),
                           REGION_DEFAULT, *OWNER_TINT]


def paint(size: tuple[int, int], origin: tuple[int, int], order: Sequence[str], pieces: dict[str, list[list[Point]]],
          centres: dict[str, tuple[int, int]], regions: dict[str, str], borders: Sequence[tuple[str, str]],
          lanes: Sequence[tuple[str, str]], line: int = 2) -> Image.Image:
    """The indexed land of `size` whose top-left is canvas point `origin` (cells, edges, coast, lanes, borders).

    `line` is the width of borders and lanes (the inset draws them thicker).
    """
    ox, oy = origin

    def local(p: Point) -> Point:
        return (p[0] - ox, p[1] - oy)

    idx = Image.new("L", size, SEA)
    d = ImageDraw.Draw(idx)
    for i, pid in enumerate(order):
        for poly in pieces.get(pid, ()):
            d.polygon([local(p) for p in poly], fill=i + 1)
    land = idx.point(lambda v: 255 if v else 0)
    # province edges (2 px) inside the land; a darker coastline; a lighter shore in the sea
    edges = ImageChops.multiply(_edges(idx), land)
    coast = ImageChops.subtract(land, _shrink(land, line))
    shore = ImageChops.subtract(_grow(land, 2 * line), land)
    # region boundaries: wider and light, so the eight regions show whoever owns the land
    region_no = {r: k + 1 for k, r in enumerate(sorted(set(regions.values())))}
    rlut = [0] + [region_no[regions[pid]] for pid in order] + [0] * (255 - len(order))
    redges = ImageChops.multiply(_grow(_edges(idx.point(rlut)), line // 2), land)
    idx.paste(SHORE, mask=shore)
    idx.paste(PROV_EDGE, mask=edges)
    idx.paste(REGION_EDGE, mask=redges)
    idx.paste(COAST, mask=coast)
    # sea lanes: dashes over open water only
    lane_mask = Image.new("L", size, 0)
    ld = ImageDraw.Draw(lane_mask)
    for a, b in lanes:
        if a in centres and b in centres:
            dashed(ld, local(centres[a]), local(centres[b]), 255, line + 1, 4.5 * line, 3.5 * line)
    idx.paste(LANE, mask=ImageChops.subtract(lane_mask, land))
    for a, b in borders:
        if a in centres and b in centres:
            d.line([local(centres[a]), local(centres[b])], fill=BORDER, width=line)
    return idx


def base_lut(order: Sequence[str], regions: dict[str, str]) -> list[int]:
    """The 768-entry palette of the land values: unowned provinces in their region's grey."""
    lut = [0] * 768
    for value, rgb in ((SEA, SEA_RGB), (SHORE, SHORE_RGB), (PROV_EDGE, PROV_EDGE_RGB), (COAST, COAST_RGB),
                       (BORDER, BORDER_RGB), (LANE, LANE_RGB), (REGION_EDGE, REGION_EDGE_RGB),
                       (HEADER_BG, palette.BACKGROUND_EDGE),
                       (PANEL_BG, palette.PANEL), (RULE, palette.PANEL_EDGE)):
        lut[3 * value: 3 * value + 3] = rgb
    for i, pid in enumerate(order):
        lut[3 * (i + 1): 3 * (i + 1) + 3] = REGION_RGB.get(regions[pid], REGION_DEFAULT)
    return lut


def owner(province: ProvinceView | None) -> int | None:
    """The owning seat, or None for unowned and LWTV-neutral provinces (drawn grey)."""
    if province is None or province.neutral:
        return None
    return province.owner


def frame_lut(lut: Sequence[int], order: Sequence[str], view: PublicView) -> list[int]:
    """The base palette with each owned province's entry set to its owner's tint."""
    out = list(lut)
    by_id = {p.id: p for p in view.provinces}
    for i, pid in enumerate(order):
        o = owner(by_id.get(pid))
        if o is not None:
            out[3 * (i + 1): 3 * (i + 1) + 3] = OWNER_TINT[o % len(OWNER_TINT)]
    return out


def _edges(index: Image.Image) -> Image.Image:
    """255 where a pixel's left/right/upper/lower neighbour has another value (2 px lines)."""
    out = Image.new("L", index.size, 0)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        out = ImageChops.lighter(out, ImageChops.difference(index, ImageChops.offset(index, dx, dy)))
    return out.point(lambda v: 255 if v else 0)


def _grow(mask: Image.Image, r: int) -> Image.Image:
    """Dilate a 0/255 mask by `r` px (a box blur is much faster than a max filter)."""
    if r <= 0:
        return mask
    return mask.filter(ImageFilter.BoxBlur(r)).point(lambda v: 255 if v else 0)


def _shrink(mask: Image.Image, r: int) -> Image.Image:
    """Erode a 0/255 mask by `r` px."""
    return ImageChops.invert(_grow(ImageChops.invert(mask), r))


def dashed(draw: ImageDraw.ImageDraw, a: Point, b: Point, fill: Any, width: int, dash: float, gap: float) -> None:
    """A dashed straight line from a to b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if not length:
        return
    ux, uy = dx / length, dy / length
    t = 0.0
    while t < length:
        e = min(t + dash, length)
        draw.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)], fill=fill, width=width)
        t = e + gap
