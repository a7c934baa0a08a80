"""Geometry of the Samurai Swords map: the canvas, node marks, province shapes and army badges.

The canvas is 1200 px wide and tall, for phones (Discord previews it about 550 px wide):
the header, an enlarged inset of where the latest events happened, the whole of Japan, the
players, then the events, the war and a key. Everything about the whole map depends on the
map only and is computed once per map. Japan is turned 20° so that its long arc runs across
the image (the printed board is turned too, about 40°). Province shapes are grown from the
node positions (a disc per province, half-bridges to its land neighbours, filled triangles),
each piece cut to the province's Voronoi cell, so neighbours meet along one edge and islands
stay islands.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass

from engine.samurai.view_models import ProvinceView
from render.labels import inside, overlaps, overlaps_any, separate

Point = tuple[float, float]
Box = tuple[int, int, int, int]

WIDTH, HEIGHT = 1200, 1580
HEADER_H = 64
INSET_BOX: Box = (0, HEADER_H + 2, WIDTH, 600)  # caption strip on top, then the enlarged map
CAPTION_H = 40
INSET_MAP: Box = (0, INSET_BOX[1] + CAPTION_H, WIDTH, INSET_BOX[3])
MAP_BOX: Box = (0, INSET_BOX[3] + 4, WIDTH, INSET_BOX[3] + 564)  # the whole of Japan
LEGEND_Y = MAP_BOX[3] + 6
LEGEND_H = 108
LOWER_Y = LEGEND_Y + LEGEND_H + 2
KEY_BOX: Box = (8, HEIGHT - 46, WIDTH - 8, HEIGHT - 6)
EVENTS_BOX: Box = (8, LOWER_Y, 640, KEY_BOX[1] - 6)
WAR_BOX: Box = (648, LOWER_Y, WIDTH - 8, KEY_BOX[1] - 6)
RESULT_BOX: Box = (8, INSET_MAP[1] + 6, WIDTH - 8, INSET_MAP[1] + 118)  # over the inset: the final map stays whole

ROTATION_DEG = 20.0  # clockwise turn on screen: north points up-right, Japan's arc runs across
DISC_R = 31.0  # land disc around each node on the whole map
BRIDGE_HALF = 19.0  # half-width of the land strip towards a land neighbour


@dataclass(frozen=True)
class Marks:
    """Sizes of what stands at a node: the whole map and the inset draw the same marks at two sizes."""

    node_r: int
    number_px: int  # garrison count inside the node
    castle_r: int
    pill_w: int  # revealed ronin "R2"
    pill_h: int
    pill_px: int
    badge_w: int  # army badge: seat shape with the army number, daimyo level
    badge_h: int
    badge_px: int
    label_px: int
    gap: int = 2

    def castle_at(self, c: tuple[int, int]) -> tuple[int, int]:
        """Centre of the fort icon (upper right of the node)."""
        return (c[0] + self.node_r + 1, c[1] - round(self.node_r * 0.65))

    def pill(self, c: tuple[int, int]) -> Box:
        """The revealed-ronin pill (lower right of the node)."""
        return (c[0], c[1] + 2, c[0] + self.pill_w, c[1] + 2 + self.pill_h)

    def footprint(self, c: tuple[int, int]) -> Box:
        """The node's reserved box: node, fort icon and ronin pill. No two may overlap."""
        cx, cy = c
        fx, fy = self.castle_at(c)
        pill = self.pill(c)
        return (cx - self.node_r - 2, min(fy - self.castle_r, cy - self.node_r) - 1,
                max(fx + self.castle_r, pill[2]) + 1, max(cy + self.node_r, pill[3]) + 1)

    def size(self) -> tuple[int, int]:
        """Width and height of a footprint."""
        x0, y0, x1, y1 = self.footprint((0, 0))
        return (x1 - x0, y1 - y0)


WHOLE = Marks(node_r=14, number_px=20, castle_r=10, pill_w=30, pill_h=20, pill_px=20, badge_w=58, badge_h=30,
              badge_px=20, label_px=20)
INSET = Marks(node_r=21, number_px=26, castle_r=14, pill_w=40, pill_h=27, pill_px=24, badge_w=80, badge_h=40,
              badge_px=26, label_px=22)
FOCUS_LABEL_PX = 26  # names of the places where the events happened, in the inset


@dataclass(frozen=True)
class Layout:
    """Screen geometry of the whole map: node centres, footprints and land pieces."""

    centres: dict[str, tuple[int, int]]
    footprints: dict[str, Box]
    shapes: dict[str, list[list[Point]]]  # convex pieces whose union is the province's land


def project(provinces: list[ProvinceView], box: Box, margin: int = 40) -> dict[str, list[float]]:
    """Rotate the drawing coordinates and scale them uniformly into `box` (minus a margin)."""
    a = math.radians(ROTATION_DEG)
    ca, sa = math.cos(a), math.sin(a)
    raw = {}
    for p in provinces:
        x, y = p.x, p.y
        raw[p.id] = (x * ca - y * sa, x * sa + y * ca)  # y grows downwards: clockwise
    xs = [v[0] for v in raw.values()]
    ys = [v[1] for v in raw.values()]
    w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    bw, bh = box[2] - box[0] - 2 * margin, box[3] - box[1] - 2 * margin
    s = min(bw / w, bh / h)
    ox = box[0] + margin + (bw - w * s) / 2
    oy = box[1] + margin + (bh - h * s) / 2
    return {k: [ox + (v[0] - min(xs)) * s, oy + (v[1] - min(ys)) * s] for k, v in raw.items()}


def relax(pos: dict[str, list[float]], box: Box, marks: Marks = WHOLE, iterations: int = 80) -> dict[str, tuple[int, int]]:
    """Push node footprints apart (along the cheaper axis) until none overlap; keep them in `box`."""
    foot_w, foot_h = marks.size()
    bounds = (box[0] + foot_w, box[1] + foot_h, box[2] - foot_w, box[3] - foot_h)
    return separate(pos, (foot_w + 4, foot_h + 4), bounds, sorted(pos), iterations)


# --------------------------------------------------------------------------- province shapes


def _clip(poly: list[Point], a: Point, b: Point) -> list[Point]:
    """Keep the part of a convex polygon nearer to `a` than to `b` (their bisector half-plane)."""
    nx, ny = b[0] - a[0], b[1] - a[1]
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2

    def side(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny  # < 0: a's side

    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append(p)
        if (sp < 0 < sq) or (sq < 0 < sp):
            t = sp / (sp - sq)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


def _disc(c: Point, r: float, n: int = 24) -> list[Point]:
    return [(c[0] + r * math.cos(2 * math.pi * i / n), c[1] + r * math.sin(2 * math.pi * i / n)) for i in range(n)]


def _strip(a: Point, b: Point, half: float) -> list[Point]:
    """A rectangle from `a` to `b`, `half` wide on each side."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    px, py = -dy / d * half, dx / d * half
    return [(a[0] + px, a[1] + py), (b[0] + px, b[1] + py), (b[0] - px, b[1] - py), (a[0] - px, a[1] - py)]


def _components(ids: Iterable[str], land: dict[str, set[str]]) -> dict[str, int]:
    """Land masses: provinces joined by land borders share a number."""
    comp: dict[str, int] = {}
    for start in ids:
        if start in comp:
            continue
        n = len(set(comp.values()))
        stack = [start]
        while stack:
            p = stack.pop()
            if p in comp:
                continue
            comp[p] = n
            stack.extend(q for q in land.get(p, ()) if q not in comp)
    return comp


def shapes(centres: dict[str, tuple[int, int]], borders: list[tuple[str, str]],
           min_r: float = WHOLE.node_r + 4) -> dict[str, list[list[Point]]]:
    """Convex pieces of each province's land, cut to its Voronoi cell.

    Discs shrink where a province of another land mass is near, so straits stay open water.
    """
    land: dict[str, set[str]] = {k: set() for k in centres}
    for a, b in borders:
        if a in land and b in land:
            land[a].add(b)
            land[b].add(a)
    comp = _components(sorted(centres), land)
    reach = 4 * DISC_R
    out: dict[str, list[list[Point]]] = {}
    for pid, c in centres.items():
        near = [q for q, d in centres.items() if q != pid and math.dist(c, d) < reach]
        r = DISC_R
        for q in near:
            if comp[q] != comp[pid]:
                r = min(r, math.dist(c, centres[q]) / 2 - 6)
        pieces = [_disc(c, max(r, min_r))]
        for q in land[pid]:
            pieces.append(_strip(c, centres[q], BRIDGE_HALF))
            for t in land[pid] & land[q]:  # a triangle of mutual neighbours: fill the hole
                pieces.append([c, centres[q], centres[t]])
        cut = []
        for poly in pieces:
            for q in near:
                if len(poly) < 3:
                    break
                poly = _clip(poly, c, centres[q])
            for q in land[pid]:  # far neighbours are not in `near` but still bound the bridge
                if q not in near and len(poly) >= 3:
                    poly = _clip(poly, c, centres[q])
            if len(poly) >= 3:
                cut.append(poly)
        out[pid] = cut
    return out


# --------------------------------------------------------------------------- army badges

BADGE_REACH = 7  # badges search up to this many footprint widths from their node (joined by a line)


def _badge_spots(c: tuple[int, int], marks: Marks) -> Iterable[Box]:
    """Badge boxes near a node, in order of preference, then rings further out (a leader line joins them)."""
    w, h = marks.badge_w, marks.badge_h
    f = marks.footprint(c)
    cx, cy = c
    left, right, top, below = f[0] - w - 2, f[2] + 2, f[1] - h - 2, f[3] + 2
    spots = [(left, cy - h / 2), (cx - w / 2, top), (left, f[1] - h / 2), (right, f[1] - h / 2),
             (right, cy - h / 2), (cx - w / 2, below), (left, cy + 4), (right, cy + 6), (left, top),
             (right, top), (left, below), (right, below)]
    for x, y in spots:
        yield (round(x), round(y), round(x) + w, round(y) + h)
    foot_w = f[2] - f[0]
    step = max(10, foot_w // 3)
    for r in range(foot_w, foot_w * BADGE_REACH + 1, step):
        n = 16 if r <= foot_w * 4 else 24  # further out, more angles: a crowded corner still finds a gap
        for cos, sin in _ring(n):
            x, y = round(cx + r * cos - w / 2), round(cy + r * sin - h / 2)
            yield (x, y, x + w, y + h)


@functools.cache
def _ring(n: int) -> tuple[tuple[float, float], ...]:
    """Cosine and sine of `n` angles evenly round a circle (a badge ring's directions)."""
    return tuple((math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n))


def place_badge(c: tuple[int, int], box: Box, hard: list[Box], soft: list[Box],
                marks: Marks = WHOLE) -> tuple[Box, list[int]]:
    """An army badge next to node `c`: clear of `hard` boxes, covering as few `soft` ones as possible.

    Returns the badge and the indexes of the `soft` boxes (unimportant labels) it covers.
    """
    cx, cy = c
    reach = marks.size()[0] * BADGE_REACH + marks.badge_w
    near_hard = [b for b in hard if abs(b[0] - cx) < reach and abs(b[1] - cy) < reach]
    near_soft = [(i, b) for i, b in enumerate(soft) if abs(b[0] - cx) < reach + 40 and abs(b[1] - cy) < reach]
    best: tuple[int, Box, list[int]] | None = None
    for b in _badge_spots(c, marks):
        if not inside(b, box) or overlaps_any(b, near_hard):
            continue
        covered = [i for i, o in near_soft if overlaps(b, o)]
        if not covered:
            return b, []
        if best is None or len(covered) < best[0]:
            best = (len(covered), b, covered)
    if best is not None:
        return best[1], best[2]
    far = _far_badge(c, box, hard, soft, marks)
    if far is not None:
        return far
    f = marks.footprint(c)
    return (f[2] + 2, cy - marks.badge_h // 2, f[2] + 2 + marks.badge_w, cy + marks.badge_h // 2), []


FAR_STEP = 6  # px between the badge spots tried over the whole scene when no ring spot is clear


def _far_badge(c: tuple[int, int], box: Box, hard: list[Box], soft: list[Box],
               marks: Marks) -> tuple[Box, list[int]] | None:
    """The nearest badge spot anywhere in `box` clear of `hard`, covering as few `soft` boxes as possible.

    The rings around a node sample too few spots for a crowded corner of the inset (a battle
    there, its names kept and the region names around it): the badge used to land on a node.
    This scan of the whole scene runs only then, so no badge placed by the rings moves.
    """
    w, h = marks.badge_w, marks.badge_h
    cx, cy = c
    spots = [(x, y, x + w, y + h) for x in range(box[0], box[2] - w + 1, FAR_STEP)
             for y in range(box[1], box[3] - h + 1, FAR_STEP)]
    spots.sort(key=lambda b: ((b[0] + w / 2 - cx) ** 2 + (b[1] + h / 2 - cy) ** 2, b))
    best: tuple[int, Box, list[int]] | None = None
    for b in spots:
        if overlaps_any(b, hard):
            continue
        covered = [i for i, o in enumerate(soft) if overlaps(b, o)]
        if not covered:
            return b, []
        if best is None or len(covered) < best[0]:
            best = (len(covered), b, covered)
    return (best[1], best[2]) if best is not None else None
