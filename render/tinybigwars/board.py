"""The Tiny Big Wars city: the static layer (grid, roads, named plates) and each phase's plates and heroes.

Draws only from the view model (engine/tinybigwars/view_models.py). The plates are
big enough to read on a phone: names at 20-24 px, values, minion counts and hero rows at
20-22 px. Where the latest events happened is ringed in the alert colour, a combat in red.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.tinybigwars.view_models import HeroView, LocationView, PublicView
from render import encode as encoding
from render import fonts, legend, palette, panels, text, tokens
from render.cache import LayerCache
from render.tinybigwars import key
from render.tinybigwars import layout as lay
from render.views import parse

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]
PX = fonts.MAP_MIN_PX
VALUE_PX = 22
GLOW_PAD = 14
GRID_COLOUR: RGB = (34, 39, 50)


EVENTS_BOX: Box = (8, lay.LOWER_Y, lay.WIDTH - 8, lay.LOWER_BOTTOM)
"""The events panel as every phase without a combat or a result draws it (``panel.events``)."""
LOWER_AREA: Box = (EVENTS_BOX[0], EVENTS_BOX[1], EVENTS_BOX[2] + 1, EVENTS_BOX[3] + 1)
"""The pixels the events panel, the combat box and the result banner share (corners inclusive)."""
CAPTION_STRIP: Box = (0, lay.HEADER_H, lay.WIDTH, lay.MAP_BOX[1])
LOWER_STRIP: Box = (0, lay.MAP_BOX[3], lay.WIDTH, lay.KEY_BOX[1])
"""The caption over the city, and the players and the events under it: drawn by the shared
panels (render/panels.py, render/legend.py), their boxes are found by comparing them with the
layer, cell by cell (``phase_boxes``)."""
EVENT_CELL_H = 25  # a line of the events panel (panel.LINE_H)
EDGE_CELL_W = 16  # the panels under the players start 8 px in, their outlines 1-3 px wide


def strip_cells(seats: int) -> tuple[Box, ...]:
    """Cells tiling ``CAPTION_STRIP`` and ``LOWER_STRIP``: the caption; under the city each
    player card's name row, bar row and facts row; then the left and right edges of the events
    panel's area and a cell per line of the events between them. What a phase draws in a cell is
    found as the box around the pixels that differ there."""
    cells = [CAPTION_STRIP]
    cuts = [0]
    for index in range(seats - 1):
        x, _, w = legend.card_origin(index, seats, lay.WIDTH, lay.LEGEND_Y)
        cuts.append(x + w + 4)
    cuts.append(lay.WIDTH)
    rows = (LOWER_STRIP[1], lay.LEGEND_Y + 38, lay.LEGEND_Y + 66, lay.LOWER_Y)
    for top, bottom in zip(rows, rows[1:], strict=False):
        cells += [(left, top, right, bottom) for left, right in zip(cuts, cuts[1:], strict=False)]
    # the edges of the events panel, the result banner and the combat box, apart from their lines
    # (a banner's outline would make every line of it a box across the whole map)
    edge = EDGE_CELL_W
    cells += [(0, lay.LOWER_Y, edge, LOWER_STRIP[3]), (lay.WIDTH - edge, lay.LOWER_Y, lay.WIDTH, LOWER_STRIP[3])]
    for top in range(lay.LOWER_Y, LOWER_STRIP[3], EVENT_CELL_H):
        cells.append((edge, top, lay.WIDTH - edge, min(LOWER_STRIP[3], top + EVENT_CELL_H)))
    return tuple(cells)


@dataclass(frozen=True)
class Background:
    """What only the map's geometry and its seats decide: grid, roads, empty plates, the key,
    the players' empty cards and the empty events panel, and the palette."""

    image: Image.Image
    palette: Image.Image  # fixed PNG palette for this map (see render/encode.py)
    centres: dict[str, tuple[int, int]]
    layer: encoding.Layer  # the image on the palette, whole and halved (a map maps only what a phase drew)
    bare_lower: Image.Image
    """``LOWER_AREA`` without the empty events panel: a phase with a combat or a result lays
    its boxes out otherwise there and starts from this (the map as drawn before the panel)."""
    cells: tuple[tuple[Box, Image.Image], ...]
    """Each of ``strip_cells`` and the image's pixels there, to find what a phase drew in it."""


@dataclass(frozen=True)
class Static:
    """The background with this match's location names on its plates, and where each sits.

    A match keeps only its name tiles and where they go: each draw pastes them on a copy of the
    map's shared background (``canvas``). A whole layer per match (5.6 MB) let a worker keep 16
    matches' layers; at 40 matches most draws rebuilt theirs (two copies of the map instead of
    one). The pastes cost a few hundredths of a millisecond."""

    background: Image.Image
    palette: Image.Image
    centres: dict[str, tuple[int, int]]
    name_boxes: dict[str, Box]
    names: dict[str, str]
    tiles: tuple[tuple[Image.Image, tuple[int, int]], ...]
    layer: encoding.Layer
    """The background on the palette (shared by the map): the name tiles sit on plates, inside
    the boxes every phase maps anew (``phase_boxes``)."""
    bare_lower: Image.Image  # the background's (Background.bare_lower)
    cells: tuple[tuple[Box, Image.Image], ...]  # the background's (Background.cells)

    def canvas(self) -> Image.Image:
        """A fresh RGB image of the layer, to draw a phase on."""
        img = self.background.copy()
        for tile, at in self.tiles:
            img.paste(tile, at)
        return img

    @property
    def image(self) -> Image.Image:
        """The layer as an image (a fresh ``canvas``)."""
        return self.canvas()


_BACKGROUND: LayerCache[Background] = LayerCache(max_entries=16)
_STATIC: LayerCache[Static] = LayerCache(max_entries=256)
"""Per match: names, boxes and references to the name tiles, a few KiB (the images are shared)."""


def background_key(view: PublicView) -> tuple[Any, ...]:
    """The map id, coordinates, roads and seats: names differ per match, so they stay out of
    this key and every match on a map (a map is for one number of players) shares one background."""
    locations = tuple((location.id, location.x, location.y) for location in view.locations)
    return (view.map, locations, tuple(view.roads), seats_of(view))


def seats_of(view: PublicView) -> tuple[int, ...]:
    """The seats in the order their cards are laid out (``panel.players``)."""
    return tuple(seat.seat for seat in view.seats)


def bare_background(view: PublicView) -> tuple[Image.Image, dict[str, tuple[int, int]]]:
    """Grid, roads, empty plates and the key, and where each plate sits: the map as every phase
    has always been drawn on (its palette is this image's)."""
    img = Image.new("RGB", (lay.WIDTH, lay.HEIGHT), palette.PANEL)
    draw = ImageDraw.Draw(img)
    box = lay.MAP_BOX
    draw.rectangle((0, lay.CAPTION_BOX[3], lay.WIDTH, box[3] + 4), fill=palette.BACKGROUND)
    # a faint street grid gives the city some texture without competing with the plates
    for gx in range(box[0], box[2], 60):
        draw.line([(gx, box[1]), (gx, box[3])], fill=GRID_COLOUR)
    for gy in range(box[1], box[3], 60):
        draw.line([(box[0], gy), (box[2], gy)], fill=GRID_COLOUR)
    draw.rectangle((0, 0, lay.WIDTH, lay.HEADER_H), fill=palette.BACKGROUND_EDGE)
    draw.rectangle(lay.CAPTION_BOX, fill=palette.BACKGROUND_EDGE)
    for y in (lay.HEADER_H, lay.CAPTION_BOX[3], box[3] + 4):
        draw.line([(0, y), (lay.WIDTH, y)], fill=palette.PANEL_EDGE, width=2)
    text.outlined(draw, (14, lay.HEADER_H // 2), "TINY BIG WARS", fonts.font(24, bold=True), fill=palette.ALERT,
                  anchor="lm")
    key.draw_key(img, draw)

    centres = lay.place(view.locations)
    roads = [(centres[a], centres[b]) for a, b in view.roads if a in centres and b in centres]
    for a, b in roads:
        draw.line([a, b], fill=palette.ROAD_EDGE, width=18)
    for a, b in roads:
        draw.line([a, b], fill=palette.ROAD, width=10)
    for location in view.locations:
        plate = lay.plate_box(centres[location.id])
        draw.rounded_rectangle(plate, radius=12, fill=palette.PLATE, outline=palette.PLATE_EDGE, width=2)
    return img, centres


def draw_empty_panels(img: Image.Image, seats: tuple[int, ...]) -> None:
    """The players' cards and the events panel as every phase starts them (``legend.draw_card``,
    ``panels.events_frame``): each fills its whole shape, so a phase drawing them again over these
    gives the pixels drawing them over the bare map gives, and only what it writes in them differs
    from the layer (the cards' names and figures, the events)."""
    draw = ImageDraw.Draw(img)
    for index, seat in enumerate(seats):
        x, y, w = legend.card_origin(index, len(seats), lay.WIDTH, lay.LEGEND_Y)
        legend.draw_card(draw, x, y, w, lay.LEGEND_H, seat)
    panels.events_frame(img, EVENTS_BOX)


def _build_background(view: PublicView) -> Background:
    """The bare map, its palette, and the empty panels drawn on it: the costly part, drawn once
    per map."""
    img, centres = bare_background(view)
    fixed = encoding.fixed_palette(img, encoding.drawing_colours())
    bare_lower = img.crop(LOWER_AREA)
    draw_empty_panels(img, seats_of(view))
    cells = tuple((cell, img.crop(cell)) for cell in strip_cells(len(view.seats)))
    return Background(img, fixed, centres, encoding.layer(img, fixed, ()), bare_lower, cells)


_NAMES: LayerCache[tuple[Image.Image, Box]] = LayerCache(max_entries=4096)
"""Each location name drawn once on a plate's fill (~20 KiB each): the per-match part of the
layer, so a match's layer is a copy of the background and a paste per location."""


def _name_tile(name: str, font: ImageFont.FreeTypeFont) -> tuple[Image.Image, Box]:
    """The name drawn outlined on the plate colour, and its box relative to the anchor point."""
    width, height = lay.PLATE_W, lay.PLATE_H
    tile = Image.new("RGB", (width, height), palette.PLATE)
    anchor = (width // 2, height // 2)
    x0, y0, x1, y1 = text.outlined(ImageDraw.Draw(tile), anchor, name, font, anchor="mm")
    return tile.crop((x0, y0, x1, y1)), (x0 - anchor[0], y0 - anchor[1], x1 - anchor[0], y1 - anchor[1])


def _build_static(view: PublicView) -> Static:
    """The shared background with the names written on its plates, before anything of the
    phase is drawn over them (the order the map has always been drawn in). A name sits on the
    plate's even fill, so pasting its tile gives the pixels drawing it there would."""
    background = _BACKGROUND.get(background_key(view), lambda: _build_background(view))
    centres = background.centres
    name_boxes: dict[str, Box] = {}
    names: dict[str, str] = {}
    tiles: list[tuple[Image.Image, tuple[int, int]]] = []
    for location in view.locations:
        lid = location.id
        names[lid] = location.name
        plate = lay.plate_box(centres[lid])
        name, font = text.fit(names[lid], lay.NAME_MAX_W, lay.NAME_SIZES, bold=True)
        tile, (dx0, dy0, dx1, dy1) = _NAMES.get((name, str(font.path), font.size), functools.partial(_name_tile, name, font))
        x, y = centres[lid][0], plate[1] + 19
        tiles.append((tile, (x + dx0, y + dy0)))
        name_boxes[lid] = (x + dx0, y + dy0, x + dx1, y + dy1)
    return Static(background.image, background.palette, centres, name_boxes, names, tuple(tiles), background.layer,
                  background.bare_lower, background.cells)


def static_layer(view: PublicView | Mapping[str, Any]) -> Static:
    """The cached static layer of this view's map, seats and names (its background shared by the map)."""
    typed = parse(PublicView, view)
    return _STATIC.get(lay.map_key(typed), lambda: _build_static(typed))


MERGE_SLACK = 2000
"""Pixels a box may grow by to take in a neighbour: each box costs its crops, mappings and pastes
(~5 us, as much as mapping and halving some 2,000 pixels more; 1,500-6,000 measure alike)."""


def phase_boxes(st: Static, image: Image.Image, city: Iterable[Box]) -> tuple[Box, ...]:
    """Where a phase drew over the static layer (``render_image``): the boxes of what it drew in
    the city (``city``: each location's name, plate marks, rings and hero rows, as drawn), and in
    each cell of the strips over and under the city the box around the pixels that differ from
    the layer's (the panels' texts, bars and highlights). Outside them a map's pixels are the
    layer's (the street grid, the roads, the empty cards and panel, the key), so its PNG and
    replay frame map only these onto the palette."""
    found: list[Box] = []
    core = image.im  # ImageChops.difference(image.crop(cell), bare).getbbox() on the images' cores:
    for cell, bare in st.cells:  # a third less CPU for the 18-30 cells of a map
        drawn = core.crop(cell).chop_difference(bare.im).getbbox(False)
        if drawn is not None:
            found.append((cell[0] + drawn[0], cell[1] + drawn[1], cell[0] + drawn[2], cell[1] + drawn[3]))
    return (*city, *joined(found))


def joined(boxes: list[Box]) -> list[Box]:
    """``boxes`` in order, each joined with the one before where their joint box is at most
    ``MERGE_SLACK`` pixels bigger than the two (a plate and its hero rows, the cells' boxes of one
    line of text)."""
    out: list[Box] = []
    for box in boxes:
        if out:
            last = out[-1]
            both = union((last, box))
            if _area(both) <= _area(last) + _area(box) + MERGE_SLACK:
                out[-1] = both
                continue
        out.append(box)
    return out


def _area(box: Box) -> int:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])


def around(cx: float, cy: float, r: float) -> Box:
    """A box holding a mark of radius ``r`` drawn at (cx, cy): the seat shapes reach 1.22 r,
    with their outline and a pixel of rounding beside."""
    reach = 1.25 * r + 3
    return (math.floor(cx - reach), math.floor(cy - reach), math.ceil(cx + reach) + 1, math.ceil(cy + reach) + 1)


def union(boxes: Iterable[Box]) -> Box:
    """The box holding all of ``boxes``."""
    x0s, y0s, x1s, y1s = zip(*boxes, strict=True)
    return (min(x0s), min(y0s), max(x1s), max(y1s))


# --------------------------------------------------------------------------- helpers


def heroes_by_location(view: PublicView) -> dict[str, list[HeroView]]:
    """Heroes on the board by location, in a stable order (defeated ones are gone)."""
    out: dict[str, list[HeroView]] = {}
    for hero in view.heroes:
        if hero.defeated or hero.location is None:
            continue
        out.setdefault(hero.location, []).append(hero)
    for heroes in out.values():
        heroes.sort(key=lambda hero: (hero.seat, hero.id))
    return out


def hero_rows(n: int) -> int:
    """Rows drawn under a plate for `n` heroes (the last one says "+N more" when they do not fit)."""
    return n if n <= lay.MAX_HERO_ROWS else lay.MAX_HERO_ROWS


def short_name(hero: HeroView) -> str:
    """A hero's token label: the first word of its name ("Ember Fist" -> "Ember")."""
    name = (hero.name or hero.card or "?").strip()
    return name.split()[0] if name else "?"


def _value_label(printed: int, total: int) -> str:
    """Say "2" or "2+1" when infrastructure adds to the printed value."""
    return f"{printed}+{total - printed}" if total > printed else str(total)


@functools.lru_cache(maxsize=8)
def _glow(colour: RGB) -> Image.Image:
    """Rings around a plate: red where a combat is fought, the alert colour where events happened."""
    w, h = lay.PLATE_W + 2 * GLOW_PAD, lay.PLATE_H + 2 * GLOW_PAD
    im = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    for i, alpha in enumerate((0.8, 0.5, 0.25)):
        pad = 4 + i * 4
        c = GLOW_PAD - pad
        d.rounded_rectangle((c, c, w - c, h - c), radius=12 + pad, outline=palette.tint(colour, 1 - alpha), width=4)
    return im


@functools.lru_cache(maxsize=16)
def _controlled_overlay(seat: int) -> Image.Image:
    """Border and tinted value rows of a plate controlled by `seat`."""
    im = Image.new("RGBA", (lay.PLATE_W + 1, lay.PLATE_H + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    colour = palette.seat_colour(seat)
    d.rounded_rectangle((0, 0, lay.PLATE_W, lay.PLATE_H), radius=12, outline=colour, width=5)
    d.rounded_rectangle((5, 38, lay.PLATE_W - 5, lay.PLATE_H - 5), radius=7, fill=palette.tint(colour, 0.6, palette.PLATE))
    return im


@functools.lru_cache(maxsize=64)
def _contested_border(colours: tuple[RGB, ...]) -> Image.Image:
    """Dashed border in the colours of the clans present."""
    im = Image.new("RGBA", (lay.PLATE_W + 3, lay.PLATE_H + 3), (0, 0, 0, 0))
    _dashed_rounded(ImageDraw.Draw(im), (1, 1, lay.PLATE_W + 1, lay.PLATE_H + 1), list(colours), 5)
    return im


def _dashed_rounded(draw: ImageDraw.ImageDraw, box: Box, colours: list[RGB], width: int) -> None:
    """A border of dashes cycling through the present seats' colours (contested plates)."""
    x0, y0, x1, y1 = box
    dash = 16
    k = 0
    for x in range(x0, x1, dash):
        c = colours[k % len(colours)]
        draw.line((x, y0, min(x + dash, x1), y0), fill=c, width=width)
        draw.line((x, y1, min(x + dash, x1), y1), fill=c, width=width)
        k += 1
    for y in range(y0, y1, dash):
        c = colours[k % len(colours)]
        draw.line((x0, y, x0, min(y + dash, y1)), fill=c, width=width)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=c, width=width)
        k += 1


# --------------------------------------------------------------------------- plates and heroes


def draw_location(img: Image.Image, draw: ImageDraw.ImageDraw, location: LocationView, centre: tuple[int, int],
                  combat_here: bool, named: bool) -> list[Box]:
    """A location's plate for this phase: owner, values, buildings, minions; rings for combat and
    events. Returns the boxes of what it drew (``phase_boxes``)."""
    x0, y0, x1, y1 = lay.plate_box(centre)
    controller = location.controller
    present = sorted({seat for seat, count in location.minions if count})
    drawn: list[Box] = []
    if combat_here or named:
        glow = _glow(palette.COMBAT if combat_here else palette.ALERT)
        drawn.append(text.paste_sprite(img, glow, x0 - GLOW_PAD, y0 - GLOW_PAD))
    if location.contested:
        colours = tuple(palette.seat_colour(s) for s in present) or (palette.ALERT,)
        border = _contested_border(colours if len(colours) > 1 else (*colours, palette.ALERT))
        drawn.append(text.paste_sprite(img, border, x0, y0))
    elif controller is not None:
        overlay = _controlled_overlay(controller)
        drawn.append(text.paste_sprite(img, overlay, x0, y0))
    # values row: coin, influence, start flag, infrastructure
    ry = y0 + 54
    tokens.coin(draw, x0 + 18, ry, 10)
    coin_box = text.stamp(img, (x0 + 33, ry), _value_label(location.coin, location.coin_total), VALUE_PX, bold=True,
                          anchor="lm")
    cx = coin_box[2]
    tokens.star(draw, cx + 18, ry, 11)
    marks = [around(x0 + 18, ry, 10), coin_box, around(cx + 18, ry, 11),
             text.stamp(img, (cx + 33, ry), _value_label(location.influence, location.influence_total), VALUE_PX,
                        bold=True, anchor="lm")]
    infra = location.infrastructure
    if infra in ("dojo", "market", "watchtower"):
        tokens.infrastructure(draw, infra, x1 - 22, ry - 1, 14)
        marks.append(around(x1 - 22, ry - 1, 14))
    start = location.start_seat
    if start is not None:
        tokens.flag(draw, x1 - 56, ry + 12, 26, palette.seat_colour(start))
        marks.append((x1 - 56 - 2, ry + 12 - 26 - 2, x1 - 56 + 26 + 2, ry + 12 + 3))
    # minions row: seat shape + count for each seat present
    entries = [(seat, str(count)) for seat, count in location.minions if count]
    if entries:
        bold = fonts.font(VALUE_PX, bold=True)
        widths = [22 + bold.getlength(label) for _, label in entries]
        avail = lay.PLATE_W - 18
        gap = 12.0 if len(entries) < 2 else min(12.0, max(1.0, (avail - sum(widths)) / (len(entries) - 1)))
        mx = x0 + 17.0
        my = y0 + 83
        for (seat, label), wd in zip(entries, widths, strict=True):
            tokens.draw_shape(draw, palette.seat_shape(seat), mx, my, 9, palette.seat_colour(seat), palette.OUTLINE, 1)
            marks.append(around(mx, my, 9))
            marks.append(text.stamp(img, (mx + 11, my), label, VALUE_PX, bold=True, anchor="lm"))
            mx += wd + gap
    drawn.append(union(marks))
    if location.contested or combat_here:
        tokens.swords(draw, x1 - 4, y0 + 4, 15)
        drawn.append(around(x1 - 4, y0 + 4, 15))
    return drawn


def draw_heroes(img: Image.Image, draw: ImageDraw.ImageDraw, heroes: list[HeroView], centre: tuple[int, int]) -> Box:
    """One row per hero under its location: seat shape, short name, health and energy. Returns
    the box of what it drew (``phase_boxes``)."""
    _, _, _, y1 = lay.plate_box(centre)
    x0, x1 = centre[0] - lay.HERO_W // 2, centre[0] + lay.HERO_W // 2
    shown = heroes if len(heroes) <= lay.MAX_HERO_ROWS else heroes[: lay.MAX_HERO_ROWS - 1]
    y = y1 + 1
    row_h = lay.HERO_ROW_H
    drawn: list[Box] = []
    for h in shown:
        seat = h.seat
        colour = palette.seat_colour(seat)
        draw.rectangle((x0, y, x1, y + row_h - 2), fill=palette.BACKGROUND_EDGE, outline=colour, width=2)
        drawn.append((x0, y, x1 + 1, y + row_h - 1))
        cy = y + row_h // 2 - 1
        tokens.draw_shape(draw, palette.seat_shape(seat), x0 + 14, cy, 9, colour, palette.OUTLINE, 1)
        drawn.append(around(x0 + 14, cy, 9))
        # right to left: energy, bolt, health, heart; the name gets what is left
        energy_box = text.stamp(img, (x1 - 7, cy), str(h.energy), PX, bold=True, stroke=0, anchor="rm")
        ex = energy_box[0]
        tokens.bolt(draw, ex - 9, cy, 9)
        health = f"{h.health}/{h.max_health}"
        health_box = text.stamp(img, (ex - 21, cy), health, PX, bold=True, stroke=0, anchor="rm")
        hx = health_box[0]
        tokens.heart(draw, hx - 10, cy, 8)
        fill = palette.TEXT_DIM if h.activated else palette.TEXT
        label = text.ellipsize(fonts.sanitize(short_name(h), True), fonts.font(PX, True), hx - 22 - (x0 + 27))
        drawn += [energy_box, around(ex - 9, cy, 9), health_box, around(hx - 10, cy, 8),
                  text.stamp(img, (x0 + 27, cy), label, PX, bold=True, fill=fill, stroke=0, anchor="lm")]
        y += row_h
    if len(heroes) > len(shown):
        more = len(heroes) - len(shown)
        draw.rectangle((x0, y, x1, y + row_h - 2), fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE)
        drawn.append((x0, y, x1 + 1, y + row_h - 1))
        cx = x0 + 14
        cy = y + row_h // 2 - 1
        for h in heroes[len(shown) :][:5]:
            tokens.draw_shape(draw, palette.seat_shape(h.seat), cx, cy, 8, palette.seat_colour(h.seat), palette.OUTLINE,
                              1)
            drawn.append(around(cx, cy, 8))
            cx += 19
        drawn.append(text.stamp(img, (x1 - 8, cy), f"+{more} more", PX, stroke=0, anchor="rm"))
    return union(drawn)


def label_boxes(view: PublicView | Mapping[str, Any]) -> dict[str, Box]:
    """Bounding boxes of the location name labels (tests check they never overlap)."""
    return dict(static_layer(view).name_boxes)


def footprints(view: PublicView | Mapping[str, Any]) -> dict[str, Box]:
    """Each location's plate plus the hero rows hanging below it, as drawn."""
    view = parse(PublicView, view)
    st = static_layer(view)
    heroes = heroes_by_location(view)
    out = {}
    for lid, c in st.centres.items():
        x0, y0, x1, y1 = lay.plate_box(c)
        rows = hero_rows(len(heroes.get(lid, [])))
        if rows:
            x0, x1 = c[0] - lay.HERO_W // 2, c[0] + lay.HERO_W // 2
        out[lid] = (x0, y0, x1, y1 + rows * lay.HERO_ROW_H)
    return out
