"""Geometry of the drawn Samurai Swords map: where provinces, badges and labels go.

Everything here depends on the map only (province positions, borders, lanes), so it is
computed once per map and cached with the static layer. Japan is turned 20° so that its
long arc runs across the wide image (the printed board is turned too, about 40°): that
gives each province about 40 % more room than a north-up map of the same size.
Province shapes are grown from the node positions (a disc per province, half-bridges to
its land neighbours, filled triangles), each piece cut to the province's Voronoi cell, so
neighbours meet along one edge and islands stay islands.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Point = tuple[float, float]
Box = tuple[int, int, int, int]

ROTATION_DEG = 20.0  # clockwise turn on screen: north points up-right, Japan's arc runs across
NODE_R = 13  # province node radius
FOOT_W, FOOT_H = 41, 37  # node + fort icon + ronin pill: no two of these may overlap
FOOT_LEFT, FOOT_TOP = 16, 19  # the node centre's offset inside its footprint
BADGE_W, BADGE_H = 46, 26  # army badge slot, one per province
DISC_R = 31.0  # land disc around each node
BRIDGE_HALF = 19.0  # half-width of the land strip towards a land neighbour
LABEL_PX = 17
LABEL_GAP = 2


@dataclass(frozen=True)
class Layout:
    """Screen geometry of one map inside a map box."""

    centres: dict[str, tuple[int, int]]
    footprints: dict[str, Box]
    shapes: dict[str, list[list[Point]]]  # convex pieces whose union is the province's land


def footprint(c: tuple[int, int]) -> Box:
    """The node's reserved box: node, fort icon (upper right) and ronin pill (lower right)."""
    cx, cy = c
    return (cx - FOOT_LEFT, cy - FOOT_TOP, cx - FOOT_LEFT + FOOT_W, cy - FOOT_TOP + FOOT_H)


def overlaps(a: Box, b: Box) -> bool:
    """True if two boxes share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a: Box, outer: Box) -> bool:
    """True if box `a` lies within `outer`."""
    return outer[0] <= a[0] and a[2] <= outer[2] and outer[1] <= a[1] and a[3] <= outer[3]


def project(provinces: list[dict[str, Any]], box: Box, margin: int = 40) -> dict[str, list[float]]:
    """Rotate the drawing coordinates and scale them uniformly into `box` (minus a margin)."""
    a = math.radians(ROTATION_DEG)
    ca, sa = math.cos(a), math.sin(a)
    raw = {}
    for p in provinces:
        x, y = float(p["x"]), float(p["y"])
        raw[str(p["id"])] = (x * ca - y * sa, x * sa + y * ca)  # y grows downwards: clockwise
    xs = [v[0] for v in raw.values()]
    ys = [v[1] for v in raw.values()]
    w, h = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    bw, bh = box[2] - box[0] - 2 * margin, box[3] - box[1] - 2 * margin
    s = min(bw / w, bh / h)
    ox = box[0] + margin + (bw - w * s) / 2
    oy = box[1] + margin + (bh - h * s) / 2
    return {k: [ox + (v[0] - min(xs)) * s, oy + (v[1] - min(ys)) * s] for k, v in raw.items()}


def relax(pos: dict[str, list[float]], box: Box, iterations: int = 80) -> dict[str, tuple[int, int]]:
    """Push node footprints apart (along the cheaper axis) until none overlap; keep them in `box`."""
    ids = sorted(pos)
    need_x, need_y = FOOT_W + 4, FOOT_H + 4
    for _ in range(iterations):
        moved = False
        for i, a in enumerate(ids):
            pa = pos[a]
            for b in ids[i + 1 :]:
                pb = pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                ox, oy = need_x - abs(dx), need_y - abs(dy)
                if ox <= 0 or oy <= 0:
                    continue
                moved = True
                if ox / need_x < oy / need_y:
                    s = (ox / 2 + 0.5) * (1 if dx >= 0 else -1)
                    pa[0] -= s
                    pb[0] += s
                else:
                    s = (oy / 2 + 0.5) * (1 if dy >= 0 else -1)
                    pa[1] -= s
                    pb[1] += s
        for p in pos.values():
            p[0] = min(box[2] - FOOT_W, max(box[0] + FOOT_W, p[0]))
            p[1] = min(box[3] - FOOT_H, max(box[1] + FOOT_H, p[1]))
        if not moved:
            break
    return {k: (round(v[0]), round(v[1])) for k, v in pos.items()}


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


def shapes(centres: dict[str, tuple[int, int]], borders: list[tuple[str, str]]) -> dict[str, list[list[Point]]]:
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
        pieces = [_disc(c, max(r, NODE_R + 4))]
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


# --------------------------------------------------------------------------- badges and labels


_L, _R, _T, _B = -FOOT_LEFT - BADGE_W - 2, FOOT_W - FOOT_LEFT + 2, -FOOT_TOP - BADGE_H - 2, FOOT_H - FOOT_TOP + 2
_BADGE_OFFSETS = [  # top-left of an army badge relative to its node centre, in order of preference
    (_L, -BADGE_H // 2), (-BADGE_W // 2, _T), (_L, -FOOT_TOP - BADGE_H // 2), (_R, -FOOT_TOP - BADGE_H // 2),
    (_R, -BADGE_H // 2), (-BADGE_W // 2, _B), (_L, 4), (_R, 6), (_L, _T), (_R, _T), (_L, _B), (_R, _B),
]


def place_badge(c: tuple[int, int], box: Box, hard: list[Box], soft: list[Box]) -> tuple[Box, list[int]]:
    """An army badge next to node `c`: clear of `hard` boxes, covering as few `soft` ones as possible.

    Returns the badge and the indexes of the `soft` boxes (unimportant labels) it covers.
    """
    cx, cy = c
    near_hard = [b for b in hard if abs(b[0] - cx) < 260 and abs(b[1] - cy) < 200]
    near_soft = [(i, b) for i, b in enumerate(soft) if abs(b[0] - cx) < 300 and abs(b[1] - cy) < 200]
    best: tuple[int, Box, list[int]] | None = None
    for b in _badge_spots(cx, cy):
        if not inside(b, box) or any(overlaps(b, o) for o in near_hard):
            continue
        covered = [i for i, o in near_soft if overlaps(b, o)]
        if not covered:
            return b, []
        if best is None or len(covered) < best[0]:
            best = (len(covered), b, covered)
    if best is not None:
        return best[1], best[2]
    return (cx + 30, cy - BADGE_H // 2, cx + 30 + BADGE_W, cy + BADGE_H // 2), []


def _badge_spots(cx: int, cy: int) -> Iterable[Box]:
    """Badge boxes near a node: the preferred spots, then rings further out (a leader line joins them)."""
    for dx, dy in _BADGE_OFFSETS:
        yield (round(cx + dx), round(cy + dy), round(cx + dx) + BADGE_W, round(cy + dy) + BADGE_H)
    for r in range(40, 181, 14):
        for k in range(16):
            a = 2 * math.pi * k / 16
            x, y = round(cx + r * math.cos(a) - BADGE_W / 2), round(cy + r * math.sin(a) - BADGE_H / 2)
            yield (x, y, x + BADGE_W, y + BADGE_H)


def label_candidates(c: tuple[int, int], w: int, h: int) -> list[Box]:
    """Label boxes around a node, in order of preference (below, above, right, left, corners)."""
    cx, cy = c
    f = footprint(c)
    g = LABEL_GAP
    spots = [
        (cx - w // 2, f[3] + g), (cx - w // 2, f[1] - h - g), (f[2] + g, cy - h // 2), (f[0] - w - g, cy - h // 2),
        (f[2] + g, f[3] - h // 2), (f[0] - w - g, f[3] - h // 2), (f[2] + g, f[1] - h // 2),
        (f[0] - w - g, f[1] - h // 2), (cx - w // 2, f[3] + h + 2 * g), (cx - w // 2, f[1] - 2 * h - 2 * g),
        (f[2] - w // 3, f[3] + g), (f[0] - 2 * w // 3, f[3] + g), (f[2] - w // 3, f[1] - h - g),
        (f[0] - 2 * w // 3, f[1] - h - g),
    ]
    return [(round(x), round(y), round(x) + w, round(y) + h) for x, y in spots]


def place_labels(centres: dict[str, tuple[int, int]], sizes: dict[str, list[tuple[str, int, int]]],
                 box: Box) -> dict[str, tuple[str, Box]]:
    """Name labels clear of every node footprint and of each other.

    `sizes[pid]` lists (text, width, height) from the full name to shorter fallbacks. Greedy,
    most crowded first; a province left without a spot may move one blocking label to
    another free spot of its own (one repair pass), and only then falls back to a short name.
    """
    feet = [footprint(c) for c in centres.values()]
    placed: dict[str, tuple[str, Box]] = {}

    def free(b: Box, ignore: str | None = None) -> bool:
        return inside(b, box) and not any(overlaps(b, f) for f in feet) and not any(
            overlaps(b, lb) for q, (_, lb) in placed.items() if q != ignore)

    order = sorted(centres, key=lambda p: (-sum(1 for q in centres.values() if math.dist(q, centres[p]) < 110), p))
    missing = []
    for pid in order:
        txt, w, h = sizes[pid][0]
        spot = next((b for b in label_candidates(centres[pid], w, h) if free(b)), None)
        if spot is None:
            missing.append(pid)
        else:
            placed[pid] = (txt, spot)
    for pid in missing:
        done = False
        for txt, w, h in sizes[pid]:
            for b in label_candidates(centres[pid], w, h) + _ring(centres[pid], w, h):
                if not inside(b, box) or any(overlaps(b, f) for f in feet):
                    continue
                blockers = [q for q, (_, lb) in placed.items() if overlaps(b, lb)]
                if not blockers:
                    placed[pid] = (txt, b)
                    done = True
                    break
                if len(blockers) != 1:
                    continue
                q = blockers[0]
                qtxt, qbox = placed[q]
                qw, qh = qbox[2] - qbox[0], qbox[3] - qbox[1]
                placed[pid] = (txt, b)
                alt = next((a for a in label_candidates(centres[q], qw, qh) if free(a, ignore=q)), None)
                if alt is None:
                    del placed[pid]
                    continue
                placed[q] = (qtxt, alt)
                done = True
                break
            if done:
                break
    return placed


def _ring(c: tuple[int, int], w: int, h: int) -> list[Box]:
    """Label boxes further out around a node, for the last crowded ones (drawn with a leader line)."""
    out = []
    for r in range(34, 131, 12):
        for k in range(16):
            a = 2 * math.pi * k / 16
            x, y = round(c[0] + r * math.cos(a) - w / 2), round(c[1] + r * math.sin(a) - h / 2)
            out.append((x, y, x + w, y + h))
    return out


def needs_leader(c: tuple[int, int], label: Box) -> bool:
    """True when a label sits away from its node's footprint, so a line must join them."""
    f = footprint(c)
    gx = max(label[0] - f[2], f[0] - label[2], 0)
    gy = max(label[1] - f[3], f[1] - label[3], 0)
    return gx > 2 * LABEL_GAP + 2 or gy > 2 * LABEL_GAP + 2 or (gx > 0 and gy > 0 and gx + gy > 6)
