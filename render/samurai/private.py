"""Samurai Swords: a seat's private screen (its armies' units, hidden ronin, tray, koku, sealed choice, hand).

Only this seat's `you` block and the public view are drawn; the panel is 900 px wide, so its
17 px text stays >= 10 px in a phone's 550 px preview.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.samurai.view_models import PublicView, SeatView
from render import encode as encoding
from render import fonts, legend, palette, panels, text, tokens
from render.samurai import icons
from render.samurai.icons import koku, ronin_icon, unit_icon
from render.samurai.panel import PLAN_BINS
from render.samurai.scene import display_names
from render.views import parse

PRIVATE_SIZE = (900, 600)
UNITS = ("spearman", "gunner", "swordsman", "bowman")
UNIT_WORDS = {"spearman": "spear", "gunner": "gun", "swordsman": "sword", "bowman": "bow"}


def _units_row(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, units: dict[str, int]) -> int:
    """Icons and counts of the four unit kinds; returns the x after the row."""
    for kind in UNITS:
        unit_icon(draw, kind, x + 9, y, 9)
        x = text.stamp(img, (x + 22, y), str(units.get(kind, 0)), 17, bold=True, stroke=0, anchor="lm")[2] + 4
        x = text.stamp(img, (x, y), UNIT_WORDS[kind], 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")[2] + 14
    return x


def render_private_image(view: SeatView | Mapping[str, Any], names: list[str] | None = None) -> Image.Image:
    """A seat's screen: its armies' units, hidden ronin, tray, koku, sealed choice and hand."""
    view = parse(SeatView, view)
    you = view.you
    seat = you.seat
    w, h = PRIVATE_SIZE
    img, draw = tokens.private_canvas((w, h), seat)
    colour = palette.seat_colour(seat)
    kx = w - 14 - panels.private_corner(img, w, f"{you.koku} koku")
    koku(draw, kx - 18, 26, 11)
    panels.private_title(img, f"Your screen - {legend.name_for(names, seat)}", kx - 90)

    names_by_id = display_names({p.id: p.name for p in view.provinces})
    f17 = fonts.font(17)
    y = 64
    text.stamp(img, (16, y), "Armies (behind your screen)", 20, bold=True, fill=palette.ALERT)
    y += 30
    armies = you.armies
    for a in armies[:3]:
        alive = a.alive
        box = (12, y, 520, y + 62)
        draw.rounded_rectangle(box, radius=8, fill=palette.PLATE, outline=colour if alive else palette.PANEL_EDGE, width=2)
        tokens.draw_shape(draw, palette.seat_shape(seat), 32, y + 20, 11, colour if alive else palette.EMPTY_PIP,
                          palette.OUTLINE, 1)
        text.stamp(img, (32, y + 20 + (2 if palette.seat_shape(seat) == "triangle" else 0)), str(a.army + 1),
                   17, bold=True, fill=palette.text_on(colour) if alive else palette.TEXT, stroke=0, anchor="mm")
        where = names_by_id.get(str(a.location), "-") if alive else "destroyed"
        units = a.units
        total = sum(units.get(k, 0) for k in UNITS) + a.ronin + 1
        head = f"Army {a.army + 1} · {where} · daimyo level {a.level or 1}"
        if alive:
            head += f" · {total} figures"
        if a.assassinated:
            head += " · assassinated"
        text.stamp(img, (52, y + 20), text.ellipsize(fonts.sanitize(head), fonts.font(17, True), 456), 17, bold=True,
                   stroke=0, fill=palette.TEXT if alive else palette.TEXT_DIM, anchor="lm")
        if alive:
            ux = _units_row(img, draw, 52, y + 44, units)
            ronin_icon(draw, ux + 9, y + 44, 9)
            ux = text.stamp(img, (ux + 22, y + 44), str(a.ronin), 17, bold=True, stroke=0,
                            anchor="lm")[2] + 4
            text.stamp(img, (ux, y + 44), "ronin", 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        y += 68
    if not armies:
        text.stamp(img, (16, y), "no armies", 17, stroke=0, fill=palette.TEXT_DIM)
        y += 26
    y += 4
    text.stamp(img, (16, y), "Hidden ronin", 20, bold=True, fill=palette.ALERT)
    y += 30
    hidden = [r for r in you.ronin if r.ronin]
    if hidden:
        parts = ", ".join(f"{names_by_id.get(r.province, '?')} {r.ronin}" for r in hidden)
        for line in text.wrap(fonts.sanitize(parts), f17, 490, 2):
            ronin_icon(draw, 26, y + 10, 9)
            text.stamp(img, (42, y), line, 17, stroke=0)
            y += 22
    else:
        text.stamp(img, (16, y), "none", 17, stroke=0, fill=palette.TEXT_DIM)
        y += 22
    y += 10
    text.stamp(img, (16, y), "Tray (units not on the board)", 20, bold=True, fill=palette.ALERT)
    _units_row(img, draw, 16, y + 42, you.tray)
    _draw_standing(img, view, seat, y + 72)

    # right column: sealed choice, then the LWTV hand
    x = 536
    ry = 64
    sealed = you.sealed
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
    hand = you.hand
    if hand or view.mode == "lwtv":
        text.stamp(img, (x, ry), "Your objectives", 20, bold=True, fill=palette.ALERT)
        ry += 30
        for card in hand:
            if ry > h - 90:
                break
            body = text.wrap(fonts.sanitize(card.text), f17, w - x - 30, 3)
            ch = 30 + 20 * len(body)
            draw.rounded_rectangle((x - 4, ry, w - 12, ry + ch), radius=8, fill=palette.PLATE, outline=palette.PLATE_EDGE)
            title = text.ellipsize(fonts.sanitize(card.title or card.id or "?", True),
                                   fonts.font(17, True), w - x - 30)
            text.stamp(img, (x + 6, ry + 14), title, 17, bold=True, fill=palette.COIN, stroke=0, anchor="lm")
            for k, line in enumerate(body):
                text.stamp(img, (x + 6, ry + 28 + 20 * k), line, 17, stroke=0)
            ry += ch + 8
        if not hand:
            text.stamp(img, (x, ry), "no cards", 17, stroke=0, fill=palette.TEXT_DIM)
    panels.private_footer(img, view.phase_label, seat in view.waiting)
    return img


def _draw_standing(img: Image.Image, view: PublicView, seat: int, y: int) -> None:
    """The seat's public standing repeated privately: provinces (or VP), sword, armies."""
    row = next((r for r in view.seats if r.seat == seat), None)
    if row is None or y > PRIVATE_SIZE[1] - 90:
        return
    text.stamp(img, (16, y), "Your clan", 20, bold=True, fill=palette.ALERT)
    provinces = row.provinces
    facts = f"{provinces}/{view.to_win} provinces" if view.to_win else f"{provinces} provinces · {row.vp or 0} VP"
    if row.sword:
        facts += f" · sword {row.sword}"
    facts += f" · {row.armies} armies"
    text.stamp(img, (16, y + 32), text.ellipsize(facts, fonts.font(17), 500), 17, stroke=0, anchor="lm")


HIDDEN_DRAFT_KEYS = ("last",)
"""Keys of a sealed draft that say how far the seat got, not what it chose."""


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
        if k in HIDDEN_DRAFT_KEYS or v is None or v == []:
            continue  # the engine's bookkeeping or a part not reached yet, not a choice
        if k == "plan" and isinstance(v, dict):
            keys = [b for b in PLAN_BINS if b in v] + [b for b in v if b not in PLAN_BINS]
            lines += ["Plan (koku per action):"] + [f"   {b}: {int(v[b] or 0)}" for b in keys]
        else:
            lines.append(f"{str(k).replace('_', ' ')}: {show(v)}")
    return lines


@functools.cache
def _private_palette() -> Image.Image:
    """The private panel's fixed palette (its background is the same for every seat)."""
    colours = [icons.CASTLE_ROOF, icons.CASTLE_WALL, icons.KOKU, icons.RONIN, *encoding.drawing_colours()]
    return encoding.fixed_palette(Image.new("RGB", PRIVATE_SIZE, palette.PANEL), colours)


def draw_private(view: SeatView | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the private panel for a seat view."""
    return encoding.png(render_private_image(view, names), _private_palette())
