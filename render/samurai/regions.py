"""The eight regions (Kinai, Tokaido, ...) named on the map, so "a bowman in Tokaido" can be found.

Region borders are drawn into the land itself (render/samurai/land.py, a light line where two
regions meet). The names go into open sea next to their region's provinces, after the
province names, clear of every node, name and other region name; army badges then keep
clear of them. Where no sea near a region is free (the small Kinai inside the crowded
middle), the name goes a little further out and a leader line points at its nearest
province.

The search runs on a coarse grid of 4 px cells with a summed-area table, so a crop's eight
names cost a few milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import fonts, labels
from render.samurai import land

Box = tuple[int, int, int, int]

REGION_PX = fonts.MAP_MIN_PX  # uppercase and bold: as legible in a 550 px preview as the province names
CELL = 4
LEADER_FROM = 34.0  # a name further than this from its region's nearest node gets a leader line
MIDDLE_WEIGHT = 0.25  # how much a name prefers its region's middle to its nearest edge
REACH = 190.0  # how far from its region's nodes a name may go
_OPEN_WATER = {land.SEA, land.SHORE}  # sea lanes stay visible: a name never covers one
_LINES = {land.PROV_EDGE, land.COAST, land.BORDER, land.REGION_EDGE}  # drawn over land: whose land they cross decides


@dataclass(frozen=True)
class RegionLabel:
    """A region's name on a scene: its text, box and the node a leader line points at (if any)."""

    text: str
    box: Box
    px: int = REGION_PX
    leader_to: tuple[int, int] | None = None


def region_text(region: str) -> str:
    """The name as drawn: uppercase, so it never reads as a province ("TOKAIDO")."""
    return fonts.sanitize(region.upper(), True)


def text_size(text: str, px: int = REGION_PX) -> tuple[int, int]:
    """Width and height of an outlined region name."""
    x0, y0, x1, y1 = fonts.font(px, bold=True).getbbox(text, stroke_width=2)
    # Pillow types the box as floats; the basic layout measures whole pixels, which round keeps
    return (round(x1 - x0) + 4, round(y1 - y0) + 4)


class _FreeCells:
    """Which 4 px cells of a scene are open water or the region's own land, not covered by a mark: O(1) box queries."""

    def __init__(self, land_values: Image.Image, own: set[int], taken: Iterable[Box]) -> None:
        allowed = _OPEN_WATER | _LINES | own
        mask = land_values.point([0 if v in allowed else 255 for v in range(256)])
        draw = ImageDraw.Draw(mask)
        for b in taken:
            draw.rectangle((b[0] - 2, b[1] - 2, b[2] + 1, b[3] + 1), fill=255)
        cells = mask.reduce(CELL)  # box averages, sizes rounded up: a partly covered cell counts as taken
        self.cols, self.rows = cells.size
        values = cells.point(lambda v: 1 if v else 0).tobytes()
        sums = [[0] * (self.cols + 1) for _ in range(self.rows + 1)]
        for r in range(self.rows):
            row_total = 0
            above, here = sums[r], sums[r + 1]
            for c in range(self.cols):
                row_total += values[r * self.cols + c]
                here[c + 1] = above[c + 1] + row_total
        self.sums = sums

    def free(self, b: Box) -> bool:
        """True if no cell the box touches holds land or a mark."""
        c0, r0 = max(0, b[0] // CELL), max(0, b[1] // CELL)
        c1, r1 = min(self.cols, -(-b[2] // CELL)), min(self.rows, -(-b[3] // CELL))
        s = self.sums
        return s[r1][c1] - s[r0][c1] - s[r1][c0] + s[r0][c0] == 0


def _distance(b: Box, p: tuple[int, int]) -> float:
    """From a point to the nearest point of a box."""
    dx = max(b[0] - p[0], 0, p[0] - b[2])
    dy = max(b[1] - p[1], 0, p[1] - b[3])
    return math.hypot(dx, dy)


def _nearest(b: Box, nodes: Sequence[tuple[int, int]]) -> float:
    """From a box to the nearest of the nodes (the search's inner loop: no generator, one root)."""
    best = math.inf
    for x, y in nodes:
        dx = b[0] - x if x < b[0] else x - b[2] if x > b[2] else 0
        dy = b[1] - y if y < b[1] else y - b[3] if y > b[3] else 0
        d = dx * dx + dy * dy
        if d < best:
            best = d
    return math.sqrt(best)


def _best_spot(grid: _FreeCells, nodes: Sequence[tuple[int, int]], size: tuple[int, int], scene: tuple[int, int],
               placed: Sequence[Box]) -> Box | None:
    """The free box nearest the region's nodes, leaning towards their middle; None if none is within reach."""
    tw, th = size
    mid = (sum(x for x, _ in nodes) / len(nodes), sum(y for _, y in nodes) / len(nodes))
    best, best_score = None, math.inf
    x_lo, x_hi = max(4, min(x for x, _ in nodes) - int(REACH) - tw), min(scene[0] - 4 - tw, max(x for x, _ in nodes) + int(REACH))
    y_lo, y_hi = max(4, min(y for _, y in nodes) - int(REACH) - th), min(scene[1] - 4 - th, max(y for _, y in nodes) + int(REACH))
    for y in range(y_lo, y_hi + 1, CELL):
        for x in range(x_lo, x_hi + 1, 2 * CELL):
            lean = MIDDLE_WEIGHT * math.hypot(x + tw / 2 - mid[0], y + th / 2 - mid[1])
            if lean >= best_score:
                continue
            b = (x, y, x + tw, y + th)
            if not grid.free(b) or any(labels.overlaps(b, o) for o in placed):
                continue
            near = _nearest(b, nodes)
            if near <= REACH and near + lean < best_score:
                best, best_score = b, near + lean
    return best


def place(land_values: Image.Image, land_order: Sequence[str], centres: dict[str, tuple[int, int]],
          regions: dict[str, str], order: Sequence[str], taken: Sequence[Box], px: int = REGION_PX
          ) -> dict[str, RegionLabel]:
    """Names for the regions with a node on this scene, in open water near them, clear of `taken`.

    `order` lists the regions as the map does; the smallest go first (they have the fewest
    spots). A region no free spot within reach can take stays unnamed on this scene.
    """
    w, h = land_values.size
    members: dict[str, list[tuple[int, int]]] = {}
    for pid, c in centres.items():
        if pid in regions:
            members.setdefault(regions[pid], []).append(c)
    placed: dict[str, RegionLabel] = {}
    for region in sorted((r for r in order if r in members), key=lambda r: (len(members[r]), order.index(r))):
        nodes = members[region]
        grid = _FreeCells(land_values, {i + 1 for i, pid in enumerate(land_order) if regions.get(pid) == region}, taken)
        text = region_text(region)
        b = _best_spot(grid, nodes, text_size(text, px), (w, h), [o.box for o in placed.values()])
        if b is None:
            continue
        nearest = min(nodes, key=lambda n: _distance(b, n))
        placed[region] = RegionLabel(text, b, px, nearest if _distance(b, nearest) > LEADER_FROM else None)
    return placed
