"""The two drawings of the provinces, the whole map and the enlarged inset, and what they cache.

The whole map's land and node positions depend on the map only: they are built once per map
(`static_layer`). The inset depends on which provinces it shows, and so do the whole map's
names (it names what the inset does not): both are built once per crop and kept in a small
cache (`scenes`), since consecutive phases often look at the same place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from PIL import Image, ImageDraw

from engine.samurai.view_models import PublicView
from render import encode as encoding
from render import fonts, labels
from render.cache import LayerCache
from render.samurai import icons, land, regions
from render.samurai import layout as lay
from render.samurai.regions import RegionLabel
from render.views import parse

Box = tuple[int, int, int, int]
Point = tuple[float, float]


@dataclass(frozen=True)
class Label:
    """A province name placed on a scene: its text and box."""

    text: str
    box: Box
    leader: bool = False  # drawn away from its node: a line joins them
    px: int = lay.WHOLE.label_px


@dataclass(frozen=True)
class Scene:
    """One drawing of the provinces at one size: where each node stands and its name."""

    box: Box  # the canvas area it fills; everything else is in coordinates local to it
    marks: lay.Marks
    centres: dict[str, tuple[int, int]]  # only the provinces drawn
    footprints: dict[str, Box]
    labels: dict[str, Label]
    land: Image.Image  # "L" land values of `box` (see render/samurai/land.py)
    regions: dict[str, RegionLabel] = field(default_factory=dict)  # region names, by region

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the scene."""
        return (self.box[2] - self.box[0], self.box[3] - self.box[1])

    def to_canvas(self, b: Box) -> Box:
        """A local box in canvas coordinates."""
        return (b[0] + self.box[0], b[1] + self.box[1], b[2] + self.box[0], b[3] + self.box[1])

    def point(self, c: tuple[int, int]) -> tuple[int, int]:
        """A local point in canvas coordinates."""
        return (c[0] + self.box[0], c[1] + self.box[1])


@dataclass(frozen=True)
class Atlas:
    """The map's own data: province order, names, regions, borders and lanes."""

    order: tuple[str, ...]  # province id of land value i + 1
    names: dict[str, str]  # full names, as the events write them ("Awa (Boso)")
    labels: dict[str, str]  # names as drawn: the bracket only where two provinces share a name
    regions: dict[str, str]
    borders: tuple[tuple[str, str], ...]
    lanes: tuple[tuple[str, str], ...]

    @property
    def region_order(self) -> tuple[str, ...]:
        """The regions in the map's order (of their first province)."""
        return tuple(r for r in dict.fromkeys(self.regions.values()) if r)


@dataclass(frozen=True)
class Static:
    """What depends only on the map: the atlas, the whole map and the canvas's land values."""

    atlas: Atlas
    whole: Scene
    pieces: dict[str, list[list[Point]]]  # land pieces of the whole map, local coordinates
    canvas: Image.Image  # "L" land values of the whole canvas (panels included), the inset left as sea
    lut: tuple[int, ...]  # base palette (768 entries)
    png_palette: Image.Image


INSET_REGION_PX = 24
COMPASS_BOX: Box = (0, 0, 80, 90)  # the north arrow in the whole map's top-left corner (see panel.compass)
_STATIC: LayerCache[Static] = LayerCache(max_entries=8)
_SCENES: LayerCache[tuple[Scene, Scene]] = LayerCache(max_entries=24)


def map_key(view: PublicView) -> tuple[Any, ...]:
    """Cache key: map id plus the geometry, so two maps never share a layer by mistake."""
    provinces = tuple((p.id, p.name, p.region, p.x, p.y) for p in view.provinces)
    return (view.map, provinces, tuple(view.borders), tuple(view.sea_lanes))


def short_name(name: str) -> str:
    """A province's name without the bracketed city ("Yamashiro (Kyoto)" -> "Yamashiro")."""
    return name.split(" (")[0].strip() or name


def display_names(names: dict[str, str]) -> dict[str, str]:
    """Names as drawn: short, except where two provinces share one ("Awa (Boso)", "Awa (Shikoku)")."""
    count: dict[str, int] = {}
    for name in names.values():
        count[short_name(name)] = count.get(short_name(name), 0) + 1
    return {pid: short_name(n) if count[short_name(n)] == 1 else n for pid, n in names.items()}


def abbreviation(name: str) -> str:
    """A fallback label where the name finds no room: "Mimasaka" -> "Mima.", "Awa (Boso)" -> "Awa B."."""
    if " (" in name:
        head, _, rest = name.partition(" (")
        return f"{head} {rest[:1]}."
    return name if len(name) <= 5 else name[:4] + "."


def label_size(label: str, px: int) -> tuple[str, int, int]:
    """A label's text with the width and height of its outlined box."""
    x0, y0, x1, y1 = fonts.font(px, bold=True).getbbox(label, stroke_width=2)
    # Pillow types the box as floats; the basic layout measures whole pixels, which round keeps
    return (label, round(x1 - x0) + 2, round(y1 - y0) + 2)


def _atlas(view: PublicView) -> Atlas:
    """The map's own data from the view."""
    provinces = view.provinces
    names = {p.id: p.name for p in provinces}
    return Atlas(order=tuple(p.id for p in provinces), names=names, labels=display_names(names),
                 regions={p.id: p.region for p in provinces}, borders=tuple(view.borders),
                 lanes=tuple(view.sea_lanes))


def _build_static(view: PublicView) -> Static:
    """The whole map's layout and land; the canvas's land values and the PNG palette."""
    atlas = _atlas(view)
    box = lay.MAP_BOX
    size = (box[2] - box[0], box[3] - box[1])
    inner = (8, 8, size[0] - 8, size[1] - 8)
    centres = lay.relax(lay.project(view.provinces, inner, margin=8), inner, lay.WHOLE)
    pieces = lay.shapes(centres, list(atlas.borders))
    feet = {pid: lay.WHOLE.footprint(c) for pid, c in centres.items()}
    whole_land = land.paint(size, (0, 0), atlas.order, pieces, centres, atlas.regions, atlas.borders, atlas.lanes)
    whole = Scene(box, lay.WHOLE, centres, feet, {}, whole_land)  # names come with the inset: see `scenes`

    canvas = Image.new("L", (lay.WIDTH, lay.HEIGHT), land.PANEL_BG)
    d = ImageDraw.Draw(canvas)
    d.rectangle((0, 0, lay.WIDTH, lay.HEADER_H), fill=land.HEADER_BG)
    d.rectangle(lay.INSET_MAP, fill=land.SEA)
    canvas.paste(whole_land, box[:2])
    for y in (lay.HEADER_H, lay.INSET_BOX[3] + 1, box[3]):
        d.line([(0, y), (lay.WIDTH, y)], fill=land.RULE, width=2)
    lut = land.base_lut(atlas.order, atlas.regions)
    preview = canvas.convert("P")
    preview.putpalette(lut)
    colours = [*land.LAND_COLOURS, icons.CASTLE_ROOF, icons.CASTLE_WALL, icons.RONIN, icons.KOKU,
               *encoding.drawing_colours()]
    png_palette = encoding.fixed_palette(preview.convert("RGB"), colours)
    return Static(atlas, whole, pieces, canvas, tuple(lut), png_palette)


def static_layer(view: PublicView | Mapping[str, Any]) -> Static:
    """The cached static layer of this view's map (built on first use)."""
    typed = parse(PublicView, view)
    return _STATIC.get(map_key(typed), lambda: _build_static(typed))


# --------------------------------------------------------------------------- the inset


@dataclass(frozen=True)
class Crop:
    """Which part of the whole map the inset enlarges: its top-left (whole-map px) and the zoom."""

    x: float
    y: float
    zoom: float

    def apply(self, p: Point) -> Point:
        """A whole-map point in the inset's coordinates."""
        return ((p[0] - self.x) * self.zoom, (p[1] - self.y) * self.zoom)


def scenes(view: PublicView, crop: Crop, focus: tuple[str, ...]) -> tuple[Scene, Scene]:
    """The whole map and the inset for a crop, with their names (cached per crop).

    The inset names what it shows, the focus provinces first and largest; the whole map
    names every other province. The densest part of Japan is then never named twice: whatever
    the whole map would have to squeeze in around the action is legible in the inset above.
    """
    key = (map_key(view), round(crop.x), round(crop.y), round(crop.zoom, 3), focus)
    return _SCENES.get(key, lambda: _build_scenes(static_layer(view), crop, focus))


def _build_scenes(st: Static, crop: Crop, focus: tuple[str, ...]) -> tuple[Scene, Scene]:
    """The inset for a crop, then the whole map's region names and the names of every province the inset does not name.

    On the whole map the regions are named first, each over its own land where it fits: the
    province names find their spots around them (with a leader line or a shorter name).
    """
    inset = _build_inset(st, crop, focus)
    atlas, whole = st.atlas, st.whole
    taken = [*whole.footprints.values(), COMPASS_BOX, *frame_edges(frame_box(st, crop))]
    named = regions.place(whole.land, atlas.order, whole.centres, atlas.regions, atlas.region_order, taken)
    rest = [pid for pid in whole.centres if pid not in inset.labels]
    sizes = {pid: [label_size(fonts.sanitize(t, True), lay.WHOLE.label_px)
                   for t in dict.fromkeys((atlas.labels[pid], abbreviation(atlas.labels[pid])))] for pid in rest}
    placed = labels.place(whole.footprints, sizes, (0, 0, *whole.size), gap=lay.WHOLE.gap, reach=160,
                          obstacles=[lab.box for lab in named.values()])
    names = {pid: Label(t, b, labels.needs_leader(whole.footprints[pid], b, lay.WHOLE.gap)) for pid, (t, b) in placed.items()}
    return replace(whole, labels=names, regions=named), inset


def frame_box(st: Static, crop: Crop) -> Box:
    """The inset's area on the whole map (local coordinates), kept inside the map."""
    w, h = lay.INSET_MAP[2] - lay.INSET_MAP[0], lay.INSET_MAP[3] - lay.INSET_MAP[1]
    sw, sh = st.whole.size
    return (max(1, round(crop.x)), max(1, round(crop.y)), min(sw - 2, round(crop.x + w / crop.zoom)),
            min(sh - 2, round(crop.y + h / crop.zoom)))


def frame_edges(frame: Box, width: int = 4) -> list[Box]:
    """The four sides of the inset's frame as thin boxes: a region name never sits on one."""
    x0, y0, x1, y1 = frame
    return [(x0 - width, y0 - width, x1 + width, y0 + width), (x0 - width, y1 - width, x1 + width, y1 + width),
            (x0 - width, y0 - width, x0 + width, y1 + width), (x1 - width, y0 - width, x1 + width, y1 + width)]


def _build_inset(st: Static, crop: Crop, focus: tuple[str, ...]) -> Scene:
    """Enlarged land, the nodes whose marks fit inside, and names (focus first and largest)."""
    box = lay.INSET_MAP
    marks = lay.INSET
    size = (box[2] - box[0], box[3] - box[1])
    view_box = (4, 4, size[0] - 4, size[1] - 4)
    all_centres = {pid: _round(crop.apply(c)) for pid, c in st.whole.centres.items()}
    centres = {pid: c for pid, c in all_centres.items() if labels.inside(marks.footprint(c), view_box)}
    reach = crop.zoom * lay.DISC_R * 3
    pieces = {pid: [[crop.apply(p) for p in poly] for poly in polys] for pid, polys in st.pieces.items()
              if -reach <= all_centres[pid][0] <= size[0] + reach and -reach <= all_centres[pid][1] <= size[1] + reach}
    line = 3 if crop.zoom >= 1.8 else 2
    inset_land = land.paint(size, (0, 0), st.atlas.order, pieces, all_centres, st.atlas.regions, st.atlas.borders,
                            st.atlas.lanes, line=line)
    feet = {pid: marks.footprint(c) for pid, c in centres.items()}
    options: dict[str, list[tuple[str, int]]] = {}
    for pid in centres:
        label = fonts.sanitize(st.atlas.labels[pid], True)
        if pid in focus:  # the full name where it fits ("Yamashiro (Kyoto)"), large
            full = fonts.sanitize(st.atlas.names[pid], True)
            texts = [(t, lay.FOCUS_LABEL_PX) for t in dict.fromkeys((full, label))] + [(label, marks.label_px)]
        else:
            texts = [(label, marks.label_px), (abbreviation(label), marks.label_px)]
        options[pid] = list(dict.fromkeys(texts))
    sizes = {pid: [label_size(t, px) for t, px in opts] for pid, opts in options.items()}
    placed = labels.place(feet, sizes, view_box, gap=marks.gap, reach=150, crowd=150,
                          first=[p for p in focus if p in centres])
    names = {}
    for pid, (t, b) in placed.items():
        px = next(px for (text, px), (_, w, h) in zip(options[pid], sizes[pid], strict=True)
                  if text == t and (w, h) == (b[2] - b[0], b[3] - b[1]))
        names[pid] = Label(t, b, labels.needs_leader(feet[pid], b, marks.gap), px)
    taken = [*feet.values(), *(lab.box for lab in names.values())]
    named = regions.place(inset_land, st.atlas.order, centres, st.atlas.regions, st.atlas.region_order, taken,
                          px=INSET_REGION_PX)
    return Scene(box, marks, centres, feet, names, inset_land, named)


def _round(p: Point) -> tuple[int, int]:
    """A point rounded to whole pixels."""
    return (round(p[0]), round(p[1]))


__all__ = ["Atlas", "Crop", "Label", "Scene", "Static", "display_names", "frame_box", "scenes", "static_layer"]
