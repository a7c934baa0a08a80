"""Tiny Epic Defenders: the public map (capital ringed by six regions) and a seat's Defender panel.

Draws only from the documented view keys (docs/design/defenders-view.md); anything else in
the dict is ignored, so the seat block (`you`) can never reach the public image. The ring
geometry is fixed (pos 0 left of the capital, clockwise), so the background, the roads and
the icon key are one cached static layer shared by every match.
"""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image, ImageDraw

from engine.text import fill
from render import encode as encoding
from render import fonts, legend, palette, text, tokens
from render.cache import LayerCache

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

WIDTH, HEIGHT = 1200, 900
HEADER_H = 56
PANEL_X = 800  # the side panel starts here; the ring is drawn left of it
PLATE_W, PLATE_H = 246, 236
CAPITAL_W, CAPITAL_H = 220, 224
ROW_H = 24  # a compact Defender row on a plate
TALL_ROW_H = 44  # a two-line Defender row
BOSS_H = 44
KEY_Y = 842  # the icon key under the ring

# plate top-left per ring position: pos 0 left of the capital, then clockwise
_TOP, _MID, _BOT = 66, 330, 594
RING_XY: dict[int, tuple[int, int]] = {
    0: (12, _MID), 1: (144, _TOP), 2: (410, _TOP), 3: (542, _MID), 4: (410, _BOT), 5: (144, _BOT),
}
CAPITAL_XY = (400 - CAPITAL_W // 2, _MID + (PLATE_H - CAPITAL_H) // 2)
PRIVATE_W = 900
PRIVATE_CARD_H = 600

TERRAIN_FILL: dict[str, RGB] = {
    "forest": (44, 72, 52), "ruins": (72, 64, 58), "mountains": (58, 64, 84),
    "plains": (80, 76, 44), "coast": (36, 62, 88), "desert": (90, 72, 42),
}
HOSTILE_FILL: RGB = (86, 30, 36)
HOSTILE_EDGE: RGB = (255, 70, 70)
FRIENDLY_EDGE: RGB = (150, 215, 140)
WAR_EDGE: RGB = (176, 120, 230)
DESTROYED_FILL: RGB = (46, 46, 50)
DESTROYED_X: RGB = (112, 112, 120)
CAPITAL_FILL: RGB = (70, 62, 40)
THREAT: RGB = (255, 120, 60)
BOSS_FILL: RGB = (64, 28, 72)
BOSS_EDGE: RGB = (200, 110, 230)
WAGON: RGB = (170, 120, 70)
CANVAS: RGB = (235, 225, 200)
WARD: RGB = (120, 200, 255)
STORM: RGB = (200, 205, 215)
SHIELD: RGB = (190, 195, 210)
TREE: RGB = (70, 170, 80)
TRUNK: RGB = (110, 75, 45)
BEAST: RGB = (230, 120, 40)
BONE: RGB = (235, 232, 220)
FLEET: RGB = (40, 80, 150)
EXTRA_COLOURS: list[RGB] = [
    *TERRAIN_FILL.values(), HOSTILE_FILL, HOSTILE_EDGE, FRIENDLY_EDGE, WAR_EDGE, DESTROYED_FILL, DESTROYED_X,
    CAPITAL_FILL, THREAT, BOSS_FILL, BOSS_EDGE, WAGON, CANVAS, WARD, STORM, SHIELD, TREE, TRUNK, BEAST, BONE, FLEET,
]

SIDE_LABEL = {"A": "SIDE A", "B": "SIDE B", "hostile": "HOSTILE", "friendly": "FRIENDLY"}
CARD_KIND = {"defender": "Defender", "all": "All Defenders", "enemy": "Enemy", "dire": "Dire", "soldier": "Soldier",
             "deserter": "Deserter"}

_STATIC: LayerCache[tuple[Image.Image, Image.Image]] = LayerCache(max_entries=2)


# --------------------------------------------------------------------------- geometry


def plate_box(pos: int) -> Box:
    """The plate of a ring position."""
    x, y = RING_XY[pos % 6]
    return (x, y, x + PLATE_W, y + PLATE_H)


def capital_box() -> Box:
    x, y = CAPITAL_XY
    return (x, y, x + CAPITAL_W, y + CAPITAL_H)


def _centre(box: Box) -> tuple[int, int]:
    return ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)


def region_boxes(view: dict[str, Any]) -> dict[str, Box]:
    """Region key -> its plate, the capital included (tests check plates never overlap)."""
    out = {"capital": capital_box()}
    for r in view.get("ring", []):
        out[str(r.get("key"))] = plate_box(int(r.get("pos", 0)))
    return out


# --------------------------------------------------------------------------- icons


def caravan(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A covered wagon: a caravan."""
    draw.rectangle((cx - r, cy - r * 0.15, cx + r, cy + r * 0.45), fill=WAGON, outline=palette.OUTLINE)
    draw.chord((cx - r * 0.9, cy - r * 0.95, cx + r * 0.9, cy + r * 0.35), 180, 360, fill=CANVAS, outline=palette.OUTLINE)
    for wx in (cx - r * 0.55, cx + r * 0.55):
        draw.ellipse((wx - r * 0.32, cy + r * 0.3, wx + r * 0.32, cy + r * 0.94), fill=palette.OUTLINE)


def ward(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A glowing rune circle: the next attack here is cancelled."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=WARD, width=max(2, round(r / 4)))
    k = r * 0.55
    draw.polygon([(cx, cy - k), (cx + k, cy), (cx, cy + k), (cx - k, cy)], fill=WARD)


def storm(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A cloud with wind lines: a Desert storm token."""
    draw.ellipse((cx - r, cy - r * 0.35, cx - r * 0.1, cy + r * 0.45), fill=STORM)
    draw.ellipse((cx - r * 0.55, cy - r * 0.85, cx + r * 0.45, cy + r * 0.3), fill=STORM)
    draw.ellipse((cx, cy - r * 0.5, cx + r, cy + r * 0.45), fill=STORM)
    for k, dy in enumerate((0.65, 0.95)):
        draw.line([(cx - r * (0.8 - 0.3 * k), cy + r * dy), (cx + r * 0.7, cy + r * dy)], fill=STORM, width=2)


def fleet_die(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A blue die: a Coast fleet die."""
    draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=r * 0.3, fill=FLEET, outline=palette.TEXT)
    for dx, dy in ((-1, -1), (0, 0), (1, 1)):
        px, py = cx + dx * r * 0.5, cy + dy * r * 0.5
        draw.ellipse((px - r * 0.16, py - r * 0.16, px + r * 0.16, py + r * 0.16), fill=palette.TEXT)


def shield(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A heater shield: the Defender's shield is up."""
    pts = [(cx - r * 0.85, cy - r * 0.85), (cx + r * 0.85, cy - r * 0.85), (cx + r * 0.8, cy), (cx, cy + r),
           (cx - r * 0.8, cy)]
    draw.polygon(pts, fill=SHIELD, outline=palette.OUTLINE)
    draw.line([(cx, cy - r * 0.7), (cx, cy + r * 0.7)], fill=palette.OUTLINE, width=1)


def tree(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The Great Tree."""
    draw.rectangle((cx - r * 0.18, cy + r * 0.2, cx + r * 0.18, cy + r), fill=TRUNK)
    draw.polygon([(cx, cy - r), (cx + r * 0.85, cy + r * 0.35), (cx - r * 0.85, cy + r * 0.35)], fill=TREE,
                 outline=palette.OUTLINE)


def manticore(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """Two bat wings and a body: the Manticore."""
    for s in (1, -1):
        draw.polygon([(cx, cy - r * 0.1), (cx + s * r, cy - r * 0.8), (cx + s * r * 0.8, cy + r * 0.1),
                      (cx + s * r * 0.45, cy - r * 0.05), (cx + s * r * 0.3, cy + r * 0.4)], fill=BEAST,
                     outline=palette.OUTLINE)
    draw.ellipse((cx - r * 0.3, cy - r * 0.45, cx + r * 0.3, cy + r * 0.7), fill=BEAST, outline=palette.OUTLINE)


def skull(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A skull: a death token."""
    draw.ellipse((cx - r * 0.85, cy - r, cx + r * 0.85, cy + r * 0.55), fill=BONE, outline=palette.OUTLINE)
    draw.rectangle((cx - r * 0.45, cy + r * 0.3, cx + r * 0.45, cy + r), fill=BONE, outline=palette.OUTLINE)
    for dx in (-0.35, 0.35):
        draw.ellipse((cx + dx * r - r * 0.22, cy - r * 0.35, cx + dx * r + r * 0.22, cy + r * 0.1), fill=palette.OUTLINE)


def soldier(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: RGB = palette.TEXT_DIM) -> None:
    """A helmeted figure with a spear: a soldier card."""
    draw.ellipse((cx - r * 0.4, cy - r, cx + r * 0.4, cy - r * 0.2), fill=colour)
    draw.pieslice((cx - r * 0.8, cy - r * 0.15, cx + r * 0.8, cy + r * 1.5), 180, 360, fill=colour)
    draw.line([(cx + r * 0.8, cy - r), (cx + r * 0.8, cy + r * 0.6)], fill=colour, width=2)


def zz(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """Two small Zs: exhausted."""
    for k, (dx, dy, s) in enumerate(((-0.45, 0.25, 0.55), (0.35, -0.35, 0.45))):
        x, y, h = cx + dx * r, cy + dy * r, s * r
        draw.line([(x - h, y - h), (x + h, y - h), (x - h, y + h), (x + h, y + h)], fill=palette.TEXT_DIM,
                  width=2 if k == 0 else 1)


def card_back(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
    """A face-down card."""
    draw.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=BOSS_FILL, outline=BOSS_EDGE, width=2)
    for k in range(-h, w, 10):
        draw.line([(x + max(0, k) + 3, y + max(0, -k) + 3), (x + min(w, k + h) - 3, y + min(h, h - k) - 3)],
                  fill=palette.tint(BOSS_EDGE, 0.6, BOSS_FILL), width=1)
    draw.rounded_rectangle((x + 6, y + 6, x + w - 6, y + h - 6), radius=4, outline=BOSS_EDGE, width=1)


# --------------------------------------------------------------------------- static layer


def _road(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int]) -> None:
    draw.line([a, b], fill=palette.ROAD_EDGE, width=18)
    draw.line([a, b], fill=palette.ROAD, width=10)


def _build_static() -> tuple[Image.Image, Image.Image]:
    img = Image.new("RGB", (WIDTH, HEIGHT), palette.BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, WIDTH, HEADER_H), fill=palette.BACKGROUND_EDGE)
    draw.line([(0, HEADER_H), (WIDTH, HEADER_H)], fill=palette.PANEL_EDGE, width=2)
    draw.rectangle((PANEL_X - 2, HEADER_H + 1, WIDTH, HEIGHT), fill=palette.PANEL)
    draw.line([(PANEL_X - 2, HEADER_H), (PANEL_X - 2, HEIGHT)], fill=palette.PANEL_EDGE, width=2)
    text.outlined(draw, (14, HEADER_H // 2), "TINY EPIC DEFENDERS", fonts.font(22, bold=True), fill=palette.ALERT,
                  anchor="lm")
    # the ring road (consecutive positions) and the two gates of the capital (pos 0 and 3)
    centres = {p: _centre(plate_box(p)) for p in range(6)}
    for p in range(6):
        _road(draw, centres[p], centres[(p + 1) % 6])
    cap = _centre(capital_box())
    _road(draw, centres[0], cap)
    _road(draw, centres[3], cap)
    _draw_key(img, draw, 14, KEY_Y)
    return img, encoding.fixed_palette(img, [*encoding.drawing_colours(), *EXTRA_COLOURS])


def static_layer() -> tuple[Image.Image, Image.Image]:
    """The cached background (header bar, panel, roads, key) and its PNG palette."""
    return _STATIC.get("defenders", _build_static)


def _draw_key(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """What the pictograms mean (static, under the ring)."""
    draw.line([(x, y - 6), (PANEL_X - 16, y - 6)], fill=palette.PANEL_EDGE)
    rows = (y + 12, y + 38)

    def item(cx: float, cy: float, label: str) -> float:
        return text.stamp(img, (cx, cy), label, 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")[2] + 16

    cx: float = x + 2
    draw.rectangle((cx, rows[0] - 9, cx + 18, rows[0] + 9), fill=THREAT, outline=palette.OUTLINE)
    cx = item(cx + 24, rows[0], "threat")
    for icon, label in ((caravan, "caravan"), (ward, "ward"), (storm, "storm"), (fleet_die, "fleet die"),
                        (tree, "Great Tree"), (manticore, "Manticore")):
        icon(draw, cx + 9, rows[0], 9)
        cx = item(cx + 22, rows[0], label)
    cx = x + 2
    for icon, label in ((tokens.heart, "HP"), (tokens.star, "XP"), (shield, "shield"), (skull, "death token"),
                        (zz, "exhausted"), (soldier, "soldier")):
        icon(draw, cx + 9, rows[1], 9)
        cx = item(cx + 22, rows[1], label)
    draw.rounded_rectangle((cx, rows[1] - 10, cx + 20, rows[1] + 10), radius=4, fill=HOSTILE_FILL, outline=HOSTILE_EDGE,
                           width=2)
    cx = item(cx + 26, rows[1], "hostile")
    draw.rounded_rectangle((cx, rows[1] - 10, cx + 20, rows[1] + 10), radius=4, fill=palette.PLATE, outline=WAR_EDGE,
                           width=2)
    item(cx + 26, rows[1], "Dark War")


# --------------------------------------------------------------------------- helpers


def _int(v: Any, default: int = 0) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def _clean(s: Any, bold: bool = False) -> str:
    return fonts.sanitize(str(s if s is not None else ""), bold)


def _stamp_fit(img: Image.Image, xy: tuple[float, float], s: str, width: float, size: int = 17, bold: bool = False,
               fill_: RGB = palette.TEXT, anchor: str = "lm", stroke: int = 0) -> Box:
    """Stamp `s` ellipsised to `width` px."""
    s = fonts.sanitize(s, bold)
    s = text.ellipsize(s, fonts.font_for(s, size, bold), max(8, width))
    return text.stamp(img, xy, s, size, bold=bold, fill=fill_, stroke=stroke, anchor=anchor)


def _lines(s: str, width: int, n: int) -> list[str]:
    """`s` wrapped into at most `n` lines of `width` px (17 px), the last one ellipsised."""
    s = _clean(s)
    f = fonts.font_for(s, 17)
    if n <= 0 or not s.strip():
        return []
    if n == 1:
        return [text.ellipsize(s, f, width)]
    return text.wrap(s, fonts.font(17), width, n)


def _region_names(view: dict[str, Any]) -> dict[str, str]:
    out = {"capital": str((view.get("capital") or {}).get("name") or "Capital")}
    for r in view.get("ring", []):
        out[str(r.get("key"))] = str(r.get("name") or r.get("key"))
    return out


def _defender_name(view: dict[str, Any], idx: Any) -> str:
    for d in view.get("defenders", []):
        if _int(d.get("idx"), -1) == _int(idx, -2):
            return str(d.get("name") or f"Defender {_int(idx) + 1}")
    return f"Defender {_int(idx) + 1}"


def _track(draw: ImageDraw.ImageDraw, img: Image.Image, x: int, cy: int, level: int, top: int, width: int,
           colour: RGB = THREAT) -> int:
    """Cells 0..top; cells up to `level` lit, the current one framed. Returns the x after it."""
    n = max(1, top + 1)
    cell = max(10, min(26, width // n))
    numbered = cell >= 20
    for i in range(n):
        x0 = x + i * cell
        lit = 0 < i <= level
        fill_ = colour if lit else palette.BACKGROUND_EDGE
        draw.rectangle((x0, cy - 10, x0 + cell - 3, cy + 10), fill=fill_,
                       outline=palette.ALERT if i == level else palette.PANEL_EDGE, width=2 if i == level else 1)
        if numbered:
            text.stamp(img, (x0 + (cell - 3) / 2, cy), str(i), 17, bold=i == level, stroke=0,
                       fill=palette.OUTLINE if lit else palette.TEXT_DIM, anchor="mm")
    if not numbered:  # cells too narrow for digits: say the level in words
        return text.stamp(img, (x + n * cell + 3, cy), f"{level}/{top}", 17, bold=True, stroke=0, anchor="lm")[2]
    return x + n * cell


def _glow(draw: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    for i, alpha in enumerate((0.0, 0.45, 0.7)):
        pad = 3 + i * 3
        draw.rounded_rectangle((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad), radius=12 + pad,
                               outline=palette.tint(colour, alpha), width=3)


def _spikes(draw: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    """Small teeth along the top and bottom edges: a hostile region."""
    x0, y0, x1, y1 = box
    step = 18
    for x in range(x0 + 14, x1 - 14, step):
        draw.polygon([(x, y0 + 1), (x + step / 2, y0 - 7), (x + step, y0 + 1)], fill=colour)
        draw.polygon([(x, y1 - 1), (x + step / 2, y1 + 7), (x + step, y1 - 1)], fill=colour)


def _dashed_box(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int = 2, dash: int = 10) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        draw.line([(x, y0), (min(x + dash, x1), y0)], fill=colour, width=width)
        draw.line([(x, y1), (min(x + dash, x1), y1)], fill=colour, width=width)
    for y in range(y0, y1, dash * 2):
        draw.line([(x0, y), (x0, min(y + dash, y1))], fill=colour, width=width)
        draw.line([(x1, y), (x1, min(y + dash, y1))], fill=colour, width=width)


# --------------------------------------------------------------------------- the ring


def _status_icons(d: dict[str, Any]) -> list[Any]:
    icons: list[Any] = []
    if d.get("exhausted"):
        icons.append(zz)
    if d.get("shield"):
        icons.append(shield)
    if d.get("in_tree"):
        icons.append(tree)
    if d.get("riding"):
        icons.append(manticore)
    return icons + [skull] * min(3, _int(d.get("death_tokens")))


def _defender_row(img: Image.Image, draw: ImageDraw.ImageDraw, d: dict[str, Any], x0: int, x1: int, y: int,
                  tall: bool) -> None:
    """One Defender on a plate: seat shape, name, status icons, HP and XP.

    A tall row (two lines) has room for the whole name and a heart per HP; a compact row
    (one line, when many Defenders share a region) shows HP as a number.
    """
    seat = _int(d.get("seat"))
    colour = palette.seat_colour(seat)
    exhausted = bool(d.get("exhausted"))
    hp, max_hp = _int(d.get("hp")), _int(d.get("max_hp"))
    down = hp <= 0
    h = TALL_ROW_H if tall else ROW_H
    draw.rectangle((x0, y, x1, y + h - 2), fill=palette.BACKGROUND_EDGE,
                   outline=palette.tint(colour, 0.55) if exhausted else colour, width=2)
    cy = y + ROW_H // 2 - 1
    tokens.draw_shape(draw, palette.seat_shape(seat), x0 + 12, cy, 8, colour, palette.OUTLINE, 1)
    rx = x1 - 5
    hp_colour = palette.HEALTH if hp <= 1 else palette.TEXT
    if tall:
        ly = y + ROW_H + 9
        xx = text.stamp(img, (x1 - 5, ly), f"XP {_int(d.get('xp'))}", 17, bold=True, stroke=0, anchor="rm")[0]
        tokens.star(draw, xx - 9, ly, 8)
        hx = x0 + 10
        n = min(max_hp, 8)
        step = min(17, max(8, (xx - 22 - hx - 40) // max(1, n)))
        for i in range(n):
            tokens.heart(draw, hx + 6, ly, 6, palette.HEALTH if i < hp else palette.EMPTY_PIP)
            hx += step
        text.stamp(img, (hx + 2, ly), f"{hp}/{max_hp}", 17, bold=True, stroke=0, fill=hp_colour, anchor="lm")
    else:
        rx = text.stamp(img, (rx, cy), str(_int(d.get("xp"))), 17, bold=True, stroke=0, anchor="rm")[0]
        tokens.star(draw, rx - 9, cy, 8)
        rx = text.stamp(img, (rx - 19, cy), f"{hp}/{max_hp}", 17, bold=True, stroke=0, fill=hp_colour,
                        anchor="rm")[0]
        tokens.heart(draw, rx - 8, cy, 7)
        rx -= 18
    for icon in _status_icons(d):
        icon(draw, rx - 8, cy, 8)
        rx -= 18
    name_fill = palette.TEXT_DIM if exhausted or down else palette.TEXT
    _stamp_fit(img, (x0 + 24, cy), str(d.get("name") or "?"), rx - (x0 + 26), bold=True, fill_=name_fill)


def _boss_row(img: Image.Image, draw: ImageDraw.ImageDraw, boss: dict[str, Any], x0: int, x1: int, y: int) -> None:
    """The revealed boss on its region: name, then an HP bar and the "held" tag."""
    draw.rectangle((x0, y, x1, y + BOSS_H - 2), fill=BOSS_FILL, outline=BOSS_EDGE, width=2)
    cy = y + 12
    skull(draw, x0 + 12, cy, 8)
    _stamp_fit(img, (x0 + 24, cy), str(boss.get("name") or "Boss"), x1 - x0 - 30, bold=True)
    cy += 21
    hp, mx = _int(boss.get("hp")), max(1, _int(boss.get("max_hp"), 1))
    rx = x1 - 5
    if boss.get("held"):
        tw = 50
        draw.rounded_rectangle((rx - tw, cy - 9, rx, cy + 9), radius=4, fill=palette.ALERT)
        text.stamp(img, (rx - tw / 2, cy), "HELD", 17, bold=True, stroke=0, fill=palette.OUTLINE, anchor="mm")
        rx -= tw + 6
    rx = text.stamp(img, (rx, cy), f"{hp}/{mx}", 17, bold=True, stroke=0, anchor="rm")[0] - 6
    bx = x0 + 8
    draw.rectangle((bx, cy - 5, rx, cy + 5), fill=palette.BACKGROUND_EDGE, outline=palette.OUTLINE)
    if hp > 0:
        draw.rectangle((bx + 1, cy - 4, bx + 1 + (rx - bx - 2) * min(1.0, hp / mx), cy + 4), fill=palette.HEALTH)


def _plate_rows(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], key: str, box: Box, y: int,
                blurb: str = "") -> None:
    """What stands in a region, from `y` down: the ability text if there is room, the
    Defenders (tall rows when they fit, compact ones otherwise) and the boss at the bottom."""
    x0, _, x1, y1 = box
    here = [d for d in view.get("defenders", []) if str(d.get("region")) == key]
    here.sort(key=lambda d: (_int(d.get("seat")), _int(d.get("idx"))))
    boss = view.get("boss") or {}
    boss_here = bool(boss.get("revealed")) and str(boss.get("region")) == key
    bottom = y1 - 6 - (BOSS_H + 2 if boss_here else 0)
    avail = bottom - y
    tall = len(here) * TALL_ROW_H <= avail
    row_h = TALL_ROW_H if tall else ROW_H
    spare = avail - len(here) * row_h
    if blurb and spare >= 24:
        lines = _lines(blurb, x1 - x0 - 20, min(3, (spare - 4) // 20))
        for line in lines:
            text.stamp(img, (x0 + 10, y), line, 17, stroke=0, fill=palette.TEXT_DIM)
            y += 20
        y += 4
    fit = max(0, (bottom - y) // row_h)
    shown = here if len(here) <= fit else here[: max(0, fit - 1)]
    for d in shown:
        _defender_row(img, draw, d, x0 + 6, x1 - 6, y, tall)
        y += row_h
    if len(here) > len(shown):
        draw.rectangle((x0 + 6, y, x1 - 6, y + ROW_H - 2), fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE)
        cx = x0 + 18
        for d in here[len(shown):]:
            s = _int(d.get("seat"))
            tokens.draw_shape(draw, palette.seat_shape(s), cx, y + 11, 7, palette.seat_colour(s), palette.OUTLINE, 1)
            cx += 18
        text.stamp(img, (x1 - 12, y + 11), f"+{len(here) - len(shown)} more", 17, stroke=0, anchor="rm")
    if boss_here:
        _boss_row(img, draw, boss, x0 + 6, x1 - 6, y1 - 6 - BOSS_H)


def _draw_region(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], r: dict[str, Any],
                 marked: set[str], attacked: str | None) -> None:
    key = str(r.get("key"))
    box = plate_box(_int(r.get("pos")))
    x0, y0, x1, y1 = box
    side = str(r.get("side") or "")
    destroyed = bool(r.get("destroyed"))
    hostile = side == "hostile" and not destroyed
    if key == attacked:
        _glow(draw, box, palette.COMBAT)
    if destroyed:
        fill_, edge = DESTROYED_FILL, palette.PANEL_EDGE
    elif hostile:
        fill_, edge = HOSTILE_FILL, HOSTILE_EDGE
    else:
        fill_ = TERRAIN_FILL.get(key, palette.PLATE)
        edge = FRIENDLY_EDGE if side == "friendly" else palette.PLATE_EDGE
    if hostile:
        _spikes(draw, box, HOSTILE_EDGE)
    draw.rounded_rectangle(box, radius=10, fill=fill_, outline=edge, width=3 if side in ("hostile", "friendly") else 2)
    if r.get("war") and not destroyed:
        _dashed_box(draw, (x0 + 5, y0 + 5, x1 - 5, y1 - 5), WAR_EDGE, 2)
    if destroyed:
        draw.line([(x0 + 16, y0 + 16), (x1 - 16, y1 - 16)], fill=DESTROYED_X, width=7)
        draw.line([(x1 - 16, y0 + 16), (x0 + 16, y1 - 16)], fill=DESTROYED_X, width=7)
    if key in marked and not destroyed:
        draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=9, outline=palette.ALERT, width=2)
    # name and side badge
    badge = "DESTROYED" if destroyed else SIDE_LABEL.get(side, side.upper()[:9])
    bf = fonts.font(17, bold=True)
    bw = int(bf.getlength(badge)) + 12
    bfill = palette.COMBAT if destroyed or side == "hostile" else (
        FRIENDLY_EDGE if side == "friendly" else palette.PLATE_EDGE)
    draw.rounded_rectangle((x1 - 8 - bw, y0 + 7, x1 - 8, y0 + 29), radius=6, fill=bfill, outline=palette.OUTLINE)
    text.stamp(img, (x1 - 8 - bw / 2, y0 + 18), badge, 17, bold=True, stroke=0, fill=palette.text_on(bfill), anchor="mm")
    name, f = text.fit(str(r.get("name") or key), x1 - x0 - bw - 26, (20, 19, 18, 17), bold=True)
    text.stamp(img, (x0 + 10, y0 + 18), name, f.size, bold=True, fill=palette.TEXT_DIM if destroyed else palette.TEXT,
               anchor="lm")
    # terrain (and Dark War) and the ability name
    ty = y0 + 43
    tx = x0 + 10
    if r.get("war"):
        draw.rounded_rectangle((tx, ty - 10, tx + 46, ty + 10), radius=4, fill=WAR_EDGE)
        text.stamp(img, (tx + 23, ty), "WAR", 17, bold=True, stroke=0, fill=palette.OUTLINE, anchor="mm")
        tx += 52
    terrain = _clean(r.get("terrain") or key.title())
    ability = _clean(r.get("ability") or "")
    line = f"{terrain} · {ability}" if ability else terrain
    _stamp_fit(img, (tx, ty), line, x1 - 10 - tx, fill_=palette.TEXT_DIM)
    # threat track, then what lies here
    cy = y0 + 70
    top = max(0, _int(r.get("max_threat")))
    tx = _track(draw, img, x0 + 10, cy, min(_int(r.get("threat")), top), top, 130)
    mx = max(tx + 8, x0 + 150)
    n_car = _int(r.get("caravans"))
    if n_car:
        caravan(draw, mx + 11, cy, 11)
        text.stamp(img, (mx + 25, cy), f"×{n_car}", 18, bold=True, stroke=0, anchor="lm")
    markers = [(icon, label) for icon, label, on in ((ward, "ward", r.get("ward")), (storm, "storm", r.get("storm")),
                                                      (fleet_die, "fleet die", r.get("fleet_die"))) if on]
    y = y0 + 88
    if markers:
        x = x0 + 10
        for icon, label in markers:
            icon(draw, x + 9, y + 11, 9)
            x = text.stamp(img, (x + 22, y + 11), label, 17, bold=True, stroke=0, anchor="lm")[2] + 12
        y += 24
    _plate_rows(img, draw, view, key, box, y + 2, "" if destroyed else str(r.get("ability_text") or ""))


def _draw_capital(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], marked: set[str],
                  attacked: str | None) -> None:
    cap = view.get("capital") or {}
    box = capital_box()
    x0, y0, x1, y1 = box
    if attacked == "capital":
        _glow(draw, box, palette.COMBAT)
    draw.rounded_rectangle(box, radius=12, fill=CAPITAL_FILL, outline=palette.COIN, width=3)
    # crenellations on the top edge
    for x in range(x0 + 16, x1 - 16, 20):
        draw.rectangle((x, y0 - 7, x + 10, y0), fill=palette.COIN, outline=palette.OUTLINE)
    if "capital" in marked:
        draw.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=10, outline=palette.ALERT, width=2)
    name, f = text.fit(str(cap.get("name") or "Capital"), CAPITAL_W - 20, (22, 20, 18, 17), bold=True)
    text.stamp(img, ((x0 + x1) // 2, y0 + 18), name, f.size, bold=True, anchor="mm")
    text.stamp(img, ((x0 + x1) // 2, y0 + 40), "CAPITAL", 17, bold=True, stroke=0, fill=palette.COIN, anchor="mm")
    cy = y0 + 64
    top = max(0, _int(cap.get("destruction")))
    _track(draw, img, x0 + 10, cy, min(_int(cap.get("threat")), top), top, CAPITAL_W - 20)
    cy += 26
    caravan(draw, x0 + 22, cy, 11)
    total = _int((view.get("caravans") or {}).get("total"))
    home = _int(cap.get("caravans"))
    label = f"{home}/{total} home" if total else f"{home} home"
    text.stamp(img, (x0 + 38, cy), label, 18, bold=True, stroke=0, anchor="lm")
    _plate_rows(img, draw, view, "capital", box, cy + 14)


# --------------------------------------------------------------------------- header, panel, result


def _draw_header(img: Image.Image, view: dict[str, Any], names: list[str] | None) -> None:
    label = _clean(fill(str(view.get("phase_label") or view.get("phase") or ""), names), True)
    rnd = _int(view.get("round"))
    parts = [f"Battle {_int(view.get('battle'), 1)}/{_int(view.get('battles'), 1)}",
             f"Round {rnd}" if rnd > 0 else "Setup",
             _clean(view.get("difficulty") or "").title(), _clean(view.get("mode") or "").title()]
    right = " · ".join(p for p in parts if p)
    rx = text.stamp(img, (WIDTH - 14, HEADER_H // 2), right, 20, bold=True, stroke=0, fill=palette.TEXT_DIM,
                    anchor="rm")[0]
    _stamp_fit(img, (284, HEADER_H // 2), label, rx - 304, size=22, bold=True)


def _box(draw: ImageDraw.ImageDraw, y: int, h: int, edge: RGB = palette.PANEL_EDGE, fill_: RGB = palette.PLATE) -> Box:
    b = (PANEL_X + 8, y, WIDTH - 8, y + h)
    draw.rounded_rectangle(b, radius=8, fill=fill_, outline=edge, width=2)
    return b


def _draw_boss_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    boss = view.get("boss") or {}
    kind = "Epic boss" if boss.get("kind") == "epic" else "General"
    if not boss.get("revealed"):
        b = _box(draw, y, 70, BOSS_EDGE)
        card_back(draw, b[0] + 10, y + 9, 40, 52)
        text.stamp(img, (b[0] + 62, y + 22), kind, 19, bold=True, stroke=0, anchor="lm")
        text.stamp(img, (b[0] + 62, y + 48), "face down - not revealed yet", 17, stroke=0, fill=palette.TEXT_DIM,
                   anchor="lm")
        return y + 78
    held = bool(boss.get("held"))
    h = 132 + (26 if held else 0)
    b = _box(draw, y, h, BOSS_EDGE, BOSS_FILL)
    x0, x1 = b[0] + 10, b[2] - 10
    skull(draw, x0 + 10, y + 18, 10)
    where = _region_names(view).get(str(boss.get("region")), str(boss.get("region") or ""))
    kx = text.stamp(img, (x1, y + 18), kind, 17, stroke=0, fill=palette.TEXT_DIM, anchor="rm")[0]
    _stamp_fit(img, (x0 + 26, y + 18), str(boss.get("name") or "Boss"), kx - x0 - 34, size=20, bold=True)
    hp, mx = _int(boss.get("hp")), max(1, _int(boss.get("max_hp"), 1))
    cy = y + 46
    lx = text.stamp(img, (x1, cy), f"{hp}/{mx} HP", 18, bold=True, stroke=0, anchor="rm")[0] - 8
    tokens.heart(draw, x0 + 8, cy, 8)
    draw.rectangle((x0 + 22, cy - 8, lx, cy + 8), fill=palette.BACKGROUND_EDGE, outline=palette.OUTLINE)
    seg = (lx - x0 - 24) / mx
    for i in range(mx):
        sx = x0 + 23 + i * seg
        if i < hp:
            draw.rectangle((sx, cy - 7, sx + seg - 2, cy + 7), fill=palette.HEALTH)
    _stamp_fit(img, (x0, y + 72), f"in {_clean(where)}", x1 - x0, fill_=palette.TEXT_DIM)
    for k, line in enumerate(_lines(str(boss.get("text") or ""), x1 - x0, 2)):
        text.stamp(img, (x0, y + 86 + 20 * k), line, 17, stroke=0)
    if held:
        hy = y + h - 22
        draw.rounded_rectangle((x0 - 4, hy - 11, x1 + 4, hy + 11), radius=5, fill=palette.ALERT)
        text.stamp(img, ((x0 + x1) / 2, hy), "HELD AT 1 HP until every caravan is home", 17, bold=True, stroke=0,
                   fill=palette.OUTLINE, anchor="mm")
    return y + h + 8


def _draw_turn_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None,
                   y: int) -> int:
    """The current card, whose AP are being spent, and the pending attack."""
    deck = view.get("deck") or {}
    cur = deck.get("current")
    active = view.get("active")
    attack = view.get("attack")
    regions = _region_names(view)
    x0, x1 = PANEL_X + 18, WIDTH - 18
    passed = [legend.name_for(names, _int(s)) for s in (active or {}).get("passed") or []]
    declined = [legend.name_for(names, _int(s)) for s in (attack or {}).get("declined") or []]
    lines = 1 + (1 if active else 0) + (1 if active and passed else 0)
    h = 14 + 26 * lines + ((54 + (20 if declined else 0)) if attack else 0)
    _box(draw, y, h)
    cy = y + 20
    if cur:
        kind = str(cur.get("kind") or "")
        tag = CARD_KIND.get(kind, kind.title() or "Card")
        tcol = palette.COMBAT if kind in ("enemy", "dire") else palette.ALERT
        tw = int(fonts.font(17, True).getlength(tag)) + 12
        draw.rounded_rectangle((x0, cy - 11, x0 + tw, cy + 11), radius=5, fill=tcol)
        text.stamp(img, (x0 + tw / 2, cy), tag, 17, bold=True, stroke=0, fill=palette.text_on(tcol), anchor="mm")
        name = _clean(cur.get("name") or "")
        where = ", ".join(regions.get(str(k), str(k)) for k in cur.get("regions") or [])
        line = ("" if name == tag else name) + (f" → {where}" if where else "")
        _stamp_fit(img, (x0 + tw + 8, cy), line.strip(), x1 - x0 - tw - 8, bold=True)
    else:
        text.stamp(img, (x0, cy), "No card in play", 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
    cy += 26
    if active:
        ap = _int(active.get("ap"))
        ax = x1
        for _ in range(min(ap, 6)):
            tokens.bolt(draw, ax - 7, cy, 9)
            ax -= 16
        ax = text.stamp(img, (ax - 4, cy), f"{ap} AP", 18, bold=True, stroke=0, fill=palette.ENERGY, anchor="rm")[0]
        if active.get("card") == "all":
            who = "Every Defender acts" + (" (each)" if ap else "")
        else:
            who = f"{_defender_name(view, active.get('defender'))} acts"
        _stamp_fit(img, (x0, cy), who, ax - x0 - 8)
        cy += 26
        if passed:
            _stamp_fit(img, (x0, cy), "passed: " + ", ".join(passed), x1 - x0, fill_=palette.TEXT_DIM)
            cy += 26
    if attack:
        ay = cy - 8
        draw.rounded_rectangle((x0 - 4, ay, x1 + 4, ay + 48 + (20 if declined else 0)), radius=6, fill=(70, 30, 36),
                               outline=palette.COMBAT, width=2)
        tokens.swords(draw, x0 + 10, ay + 14, 10)
        dire = " (DIRE)" if attack.get("dire") else ""
        where = regions.get(str(attack.get("region")), str(attack.get("region") or "?"))
        _stamp_fit(img, (x0 + 26, ay + 14), f"Attack on {where}{dire}", x1 - x0 - 30, bold=True)
        sub = f"by {_clean(attack.get('source') or '?')} · defend for {_int(attack.get('cost'))} HP"
        _stamp_fit(img, (x0 + 4, ay + 36), sub, x1 - x0 - 4)
        if declined:
            _stamp_fit(img, (x0 + 4, ay + 56), "declined: " + ", ".join(declined), x1 - x0 - 4, fill_=palette.TEXT_DIM)
    return y + h + 8


def _draw_supply(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    deck = view.get("deck") or {}
    car = view.get("caravans") or {}
    x0, x1 = PANEL_X + 18, WIDTH - 18
    _box(draw, y, 62)
    cy = y + 18
    deck_line = (f"Turn deck {_int(deck.get('turn'))}/{_int(deck.get('round_cards'))} · discard "
                 f"{_int(deck.get('discard'))} · horde {_int(deck.get('horde'))}")
    draw.rounded_rectangle((x0, cy - 10, x0 + 14, cy + 10), radius=2, fill=palette.PLATE_EDGE, outline=palette.TEXT_DIM)
    _stamp_fit(img, (x0 + 22, cy), deck_line, x1 - x0 - 22)
    cy += 26
    on_map = sum(_int(v) for v in (car.get("on_map") or {}).values())
    caravan(draw, x0 + 8, cy, 9)
    line = (f"Caravans {_int(car.get('home'))}/{_int(car.get('total'))} home · {on_map} waiting · "
            f"{_int(car.get('pile'))} in pile")
    _stamp_fit(img, (x0 + 22, cy), line, x1 - x0 - 22)
    return y + 70


def _draw_war(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    war = view.get("war") or {}
    regions = _region_names(view)
    x0, x1 = PANEL_X + 18, WIDTH - 18
    _box(draw, y, 110, WAR_EDGE)
    text.stamp(img, (x0, y + 15), "Dark War", 17, bold=True, stroke=0, fill=WAR_EDGE, anchor="lm")
    cy = y + 15
    x = x0 + 90
    for icon, n in ((fleet_die, war.get("fleet_dice")), (storm, war.get("storms")), (soldier, war.get("soldiers")),
                    (skull, war.get("death_tokens"))):
        icon(draw, x + 9, cy, 9)
        x = text.stamp(img, (x + 22, cy), f"×{_int(n)}", 17, bold=True, stroke=0, anchor="lm")[2] + 14
    cy += 24
    deserters = _int(war.get("deserters"))
    soldier(draw, x0 + 9, cy, 9, palette.COMBAT)
    _stamp_fit(img, (x0 + 22, cy), f"{deserters} deserter{'s' * (deserters != 1)} in the Turn Deck", x1 - x0 - 22)
    cy += 24
    t = war.get("tree")
    tree(draw, x0 + 9, cy, 9)
    tree_txt = "empty" if t is None else _defender_name(view, t)
    _stamp_fit(img, (x0 + 22, cy), f"Great Tree: {tree_txt}", x1 - x0 - 22)
    cy += 24
    tx = x0
    m = war.get("manticore")
    manticore(draw, tx + 9, cy, 9)
    if isinstance(m, int) and not isinstance(m, bool):
        m_txt = f"Manticore ridden by {_defender_name(view, m)}"
    else:
        m_txt = f"Manticore at {regions.get(str(m), str(m or '-'))}"
    _stamp_fit(img, (tx + 22, cy), m_txt, x1 - tx - 22)
    return y + 118


def _draw_team(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None,
               y: int) -> int:
    """One row per Defender: shape, Defender name, player name."""
    x0, x1 = PANEL_X + 10, WIDTH - 10
    active = view.get("active") or {}
    waiting = {_int(p.get("seat")) for p in view.get("prompts") or [] if not p.get("answered")}
    for d in view.get("defenders", [])[:4]:
        seat = _int(d.get("seat"))
        colour = palette.seat_colour(seat)
        acting = active.get("card") == "defender" and _int(active.get("defender"), -1) == _int(d.get("idx"), -2)
        draw.rounded_rectangle((x0, y, x1, y + 28), radius=6, fill=palette.PLATE,
                               outline=palette.ALERT if acting else palette.PANEL_EDGE, width=2 if acting else 1)
        draw.rectangle((x0 + 1, y + 5, x0 + 4, y + 23), fill=colour)
        tokens.seat_token(draw, seat, x0 + 20, y + 14, 10)
        status = "acting" if acting else ("to answer" if seat in waiting else "")
        rx = x1 - 8
        if status:
            rx = text.stamp(img, (rx, y + 14), status, 17, bold=True, stroke=0, fill=palette.ALERT, anchor="rm")[0] - 8
        nx = _stamp_fit(img, (x0 + 36, y + 14), str(d.get("name") or "?"), 150, bold=True)[2]
        _stamp_fit(img, (nx + 8, y + 14), legend.name_for(names, seat), rx - nx - 8, fill_=palette.TEXT_DIM)
        y += 32
    return y + 4


def _draw_log(img: Image.Image, view: dict[str, Any], names: list[str] | None, y: int) -> None:
    x0, x1 = PANEL_X + 12, WIDTH - 12
    lines = [fill(str(e), names) for e in (view.get("log") or [])[-8:] if e]
    if not lines or y + 44 > HEIGHT:
        return
    text.stamp(img, (x0, y), "Log", 18, bold=True, stroke=0, fill=palette.TEXT_DIM)
    y += 26
    f = fonts.font(17)
    wrapped: list[str] = []
    for e in lines:
        wrapped += text.wrap(fonts.sanitize(e), f, x1 - x0 - 6, 2)
    room = max(0, (HEIGHT - 6 - y) // 21)
    for line in wrapped[-room:] if room else []:
        text.stamp(img, (x0 + 4, y), line, 17, stroke=0)
        y += 21


def _draw_result(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """The end banner, on top of the side panel so the final board stays readable."""
    result = view.get("result") or {}
    won = bool(result.get("won"))
    colour = palette.ALERT if won else palette.COMBAT
    b = _box(draw, y, 104, colour, palette.BACKGROUND_EDGE)
    cap = _clean((view.get("capital") or {}).get("name") or "The capital", True)
    headline = f"Victory! {cap} stands" if won else f"Defeat: {cap} fell"
    headline, f = text.fit(headline, b[2] - b[0] - 20, (32, 28, 24, 20), bold=True)
    text.outlined(draw, ((b[0] + b[2]) / 2, y + 26), headline, f, fill=colour, stroke=2, anchor="mm")
    for k, line in enumerate(_lines(str(result.get("reason") or ""), b[2] - b[0] - 20, 2)):
        text.stamp(img, ((b[0] + b[2]) / 2, y + 60 + 20 * k), line, 17, stroke=0, anchor="mm")
    return y + 112


def render_image(view: dict[str, Any], names: list[str] | None = None) -> Image.Image:
    """The public map as an RGB image (before PNG encoding)."""
    base, _ = static_layer()
    img = base.copy()
    draw = ImageDraw.Draw(img)
    cur = (view.get("deck") or {}).get("current") or {}
    marked = {str(k) for k in cur.get("regions") or []}
    attacked = str((view.get("attack") or {}).get("region")) if view.get("attack") else None
    _draw_capital(img, draw, view, marked, attacked)
    for r in view.get("ring", [])[:6]:
        _draw_region(img, draw, view, r, marked, attacked)
    _draw_header(img, view, names)
    y = HEADER_H + 8
    if view.get("result"):
        y = _draw_result(img, draw, view, y)
    y = _draw_boss_box(img, draw, view, y)
    y = _draw_turn_box(img, draw, view, names, y)
    y = _draw_supply(img, draw, view, y)
    y = _draw_war(img, draw, view, y)
    y = _draw_team(img, draw, view, names, y)
    _draw_log(img, view, names, y)
    return img


def draw(view: dict[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the public map for a public view."""
    return encoding.png(render_image(view, names), static_layer()[1])


# --------------------------------------------------------------------------- private panel


def _mine(view: dict[str, Any]) -> tuple[int, list[dict[str, Any]]]:
    you = view.get("you") or {}
    seat = _int(you.get("seat"))
    wanted = [_int(i) for i in you.get("defenders") or []]
    by_idx = {_int(d.get("idx"), -1): d for d in view.get("defenders", [])}
    mine = [by_idx[i] for i in wanted if i in by_idx]
    if not wanted:
        mine = [d for d in view.get("defenders", []) if _int(d.get("seat"), -1) == seat]
    return seat, mine[:4]


def private_size(view: dict[str, Any]) -> tuple[int, int]:
    """900 wide; one row of two Defender cards, two rows for a seat with 3-4 Defenders."""
    _, mine = _mine(view)
    rows = 2 if len(mine) > 2 else 1
    return (PRIVATE_W, 60 + rows * (PRIVATE_CARD_H + 8) + 44)


def _wrapped(img: Image.Image, x: int, y: int, s: str, width: int, lines: int, fill_: RGB = palette.TEXT) -> int:
    for line in _lines(s, width, lines):
        text.stamp(img, (x, y), line, 17, stroke=0, fill=fill_)
        y += 20
    return y


def _defender_card(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], d: dict[str, Any],
                   box: Box) -> None:
    x0, y0, x1, y1 = box
    seat = _int(d.get("seat"))
    colour = palette.seat_colour(seat)
    draw.rounded_rectangle(box, radius=10, fill=palette.PLATE, outline=colour, width=3)
    w = x1 - x0 - 24
    x = x0 + 12
    tokens.seat_token(draw, seat, x + 12, y0 + 22, 12)
    where = _clean(_region_names(view).get(str(d.get("region")), str(d.get("region") or "")))
    rx = _stamp_fit(img, (x1 - 12, y0 + 22), f"in {where}", 170, fill_=palette.TEXT_DIM, anchor="rm")[0]
    _stamp_fit(img, (x + 30, y0 + 22), str(d.get("name") or "?"), rx - x - 40, size=22, bold=True)
    y = y0 + 44
    ability = _clean(d.get("ability") or "")
    if ability:
        text.stamp(img, (x, y), ability, 17, bold=True, stroke=0, fill=palette.ALERT)
        y += 21
        for line in _lines(str(d.get("ability_text") or ""), w, 2):
            text.stamp(img, (x, y), line, 17, stroke=0)
            y += 20
        y += 4
    # HP hearts, status
    hp, max_hp = _int(d.get("hp")), _int(d.get("max_hp"))
    hx = x
    for i in range(min(max_hp, 12)):
        tokens.heart(draw, hx + 9, y + 12, 9, palette.HEALTH if i < hp else palette.EMPTY_PIP)
        hx += 22
    hx = text.stamp(img, (hx + 4, y + 12), f"{hp}/{max_hp} HP", 18, bold=True, stroke=0, anchor="lm")[2] + 12
    status = []
    if d.get("exhausted"):
        status.append((zz, "exhausted"))
    if d.get("shield"):
        status.append((shield, "shield"))
    if d.get("in_tree"):
        status.append((tree, "in Tree"))
    if d.get("riding"):
        status.append((manticore, "riding"))
    if _int(d.get("death_tokens")):
        status.append((skull, f"×{_int(d.get('death_tokens'))}"))
    for icon, label in status:
        if hx > x1 - 60:
            break
        icon(draw, hx + 9, y + 12, 9)
        hx = _stamp_fit(img, (hx + 20, y + 12), label, x1 - 12 - hx - 20, fill_=palette.TEXT_DIM)[2] + 10
    y += 32
    # XP track 0..xp_max
    xp, xp_max = _int(d.get("xp")), max(1, _int(d.get("xp_max"), 8))
    tokens.star(draw, x + 9, y + 12, 9)
    text.stamp(img, (x + 22, y + 12), "XP", 17, bold=True, stroke=0, anchor="lm")
    _track(draw, img, x + 52, y + 12, min(xp, xp_max), xp_max, w - 52, colour=palette.INFLUENCE)
    y += 36
    # artifacts
    arts = list(d.get("artifacts") or [])[:4]
    skills = list(d.get("skills") or [])
    # two lines of rules text per card when everything fits, else one (ellipsised)
    n_lines = 2 if y + 56 + (len(arts) + len(skills)) * 67 + (22 if not arts else 0) <= y1 else 1
    text.stamp(img, (x, y), f"Artifacts ({len(arts)})", 18, bold=True, stroke=0, fill=palette.ALERT)
    y += 24
    if not arts:
        text.stamp(img, (x + 4, y), "none", 17, stroke=0, fill=palette.TEXT_DIM)
        y += 22
    for a in arts:
        slot = "HAND" if a.get("slot") == "hand" else "BACK" if a.get("slot") == "back" else _clean(a.get("slot")).upper()
        sw = int(fonts.font(17, True).getlength(slot)) + 10
        draw.rounded_rectangle((x, y, x + sw, y + 20), radius=4, fill=palette.PLATE_EDGE)
        text.stamp(img, (x + sw / 2, y + 10), slot, 17, bold=True, stroke=0, anchor="mm")
        _stamp_fit(img, (x + sw + 8, y + 10), str(a.get("name") or "?"), w - sw - 8, bold=True)
        y = _wrapped(img, x + 4, y + 23, str(a.get("text") or ""), w - 4, n_lines, palette.TEXT_DIM) + 4
    y += 6
    text.stamp(img, (x, y), f"Skills ({len(skills)})", 18, bold=True, stroke=0, fill=palette.ALERT)
    y += 24
    for s in skills:
        if y + 27 + 20 * n_lines > y1:
            text.stamp(img, (x + 4, y), f"+{len(skills) - skills.index(s)} more", 17, stroke=0, fill=palette.TEXT_DIM)
            break
        cost = _int(s.get("cost"))
        tokens.star(draw, x + 8, y + 10, 9)
        cx = text.stamp(img, (x + 18, y + 10), f"{cost} XP", 18, bold=True, stroke=0, fill=palette.ENERGY,
                        anchor="lm")[2]
        when = "your turn" if s.get("own_turn") else "any time"
        wx = text.stamp(img, (x1 - 12, y + 10), when, 17, stroke=0, fill=palette.TEXT_DIM, anchor="rm")[0]
        _stamp_fit(img, (cx + 10, y + 10), str(s.get("name") or "?"), wx - cx - 20, bold=True)
        y = _wrapped(img, x + 4, y + 23, str(s.get("text") or ""), w - 4, n_lines, palette.TEXT_DIM) + 4


def _team_card(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str] | None,
               box: Box, seat: int) -> None:
    """The rest of the team, and the turn, beside a single Defender card."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, radius=10, fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE, width=1)
    x = x0 + 12
    text.stamp(img, (x, y0 + 12), "Team", 18, bold=True, stroke=0, fill=palette.ALERT)
    y = y0 + 40
    regions = _region_names(view)
    for d in view.get("defenders", [])[:6]:
        s = _int(d.get("seat"))
        tokens.seat_token(draw, s, x + 10, y + 12, 10)
        rx = text.stamp(img, (x1 - 12, y + 12), str(_int(d.get("xp"))), 17, bold=True, stroke=0, anchor="rm")[0]
        tokens.star(draw, rx - 9, y + 12, 8)
        rx = text.stamp(img, (rx - 20, y + 12), f"{_int(d.get('hp'))}/{_int(d.get('max_hp'))}", 17, bold=True,
                        stroke=0, anchor="rm")[0]
        tokens.heart(draw, rx - 9, y + 12, 7)
        nx = _stamp_fit(img, (x + 26, y + 12), str(d.get("name") or "?"), 170, bold=True,
                        fill_=palette.TEXT_DIM if d.get("exhausted") else palette.TEXT)[2]
        _stamp_fit(img, (nx + 8, y + 12), legend.name_for(names, s), rx - nx - 28, fill_=palette.TEXT_DIM)
        y += 24
        where = _clean(regions.get(str(d.get("region")), str(d.get("region") or "")))
        _stamp_fit(img, (x + 26, y + 10), f"in {where}", x1 - x - 40, fill_=palette.TEXT_DIM)
        y += 30
    cap = view.get("capital") or {}
    y += 6
    text.stamp(img, (x, y), "Threat", 18, bold=True, stroke=0, fill=palette.ALERT)
    y += 26
    _stamp_fit(img, (x, y + 10), f"{_clean(cap.get('name') or 'Capital')}: {_int(cap.get('threat'))}"
               f"/{_int(cap.get('destruction'))}", x1 - x - 12)
    y += 24
    for r in view.get("ring", [])[:6]:
        state = "destroyed" if r.get("destroyed") else f"{_int(r.get('threat'))}/{_int(r.get('max_threat'))}"
        _stamp_fit(img, (x, y + 10), f"{_clean(r.get('name') or r.get('key'))}: {state}", x1 - x - 12,
                   fill_=palette.TEXT_DIM if r.get("destroyed") else palette.TEXT)
        y += 22


def render_private_image(view: dict[str, Any], names: list[str] | None = None) -> Image.Image:
    """A seat's panel: each of its Defenders in detail (HP, XP track, artifacts, skills)."""
    seat, mine = _mine(view)
    w, h = private_size(view)
    img, draw = tokens.private_canvas((w, h), seat)
    title = f"Your Defender{'s' * (len(mine) != 1)} - {legend.name_for(names, seat)}"
    active = view.get("active") or {}
    my_idx = {_int(d.get("idx"), -1) for d in mine}
    if active.get("card") == "defender" and _int(active.get("defender"), -2) in my_idx:
        right = f"Your turn: {_int(active.get('ap'))} AP"
    elif active.get("card") == "all" and seat not in [_int(s) for s in active.get("passed") or []]:
        right = f"All Defenders: {_int(active.get('ap'))} AP"
    else:
        right = ""
    rx = w - 14
    if right:
        rx = text.stamp(img, (rx, 26), right, 20, bold=True, fill=palette.ENERGY, anchor="rm")[0] - 12
    _stamp_fit(img, (52, 26), title, rx - 60, size=22, bold=True, stroke=2)
    top = 60
    cw = (w - 24 - 8) // 2
    for i, d in enumerate(mine):
        col, row = i % 2, i // 2
        x0 = 12 + col * (cw + 8)
        y0 = top + row * (PRIVATE_CARD_H + 8)
        _defender_card(img, draw, view, d, (x0, y0, x0 + cw, y0 + PRIVATE_CARD_H))
    if len(mine) % 2 == 1 or not mine:
        i = len(mine)
        x0 = 12 + (i % 2) * (cw + 8)
        y0 = top + (i // 2) * (PRIVATE_CARD_H + 8)
        _team_card(img, draw, view, names, (x0, y0, x0 + cw, y0 + PRIVATE_CARD_H), seat)
    footer = _clean(fill(str(view.get("phase_label") or ""), names))
    if any(_int(p.get("seat"), -1) == seat and not p.get("answered") for p in view.get("prompts") or []):
        footer += " - waiting for you"
    draw.rectangle((0, h - 40, w, h), fill=palette.BACKGROUND_EDGE)
    _stamp_fit(img, (16, h - 20), footer, w - 32, size=18, bold=True)
    return img


@functools.cache
def _private_palette(size: tuple[int, int]) -> Image.Image:
    base = Image.new("RGB", size, palette.PANEL)
    return encoding.fixed_palette(base, [*encoding.drawing_colours(), *EXTRA_COLOURS])


def draw_private(view: dict[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the private panel for a seat view (`view["you"]` names the seat)."""
    img = render_private_image(view, names)
    return encoding.png(img, _private_palette(img.size))


__all__ = ["draw", "draw_private", "render_image", "render_private_image", "private_size", "region_boxes",
           "plate_box", "capital_box"]
