"""Name labels placed next to their markers, clear of every marker and of each other.

One routine for every map that names many places in little room (the Samurai overview and
its enlarged inset): labels try the spots around their marker's footprint, the most crowded
places first; a place left without a spot may move one blocking label elsewhere, then tries
spots further out (drawn with a leader line), and only then a shorter text. `separate` is the
one relaxation loop that first pushes the marks themselves apart (Samurai nodes, Tiny Big
Wars plates).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

Box = tuple[int, int, int, int]
Size = tuple[str, int, int]  # text, width, height


def overlaps(a: Box, b: Box) -> bool:
    """True if two boxes share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlaps_any(a: Box, boxes: Iterable[Box]) -> bool:
    """True if box `a` shares any area with one of `boxes` (``overlaps`` inlined: placing a
    Samurai map's badges and labels asks this tens of thousands of times a draw)."""
    x0, y0, x1, y1 = a
    for b in boxes:  # noqa: SIM110 (a loop, not any() over a generator: a third of the time)
        if x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1:
            return True
    return False


def inside(a: Box, outer: Box) -> bool:
    """True if box `a` lies within `outer`."""
    return outer[0] <= a[0] and a[2] <= outer[2] and outer[1] <= a[1] and a[3] <= outer[3]


def centre(box: Box) -> tuple[float, float]:
    """The middle of a box."""
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def candidates(foot: Box, w: int, h: int, gap: int) -> list[Box]:
    """Label boxes touching a footprint, in order of preference (below, above, right, left, corners)."""
    cx, cy = centre(foot)
    f = foot
    g = gap
    spots = [
        (cx - w / 2, f[3] + g), (cx - w / 2, f[1] - h - g), (f[2] + g, cy - h / 2), (f[0] - w - g, cy - h / 2),
        (f[2] + g, f[3] - h / 2), (f[0] - w - g, f[3] - h / 2), (f[2] + g, f[1] - h / 2),
        (f[0] - w - g, f[1] - h / 2), (cx - w / 2, f[3] + h + 2 * g), (cx - w / 2, f[1] - 2 * h - 2 * g),
        (f[2] - w / 3, f[3] + g), (f[0] - 2 * w / 3, f[3] + g), (f[2] - w / 3, f[1] - h - g),
        (f[0] - 2 * w / 3, f[1] - h - g),
    ]
    # then every other spot still touching the footprint: slid along its four sides
    fw, fh = f[2] - f[0], f[3] - f[1]
    for k in range(1, 5):
        t = k / 5
        x = f[0] - w + 6 + (fw + w - 12) * t
        spots += [(x, f[3] + g), (x, f[1] - h - g)]
        y = f[1] - h + 4 + (fh + h - 8) * t
        spots += [(f[2] + g, y), (f[0] - w - g, y)]
    return [(round(x), round(y), round(x) + w, round(y) + h) for x, y in spots]


def ring(foot: Box, w: int, h: int, reach: float) -> list[Box]:
    """Label boxes further out around a footprint, up to `reach` px (a leader line joins them)."""
    cx, cy = centre(foot)
    start = max(foot[2] - foot[0], foot[3] - foot[1]) * 0.8
    step = max(8.0, reach / 8)
    out = []
    r = start
    while r <= reach:
        for k in range(16):
            a = 2 * math.pi * k / 16
            x, y = round(cx + r * math.cos(a) - w / 2), round(cy + r * math.sin(a) - h / 2)
            out.append((x, y, x + w, y + h))
        r += step
    return out


def needs_leader(foot: Box, label: Box, gap: int) -> bool:
    """True when a label sits away from its footprint, so a line must join them."""
    gx = max(label[0] - foot[2], foot[0] - label[2], 0)
    gy = max(label[1] - foot[3], foot[1] - label[3], 0)
    return gx > 2 * gap + 2 or gy > 2 * gap + 2 or (gx > 0 and gy > 0 and gx + gy > 6)


def place(feet: Mapping[str, Box], sizes: Mapping[str, Sequence[Size]], box: Box, gap: int = 2,
          reach: float = 130.0, crowd: float = 110.0, first: Iterable[str] = (),
          obstacles: Sequence[Box] = ()) -> dict[str, tuple[str, Box]]:
    """Labels for the places in `sizes`, each by its footprint in `feet`, inside `box`.

    `sizes[id]` lists (text, width, height) from the preferred text to shorter fallbacks.
    Places in `first` go first (they get the best spots), then the most crowded (the most
    footprints within `crowd` px). Every footprint and every `obstacles` box stays clear.
    """
    blocked = list(feet.values()) + list(obstacles)
    placed: dict[str, tuple[str, Box]] = {}

    def clear_of_marks(b: Box) -> bool:
        return inside(b, box) and not overlaps_any(b, blocked)

    def free(b: Box, ignore: str | None = None) -> bool:
        return clear_of_marks(b) and not any(overlaps(b, lb) for q, (_, lb) in placed.items() if q != ignore)

    mids = {pid: centre(f) for pid, f in feet.items()}
    head = [p for p in dict.fromkeys(first) if p in sizes]
    rest = sorted((p for p in sizes if p not in head),
                  key=lambda p: (-sum(1 for q in mids.values() if math.dist(q, mids[p]) < crowd), p))
    missing = []
    for pid in head + rest:
        txt, w, h = sizes[pid][0]
        spot = next((b for b in candidates(feet[pid], w, h, gap) if free(b)), None)
        if spot is None:
            missing.append(pid)
        else:
            placed[pid] = (txt, spot)
    for pid in missing:
        _repair(pid, feet, sizes[pid], placed, clear_of_marks, free, gap, reach)
    return placed


def _repair(pid: str, feet: Mapping[str, Box], options: Sequence[Size], placed: dict[str, tuple[str, Box]],
            clear_of_marks: Callable[[Box], bool], free: Callable[..., bool], gap: int, reach: float) -> None:
    """Find a spot for `pid`, moving at most one blocking label to another free spot of its own."""
    for txt, w, h in options:
        for b in candidates(feet[pid], w, h, gap) + ring(feet[pid], w, h, reach):
            if not clear_of_marks(b):
                continue
            blockers = [q for q, (_, lb) in placed.items() if overlaps(b, lb)]
            if not blockers:
                placed[pid] = (txt, b)
                return
            if len(blockers) != 1:
                continue
            q = blockers[0]
            qtxt, qbox = placed[q]
            placed[pid] = (txt, b)
            alt = next((a for a in candidates(feet[q], qbox[2] - qbox[0], qbox[3] - qbox[1], gap)
                        if free(a, ignore=q)), None)
            if alt is None:
                del placed[pid]
                continue
            placed[q] = (qtxt, alt)
            return


def separate(pos: dict[str, list[float]], need: tuple[float, float], bounds: tuple[float, float, float, float],
             order: Sequence[str], iterations: int) -> dict[str, tuple[int, int]]:
    """Push centres apart until no two are closer than `need` (width, height) on both axes.

    Each overlapping pair moves apart along the cheaper axis, `order` fixing which pair goes
    first; after every sweep the centres are held within `bounds` (x0, y0, x1, y1). Every map
    that spreads marks out (Samurai nodes, Tiny Big Wars plates) relaxes with this one loop.
    """
    need_x, need_y = need
    for _ in range(iterations):
        moved = False
        for i, a in enumerate(order):
            first = pos[a]
            for b in order[i + 1 :]:
                second = pos[b]
                dx, dy = second[0] - first[0], second[1] - first[1]
                over_x, over_y = need_x - abs(dx), need_y - abs(dy)
                if over_x <= 0 or over_y <= 0:
                    continue
                moved = True
                if over_x / need_x < over_y / need_y:
                    shift = (over_x / 2 + 0.5) * (1 if dx >= 0 else -1)
                    first[0] -= shift
                    second[0] += shift
                else:
                    shift = (over_y / 2 + 0.5) * (1 if dy >= 0 else -1)
                    first[1] -= shift
                    second[1] += shift
        for point in pos.values():
            point[0] = min(bounds[2], max(bounds[0], point[0]))
            point[1] = min(bounds[3], max(bounds[1], point[1]))
        if not moved:
            break
    return {key: (round(point[0]), round(point[1])) for key, point in pos.items()}
