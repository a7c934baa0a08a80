"""The Defenders ring: the static layer (roads, panels, key) and each phase's capital and region plates.

Plates are big enough to read on a phone: names at 20-24 px, threat tracks with 20 px
digits, Defender rows at 20 px. The region under attack glows red; the regions the card
in play or the latest log lines name are outlined in the alert colour.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from engine.defenders.view_models import DefenderView, PublicView, RegionView, RevealedBoss
from render import encode as encoding
from render import fonts, palette, text, tokens
from render.cache import LayerCache
from render.defenders import icons
from render.defenders import layout as lay
from render.defenders.common import clean, stamp_fit, wrapped_lines

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]
PX = fonts.MAP_MIN_PX
LINE_H = 24
SIDE_LABEL = {"A": "SIDE A", "B": "SIDE B", "hostile": "HOSTILE", "friendly": "FRIENDLY"}

_STATIC: LayerCache[tuple[Image.Image, Image.Image]] = LayerCache(max_entries=2)


def _road(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int]) -> None:
    """A road between two plates: a dark edge under a lighter top."""
    draw.line([a, b], fill=palette.ROAD_EDGE, width=22)
    draw.line([a, b], fill=palette.ROAD, width=12)


def _build_static() -> tuple[Image.Image, Image.Image]:
    """Background, caption strip, ring roads and key: the same for every match."""
    img = Image.new("RGB", (lay.WIDTH, lay.HEIGHT), palette.PANEL)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, lay.CAPTION_BOX[3], lay.WIDTH, lay.RING_BOTTOM), fill=palette.BACKGROUND)
    draw.rectangle((0, 0, lay.WIDTH, lay.HEADER_H), fill=palette.BACKGROUND_EDGE)
    draw.rectangle(lay.CAPTION_BOX, fill=palette.BACKGROUND_EDGE)
    for y in (lay.HEADER_H, lay.CAPTION_BOX[3], lay.RING_BOTTOM):
        draw.line([(0, y), (lay.WIDTH, y)], fill=palette.PANEL_EDGE, width=2)
    text.outlined(draw, (14, lay.HEADER_H // 2), "TINY EPIC DEFENDERS", fonts.font(24, bold=True), fill=palette.ALERT,
                  anchor="lm")
    # the ring road (consecutive positions) and the two gates of the capital (pos 0 and 3)
    centres = {p: lay.centre(lay.plate_box(p)) for p in range(6)}
    for p in range(6):
        _road(draw, centres[p], centres[(p + 1) % 6])
    cap = lay.centre(lay.capital_box())
    _road(draw, centres[0], cap)
    _road(draw, centres[3], cap)
    _draw_key(img, draw)
    return img, encoding.fixed_palette(img, [*encoding.drawing_colours(), *icons.EXTRA_COLOURS])


def static_layer() -> tuple[Image.Image, Image.Image]:
    """The cached background (header, caption strip, roads, key) and its PNG palette."""
    return _STATIC.get("defenders", _build_static)


def _draw_key(img: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """What the pictograms mean, in two rows under the ring (static)."""
    x0, y0, _, _ = lay.KEY_BOX
    rows = (y0 + 18, y0 + 52)

    def item(cx: float, cy: float, label: str) -> float:
        return text.stamp(img, (cx, cy), label, PX, stroke=0, fill=palette.TEXT_DIM, anchor="lm")[2] + 20

    cx: float = x0 + 4
    draw.rectangle((cx, rows[0] - 10, cx + 20, rows[0] + 10), fill=icons.THREAT, outline=palette.OUTLINE)
    cx = item(cx + 28, rows[0], "threat")
    entries: tuple[tuple[Callable[..., None], str], ...] = (
        (icons.caravan, "caravan"), (icons.ward, "ward"), (icons.storm, "storm"), (icons.fleet_die, "fleet die"),
        (icons.tree, "Great Tree"), (icons.manticore, "Manticore"), (icons.soldier, "soldier"))
    for icon, label in entries:
        icon(draw, cx + 10, rows[0], 10)
        cx = item(cx + 25, rows[0], label)
    cx = x0 + 4
    for icon, label in ((tokens.heart, "HP"), (tokens.star, "XP"), (icons.shield, "shield"), (icons.skull, "death token"),
                        (icons.zz, "exhausted")):
        icon(draw, cx + 10, rows[1], 10)
        cx = item(cx + 25, rows[1], label)
    for fill_, edge, label in ((icons.HOSTILE_FILL, icons.HOSTILE_EDGE, "hostile"), (palette.PLATE, icons.WAR_EDGE, "Dark War"),
                               (palette.PLATE, palette.ALERT, "in play")):
        draw.rounded_rectangle((cx, rows[1] - 11, cx + 22, rows[1] + 11), radius=4, fill=fill_, outline=edge, width=3)
        cx = item(cx + 30, rows[1], label)


# --------------------------------------------------------------------------- marks


def track(draw: ImageDraw.ImageDraw, img: Image.Image, x: int, cy: int, level: int, top: int, width: int,
          colour: RGB = icons.THREAT, px: int = PX, cell_max: int = 34) -> int:
    """Cells 0..top; cells up to `level` lit, the current one framed. Returns the x after it."""
    n = max(1, top + 1)
    cell = max(10, min(cell_max, width // n))
    numbered = cell >= px + 3
    half = max(10, px // 2 + 1)
    for i in range(n):
        x0 = x + i * cell
        lit = 0 < i <= level
        fill_ = colour if lit else palette.BACKGROUND_EDGE
        draw.rectangle((x0, cy - half, x0 + cell - 3, cy + half), fill=fill_,
                       outline=palette.ALERT if i == level else palette.PANEL_EDGE, width=2 if i == level else 1)
        if numbered:
            text.stamp(img, (x0 + (cell - 3) / 2, cy), str(i), px, bold=i == level, stroke=0,
                       fill=palette.OUTLINE if lit else palette.TEXT_DIM, anchor="mm")
    if not numbered:  # cells too narrow for digits: say the level in words
        return text.stamp(img, (x + n * cell + 3, cy), f"{level}/{top}", px, bold=True, stroke=0, anchor="lm")[2]
    return x + n * cell


def _glow(draw: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    """Rings fading outwards around a plate (the region under attack)."""
    for i, alpha in enumerate((0.0, 0.45, 0.7)):
        pad = 3 + i * 4
        draw.rounded_rectangle((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad), radius=12 + pad,
                               outline=palette.tint(colour, alpha), width=4)


def _spikes(draw: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    """Small teeth along the top and bottom edges: a hostile region."""
    x0, y0, x1, y1 = box
    step = 22
    for x in range(x0 + 16, x1 - 16, step):
        draw.polygon([(x, y0 + 1), (x + step / 2, y0 - 8), (x + step, y0 + 1)], fill=colour)
        draw.polygon([(x, y1 - 1), (x + step / 2, y1 + 8), (x + step, y1 - 1)], fill=colour)


def _dashed_box(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, width: int = 3, dash: int = 12) -> None:
    """A dashed outline (a Dark War region)."""
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        draw.line([(x, y0), (min(x + dash, x1), y0)], fill=colour, width=width)
        draw.line([(x, y1), (min(x + dash, x1), y1)], fill=colour, width=width)
    for y in range(y0, y1, dash * 2):
        draw.line([(x0, y), (x0, min(y + dash, y1))], fill=colour, width=width)
        draw.line([(x1, y), (x1, min(y + dash, y1))], fill=colour, width=width)


def status_icons(d: DefenderView) -> list[Callable[..., None]]:
    """A Defender's state as icons: exhausted, shield, in the Tree, riding, death tokens."""
    out: list[Callable[..., None]] = []
    if d.exhausted:
        out.append(icons.zz)
    if d.shield:
        out.append(icons.shield)
    if d.in_tree:
        out.append(icons.tree)
    if d.riding:
        out.append(icons.manticore)
    return out + [icons.skull] * min(3, d.death_tokens)


# --------------------------------------------------------------------------- rows on a plate


def _defender_row(img: Image.Image, draw: ImageDraw.ImageDraw, d: DefenderView, x0: int, x1: int, y: int,
                  tall: bool) -> None:
    """One Defender on a plate: seat shape, name, status icons, HP and XP.

    A tall row (two lines) has room for the whole name and a heart per HP; a compact row
    (one line, when many Defenders share a region) shows HP as a number.
    """
    seat = d.seat
    colour = palette.seat_colour(seat)
    exhausted = d.exhausted
    hp, max_hp = d.hp, d.max_hp
    h = lay.TALL_ROW_H if tall else lay.ROW_H
    draw.rectangle((x0, y, x1, y + h - 2), fill=palette.BACKGROUND_EDGE,
                   outline=palette.tint(colour, 0.55) if exhausted else colour, width=2)
    cy = y + lay.ROW_H // 2 - 1
    tokens.draw_shape(draw, palette.seat_shape(seat), x0 + 14, cy, 10, colour, palette.OUTLINE, 1)
    rx = x1 - 6
    hp_colour = palette.HEALTH if hp <= 1 else palette.TEXT
    if tall:
        ly = y + lay.ROW_H + 11
        xx = text.stamp(img, (x1 - 6, ly), f"XP {d.xp}", PX, bold=True, stroke=0, anchor="rm")[0]
        tokens.star(draw, xx - 11, ly, 10)
        hx = x0 + 12
        n = min(max_hp, 8)
        step = min(20, max(9, (xx - 26 - hx - 48) // max(1, n)))
        for i in range(n):
            tokens.heart(draw, hx + 7, ly, 7, palette.HEALTH if i < hp else palette.EMPTY_PIP)
            hx += step
        text.stamp(img, (hx + 3, ly), f"{hp}/{max_hp}", PX, bold=True, stroke=0, fill=hp_colour, anchor="lm")
    else:
        rx = text.stamp(img, (rx, cy), str(d.xp), PX, bold=True, stroke=0, anchor="rm")[0]
        tokens.star(draw, rx - 11, cy, 9)
        rx = text.stamp(img, (rx - 23, cy), f"{hp}/{max_hp}", PX, bold=True, stroke=0, fill=hp_colour,
                        anchor="rm")[0]
        tokens.heart(draw, rx - 10, cy, 8)
        rx -= 21
    for icon in status_icons(d):
        icon(draw, rx - 10, cy, 10)
        rx -= 22
    name_fill = palette.TEXT_DIM if exhausted or hp <= 0 else palette.TEXT
    stamp_fit(img, (x0 + 29, cy), d.name or "?", rx - (x0 + 31), PX, bold=True, fill_=name_fill)


def _boss_row(img: Image.Image, draw: ImageDraw.ImageDraw, boss: RevealedBoss, x0: int, x1: int, y: int) -> None:
    """The revealed boss on its region: name, then an HP bar and the "held" tag."""
    draw.rectangle((x0, y, x1, y + lay.BOSS_H - 2), fill=icons.BOSS_FILL, outline=icons.BOSS_EDGE, width=2)
    cy = y + 14
    icons.skull(draw, x0 + 14, cy, 10)
    stamp_fit(img, (x0 + 29, cy), boss.name or "Boss", x1 - x0 - 35, PX, bold=True)
    cy += 25
    hp, mx = boss.hp, max(1, boss.max_hp)
    rx = x1 - 6
    if boss.held:
        tw = 62
        draw.rounded_rectangle((rx - tw, cy - 11, rx, cy + 11), radius=4, fill=palette.ALERT)
        text.stamp(img, (rx - tw / 2, cy), "HELD", PX, bold=True, stroke=0, fill=palette.OUTLINE, anchor="mm")
        rx -= tw + 8
    rx = text.stamp(img, (rx, cy), f"{hp}/{mx}", PX, bold=True, stroke=0, anchor="rm")[0] - 8
    bx = x0 + 10
    draw.rectangle((bx, cy - 6, rx, cy + 6), fill=palette.BACKGROUND_EDGE, outline=palette.OUTLINE)
    if hp > 0:
        draw.rectangle((bx + 1, cy - 5, bx + 1 + (rx - bx - 2) * min(1.0, hp / mx), cy + 5), fill=palette.HEALTH)


def _plate_rows(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, key: str, box: Box, y: int,
                blurb: str = "") -> None:
    """What stands in a region, from `y` down: the ability text if there is room, the
    Defenders (tall rows when they fit, compact ones otherwise) and the boss at the bottom."""
    x0, _, x1, y1 = box
    here = [d for d in view.defenders if d.region == key]
    here.sort(key=lambda d: (d.seat, d.idx))
    boss = view.boss
    boss_here = isinstance(boss, RevealedBoss) and boss.region == key
    bottom = y1 - 7 - (lay.BOSS_H + 2 if boss_here else 0)
    avail = bottom - y
    tall = len(here) * lay.TALL_ROW_H <= avail
    row_h = lay.TALL_ROW_H if tall else lay.ROW_H
    spare = avail - len(here) * row_h
    if blurb and spare >= LINE_H + 4:
        for line in wrapped_lines(blurb, x1 - x0 - 22, min(3, (spare - 4) // LINE_H), PX):
            text.stamp(img, (x0 + 11, y), line, PX, stroke=0, fill=palette.TEXT_DIM)
            y += LINE_H
        y += 4
    fit = max(0, (bottom - y) // row_h)
    shown = here if len(here) <= fit else here[: max(0, fit - 1)]
    for d in shown:
        _defender_row(img, draw, d, x0 + 7, x1 - 7, y, tall)
        y += row_h
    if len(here) > len(shown):
        draw.rectangle((x0 + 7, y, x1 - 7, y + lay.ROW_H - 2), fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE)
        cx = x0 + 21
        for d in here[len(shown):]:
            tokens.draw_shape(draw, palette.seat_shape(d.seat), cx, y + 14, 8, palette.seat_colour(d.seat), palette.OUTLINE,
                              1)
            cx += 21
        text.stamp(img, (x1 - 14, y + 14), f"+{len(here) - len(shown)} more", PX, stroke=0, anchor="rm")
    if isinstance(boss, RevealedBoss) and boss_here:
        _boss_row(img, draw, boss, x0 + 7, x1 - 7, y1 - 7 - lay.BOSS_H)


# --------------------------------------------------------------------------- plates


def draw_region(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, r: RegionView,
                marked: set[str], attacked: str | None) -> None:
    """A region's plate: name and side, terrain and ability, threat, caravans, markers, who stands there."""
    key = r.key
    box = lay.plate_box(r.pos)
    x0, y0, x1, y1 = box
    side = r.side
    destroyed = r.destroyed
    hostile = side == "hostile" and not destroyed
    if key == attacked:
        _glow(draw, box, palette.COMBAT)
    if destroyed:
        fill_, edge = icons.DESTROYED_FILL, palette.PANEL_EDGE
    elif hostile:
        fill_, edge = icons.HOSTILE_FILL, icons.HOSTILE_EDGE
    else:
        fill_ = icons.TERRAIN_FILL.get(key, palette.PLATE)
        edge = icons.FRIENDLY_EDGE if side == "friendly" else palette.PLATE_EDGE
    if hostile:
        _spikes(draw, box, icons.HOSTILE_EDGE)
    draw.rounded_rectangle(box, radius=12, fill=fill_, outline=edge, width=4 if side in ("hostile", "friendly") else 2)
    if r.war and not destroyed:
        _dashed_box(draw, (x0 + 6, y0 + 6, x1 - 6, y1 - 6), icons.WAR_EDGE, 3)
    if destroyed:
        draw.line([(x0 + 20, y0 + 20), (x1 - 20, y1 - 20)], fill=icons.DESTROYED_X, width=9)
        draw.line([(x1 - 20, y0 + 20), (x0 + 20, y1 - 20)], fill=icons.DESTROYED_X, width=9)
    if key in marked and not destroyed:
        draw.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=11, outline=palette.ALERT, width=4)
    # name and side badge
    badge = "DESTROYED" if destroyed else SIDE_LABEL.get(side, side.upper()[:9])
    bw = int(fonts.font(PX, bold=True).getlength(badge)) + 14
    bfill = palette.COMBAT if destroyed or side == "hostile" else (
        icons.FRIENDLY_EDGE if side == "friendly" else palette.PLATE_EDGE)
    draw.rounded_rectangle((x1 - 9 - bw, y0 + 8, x1 - 9, y0 + 36), radius=6, fill=bfill, outline=palette.OUTLINE)
    text.stamp(img, (x1 - 9 - bw / 2, y0 + 22), badge, PX, bold=True, stroke=0, fill=palette.text_on(bfill), anchor="mm")
    name, name_px = text.fitted(r.name or key, x1 - x0 - bw - 30, (24, 22, PX), bold=True)
    text.stamp(img, (x0 + 12, y0 + 22), name, name_px, bold=True, fill=palette.TEXT_DIM if destroyed else palette.TEXT,
               anchor="lm")
    # terrain (and Dark War) and the ability name
    ty = y0 + 56
    tx = x0 + 12
    if r.war:
        draw.rounded_rectangle((tx, ty - 12, tx + 56, ty + 12), radius=4, fill=icons.WAR_EDGE)
        text.stamp(img, (tx + 28, ty), "WAR", PX, bold=True, stroke=0, fill=palette.OUTLINE, anchor="mm")
        tx += 64
    terrain = clean(r.terrain or key.title())
    ability = clean(r.ability)
    stamp_fit(img, (tx, ty), f"{terrain} · {ability}" if ability else terrain, x1 - 12 - tx, PX, fill_=palette.TEXT_DIM)
    # threat track, then what lies here
    cy = y0 + 90
    top = max(0, r.max_threat)
    tx = track(draw, img, x0 + 12, cy, min(r.threat, top), top, 170)
    n_car = r.caravans
    if n_car:
        mx = max(tx + 12, x0 + 196)
        icons.caravan(draw, mx + 14, cy, 14)
        text.stamp(img, (mx + 32, cy), f"×{n_car}", 22, bold=True, stroke=0, anchor="lm")
    markers = [(icon, label) for icon, label, on in ((icons.ward, "ward", r.ward),
                                                      (icons.storm, "storm", r.storm),
                                                      (icons.fleet_die, "fleet die", r.fleet_die)) if on]
    y = y0 + 112
    if markers:
        x = x0 + 12
        for icon, label in markers:
            icon(draw, x + 11, y + 14, 11)
            x = text.stamp(img, (x + 27, y + 14), label, PX, bold=True, stroke=0, anchor="lm")[2] + 14
        y += 30
    _plate_rows(img, draw, view, key, box, y + 4, "" if destroyed else r.ability_text)


def draw_capital(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, marked: set[str],
                 attacked: str | None) -> None:
    """The capital's plate: name, destruction track, caravans home and the Defenders there."""
    cap = view.capital
    box = lay.capital_box()
    x0, y0, x1, y1 = box
    if attacked == "capital":
        _glow(draw, box, palette.COMBAT)
    draw.rounded_rectangle(box, radius=14, fill=icons.CAPITAL_FILL, outline=palette.COIN, width=4)
    for x in range(x0 + 20, x1 - 20, 26):  # crenellations on the top edge
        draw.rectangle((x, y0 - 9, x + 13, y0), fill=palette.COIN, outline=palette.OUTLINE)
    if "capital" in marked:
        draw.rounded_rectangle((x0 + 4, y0 + 4, x1 - 4, y1 - 4), radius=12, outline=palette.ALERT, width=4)
    name, name_px = text.fitted(cap.name or "Capital", lay.CAPITAL_W - 24, (26, 24, 22, PX), bold=True)
    text.stamp(img, ((x0 + x1) // 2, y0 + 22), name, name_px, bold=True, anchor="mm")
    text.stamp(img, ((x0 + x1) // 2, y0 + 48), "CAPITAL", PX, bold=True, stroke=0, fill=palette.COIN, anchor="mm")
    cy = y0 + 78
    top = max(0, cap.destruction)
    track(draw, img, x0 + 12, cy, min(cap.threat, top), top, lay.CAPITAL_W - 24)
    cy += 32
    icons.caravan(draw, x0 + 26, cy, 13)
    total = view.caravans.total
    home = cap.caravans
    text.stamp(img, (x0 + 46, cy), f"{home}/{total} home" if total else f"{home} home", 22, bold=True, stroke=0,
               anchor="lm")
    _plate_rows(img, draw, view, "capital", box, cy + 18)
