"""Samurai Swords: the public map of Japan's 68 provinces and a seat's private screen.

Draws only from the documented view keys (docs/design/samurai-view.md); anything else in
the dict is ignored, so seat-only data (`you`, army compositions, hidden ronin) never
reaches the public image. The land, sea, borders and sea lanes are one indexed image built
once per map: a phase only swaps the palette entries of the provinces by owner (a few ms),
then draws nodes, army badges, labels and the panels on top.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.text import fill
from render import encode as encoding
from render import fonts, legend, palette, text, tokens
from render import samurai_layout as lay
from render.cache import LayerCache

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

WIDTH, HEIGHT = 1400, 1060
HEADER_H = 56
MAP_BOX: Box = (0, HEADER_H + 2, WIDTH, 744)
LEGEND_Y = 750
LEGEND_H = 100
LOWER_Y = LEGEND_Y + LEGEND_H + 2
RESULT_BOX: Box = (200, MAP_BOX[3] - 110, WIDTH - 8, MAP_BOX[3] - 8)  # over the open Pacific
EVENTS_BOX: Box = (8, LOWER_Y, 700, HEIGHT - 8)
WAR_BOX: Box = (708, LOWER_Y, WIDTH - 8, HEIGHT - 8)
PRIVATE_SIZE = (900, 600)
UNITS = ("spearman", "gunner", "swordsman", "bowman")
PLAN_BINS = ("swords", "build", "levy", "ronin", "ninja")  # the action order, whatever the dict order
UNIT_WORDS = {"spearman": "spear", "gunner": "gun", "swordsman": "sword", "bowman": "bow"}

# indexed static layer: 0 sea, 1..68 provinces in view order, then these
SEA, SHORE, PROV_EDGE, COAST, BORDER, LANE, HEADER_BG, PANEL_BG, RULE = 0, 100, 101, 102, 103, 104, 105, 106, 107
SEA_RGB: RGB = (24, 42, 64)
SHORE_RGB: RGB = (36, 62, 90)
PROV_EDGE_RGB: RGB = (28, 30, 36)
COAST_RGB: RGB = (14, 16, 20)
BORDER_RGB: RGB = (150, 140, 118)
LANE_RGB: RGB = (120, 170, 220)
REGION_RGB: dict[str, RGB] = {  # muted, greyish: unowned land only, never mistaken for a seat
    "Kinai": (112, 104, 96), "Tokaido": (98, 104, 96), "Tosando": (92, 98, 108), "Hokurikudo": (104, 100, 112),
    "San'indo": (108, 108, 92), "San'yodo": (100, 96, 88), "Nankaido": (90, 104, 104), "Saikaido": (106, 96, 100),
}
REGION_DEFAULT: RGB = (100, 100, 100)
OWNER_TINT = tuple(palette.tint(c, 0.42) for c in palette.SEAT_COLOURS)
CASTLE_ROOF: RGB = (200, 60, 60)
CASTLE_WALL: RGB = (240, 230, 210)


@dataclass(frozen=True)
class Label:
    """A province name placed once per map: text, its box and its centre."""

    text: str
    box: Box
    leader: bool = False  # drawn away from its node: a line joins them


@dataclass(frozen=True)
class Static:
    """What depends only on the map: the indexed land image and all placements."""

    index: Image.Image  # "P" image; per frame its palette is swapped
    lut: tuple[int, ...]  # base palette (768 entries)
    order: tuple[str, ...]  # province id of index i + 1
    layout: lay.Layout
    labels: dict[str, Label]
    names: dict[str, str]
    regions: dict[str, str]
    png_palette: Image.Image


_STATIC: LayerCache[Static] = LayerCache(max_entries=8)


# --------------------------------------------------------------------------- static layer


def _map_key(view: dict[str, Any]) -> tuple[Any, ...]:
    """Cache key: map id plus the geometry, so two maps never share a layer by mistake."""
    provs = tuple((str(p["id"]), str(p.get("name", "")), str(p.get("region", "")), float(p["x"]), float(p["y"]))
                  for p in view["provinces"])
    borders = tuple(tuple(map(str, b)) for b in view.get("borders", []))
    lanes = tuple(tuple(map(str, b)) for b in view.get("sea_lanes", []))
    return (str(view.get("map", "")), provs, borders, lanes)


def short_name(name: str) -> str:
    """The label of a province: its name without the bracketed city ("Yamashiro (Kyoto)" -> "Yamashiro")."""
    return name.split(" (")[0].strip() or name


def abbreviation(name: str) -> str:
    """A fallback label where the full name finds no room: "Mimasaka" -> "Mima."."""
    return name if len(name) <= 5 else name[:4] + "."


def _place_labels(layout: lay.Layout, names: dict[str, str]) -> dict[str, Label]:
    """Province names next to their nodes, clear of every node and other label."""
    f = fonts.font(lay.LABEL_PX, bold=True)
    sizes: dict[str, list[tuple[str, int, int]]] = {}
    for pid, name in names.items():
        full = fonts.sanitize(short_name(name), True)
        sizes[pid] = []
        for label in dict.fromkeys((full, abbreviation(full))):
            x0, y0, x1, y1 = f.getbbox(label, stroke_width=2)
            sizes[pid].append((label, x1 - x0 + 2, y1 - y0 + 2))
    placed = lay.place_labels(layout.centres, sizes, MAP_BOX)
    return {pid: Label(t, b, lay.needs_leader(layout.centres[pid], b)) for pid, (t, b) in placed.items()}


def _build_static(view: dict[str, Any]) -> Static:
    """Layout, the indexed land image (cells, edges, coast, shore, lanes, borders) and the PNG palette."""
    provinces = view["provinces"]
    order = tuple(str(p["id"]) for p in provinces)
    names = {str(p["id"]): str(p.get("name", p["id"])) for p in provinces}
    regions = {str(p["id"]): str(p.get("region", "")) for p in provinces}
    borders = [(str(a), str(b)) for a, b in view.get("borders", [])]
    lanes = [(str(a), str(b)) for a, b in view.get("sea_lanes", [])]
    inner = (MAP_BOX[0] + 8, MAP_BOX[1] + 8, MAP_BOX[2] - 8, MAP_BOX[3] - 8)
    centres = lay.relax(lay.project(provinces, inner, margin=30), inner)
    pieces = lay.shapes(centres, borders)
    feet = {pid: lay.footprint(c) for pid, c in centres.items()}
    layout = lay.Layout(centres, feet, pieces)

    idx = Image.new("L", (WIDTH, HEIGHT), SEA)
    d = ImageDraw.Draw(idx)
    for i, pid in enumerate(order):
        for poly in pieces[pid]:
            d.polygon(poly, fill=i + 1)
    land = idx.point(lambda v: 255 if v else 0)
    # province edges (2 px) inside the land; a darker coastline; a lighter shore in the sea
    edges = ImageChops.multiply(_edges(idx), land)
    coast = ImageChops.subtract(land, _shrink(land, 2))
    shore = ImageChops.subtract(_grow(land, 4), land)
    # region boundaries: wider and darker, so the eight circuits show whoever owns the land
    region_no = {r: k + 1 for k, r in enumerate(sorted(set(regions.values())))}
    rlut = [0] + [region_no[regions[pid]] for pid in order] + [0] * (255 - len(order))
    redges = ImageChops.multiply(_grow(_edges(idx.point(rlut)), 1), land)
    idx.paste(SHORE, mask=shore)
    idx.paste(PROV_EDGE, mask=edges)
    idx.paste(COAST, mask=redges)
    idx.paste(COAST, mask=coast)
    # sea lanes: dashes over open water only
    lane_mask = Image.new("L", (WIDTH, HEIGHT), 0)
    ld = ImageDraw.Draw(lane_mask)
    for a, b in lanes:
        if a in centres and b in centres:
            _dashed(ld, centres[a], centres[b], 255, 3, 9, 7)
    idx.paste(LANE, mask=ImageChops.subtract(lane_mask, land))
    for a, b in borders:
        if a in centres and b in centres:
            d.line([centres[a], centres[b]], fill=BORDER, width=2)
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=HEADER_BG)
    d.rectangle((0, MAP_BOX[3], WIDTH, HEIGHT), fill=PANEL_BG)
    d.line([(0, HEADER_H), (WIDTH, HEADER_H)], fill=RULE, width=2)
    d.line([(0, MAP_BOX[3]), (WIDTH, MAP_BOX[3])], fill=RULE, width=2)

    lut = [0] * 768
    for value, rgb in ((SEA, SEA_RGB), (SHORE, SHORE_RGB), (PROV_EDGE, PROV_EDGE_RGB), (COAST, COAST_RGB),
                       (BORDER, BORDER_RGB), (LANE, LANE_RGB), (HEADER_BG, palette.BACKGROUND_EDGE),
                       (PANEL_BG, palette.PANEL), (RULE, palette.PANEL_EDGE)):
        lut[3 * value: 3 * value + 3] = rgb
    for i, pid in enumerate(order):
        lut[3 * (i + 1): 3 * (i + 1) + 3] = REGION_RGB.get(regions[pid], REGION_DEFAULT)
    pimg = idx.convert("P")
    pimg.putpalette(lut)
    labels = _place_labels(layout, names)
    colours = [SEA_RGB, SHORE_RGB, PROV_EDGE_RGB, COAST_RGB, BORDER_RGB, LANE_RGB, *REGION_RGB.values(),
               REGION_DEFAULT, *OWNER_TINT, CASTLE_ROOF, CASTLE_WALL, *encoding.drawing_colours()]
    png_pal = encoding.fixed_palette(pimg.convert("RGB"), colours)
    return Static(pimg, tuple(lut), order, layout, labels, names, regions, png_pal)


def _edges(index: Image.Image) -> Image.Image:
    """255 where a pixel's left/right/upper/lower neighbour has another value (2 px lines)."""
    out = Image.new("L", index.size, 0)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        out = ImageChops.lighter(out, ImageChops.difference(index, ImageChops.offset(index, dx, dy)))
    return out.point(lambda v: 255 if v else 0)


def _grow(mask: Image.Image, r: int) -> Image.Image:
    """Dilate a 0/255 mask by `r` px (a box blur is much faster than a max filter)."""
    return mask.filter(ImageFilter.BoxBlur(r)).point(lambda v: 255 if v else 0)


def _shrink(mask: Image.Image, r: int) -> Image.Image:
    """Erode a 0/255 mask by `r` px."""
    return ImageChops.invert(_grow(ImageChops.invert(mask), r))


def _dashed(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: Any,
            width: int, dash: float, gap: float) -> None:
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


def static_layer(view: dict[str, Any]) -> Static:
    """The cached static layer of this view's map (built on first use)."""
    return _STATIC.get(_map_key(view), lambda: _build_static(view))


def placements(view: dict[str, Any]) -> tuple[dict[str, Box], dict[str, Box]]:
    """This frame's army badges and the name labels drawn, by province.

    Badges go next to their node, never over a node or an important name (forts, armies,
    battles); an unimportant name a badge has to cover is left out. Tests check that
    nothing drawn overlaps.
    """
    st = static_layer(view)
    centres = st.layout.centres
    important = _important(view)
    hard = list(st.layout.footprints.values()) + [lab.box for pid, lab in st.labels.items() if pid in important]
    soft_ids = [pid for pid in st.labels if pid not in important]
    soft = [st.labels[pid].box for pid in soft_ids]
    inner = (MAP_BOX[0] + 4, MAP_BOX[1] + 4, MAP_BOX[2] - 4, MAP_BOX[3] - 4)
    badges: dict[str, Box] = {}
    hidden: set[str] = set()
    for a in _alive_armies(view, centres):
        pid = str(a["location"])
        b, covered = lay.place_badge(centres[pid], inner, hard, soft)
        badges[pid] = b
        hard.append(b)
        hidden |= {soft_ids[i] for i in covered}
    labels = {pid: lab.box for pid, lab in st.labels.items() if pid not in hidden}
    return badges, labels


def _alive_armies(view: dict[str, Any], centres: dict[str, Any]) -> list[dict[str, Any]]:
    """Armies on the board, one per province, in a stable order."""
    seen: dict[str, dict[str, Any]] = {}
    for a in view.get("armies", []):
        if a.get("alive") and str(a.get("location")) in centres:
            seen.setdefault(str(a["location"]), a)
    return [seen[k] for k in sorted(seen, key=lambda k: (int(seen[k].get("seat", 0)), int(seen[k].get("army", 0))))]


# --------------------------------------------------------------------------- icons


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
    draw.rounded_rectangle((cx - r, cy - r * 0.7, cx + r, cy + r * 0.7), radius=r * 0.5, fill=(225, 200, 140),
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
    draw.polygon([(cx - r, cy + r * 0.3), (cx, cy - r * 0.7), (cx + r, cy + r * 0.3)], fill=(210, 180, 110),
                 outline=palette.OUTLINE)


# --------------------------------------------------------------------------- public map


def _owner(p: dict[str, Any]) -> int | None:
    """The owning seat, or None for unowned and LWTV-neutral provinces (drawn grey)."""
    o = p.get("owner")
    return None if o is None or p.get("neutral") else int(o)


def _frame_lut(st: Static, view: dict[str, Any]) -> list[int]:
    """The static palette with each owned province's entry set to its owner's tint."""
    lut = list(st.lut)
    by_id = {str(p["id"]): p for p in view["provinces"]}
    for i, pid in enumerate(st.order):
        o = _owner(by_id.get(pid, {}))
        if o is not None:
            lut[3 * (i + 1): 3 * (i + 1) + 3] = OWNER_TINT[o % len(OWNER_TINT)]
    return lut


def _important(view: dict[str, Any]) -> set[str]:
    """Provinces whose names are drawn bright: forts, armies, ronin, the war's targets."""
    out = {str(p["id"]) for p in view["provinces"] if p.get("fort") or p.get("ronin")}
    out |= {str(a["location"]) for a in view.get("armies", []) if a.get("alive") and a.get("location")}
    war = view.get("war") or {}
    for dec in war.get("declarations") or []:
        out |= {str(dec.get("source")), str(dec.get("target"))}
    if war.get("battle"):
        out.add(str(war["battle"].get("target")))
    return out


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], colour: RGB) -> None:
    """An attack declaration: a thick arrow from the source node to the target node."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    start = (a[0] + ux * 16, a[1] + uy * 16)
    tip = (b[0] - ux * 17, b[1] - uy * 17)
    draw.line([start, tip], fill=palette.OUTLINE, width=8)
    draw.line([start, tip], fill=colour, width=4)
    base = (tip[0] - ux * 14, tip[1] - uy * 14)
    draw.polygon([tip, (base[0] - uy * 8, base[1] + ux * 8), (base[0] + uy * 8, base[1] - ux * 8)],
                 fill=colour, outline=palette.OUTLINE)


def _draw_node(img: Image.Image, draw: ImageDraw.ImageDraw, p: dict[str, Any], c: tuple[int, int],
               army: dict[str, Any] | None) -> None:
    """A province node: owner shape and colour, garrison count, fort icon, revealed ronin."""
    cx, cy = c
    owner = _owner(p)
    r = lay.NODE_R
    if owner is None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=palette.NEUTRAL, outline=palette.OUTLINE, width=2)
        colour: RGB = palette.NEUTRAL
        dy = 0.0
    else:
        colour = palette.seat_colour(owner)
        shape = palette.seat_shape(owner)
        tokens.draw_shape(draw, shape, cx, cy, r, colour, palette.OUTLINE, 2)
        dy = r * 0.2 if shape == "triangle" else 0.0
    total = int(p.get("garrison_total") or 0)
    if total:
        text.stamp(img, (cx, cy + dy), str(total), 17, bold=True, fill=palette.text_on(colour), stroke=0, anchor="mm")
    fort = p.get("fort")
    if fort in ("castle", "fortress"):
        castle(draw, cx + 15, cy - 9, 10, fort == "fortress")
    ronin = int(p.get("ronin") or 0) + int(((army or p.get("army") or {}).get("ronin")) or 0)
    if ronin:
        box = (cx, cy + 2, cx + 25, cy + 18)
        draw.rounded_rectangle(box, radius=5, fill=palette.OUTLINE, outline=(210, 180, 110), width=1)
        text.stamp(img, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), f"R{ronin}", 17, bold=True,
                   fill=(210, 180, 110), stroke=0, anchor="mm")


def _draw_army(img: Image.Image, draw: ImageDraw.ImageDraw, army: dict[str, Any], c: tuple[int, int], box: Box) -> None:
    """An army marker in its slot, tied to its province: seat shape with the army number, level."""
    seat = int(army.get("seat", 0))
    colour = palette.seat_colour(seat)
    x0, y0, x1, y1 = box
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    draw.line([(mx, my), c], fill=palette.OUTLINE, width=5)
    draw.line([(mx, my), c], fill=colour, width=2)
    draw.rounded_rectangle(box, radius=6, fill=palette.BACKGROUND_EDGE, outline=colour, width=2)
    tx = x0 + 13
    tokens.draw_shape(draw, palette.seat_shape(seat), tx, my, 9, colour, palette.OUTLINE, 1)
    dy = 2 if palette.seat_shape(seat) == "triangle" else 0
    text.stamp(img, (tx, my + dy), str(int(army.get("army", 0)) + 1), 17, bold=True,
               fill=palette.text_on(colour), stroke=0, anchor="mm")
    text.stamp(img, (x0 + 25, my), f"L{int(army.get('level', 1) or 1)}", 17, bold=True, stroke=0, anchor="lm")
    if army.get("assassinated"):
        draw.line([(x0 + 3, y0 + 3), (x1 - 3, y1 - 3)], fill=palette.COMBAT, width=3)
        draw.line([(x0 + 3, y1 - 3), (x1 - 3, y0 + 3)], fill=palette.COMBAT, width=3)


def _draw_map(img: Image.Image, draw: ImageDraw.ImageDraw, st: Static, view: dict[str, Any]) -> None:
    """Armies, battle and declarations, leader lines, nodes, then the names on top."""
    lay_ = st.layout
    centres = lay_.centres
    war = view.get("war") or {}
    battle = war.get("battle") or None
    badges, labels = placements(view)
    army_at: dict[str, dict[str, Any]] = {}
    for a in _alive_armies(view, centres):
        pid = str(a["location"])
        army_at[pid] = a
        _draw_army(img, draw, a, centres[pid], badges[pid])
    if battle and str(battle.get("target")) in centres:
        bx, by = centres[str(battle["target"])]
        for k, width in ((24, 5), (29, 2)):
            draw.ellipse((bx - k, by - k, bx + k, by + k), outline=palette.COMBAT, width=width)
    for pid, lab in st.labels.items():
        if lab.leader and pid in labels:
            lx, ly = (lab.box[0] + lab.box[2]) / 2, (lab.box[1] + lab.box[3]) / 2
            draw.line([(lx, ly), centres[pid]], fill=palette.OUTLINE, width=4)
            draw.line([(lx, ly), centres[pid]], fill=palette.TEXT_DIM, width=2)
    for p in view["provinces"]:
        pid = str(p["id"])
        if pid in centres:
            _draw_node(img, draw, p, centres[pid], army_at.get(pid))
    for dec in war.get("declarations") or []:
        s, t = str(dec.get("source")), str(dec.get("target"))
        if s in centres and t in centres:
            colour = palette.seat_colour(int(war.get("seat", 0)))
            tx, ty = centres[t]
            draw.ellipse((tx - 19, ty - 19, tx + 19, ty + 19), outline=palette.OUTLINE, width=6)
            draw.ellipse((tx - 18, ty - 18, tx + 18, ty + 18), outline=colour, width=3)
            _arrow(draw, centres[s], centres[t], colour)
    if battle and str(battle.get("target")) in centres:
        bx, by = centres[str(battle["target"])]
        tokens.swords(draw, bx - 17, by - 16, 10)
    important = _important(view)
    for pid, lab in st.labels.items():
        if pid not in labels:
            continue
        bright = pid in important
        cx, cy = (lab.box[0] + lab.box[2]) / 2, (lab.box[1] + lab.box[3]) / 2

        text.stamp(img, (cx, cy), lab.text, lay.LABEL_PX, bold=True, fill=palette.TEXT if bright else palette.TEXT_DIM,
                   stroke=2, anchor="mm")


def _compass(img: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """North arrow: the map is turned 20° clockwise, like the printed board (more so there)."""
    cx, cy, r = 40, MAP_BOX[1] + 52, 22
    a = math.radians(lay.ROTATION_DEG)
    ux, uy = math.sin(a), -math.cos(a)
    tip = (cx + ux * r, cy + uy * r)
    tail = (cx - ux * r, cy - uy * r)
    draw.line([tail, tip], fill=palette.TEXT_DIM, width=3)
    draw.polygon([tip, (cx + ux * 6 - uy * 8, cy + uy * 6 + ux * 8), (cx + ux * 6 + uy * 8, cy + uy * 6 - ux * 8)],
                 fill=palette.TEXT_DIM)
    text.stamp(img, (tip[0] + ux * 12, tip[1] + uy * 12), "N", 17, bold=True, fill=palette.TEXT_DIM, anchor="mm")


def _draw_header(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Title, the phase label with the goal under it, and the turn order as seat tokens."""
    text.stamp(img, (14, HEADER_H // 2), "SAMURAI SWORDS", 24, bold=True, fill=palette.ALERT, anchor="lm")
    label = fonts.sanitize(str(view.get("phase_label") or view.get("phase") or ""), True)
    limit = view.get("round_limit")
    goal = f"{int(view['to_win'])} provinces win" if view.get("to_win") else "most VP wins"
    if limit:
        goal += f" · limit {int(limit)} rounds"
    if view.get("end_round"):
        goal += f" · last round {int(view['end_round'])}"
    # right: turn order as seat tokens, sword 1 first
    order = [int(s) for s in view.get("turn_order") or []]
    x = WIDTH - 16
    for s in reversed(order):
        tokens.seat_token(draw, s, x - 13, HEADER_H // 2, 13)
        x -= 32
    if order:
        sword(draw, x - 12, HEADER_H // 2, 10)
        x = text.stamp(img, (x - 28, HEADER_H // 2), "Order", 20, bold=True, stroke=0, fill=palette.TEXT_DIM,
                       anchor="rm")[0] - 16
    avail = x - 250
    main = text.ellipsize(label, fonts.font(22, True), avail)
    text.stamp(img, (250, HEADER_H // 2 - 10), main, 22, bold=True, stroke=0, anchor="lm")
    text.stamp(img, (250, HEADER_H // 2 + 14), text.ellipsize(goal, fonts.font(17), avail), 17, stroke=0,
               fill=palette.TEXT_DIM, anchor="lm")


def legend_origin(index: int, count: int) -> tuple[int, int, int]:
    """Top-left and width of a seat's legend card (tests sample the swatch there)."""
    w = (WIDTH - 16 - 8 * (count - 1)) // max(1, count)
    return (8 + index * (w + 8), LEGEND_Y, w)


def _status(view: dict[str, Any], seat: dict[str, Any]) -> tuple[str, RGB]:
    """The one-word status of a legend card: out, winner, deciding or at war."""
    s = int(seat.get("seat", 0))
    if seat.get("eliminated"):
        return "out", palette.COMBAT
    result = view.get("result")
    if result:
        return ("winner", palette.ALERT) if s in [int(w) for w in result.get("winners", [])] else ("", palette.TEXT_DIM)
    if s in [int(w) for w in view.get("waiting", [])]:
        return "deciding", palette.ALERT
    if (view.get("war") or {}).get("seat") == s:
        return "at war", palette.COMBAT
    return "", palette.TEXT_DIM


def _draw_legend(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None) -> None:
    """One card per seat: provinces against the goal (or VP in LWTV), koku, sword, armies."""
    seats = view.get("seats", [])
    to_win = view.get("to_win")
    war_seat = (view.get("war") or {}).get("seat")
    winners = [int(w) for w in (view.get("result") or {}).get("winners", [])]
    for i, row in enumerate(seats):
        s = int(row.get("seat", i))
        status, status_colour = _status(view, row)
        provinces = int(row.get("provinces") or 0)
        facts: list[tuple[legend.Icon, str]] = [(koku, f"{int(row.get('koku') or 0)} koku")]
        if row.get("sword"):
            facts.append((sword, f"#{int(row['sword'])}"))
        facts.append((banner, str(int(row.get("armies") or 0))))
        if to_win:
            entry = legend.Entry(seat=s, name=legend.name_for(names, s), progress=provinces, target=int(to_win),
                                 progress_icon=_province_icon, facts=facts, status=status, status_colour=status_colour,
                                 highlight=s == war_seat or s in winners)
        else:
            facts.insert(0, (_province_icon, str(provinces)))
            entry = legend.Entry(seat=s, name=legend.name_for(names, s), facts=facts, status=status,
                                 status_colour=status_colour, highlight=s == war_seat or s in winners)
        x, y, w = legend_origin(i, len(seats))
        legend.draw_entry(img, draw, x, y, w, LEGEND_H, entry)
        if not to_win:
            tokens.star(draw, x + 22, y + 46, 10)
            vp = row.get("vp")
            text.stamp(img, (x + 38, y + 46), f"{int(vp or 0)} VP", 20, bold=True, stroke=0, anchor="lm")
            cards, beaten = int(row.get("event_cards") or 0), int(row.get("armies_destroyed") or 0)
            extra = f"{cards} card{'s' * (cards != 1)} · {beaten} arm{'ies' if beaten != 1 else 'y'} beaten"
            text.stamp(img, (x + 104, y + 46), text.ellipsize(extra, fonts.font(17), w - 112), 17, stroke=0,
                       fill=palette.TEXT_DIM, anchor="lm")


def _province_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A little land shape (province count)."""
    draw.polygon([(cx - r, cy + r * 0.8), (cx - r * 0.3, cy - r), (cx + r, cy - r * 0.4), (cx + r * 0.6, cy + r)],
                 fill=palette.TEXT_DIM, outline=palette.OUTLINE)


def _draw_events(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None) -> None:
    """Who is awaited, then the latest public events with seat references filled with names."""
    x0, y0, x1, y1 = EVENTS_BOX
    draw.rounded_rectangle(EVENTS_BOX, radius=8, fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE)
    y = y0 + 8
    waiting = [int(s) for s in view.get("waiting", [])]
    if waiting and not view.get("result"):
        who = ", ".join(fonts.sanitize(legend.name_for(names, s)) for s in waiting)
        line = text.ellipsize(f"Waiting for: {who}", fonts.font(18, True), x1 - x0 - 20)
        text.stamp(img, (x0 + 10, y), line, 18, bold=True, fill=palette.ALERT, stroke=0)
        y += 26
    text.stamp(img, (x0 + 10, y), "Latest", 18, bold=True, fill=palette.TEXT_DIM, stroke=0)
    y += 24
    f = fonts.font(17)
    lines: list[str] = []
    for ev in [fill(str(e), names) for e in view.get("last_events", []) if e]:
        lines += text.wrap(fonts.sanitize(ev), f, x1 - x0 - 24, 2)
    room = (y1 - 6 - y) // 20
    for line in lines[-room:] if room > 0 else []:
        text.stamp(img, (x0 + 14, y), line, 17, stroke=0)
        y += 20


def _draw_war_box(img: Image.Image, draw: ImageDraw.ImageDraw, st: Static, view: dict[str, Any],
                  names: list[str] | None) -> None:
    """The war turn (battle, declarations) or the revealed plans; supply, ninja and the key."""
    x0, y0, x1, y1 = WAR_BOX
    war = view.get("war") or {}
    battle = war.get("battle") or None
    draw.rounded_rectangle(WAR_BOX, radius=8, fill=(70, 30, 36) if battle else palette.BACKGROUND_EDGE,
                           outline=palette.COMBAT if war else palette.PANEL_EDGE, width=2)
    f17, b17 = fonts.font(17), fonts.font(17, True)
    w = x1 - x0 - 24
    y = y0 + 18
    pname = {pid: short_name(n) for pid, n in st.names.items()}
    if war:
        s = int(war.get("seat", 0))
        tokens.seat_token(draw, s, x0 + 20, y, 11)
        head = f"{fonts.sanitize(legend.name_for(names, s))} wages war (step {war.get('phase', '?')})"
        text.stamp(img, (x0 + 38, y), text.ellipsize(head, b17, w - 30), 17, bold=True, stroke=0, anchor="lm")
        y += 26
        if battle:
            where = pname.get(str(battle.get("target")), str(battle.get("target")))
            att = fonts.sanitize(legend.name_for(names, int(battle.get("attacker", 0))))
            de = battle.get("defender")
            dname = "nobody" if de is None else fonts.sanitize(legend.name_for(names, int(de)))
            tokens.swords(draw, x0 + 20, y, 10)
            kind = "Naval battle" if battle.get("naval") else "Battle"
            line = f"{kind} at {where}: {att} vs {dname}, round {int(battle.get('round') or 1)}"
            text.stamp(img, (x0 + 38, y), text.ellipsize(line, f17, w - 30), 17, stroke=0, anchor="lm")
            y += 22
            if battle.get("fort_defenders"):
                text.stamp(img, (x0 + 38, y), f"fort defenders: {int(battle['fort_defenders'])}", 17, stroke=0,
                           fill=palette.TEXT_DIM, anchor="lm")
                y += 22
        for dec in war.get("declarations") or []:
            if y > y1 - 112:  # keep the supply row and the key clear
                break
            src = pname.get(str(dec.get("source")), "?")
            tgt = pname.get(str(dec.get("target")), "?")
            force = f"army {int(dec['army']) + 1}" if dec.get("force") == "army" and dec.get("army") is not None \
                else "garrison"
            line = f"{src} → {tgt} ({force})"
            text.stamp(img, (x0 + 38, y), text.ellipsize(fonts.sanitize(line), f17, w - 30), 17, stroke=0, anchor="lm")
            y += 22
    else:
        y = _draw_plans(img, draw, view, names, x0 + 12, y - 4, w)
    # supply and ninja
    sup = view.get("supply") or {}
    y = max(y + 4, y1 - 96)
    castle(draw, x0 + 20, y - 2, 9)
    cx = text.stamp(img, (x0 + 34, y), f"{int(sup.get('castles') or 0)} castles", 17, stroke=0, anchor="lm")[2] + 18
    castle(draw, cx, y - 2, 9, True)
    cx = text.stamp(img, (cx + 14, y), f"{int(sup.get('fortress_bases') or 0)} fortresses", 17, stroke=0,
                    anchor="lm")[2] + 18
    ronin_icon(draw, cx, y, 9)
    cx = text.stamp(img, (cx + 14, y), f"{int(sup.get('ronin') or 0)} ronin left", 17, stroke=0, anchor="lm")[2] + 18
    ninja = view.get("ninja")
    who = "nobody" if ninja is None else fonts.sanitize(legend.name_for(names, int(ninja)))
    text.stamp(img, (cx, y), text.ellipsize(f"ninja: {who}", f17, x1 - cx - 10), 17, stroke=0, anchor="lm")
    _draw_key(img, draw, x0 + 10, y + 28)


def _draw_plans(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None,
                x: int, y: int, w: int) -> int:
    """Outside a war: the plans (public once all are in), one row per seat, else a quiet note."""
    rows = [r for r in view.get("seats", []) if r.get("plan")]
    if not rows:
        text.stamp(img, (x, y + 4), "No war this moment", 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        return y + 26
    f17 = fonts.font(17)
    for r in rows[:5]:
        s = int(r.get("seat", 0))
        tokens.seat_token(draw, s, x + 8, y + 4, 9)
        name = text.ellipsize(fonts.sanitize(legend.name_for(names, s)), fonts.font(17, True), 130)
        text.stamp(img, (x + 24, y + 4), name, 17, bold=True, stroke=0, anchor="lm")
        plan = r["plan"]
        keys = [k for k in PLAN_BINS if k in plan] + [k for k in plan if k not in PLAN_BINS]
        bins = " · ".join(f"{k} {int(plan[k] or 0)}" for k in keys)
        text.stamp(img, (x + 164, y + 4), text.ellipsize(bins, f17, w - 170), 17, stroke=0, anchor="lm")
        y += 20
    return y + 6


def _draw_key(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """What the map marks mean (two rows)."""
    dim = palette.TEXT_DIM
    draw.ellipse((x, y - 9, x + 18, y + 9), fill=palette.NEUTRAL, outline=palette.OUTLINE, width=2)
    text.stamp(img, (x + 9, y), "3", 17, bold=True, fill=palette.OUTLINE, stroke=0, anchor="mm")
    cx = text.stamp(img, (x + 26, y), "garrison", 17, stroke=0, fill=dim, anchor="lm")[2] + 16
    box = (cx, y - 12, cx + 46, y + 12)
    draw.rounded_rectangle(box, radius=6, fill=palette.BACKGROUND_EDGE, outline=palette.NEUTRAL, width=2)
    draw.ellipse((cx + 4, y - 9, cx + 22, y + 9), fill=palette.NEUTRAL, outline=palette.OUTLINE)
    text.stamp(img, (cx + 13, y), "2", 17, bold=True, fill=palette.OUTLINE, stroke=0, anchor="mm")
    text.stamp(img, (cx + 25, y), "L3", 17, bold=True, stroke=0, anchor="lm")
    cx = text.stamp(img, (cx + 54, y), "army 2, daimyo level 3", 17, stroke=0, fill=dim, anchor="lm")[2] + 16
    y2 = y + 32
    _dashed(draw, (x, y2), (x + 36, y2), LANE_RGB, 3, 9, 7)
    cx = text.stamp(img, (x + 44, y2), "sea lane", 17, stroke=0, fill=dim, anchor="lm")[2] + 16
    draw.line([(cx, y2), (cx + 30, y2)], fill=BORDER_RGB, width=2)
    cx = text.stamp(img, (cx + 38, y2), "land border", 17, stroke=0, fill=dim, anchor="lm")[2] + 16
    pill = (cx, y2 - 9, cx + 25, y2 + 8)
    draw.rounded_rectangle(pill, radius=5, fill=palette.OUTLINE, outline=(210, 180, 110), width=1)
    text.stamp(img, (cx + 12.5, y2), "R2", 17, bold=True, fill=(210, 180, 110), stroke=0, anchor="mm")
    text.stamp(img, (cx + 32, y2), "revealed ronin", 17, stroke=0, fill=dim, anchor="lm")


def _draw_result(img: Image.Image, view: dict[str, Any], names: list[str] | None) -> None:
    """The end banner over the open Pacific, so the final map stays readable."""
    result = view["result"]
    winners = [int(s) for s in result.get("winners", [])]
    band = RESULT_BOX
    cy = (band[1] + band[3]) // 2
    overlay = Image.new("RGBA", (band[2] - band[0], band[3] - band[1]), (10, 10, 14, 235))
    img.paste(overlay, band[:2], overlay)
    draw = ImageDraw.Draw(img)
    draw.rectangle(band, outline=palette.ALERT, width=3)
    if result.get("draw") or not winners:
        headline, colour = "Draw", palette.TEXT
    else:
        who = " & ".join(legend.name_for(names, s) for s in winners)
        headline, colour = f"{who} rules Japan!", palette.seat_colour(winners[0])
    mid = (band[0] + band[2]) // 2
    headline, f = text.fit(headline, band[2] - band[0] - 160, (44, 36, 28), bold=True)
    bbox = text.outlined(draw, (mid, cy - 18), headline, f, fill=colour, stroke=3, anchor="mm")
    for k, s in enumerate(winners[:3]):
        tokens.seat_token(draw, s, bbox[0] - 30 - k * 38, cy - 18, 15)
    reason = fonts.sanitize(fill(str(result.get("reason") or ""), names))
    if reason:
        line = text.ellipsize(reason, fonts.font(20), band[2] - band[0] - 40)
        text.outlined(draw, (mid, cy + 28), line, fonts.font(20), anchor="mm")


def render_image(view: dict[str, Any], names: list[str] | None = None) -> Image.Image:
    """The public map as an RGB image (before PNG encoding)."""
    st = static_layer(view)
    frame = st.index.copy()
    frame.putpalette(_frame_lut(st, view))
    img = frame.convert("RGB")
    draw = ImageDraw.Draw(img)
    _compass(img, draw)
    _draw_map(img, draw, st, view)
    _draw_header(img, draw, view)
    _draw_legend(img, draw, view, names)
    _draw_events(img, draw, view, names)
    _draw_war_box(img, draw, st, view, names)
    if view.get("result"):
        _draw_result(img, view, names)
    return img


def draw(view: dict[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the public map for a public view."""
    return encoding.png(render_image(view, names), static_layer(view).png_palette)


# --------------------------------------------------------------------------- private panel


def _units_row(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, units: dict[str, Any]) -> int:
    """Icons and counts of the four unit kinds; returns the x after the row."""
    for kind in UNITS:
        unit_icon(draw, kind, x + 9, y, 9)
        x = text.stamp(img, (x + 22, y), str(int(units.get(kind) or 0)), 17, bold=True, stroke=0, anchor="lm")[2] + 4
        x = text.stamp(img, (x, y), UNIT_WORDS[kind], 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")[2] + 14
    return x


def render_private_image(view: dict[str, Any], names: list[str] | None = None) -> Image.Image:
    """A seat's screen: its armies' units, hidden ronin, tray, koku, sealed choice and hand."""
    w, h = PRIVATE_SIZE
    you = view.get("you") or {}
    seat = int(you.get("seat", 0))
    colour = palette.seat_colour(seat)
    img, draw = tokens.private_canvas((w, h), seat)
    koku_txt = f"{int(you.get('koku') or 0)} koku"
    kx = w - 14 - fonts.font(22, True).getlength(koku_txt)
    text.stamp(img, (w - 14, 26), koku_txt, 22, bold=True, anchor="rm")
    koku(draw, kx - 18, 26, 11)
    title, tf = text.fit(f"Your screen - {legend.name_for(names, seat)}", kx - 90, (22, 20, 18), bold=True)
    text.stamp(img, (52, 26), title, tf.size, bold=True, anchor="lm")

    names_by_id = {str(p["id"]): short_name(str(p.get("name", p["id"]))) for p in view.get("provinces", [])}
    f17 = fonts.font(17)
    y = 64
    text.stamp(img, (16, y), "Armies (behind your screen)", 20, bold=True, fill=palette.ALERT)
    y += 30
    armies = list(you.get("armies") or [])
    for a in armies[:3]:
        alive = a.get("alive", True)
        box = (12, y, 520, y + 62)
        draw.rounded_rectangle(box, radius=8, fill=palette.PLATE, outline=colour if alive else palette.PANEL_EDGE, width=2)
        tokens.draw_shape(draw, palette.seat_shape(seat), 32, y + 20, 11, colour if alive else palette.EMPTY_PIP,
                          palette.OUTLINE, 1)
        text.stamp(img, (32, y + 20 + (2 if palette.seat_shape(seat) == "triangle" else 0)), str(int(a.get("army", 0)) + 1),
                   17, bold=True, fill=palette.text_on(colour) if alive else palette.TEXT, stroke=0, anchor="mm")
        where = names_by_id.get(str(a.get("location")), "-") if alive else "destroyed"
        units = a.get("units") or {}
        total = sum(int(units.get(k) or 0) for k in UNITS) + int(a.get("ronin") or 0) + 1
        head = f"Army {int(a.get('army', 0)) + 1} · {where} · daimyo level {int(a.get('level') or 1)}"
        if alive:
            head += f" · {total} figures"
        if a.get("assassinated"):
            head += " · assassinated"
        text.stamp(img, (52, y + 20), text.ellipsize(fonts.sanitize(head), fonts.font(17, True), 456), 17, bold=True,
                   stroke=0, fill=palette.TEXT if alive else palette.TEXT_DIM, anchor="lm")
        if alive:
            ux = _units_row(img, draw, 52, y + 44, units)
            ronin_icon(draw, ux + 9, y + 44, 9)
            ux = text.stamp(img, (ux + 22, y + 44), str(int(a.get("ronin") or 0)), 17, bold=True, stroke=0,
                            anchor="lm")[2] + 4
            text.stamp(img, (ux, y + 44), "ronin", 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        y += 68
    if not armies:
        text.stamp(img, (16, y), "no armies", 17, stroke=0, fill=palette.TEXT_DIM)
        y += 26
    y += 4
    text.stamp(img, (16, y), "Hidden ronin", 20, bold=True, fill=palette.ALERT)
    y += 30
    hidden = [r for r in you.get("ronin") or [] if int(r.get("ronin") or 0)]
    if hidden:
        parts = ", ".join(f"{names_by_id.get(str(r.get('province')), '?')} {int(r['ronin'])}" for r in hidden)
        for line in text.wrap(fonts.sanitize(parts), f17, 490, 2):
            ronin_icon(draw, 26, y + 10, 9)
            text.stamp(img, (42, y), line, 17, stroke=0)
            y += 22
    else:
        text.stamp(img, (16, y), "none", 17, stroke=0, fill=palette.TEXT_DIM)
        y += 22
    y += 10
    text.stamp(img, (16, y), "Tray (units not on the board)", 20, bold=True, fill=palette.ALERT)
    _units_row(img, draw, 16, y + 42, you.get("tray") or {})
    _draw_standing(img, view, seat, y + 72)

    # right column: sealed choice, then the LWTV hand
    x = 536
    ry = 64
    sealed = you.get("sealed")
    lines = _sealed_lines(sealed, names_by_id) if sealed else []
    box_h = 44 + 21 * max(1, min(len(lines), 6))
    box = (x - 4, ry, w - 12, ry + box_h)
    draw.rounded_rectangle(box, radius=8, fill=palette.BACKGROUND_EDGE, outline=palette.ALERT if sealed else palette.PANEL_EDGE,
                           width=2)
    text.stamp(img, (x + 6, ry + 10), "Your sealed choice", 18, bold=True, fill=palette.ALERT if sealed else palette.TEXT_DIM)
    sy = ry + 38
    if not sealed:
        text.stamp(img, (x + 6, sy), "nothing sealed now", 17, stroke=0, fill=palette.TEXT_DIM)
    for line in lines[:6]:
        text.stamp(img, (x + 6, sy), text.ellipsize(fonts.sanitize(line), f17, box[2] - x - 14), 17, stroke=0)
        sy += 21
    ry = box[3] + 12
    hand = list(you.get("hand") or [])
    if hand or view.get("mode") == "lwtv":
        text.stamp(img, (x, ry), "Your objectives", 20, bold=True, fill=palette.ALERT)
        ry += 30
        for card in hand:
            if ry > h - 90:
                break
            body = text.wrap(fonts.sanitize(str(card.get("text") or "")), f17, w - x - 30, 3)
            ch = 30 + 20 * len(body)
            draw.rounded_rectangle((x - 4, ry, w - 12, ry + ch), radius=8, fill=palette.PLATE, outline=palette.PLATE_EDGE)
            title = text.ellipsize(fonts.sanitize(str(card.get("title") or card.get("id") or "?"), True),
                                   fonts.font(17, True), w - x - 30)
            text.stamp(img, (x + 6, ry + 14), title, 17, bold=True, fill=palette.COIN, stroke=0, anchor="lm")
            for k, line in enumerate(body):
                text.stamp(img, (x + 6, ry + 28 + 20 * k), line, 17, stroke=0)
            ry += ch + 8
        if not hand:
            text.stamp(img, (x, ry), "no cards", 17, stroke=0, fill=palette.TEXT_DIM)
    footer = fonts.sanitize(str(view.get("phase_label") or ""))
    if seat in [int(s) for s in view.get("waiting", [])]:
        footer += " - waiting for your choice"
    draw.rectangle((0, h - 40, w, h), fill=palette.BACKGROUND_EDGE)
    text.stamp(img, (16, h - 20), text.ellipsize(footer, fonts.font(18, True), w - 32), 18, bold=True, anchor="lm")
    return img


def _draw_standing(img: Image.Image, view: dict[str, Any], seat: int, y: int) -> None:
    """The seat's public standing repeated privately: provinces (or VP), sword, armies."""
    row = next((r for r in view.get("seats", []) if int(r.get("seat", -1)) == seat), None)
    if row is None or y > PRIVATE_SIZE[1] - 90:
        return
    text.stamp(img, (16, y), "Your clan", 20, bold=True, fill=palette.ALERT)
    provinces = int(row.get("provinces") or 0)
    facts = f"{provinces}/{int(view['to_win'])} provinces" if view.get("to_win") else \
        f"{provinces} provinces · {int(row.get('vp') or 0)} VP"
    if row.get("sword"):
        facts += f" · sword {int(row['sword'])}"
    facts += f" · {int(row.get('armies') or 0)} armies"
    text.stamp(img, (16, y + 32), text.ellipsize(facts, fonts.font(17), 500), 17, stroke=0, anchor="lm")


def _sealed_lines(sealed: Any, names_by_id: dict[str, str]) -> list[str]:
    """Readable lines for a sealed plan, levy, placement or army screen."""
    def show(v: Any) -> str:
        """A value as words: dicts as "key value", lists joined, province ids as names."""
        if isinstance(v, dict):
            return ", ".join(f"{str(k).replace('_', ' ')} {show(x)}" for k, x in v.items())
        if isinstance(v, list | tuple):
            return ", ".join(show(x) for x in v)
        return names_by_id.get(str(v), str(v).replace("_", " "))

    if not isinstance(sealed, dict):
        return [show(sealed)]
    lines = []
    for k, v in sealed.items():
        if k == "plan" and isinstance(v, dict):
            keys = [b for b in PLAN_BINS if b in v] + [b for b in v if b not in PLAN_BINS]
            lines += ["Plan (koku per action):"] + [f"   {b}: {int(v[b] or 0)}" for b in keys]
        else:
            lines.append(f"{str(k).replace('_', ' ')}: {show(v)}")
    return lines


@functools.cache
def _private_palette() -> Image.Image:
    """The private panel's fixed palette (its background is the same for every seat)."""
    colours = [CASTLE_ROOF, CASTLE_WALL, (225, 200, 140), (210, 180, 110), *encoding.drawing_colours()]
    return encoding.fixed_palette(Image.new("RGB", PRIVATE_SIZE, palette.PANEL), colours)


def draw_private(view: dict[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the private panel for a seat view."""
    return encoding.png(render_private_image(view, names), _private_palette())
