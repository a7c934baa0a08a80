"""Drawing a scene of provinces: nodes, army badges, battle and attack marks, then the names.

The whole map and the enlarged inset are drawn by the same code at two sizes (their
`Marks`), each on its own sub-image in coordinates local to it, so nothing spills over.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from engine.samurai.view_models import ArmyMarker, ProvinceView, PublicView
from render import labels, palette, text, tokens
from render.samurai import icons, land
from render.samurai import layout as lay
from render.samurai.scene import Scene

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]


def alive_armies(view: PublicView, centres: dict[str, Any]) -> list[ArmyMarker]:
    """Armies drawn on a scene, one per province, in a stable order."""
    seen: dict[str, ArmyMarker] = {}
    for army in view.armies:
        if army.alive and army.location is not None and army.location in centres:
            seen.setdefault(army.location, army)
    return [seen[k] for k in sorted(seen, key=lambda k: (seen[k].seat, seen[k].army))]


def important(view: PublicView) -> set[str]:
    """Provinces whose names are drawn bright: forts, armies, ronin, the war's targets."""
    out = {p.id for p in view.provinces if p.fort or p.ronin}
    out |= {army.location for army in view.armies if army.alive and army.location}
    war = view.war
    if war is not None:
        for declaration in war.declarations:
            out |= {declaration.source, declaration.target}
        if war.battle is not None:
            out.add(war.battle.target)
    return out


def placements(view: PublicView, scene: Scene, keep: set[str]) -> tuple[dict[str, Box], dict[str, Box]]:
    """A scene's army badges and the name labels drawn, by province (local coordinates).

    Badges go next to their node, never over a node or a name in `keep` (forts, armies,
    battles, the action); an unimportant name a badge has to cover is left out.
    """
    marks = scene.marks
    hard = (list(scene.footprints.values()) + [lab.box for pid, lab in scene.labels.items() if pid in keep]
            + [lab.box for lab in scene.regions.values()])
    soft_ids = [pid for pid in scene.labels if pid not in keep]
    soft = [scene.labels[pid].box for pid in soft_ids]
    w, h = scene.size
    inner = (4, 4, w - 4, h - 4)
    badges: dict[str, Box] = {}
    hidden: set[str] = set()
    for army in alive_armies(view, scene.centres):
        pid = str(army.location)
        b, covered = lay.place_badge(scene.centres[pid], inner, hard, soft, marks)
        badges[pid] = b
        hard.append(b)
        hidden |= {soft_ids[i] for i in covered}
    names = {pid: lab.box for pid, lab in scene.labels.items() if pid not in hidden}
    return badges, names


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], colour: RGB, marks: lay.Marks) -> None:
    """An attack declaration: a thick arrow from the source node to the target node."""
    k = marks.node_r / lay.WHOLE.node_r
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    start = (a[0] + ux * (marks.node_r + 2), a[1] + uy * (marks.node_r + 2))
    tip = (b[0] - ux * (marks.node_r + 3), b[1] - uy * (marks.node_r + 3))
    draw.line([start, tip], fill=palette.OUTLINE, width=round(8 * k))
    draw.line([start, tip], fill=colour, width=round(4 * k))
    head, half = 14 * k, 8 * k
    base = (tip[0] - ux * head, tip[1] - uy * head)
    draw.polygon([tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)],
                 fill=colour, outline=palette.OUTLINE)


def _towards(a: tuple[float, float], b: tuple[int, int], short: float) -> tuple[float, float]:
    """The point `short` px before `b` on the line from `a`: a leader line stops at the node's edge."""
    d = math.dist(a, b) or 1.0
    return (b[0] - (b[0] - a[0]) * short / d, b[1] - (b[1] - a[1]) * short / d)


def _node(img: Image.Image, draw: ImageDraw.ImageDraw, p: ProvinceView, c: tuple[int, int],
          army: ArmyMarker | None, marks: lay.Marks) -> None:
    """A province node: owner shape and colour, garrison count, fort icon, revealed ronin."""
    cx, cy = c
    owner = land.owner(p)
    r = marks.node_r
    if owner is None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=palette.NEUTRAL, outline=palette.OUTLINE, width=2)
        colour: RGB = palette.NEUTRAL
        dy = 0.0
    else:
        colour = palette.seat_colour(owner)
        shape = palette.seat_shape(owner)
        tokens.draw_shape(draw, shape, cx, cy, r, colour, palette.OUTLINE, 2)
        dy = r * 0.2 if shape == "triangle" else 0.0
    total = p.garrison_total
    if total:
        text.stamp(img, (cx, cy + dy), str(total), marks.number_px, bold=True, fill=palette.text_on(colour), stroke=0,
                   anchor="mm")
    fort = p.fort
    if fort in ("castle", "fortress"):
        fx, fy = marks.castle_at(c)
        icons.castle(draw, fx, fy, marks.castle_r, fort == "fortress")
    marker = army or p.army
    ronin = (p.ronin or 0) + ((marker.ronin or 0) if marker else 0)
    if ronin:
        box = marks.pill(c)
        draw.rounded_rectangle(box, radius=5, fill=palette.OUTLINE, outline=icons.RONIN, width=1)
        text.stamp(img, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), f"R{ronin}", marks.pill_px, bold=True,
                   fill=icons.RONIN, stroke=0, anchor="mm")


def army_badge(img: Image.Image, draw: ImageDraw.ImageDraw, army: ArmyMarker, box: Box, px: int) -> None:
    """An army badge: seat shape with the army number, then the daimyo level ("L2")."""
    seat = army.seat
    colour = palette.seat_colour(seat)
    x0, y0, x1, y1 = box
    my = (y0 + y1) / 2
    r = (y1 - y0) / 2 - 3
    draw.rounded_rectangle(box, radius=6, fill=palette.BACKGROUND_EDGE, outline=colour, width=2)
    tx = x0 + r + 4
    tokens.draw_shape(draw, palette.seat_shape(seat), tx, my, r, colour, palette.OUTLINE, 1)
    dy = r * 0.2 if palette.seat_shape(seat) == "triangle" else 0
    text.stamp(img, (tx, my + dy), str(army.army + 1), px, bold=True, fill=palette.text_on(colour),
               stroke=0, anchor="mm")
    text.stamp(img, (tx + r + 4, my), f"L{army.level or 1}", px, bold=True, stroke=0, anchor="lm")
    if army.assassinated:
        draw.line([(x0 + 3, y0 + 3), (x1 - 3, y1 - 3)], fill=palette.COMBAT, width=3)
        draw.line([(x0 + 3, y1 - 3), (x1 - 3, y0 + 3)], fill=palette.COMBAT, width=3)


def draw_scene(img: Image.Image, view: PublicView, scene: Scene, focus: set[str],
               frame: Box | None = None) -> tuple[dict[str, Box], dict[str, Box]]:
    """Draw armies, battle, declarations, leader lines, nodes and names on a scene's own image.

    `focus` are the provinces the latest events touched: ringed, and named in the alert colour.
    `frame` (the inset's area, on the whole map) is outlined under the names.
    Returns the badges and name labels drawn (local coordinates).
    """
    draw = ImageDraw.Draw(img)
    marks = scene.marks
    k = marks.node_r / lay.WHOLE.node_r
    centres = scene.centres
    war = view.war
    battle = war.battle if war else None
    declarations = war.declarations if war else []
    keep = important(view) | focus
    badges, names = placements(view, scene, keep)
    army_at: dict[str, ArmyMarker] = {}
    for a in alive_armies(view, centres):
        pid = str(a.location)
        army_at[pid] = a
        b = badges[pid]
        colour = palette.seat_colour(a.seat)
        mid = labels.centre(b)
        draw.line([mid, centres[pid]], fill=palette.OUTLINE, width=round(5 * k))
        draw.line([mid, centres[pid]], fill=colour, width=round(2 * k))
        army_badge(img, draw, a, b, marks.badge_px)
    target = battle.target if battle else None
    attacked = {declaration.target for declaration in declarations}
    for pid in focus:
        if pid in centres and pid != target and pid not in attacked:
            cx, cy = centres[pid]
            r = marks.node_r + round(5 * k)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=palette.OUTLINE, width=round(5 * k))
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=palette.ALERT, width=max(2, round(3 * k)))
    if target in centres:
        bx, by = centres[target]
        for extra, width in ((10, 5), (15, 2)):
            rr = marks.node_r + round(extra * k)
            draw.ellipse((bx - rr, by - rr, bx + rr, by + rr), outline=palette.COMBAT, width=round(width * k))
    for pid, lab in scene.labels.items():
        if lab.leader and pid in names:
            mid = labels.centre(lab.box)
            draw.line([mid, centres[pid]], fill=palette.OUTLINE, width=4)
            draw.line([mid, centres[pid]], fill=palette.TEXT_DIM, width=2)
    for p in view.provinces:
        if p.id in centres:
            _node(img, draw, p, centres[p.id], army_at.get(p.id), marks)
    for declaration in declarations:
        s, t = declaration.source, declaration.target
        if s in centres and t in centres and war is not None:
            colour = palette.seat_colour(war.seat)
            tx, ty = centres[t]
            rr = marks.node_r + round(5 * k)
            draw.ellipse((tx - rr - 1, ty - rr - 1, tx + rr + 1, ty + rr + 1), outline=palette.OUTLINE, width=round(6 * k))
            draw.ellipse((tx - rr, ty - rr, tx + rr, ty + rr), outline=colour, width=round(3 * k))
            _arrow(draw, centres[s], centres[t], colour, marks)
    if target in centres:
        bx, by = centres[target]
        tokens.swords(draw, bx - marks.node_r - 3 * k, by - marks.node_r - 2 * k, 10 * k)
    if frame is not None:
        draw.rectangle(frame, outline=palette.OUTLINE, width=5)
        draw.rectangle((frame[0] + 1, frame[1] + 1, frame[2] - 1, frame[3] - 1), outline=palette.ALERT, width=3)
    for region in scene.regions.values():
        if region.leader_to is not None:
            end = _towards(labels.centre(region.box), region.leader_to, marks.node_r + 3)
            draw.line([labels.centre(region.box), end], fill=palette.OUTLINE, width=4)
            draw.line([labels.centre(region.box), end], fill=land.REGION_EDGE_RGB, width=2)
        text.stamp(img, labels.centre(region.box), region.text, region.px, bold=True, fill=land.REGION_EDGE_RGB,
                   stroke=2, anchor="mm")
    bright = important(view)
    for pid, lab in scene.labels.items():
        if pid not in names:
            continue
        fill = palette.ALERT if pid in focus else palette.TEXT if pid in bright else palette.TEXT_DIM
        text.stamp(img, labels.centre(lab.box), lab.text, lab.px, bold=True, fill=fill, stroke=2, anchor="mm")
    return badges, names
