"""Tiny Big Wars: the public city map and a seat's private force panel.

Draws only from the documented view keys (docs/design/tinybigwars-view.md); anything else
in the dict is ignored, so seat-only data (`you`) can never leak into the public image.
The background, roads and location name labels depend only on the map, so they are built
once per map and copied for every phase.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.text import fill
from render import encode as encoding
from render import fonts, legend, palette, text, tokens
from render.cache import LayerCache

WIDTH, HEIGHT = 1200, 900
HEADER_H = 56
PANEL_X = 912  # the legend panel starts here; the city is drawn left of it
MAP_BOX = (8, HEADER_H + 8, PANEL_X - 10, HEIGHT - 8)
PLATE_W, PLATE_H = 170, 74
HERO_W = 186  # hero rows overhang the plate a little so names fit
HERO_ROW_H = 24
MAX_HERO_ROWS = 3  # more heroes at one location collapse into "+N more"
NAME_SIZES = (19, 18, 17)
NAME_MAX_W = PLATE_W - 30  # leaves room for the contested badge on the corner
PRIVATE_SIZE = (800, 500)

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Static:
    """What depends only on the map: the base image and where each location sits."""

    image: Image.Image
    palette: Image.Image  # fixed PNG palette for this map (see render/encode.py)
    centres: dict[str, tuple[int, int]]
    name_boxes: dict[str, Box]


_STATIC: LayerCache[Static] = LayerCache(max_entries=16)


# --------------------------------------------------------------------------- layout


def _map_key(view: dict[str, Any]) -> tuple[Any, ...]:
    """Cache key: the map id plus the geometry, so two maps never share a layer by mistake."""
    locs = tuple((str(lo["id"]), str(lo.get("name", "")), float(lo["x"]), float(lo["y"])) for lo in view["locations"])
    roads = tuple(tuple(map(str, r)) for r in view.get("roads", []))
    return (str(view.get("map", "")), locs, roads)


def _place(locations: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Plate centres from the 0..1 coordinates, nudged apart where plates would collide."""
    x0, y0, x1, y1 = MAP_BOX
    half_w, half_h = HERO_W / 2, PLATE_H / 2
    reserve = HERO_ROW_H * 2  # room below each plate for its hero rows
    pos: dict[str, list[float]] = {}
    for lo in locations:
        fx = min(1.0, max(0.0, float(lo["x"])))
        fy = min(1.0, max(0.0, float(lo["y"])))
        pos[str(lo["id"])] = [
            x0 + half_w + fx * (x1 - x0 - PLATE_W),
            y0 + half_h + fy * (y1 - y0 - PLATE_H - reserve),
        ]
    ids = list(pos)
    need_x, need_y = HERO_W + 6, PLATE_H + reserve + 4
    for _ in range(60):
        moved = False
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                pa, pb = pos[a], pos[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                ox, oy = need_x - abs(dx), need_y - abs(dy)
                if ox <= 0 or oy <= 0:
                    continue
                moved = True
                if ox / need_x < oy / need_y:  # separate along the cheaper axis
                    s = (ox / 2 + 0.5) * (1 if dx >= 0 else -1)
                    pa[0] -= s
                    pb[0] += s
                else:
                    s = (oy / 2 + 0.5) * (1 if dy >= 0 else -1)
                    pa[1] -= s
                    pb[1] += s
        for p in pos.values():
            p[0] = min(x1 - half_w, max(x0 + half_w, p[0]))
            p[1] = min(y1 - half_h - reserve, max(y0 + half_h, p[1]))
        if not moved:
            break
    return {k: (round(v[0]), round(v[1])) for k, v in pos.items()}


def plate_box(centre: tuple[int, int]) -> Box:
    """The location plate around a centre."""
    cx, cy = centre
    return (cx - PLATE_W // 2, cy - PLATE_H // 2, cx + PLATE_W // 2, cy + PLATE_H // 2)


def _build_static(view: dict[str, Any]) -> Static:
    img = Image.new("RGB", (WIDTH, HEIGHT), palette.BACKGROUND)
    draw = ImageDraw.Draw(img)
    # a faint street grid gives the city some texture without competing with the plates
    for gx in range(MAP_BOX[0], MAP_BOX[2], 48):
        draw.line([(gx, MAP_BOX[1]), (gx, MAP_BOX[3])], fill=(34, 39, 50))
    for gy in range(MAP_BOX[1], MAP_BOX[3], 48):
        draw.line([(MAP_BOX[0], gy), (MAP_BOX[2], gy)], fill=(34, 39, 50))
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=palette.BACKGROUND_EDGE)
    draw.line([(0, HEADER_H), (WIDTH, HEADER_H)], fill=palette.PANEL_EDGE, width=2)
    draw.rectangle((PANEL_X - 2, HEADER_H + 1, WIDTH, HEIGHT), fill=palette.PANEL)
    draw.line([(PANEL_X - 2, HEADER_H), (PANEL_X - 2, HEIGHT)], fill=palette.PANEL_EDGE, width=2)
    text.outlined(draw, (14, HEADER_H // 2), "TINY BIG WARS", fonts.font(24, bold=True), fill=palette.ALERT, anchor="lm")
    _draw_key(draw, PANEL_X + 8, KEY_TOP, WIDTH - PANEL_X - 16)

    centres = _place(view["locations"])
    for road in view.get("roads", []):
        if len(road) < 2 or str(road[0]) not in centres or str(road[1]) not in centres:
            continue
        a, b = centres[str(road[0])], centres[str(road[1])]
        draw.line([a, b], fill=palette.ROAD_EDGE, width=14)
    for road in view.get("roads", []):
        if len(road) < 2 or str(road[0]) not in centres or str(road[1]) not in centres:
            continue
        a, b = centres[str(road[0])], centres[str(road[1])]
        draw.line([a, b], fill=palette.ROAD, width=8)

    name_boxes: dict[str, Box] = {}
    for lo in view["locations"]:
        lid = str(lo["id"])
        box = plate_box(centres[lid])
        draw.rounded_rectangle(box, radius=10, fill=palette.PLATE, outline=palette.PLATE_EDGE, width=2)
        name, f = text.fit(str(lo.get("name", lid)), NAME_MAX_W, NAME_SIZES, bold=True)
        name_boxes[lid] = text.outlined(draw, (centres[lid][0], box[1] + 15), name, f, anchor="mm")
    return Static(img, encoding.fixed_palette(img, encoding.drawing_colours()), centres, name_boxes)


def static_layer(view: dict[str, Any]) -> Static:
    """The cached static layer of this view's map (built on first use)."""
    return _STATIC.get(_map_key(view), lambda: _build_static(view))


def label_boxes(view: dict[str, Any]) -> dict[str, Box]:
    """Bounding boxes of the location name labels (tests check they never overlap)."""
    return dict(static_layer(view).name_boxes)


def footprints(view: dict[str, Any]) -> dict[str, Box]:
    """Each location's plate plus the hero rows hanging below it, as drawn."""
    st = static_layer(view)
    heroes = _heroes_by_location(view)
    out = {}
    for lid, c in st.centres.items():
        x0, y0, x1, y1 = plate_box(c)
        rows = _hero_rows(len(heroes.get(lid, [])))
        if rows:
            x0, x1 = c[0] - HERO_W // 2, c[0] + HERO_W // 2
        out[lid] = (x0, y0, x1, y1 + rows * HERO_ROW_H)
    return out


# --------------------------------------------------------------------------- helpers


def _heroes_by_location(view: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for h in view.get("heroes", []):
        if h.get("defeated") or h.get("location") is None:
            continue
        out.setdefault(str(h["location"]), []).append(h)
    for hs in out.values():
        hs.sort(key=lambda h: (int(h.get("seat", 0)), str(h.get("id", ""))))
    return out


def _hero_rows(n: int) -> int:
    return n if n <= MAX_HERO_ROWS else MAX_HERO_ROWS


def short_name(hero: dict[str, Any]) -> str:
    """A hero's token label: the first word of its name ("Ember Fist" -> "Ember")."""
    name = str(hero.get("name") or hero.get("card") or "?").strip()
    return name.split()[0] if name else "?"


def _value_label(printed: Any, total: Any) -> str:
    """ "2" or "2+1" when infrastructure adds to the printed value."""
    p = int(printed or 0)
    t = int(total if total is not None else p)
    return f"{p}+{t - p}" if t > p else str(t)


GLOW_PAD = 12


@functools.lru_cache(maxsize=8)
def _combat_glow() -> Image.Image:
    """Red rings around the plate where a combat is being fought (drawn once, pasted)."""
    w, h = PLATE_W + 2 * GLOW_PAD, PLATE_H + 2 * GLOW_PAD
    im = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    for i, alpha in enumerate((0.75, 0.5, 0.25)):
        pad = 4 + i * 3
        c = GLOW_PAD - pad
        d.rounded_rectangle((c, c, w - c, h - c), radius=12 + pad, outline=palette.tint(palette.COMBAT, 1 - alpha), width=3)
    return im


@functools.lru_cache(maxsize=16)
def _controlled_overlay(seat: int) -> Image.Image:
    """Border and tinted value rows of a plate controlled by `seat`."""
    im = Image.new("RGBA", (PLATE_W + 1, PLATE_H + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    colour = palette.seat_colour(seat)
    d.rounded_rectangle((0, 0, PLATE_W, PLATE_H), radius=10, outline=colour, width=4)
    d.rounded_rectangle((4, 30, PLATE_W - 4, PLATE_H - 4), radius=6, fill=palette.tint(colour, 0.6, palette.PLATE))
    return im


@functools.lru_cache(maxsize=64)
def _contested_border(colours: tuple[tuple[int, int, int], ...]) -> Image.Image:
    """Dashed border in the colours of the clans present."""
    im = Image.new("RGBA", (PLATE_W + 3, PLATE_H + 3), (0, 0, 0, 0))
    _dashed_rounded(ImageDraw.Draw(im), (1, 1, PLATE_W + 1, PLATE_H + 1), list(colours), 4)
    return im


def _dashed_rounded(draw: ImageDraw.ImageDraw, box: Box, colours: list[tuple[int, int, int]], width: int) -> None:
    """A border of dashes cycling through the present seats' colours (contested plates)."""
    x0, y0, x1, y1 = box
    dash = 14
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


# --------------------------------------------------------------------------- public map


def _draw_location(
    img: Image.Image, draw: ImageDraw.ImageDraw, lo: dict[str, Any], centre: tuple[int, int], combat_here: bool
) -> None:
    box = plate_box(centre)
    x0, y0, x1, y1 = box
    controller = lo.get("controller")
    present = sorted({int(s) for s, n in lo.get("minions", []) if n})
    if combat_here:
        glow = _combat_glow()
        img.paste(glow, (x0 - GLOW_PAD, y0 - GLOW_PAD), glow)
    if lo.get("contested"):
        colours = tuple(palette.seat_colour(s) for s in present) or (palette.ALERT,)
        border = _contested_border(colours if len(colours) > 1 else (*colours, palette.ALERT))
        img.paste(border, (x0, y0), border)
    elif controller is not None:
        overlay = _controlled_overlay(int(controller))
        img.paste(overlay, (x0, y0), overlay)
    # values row: coin, influence, start flag, infrastructure
    ry = y0 + 42
    tokens.coin(draw, x0 + 16, ry, 8)
    cx = text.stamp(img, (x0 + 28, ry), _value_label(lo.get("coin"), lo.get("coin_total")), 17, bold=True, anchor="lm")[2]
    tokens.star(draw, cx + 16, ry, 9)
    text.stamp(img, (cx + 28, ry), _value_label(lo.get("influence"), lo.get("influence_total")), 17, bold=True, anchor="lm")
    infra = lo.get("infrastructure")
    if infra in ("dojo", "market", "watchtower"):
        tokens.infrastructure(draw, infra, x1 - 18, ry - 1, 11)
    start = lo.get("start_seat")
    if start is not None:
        tokens.flag(draw, x1 - 44, ry + 9, 20, palette.seat_colour(int(start)))
    # minions row: seat shape + count for each seat present
    entries = [(int(seat), str(int(count))) for seat, count in lo.get("minions", []) if count]
    if entries:
        bold17 = fonts.font(17, bold=True)
        widths = [18 + bold17.getlength(label) for _, label in entries]
        avail = PLATE_W - 14
        gap = 10.0 if len(entries) < 2 else min(10.0, max(1.0, (avail - sum(widths)) / (len(entries) - 1)))
        mx = x0 + 14.0
        my = y0 + 63
        for (seat, label), wd in zip(entries, widths, strict=True):
            tokens.draw_shape(draw, palette.seat_shape(seat), mx, my, 7, palette.seat_colour(seat), palette.OUTLINE, 1)
            text.stamp(img, (mx + 9, my), label, 17, bold=True, anchor="lm")
            mx += wd + gap
    if lo.get("contested") or combat_here:
        tokens.swords(draw, x1 - 4, y0 + 4, 13)


def _draw_heroes(img: Image.Image, draw: ImageDraw.ImageDraw, heroes: list[dict[str, Any]], centre: tuple[int, int]) -> None:
    """One row per hero under its location: seat shape, short name, health and energy."""
    _, _, _, y1 = plate_box(centre)
    x0, x1 = centre[0] - HERO_W // 2, centre[0] + HERO_W // 2
    shown = heroes if len(heroes) <= MAX_HERO_ROWS else heroes[: MAX_HERO_ROWS - 1]
    y = y1 + 1
    for h in shown:
        seat = int(h.get("seat", 0))
        colour = palette.seat_colour(seat)
        draw.rectangle((x0, y, x1, y + HERO_ROW_H - 2), fill=palette.BACKGROUND_EDGE, outline=colour, width=2)
        cy = y + HERO_ROW_H // 2 - 1
        tokens.draw_shape(draw, palette.seat_shape(seat), x0 + 12, cy, 7, colour, palette.OUTLINE, 1)
        # right to left: energy, bolt, health, heart; the name gets what is left
        ex = text.stamp(img, (x1 - 6, cy), str(int(h.get("energy", 0))), 17, bold=True, stroke=0, anchor="rm")[0]
        tokens.bolt(draw, ex - 8, cy, 8)
        health = f"{int(h.get('health', 0))}/{int(h.get('max_health', 0))}"
        hx = text.stamp(img, (ex - 19, cy), health, 17, bold=True, stroke=0, anchor="rm")[0]
        tokens.heart(draw, hx - 9, cy, 7)
        fill = palette.TEXT_DIM if h.get("activated") else palette.TEXT
        label = text.ellipsize(fonts.sanitize(short_name(h), True), fonts.font(17, True), hx - 20 - (x0 + 22))
        text.stamp(img, (x0 + 22, cy), label, 17, bold=True, fill=fill, stroke=0, anchor="lm")
        y += HERO_ROW_H
    if len(heroes) > len(shown):
        more = len(heroes) - len(shown)
        draw.rectangle((x0, y, x1, y + HERO_ROW_H - 2), fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE)
        cx = x0 + 12
        for h in heroes[len(shown) :]:
            s = int(h.get("seat", 0))
            tokens.draw_shape(draw, palette.seat_shape(s), cx, y + 11, 6, palette.seat_colour(s), palette.OUTLINE, 1)
            cx += 15
        text.stamp(img, (x1 - 8, y + 11), f"+{more} more", 17, stroke=0, anchor="rm")


def _status(view: dict[str, Any], seat: dict[str, Any]) -> tuple[str, tuple[int, int, int]]:
    s = int(seat.get("seat", 0))
    if seat.get("eliminated"):
        return "out", palette.COMBAT
    if view.get("result"):
        return ("winner", palette.ALERT) if s in view["result"].get("winners", []) else ("", palette.TEXT_DIM)
    if view.get("active_seat") == s:
        return "to act", palette.ALERT
    if s in view.get("waiting", []):
        return "deciding", palette.ALERT
    if view.get("phase") == "force" and seat.get("force_ready"):
        return "ready", palette.TEXT_DIM
    if seat.get("passed"):
        return "passed", palette.TEXT_DIM
    return "", palette.TEXT_DIM


def _minion_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    draw.ellipse((cx - r * 0.45, cy - r, cx + r * 0.45, cy - r * 0.1), fill=palette.TEXT_DIM)
    draw.pieslice((cx - r * 0.9, cy - r * 0.1, cx + r * 0.9, cy + r * 1.6), 180, 360, fill=palette.TEXT_DIM)


def _location_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    draw.rounded_rectangle((cx - r, cy - r * 0.7, cx + r, cy + r * 0.7), radius=3, fill=palette.PLATE_EDGE, outline=palette.TEXT_DIM)


def _hero_icon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A bigger, gold figure: heroes (minions are the small grey one)."""
    k = r * 1.2
    draw.ellipse((cx - k * 0.42, cy - k, cx + k * 0.42, cy - k * 0.18), fill=palette.COIN, outline=palette.OUTLINE)
    draw.pieslice((cx - k * 0.95, cy - k * 0.2, cx + k * 0.95, cy + k * 1.6), 180, 360, fill=palette.COIN, outline=palette.OUTLINE)


LEGEND_ROW_H = 94


def legend_origin(seat_index: int) -> tuple[int, int]:
    """Top-left of a seat's legend row (tests sample the swatch there)."""
    return (PANEL_X + 8, HEADER_H + 10 + seat_index * LEGEND_ROW_H)


def _draw_panel(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None) -> None:
    to_win = int(view.get("to_win", 10) or 10)
    w = WIDTH - PANEL_X - 16
    seats = view.get("seats", [])
    for i, seat in enumerate(seats):
        s = int(seat.get("seat", i))
        status, status_colour = _status(view, seat)
        entry = legend.Entry(
            seat=s,
            name=legend.name_for(names, s),
            progress=int(seat.get("influence", 0)),
            target=to_win,
            progress_icon=tokens.star,
            facts=[
                (tokens.coin, str(int(seat.get("coins", 0)))),
                (_location_icon, f"{int(seat.get('locations', 0))} loc"),
                (_minion_icon, str(int(seat.get("minions", 0)))),
                (_hero_icon, str(int(seat.get("heroes", 0)))),
            ],
            status=status,
            status_colour=status_colour,
            highlight=view.get("active_seat") == s or s in ((view.get("result") or {}).get("winners") or []),
        )
        x, y = legend_origin(i)
        legend.draw_entry(img, draw, x, y, w, LEGEND_ROW_H, entry)
    y = legend_origin(len(seats))[1] + 4
    x = PANEL_X + 8
    combat = view.get("combat")
    if combat:
        y = _draw_combat(img, draw, view, combat, x, y, w, names)
    # latest public events, as many lines as fit above the key
    key_top = KEY_TOP
    events = [fill(str(e), names) for e in view.get("last_events", []) if e]
    if events and y + 44 < key_top:
        text.stamp(img, (x, y + 4), "Latest", 18, bold=True, fill=palette.TEXT_DIM, stroke=0)
        y += 28
        f = fonts.font(17)
        for ev in events[-6:]:
            for line in text.wrap(fonts.sanitize(ev), f, w - 10, 2):
                if y + 20 > key_top:
                    break
                text.stamp(img, (x + 4, y), line, 17, stroke=0)
                y += 20


def _draw_combat(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], combat: dict[str, Any],
    x: int, y: int, w: int, names: list[str] | None,
) -> int:
    names_by_id = {str(lo["id"]): str(lo.get("name", lo["id"])) for lo in view.get("locations", [])}
    where = names_by_id.get(str(combat.get("location")), str(combat.get("location", "?")))
    dice = {int(s): list(d) for s, d in combat.get("dice", [])}
    hits = {int(s): int(n) for s, n in combat.get("hits", [])}
    seats = [int(s) for s in combat.get("seats", [])]
    rows = sum(1 + (len(dice.get(s, [])) - 1) // 9 if dice.get(s) else 1 for s in seats)
    h = 40 + rows * 28 + (24 if combat.get("waiting") else 0)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=(70, 30, 36), outline=palette.COMBAT, width=3)
    tokens.swords(draw, x + 18, y + 18, 11)
    title = text.ellipsize("Combat: " + fonts.sanitize(where, True), fonts.font(18, True), w - 44)
    text.outlined(draw, (x + 36, y + 18), title, fonts.font(18, bold=True), anchor="lm")
    cy = y + 40
    for s in seats:
        tokens.seat_token(draw, s, x + 18, cy + 12, 10, label=True)
        faces = dice.get(s, [])
        dx = x + 34
        if not faces:
            draw.text((dx, cy + 12), "no dice yet", font=fonts.font(17), fill=palette.TEXT_DIM, anchor="lm")
        for k, v in enumerate(faces):
            if k and k % 9 == 0:
                cy += 28
                dx = x + 34
            v = int(v)
            tokens.die(draw, dx, cy + 2, 20, v, 2 if v == 6 else 1 if v == 5 else 0)
            dx += 23
        if s in hits:
            text.stamp(img, (x + w - 8, cy + 12), f"{hits[s]} hit" + ("" if hits[s] == 1 else "s"), 17, bold=True, anchor="rm")
        cy += 28
    waiting = [int(s) for s in combat.get("waiting", [])]
    if waiting:
        who = ", ".join(fonts.sanitize(legend.name_for(names, s)) for s in waiting)
        line = f"Spending energy: {who}"
        line = text.ellipsize(line, fonts.font_for(line, 17), w - 20)
        text.stamp(img, (x + 10, cy + 10), line, 17, fill=palette.ALERT, anchor="lm")
    return y + h + 8


KEY_TOP = HEIGHT - 110


def _draw_key(draw: ImageDraw.ImageDraw, x: int, y: int, w: int) -> None:
    """Icon key at the bottom of the panel (static): what the pictograms mean."""
    draw.line([(x, y - 4), (x + w, y - 4)], fill=palette.PANEL_EDGE)
    f = fonts.font(17)

    def item(cx: float, cy: float, label: str) -> float:
        return text.plain(draw, (cx, cy), label, f, fill=palette.TEXT_DIM, anchor="lm") + 14

    rows = (y + 12, y + 38, y + 64, y + 90)
    cx = x + 10
    for icon, label in ((tokens.coin, "coin"), (tokens.star, "influence")):
        icon(draw, cx, rows[0], 8)
        cx = item(cx + 12, rows[0], label) + 6
    tokens.flag(draw, cx - 4, rows[0] + 9, 18, palette.NEUTRAL)
    item(cx + 12, rows[0], "start")
    cx = x + 10
    for kind, label in (("dojo", "dojo"), ("market", "market"), ("watchtower", "tower")):
        tokens.infrastructure(draw, kind, cx, rows[1] - 1, 9)
        cx = item(cx + 13, rows[1], label) + 6
    cx = x + 10
    tokens.swords(draw, cx, rows[2], 9)
    cx = item(cx + 13, rows[2], "contested") + 8
    _minion_icon(draw, cx, rows[2], 8)
    item(cx + 11, rows[2], "minions")
    cx = x + 10
    _hero_icon(draw, cx, rows[3], 8)
    cx = item(cx + 11, rows[3], "heroes") + 8
    text.plain(draw, (cx, rows[3]), "grey name = acted", f, fill=palette.TEXT_DIM, anchor="lm")


def _draw_header(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    label = fonts.sanitize(str(view.get("phase_label") or view.get("phase") or ""), True)
    rnd, limit = int(view.get("round", 0) or 0), int(view.get("round_limit", 0) or 0)
    to_win = int(view.get("to_win", 10) or 10)
    if not limit:
        right = f"win at {to_win}"
    elif rnd <= 0:  # force building: no round has been played yet
        right = f"{limit} rounds · win at {to_win}"
    else:
        right = f"Round {rnd}/{limit} · win at {to_win}"
    f = fonts.font(22, bold=True)
    rw = 0
    if right:
        tokens.star(draw, WIDTH - 24, HEADER_H // 2, 10)
        rw = text.stamp(img, (WIDTH - 38, HEADER_H // 2), right, 22, bold=True, anchor="rm")[0]
    avail = (rw or WIDTH) - 20 - 230
    label = text.ellipsize(label, f, avail)
    text.stamp(img, (230, HEADER_H // 2), label, 22, bold=True, anchor="lm")


def _draw_result(img: Image.Image, view: dict[str, Any], names: list[str] | None) -> Image.Image:
    result = view["result"]
    winners = [int(s) for s in result.get("winners", [])]
    x0, y0, x1, y1 = MAP_BOX
    cy = (y0 + y1) // 2
    band = (x0, cy - 70, x1, cy + 70)
    overlay = Image.new("RGBA", (band[2] - band[0], band[3] - band[1]), (10, 10, 14, 235))
    img.paste(overlay, band[:2], overlay)
    draw = ImageDraw.Draw(img)
    draw.line([(band[0], band[1]), (band[2], band[1])], fill=palette.ALERT, width=3)
    draw.line([(band[0], band[3]), (band[2], band[3])], fill=palette.ALERT, width=3)
    if result.get("draw") or not winners:
        headline, colour = "Draw", palette.TEXT
    else:
        who = " & ".join(legend.name_for(names, s) for s in winners)
        headline, colour = f"{who} wins!", palette.seat_colour(winners[0])
    mid = (x0 + x1) // 2
    headline, f = text.fit(headline, x1 - x0 - 120, (44, 36, 28), bold=True)
    bbox = text.outlined(draw, (mid, cy - 18), headline, f, fill=colour, stroke=3, anchor="mm")
    for k, s in enumerate(winners[:3]):
        tokens.seat_token(draw, s, bbox[0] - 34 - k * 38, cy - 18, 15)
    reason = fonts.sanitize(str(result.get("reason") or ""))
    if reason:
        line = text.ellipsize(reason, fonts.font(20), x1 - x0 - 40)
        text.outlined(draw, (mid, cy + 34), line, fonts.font(20), fill=palette.TEXT, anchor="mm")
    return img


def render_image(view: dict[str, Any], names: list[str] | None = None) -> Image.Image:
    """The public map as an RGB image (before PNG encoding)."""
    st = static_layer(view)
    img = st.image.copy()
    draw = ImageDraw.Draw(img)
    combat = view.get("combat") or {}
    combat_loc = str(combat.get("location")) if combat else None
    heroes = _heroes_by_location(view)
    for lo in view["locations"]:
        lid = str(lo["id"])
        _draw_location(img, draw, lo, st.centres[lid], lid == combat_loc)
    for lid, hs in heroes.items():
        if lid in st.centres:
            _draw_heroes(img, draw, hs, st.centres[lid])
    _draw_header(img, draw, view)
    _draw_panel(img, draw, view, names)
    if view.get("result"):
        img = _draw_result(img, view, names)
    return img


def draw(view: dict[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the public map for a public view."""
    return encoding.png(render_image(view, names), static_layer(view).palette)


# --------------------------------------------------------------------------- private panel


def render_private_image(view: dict[str, Any], names: list[str] | None = None) -> Image.Image:
    """A seat's private panel: its force, coins, points and its own sealed choice."""
    w, h = PRIVATE_SIZE
    you = view.get("you") or {}
    seat = int(you.get("seat", 0))
    colour = palette.seat_colour(seat)
    img, draw = tokens.private_canvas((w, h), seat)
    right = f"Points {int((you.get('force') or {}).get('points', 0) or 0)}"
    f22 = fonts.font(22, bold=True)
    rw = f22.getlength(right)
    text.stamp(img, (w - 14, 26), right, 22, bold=True, anchor="rm")
    coins = int(you.get("coins", 0) or 0)
    tokens.coin(draw, w - 14 - rw - 60, 26, 10)
    text.stamp(img, (w - 14 - rw - 46, 26), str(coins), 22, bold=True, anchor="lm")
    title, tf = text.fit(f"Your force - {legend.name_for(names, seat)}", w - 130 - rw - 60, (22, 20, 18), bold=True)
    text.stamp(img, (52, 26), title, tf.size, bold=True, anchor="lm")

    f17, b17 = fonts.font(17), fonts.font(17, bold=True)
    locs = {str(lo["id"]): str(lo.get("name", lo["id"])) for lo in view.get("locations", [])}
    force = you.get("force") or {}
    public = [hh for hh in view.get("heroes", []) if int(hh.get("seat", -1)) == seat]
    by_card = {str(hh.get("card")): hh for hh in public}
    cards = [str(c) for c in force.get("heroes", [])] or [str(hh.get("card")) for hh in public]
    y = 66
    text.stamp(img, (16, y), "Heroes", 20, bold=True, fill=palette.ALERT)
    for cx, caption in ((182, "power"), (248, "health"), (374, "energy")):
        text.stamp(img, (cx, y + 4), caption, 17, stroke=0, fill=palette.TEXT_DIM)
    y += 30
    for card in cards[:8]:
        hero = by_card.get(card)
        draw.rounded_rectangle((12, y, 500, y + 44), radius=8, fill=palette.PLATE, outline=colour, width=2)
        name = str(hero.get("name")) if hero else card.replace("-", " ").replace("_", " ").title()
        nm = text.ellipsize(fonts.sanitize(name, True), b17, 150)
        text.stamp(img, (24, y + 12), nm, 17, bold=True, stroke=0, fill=palette.TEXT, anchor="lm")
        if hero is None:
            text.stamp(img, (24, y + 32), "not on the board yet", 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        else:
            where = "defeated" if hero.get("defeated") else locs.get(str(hero.get("location")), "-")
            if hero.get("activated") and not hero.get("defeated"):
                where += " (activated)"
            text.stamp(img, (24, y + 32), text.ellipsize(fonts.sanitize(where), f17, 170), 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
            tokens.fist(draw, 200, y + 22, 9)
            draw.text((212, y + 22), str(int(hero.get("power", 0))), font=b17, fill=palette.TEXT, anchor="lm")
            tokens.heart(draw, 246, y + 22, 8)
            hx = tokens.pips(draw, 258, y + 22, int(hero.get("health", 0)), int(hero.get("max_health", 0)), palette.HEALTH, 9, 2)
            draw.text((hx + 4, y + 22), f"{int(hero.get('health', 0))}/{int(hero.get('max_health', 0))}",
                      font=f17, fill=palette.TEXT, anchor="lm")
            tokens.bolt(draw, 380, y + 22, 9)
            ex = tokens.pips(draw, 392, y + 22, int(hero.get("energy", 0)), int(hero.get("max_energy", 0)), palette.ENERGY, 9, 2)
            draw.text((ex + 4, y + 22), str(int(hero.get("energy", 0))), font=f17, fill=palette.TEXT, anchor="lm")
        y += 50
    if not cards:
        text.stamp(img, (16, y + 10), "No heroes chosen yet", 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        y += 30
    _draw_clan_summary(img, draw, view, seat, max(y + 8, 270))

    x = 516
    y = 66
    minion_cards = force.get("minion_card_names") or force.get("minion_cards", [])
    buildings = force.get("building_names") or force.get("buildings", [])
    for title_text, items in (("Minion cards", minion_cards), ("Buildings", buildings)):
        text.stamp(img, (x, y), title_text, 20, bold=True, fill=palette.ALERT)
        y += 28
        if not items:
            text.stamp(img, (x + 6, y), "none", 17, stroke=0, fill=palette.TEXT_DIM)
            y += 22
        for item in list(items)[:5]:
            label = text.ellipsize(fonts.sanitize(str(item).replace("_", " ")), f17, w - x - 20)
            text.stamp(img, (x + 6, y), "• " + label, 17, stroke=0, fill=palette.TEXT)
            y += 22
        y += 8
    sealed = you.get("sealed")
    box = (x - 4, y + 4, w - 12, h - 52)
    draw.rounded_rectangle(box, radius=8, fill=palette.BACKGROUND_EDGE, outline=palette.ALERT if sealed else palette.PANEL_EDGE, width=2)
    text.stamp(img, (x + 6, y + 12), "Your sealed choice", 18, bold=True, fill=palette.ALERT if sealed else palette.TEXT_DIM)
    sy = y + 40
    if not sealed:
        text.stamp(img, (x + 6, sy), "nothing sealed now", 17, stroke=0, fill=palette.TEXT_DIM)
    else:
        for line in _sealed_lines(sealed):
            if sy + 20 > box[3]:
                break
            text.stamp(img, (x + 6, sy), text.ellipsize(fonts.sanitize(line), f17, box[2] - x - 12), 17, stroke=0, fill=palette.TEXT)
            sy += 21
    footer = fonts.sanitize(str(view.get("phase_label") or ""))
    if seat in [int(s) for s in view.get("waiting", [])]:
        footer += " - waiting for your choice"
    draw.rectangle((0, h - 40, w, h), fill=palette.BACKGROUND_EDGE)
    text.stamp(img, (16, h - 20), text.ellipsize(footer, fonts.font(18, True), w - 32), 18, bold=True, anchor="lm")
    return img


def _draw_clan_summary(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int, y: int) -> None:
    """The seat's public standing, repeated privately: influence bar, places, minions, turns."""
    row = next((s for s in view.get("seats", []) if int(s.get("seat", -1)) == seat), None)
    if row is None or y > PRIVATE_SIZE[1] - 120:
        return
    to_win = int(view.get("to_win", 10) or 10)
    text.stamp(img, (16, y), "Your clan", 20, bold=True, fill=palette.ALERT)
    y += 36
    tokens.star(draw, 26, y, 10)
    influence = int(row.get("influence", 0))
    draw.rectangle((42, y - 8, 330, y + 8), fill=palette.BACKGROUND, outline=palette.PANEL_EDGE)
    frac = max(0.0, min(1.0, influence / to_win))
    if frac:
        draw.rectangle((43, y - 7, 43 + 286 * frac, y + 7), fill=palette.seat_colour(seat))
    text.stamp(img, (342, y), f"{influence}/{to_win} influence", 17, bold=True, stroke=0, anchor="lm")
    y += 30
    places, minions = int(row.get("locations", 0)), int(row.get("minions", 0))
    facts = f"{places} location{'s' * (places != 1)} · {minions} minion{'s' * (minions != 1)}"
    if int(view.get("round", 0) or 0) > 0:
        facts += f" · {int(row.get('activations', 0))}/2 heroes activated"
    text.stamp(img, (16, y), text.ellipsize(facts, fonts.font(17), 484), 17, stroke=0, fill=palette.TEXT, anchor="lm")


@functools.cache
def _private_palette() -> Image.Image:
    """The private panel's fixed palette (its background is the same for every seat)."""
    return encoding.fixed_palette(Image.new("RGB", PRIVATE_SIZE, palette.PANEL), encoding.drawing_colours())


def _sealed_lines(sealed: Any) -> list[str]:
    """Human lines for a sealed choice of unknown shape: "key: value" per entry."""
    if isinstance(sealed, dict):
        lines = []
        for k, v in sealed.items():
            if isinstance(v, list | tuple):
                v = ", ".join(str(i).replace("_", " ") for i in v)
            elif isinstance(v, dict):
                v = ", ".join(f"{a} {b}" for a, b in v.items())
            lines.append(f"{str(k).replace('_', ' ')}: {v}")
        return lines
    return [str(sealed)]


def draw_private(view: dict[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the private panel for a seat view."""
    return encoding.png(render_private_image(view, names), _private_palette())
