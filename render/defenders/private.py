"""Tiny Epic Defenders: a seat's private panel, each of its Defenders in detail (HP, XP track, artifacts, skills).

The panel is 900 px wide, so its 17 px text stays >= 10 px in a phone's 550 px preview.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.defenders.view_models import DefenderView, PublicView, SeatView
from engine.text import fill
from render import encode as encoding
from render import fonts, legend, palette, text, tokens
from render.defenders import icons
from render.defenders.common import clean, region_names, stamp_fit, wrapped_lines
from render.defenders.ring import track
from render.views import parse

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]
PRIVATE_W = 900
PRIVATE_CARD_H = 600


def _mine(view: SeatView) -> tuple[int, list[DefenderView]]:
    """The seat and the Defenders it plays (at most four)."""
    seat = view.you.seat
    wanted = view.you.defenders
    by_idx = {d.idx: d for d in view.defenders}
    mine = [by_idx[i] for i in wanted if i in by_idx]
    if not wanted:
        mine = [d for d in view.defenders if d.seat == seat]
    return seat, mine[:4]


def private_size(view: SeatView | Mapping[str, Any]) -> tuple[int, int]:
    """900 wide; one row of two Defender cards, two rows for a seat with 3-4 Defenders."""
    _, mine = _mine(parse(SeatView, view))
    rows = 2 if len(mine) > 2 else 1
    return (PRIVATE_W, 60 + rows * (PRIVATE_CARD_H + 8) + 44)


def _wrapped(img: Image.Image, x: int, y: int, s: str, width: int, lines: int, fill_: RGB = palette.TEXT) -> int:
    for line in wrapped_lines(s, width, lines, 17):
        text.stamp(img, (x, y), line, 17, stroke=0, fill=fill_)
        y += 20
    return y


def _defender_card(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, d: DefenderView,
                   box: Box) -> None:
    x0, y0, x1, y1 = box
    seat = d.seat
    colour = palette.seat_colour(seat)
    draw.rounded_rectangle(box, radius=10, fill=palette.PLATE, outline=colour, width=3)
    w = x1 - x0 - 24
    x = x0 + 12
    tokens.seat_token(draw, seat, x + 12, y0 + 22, 12)
    where = clean(region_names(view).get(d.region, d.region))
    rx = stamp_fit(img, (x1 - 12, y0 + 22), f"in {where}", 170, fill_=palette.TEXT_DIM, anchor="rm")[0]
    stamp_fit(img, (x + 30, y0 + 22), d.name or "?", rx - x - 40, size=22, bold=True)
    y = y0 + 44
    ability = clean(d.ability)
    if ability:
        text.stamp(img, (x, y), ability, 17, bold=True, stroke=0, fill=palette.ALERT)
        y += 21
        for line in wrapped_lines(d.ability_text, w, 2, 17):
            text.stamp(img, (x, y), line, 17, stroke=0)
            y += 20
        y += 4
    # HP hearts, status
    hp, max_hp = d.hp, d.max_hp
    hx = x
    for i in range(min(max_hp, 12)):
        tokens.heart(draw, hx + 9, y + 12, 9, palette.HEALTH if i < hp else palette.EMPTY_PIP)
        hx += 22
    hx = text.stamp(img, (hx + 4, y + 12), f"{hp}/{max_hp} HP", 18, bold=True, stroke=0, anchor="lm")[2] + 12
    status = []
    if d.exhausted:
        status.append((icons.zz, "exhausted"))
    if d.shield:
        status.append((icons.shield, "shield"))
    if d.in_tree:
        status.append((icons.tree, "in Tree"))
    if d.riding:
        status.append((icons.manticore, "riding"))
    if d.death_tokens:
        status.append((icons.skull, f"×{d.death_tokens}"))
    for icon, label in status:
        if hx > x1 - 60:
            break
        icon(draw, hx + 9, y + 12, 9)
        hx = stamp_fit(img, (hx + 20, y + 12), label, x1 - 12 - hx - 20, fill_=palette.TEXT_DIM)[2] + 10
    y += 32
    # XP track 0..xp_max
    xp, xp_max = d.xp, max(1, d.xp_max)
    tokens.star(draw, x + 9, y + 12, 9)
    text.stamp(img, (x + 22, y + 12), "XP", 17, bold=True, stroke=0, anchor="lm")
    track(draw, img, x + 52, y + 12, min(xp, xp_max), xp_max, w - 52, colour=palette.INFLUENCE, px=17, cell_max=26)
    y += 36
    # artifacts
    arts = d.artifacts[:4]
    skills = d.skills
    # two lines of rules text per card when everything fits, else one (ellipsised)
    n_lines = 2 if y + 56 + (len(arts) + len(skills)) * 67 + (22 if not arts else 0) <= y1 else 1
    text.stamp(img, (x, y), f"Artifacts ({len(arts)})", 18, bold=True, stroke=0, fill=palette.ALERT)
    y += 24
    if not arts:
        text.stamp(img, (x + 4, y), "none", 17, stroke=0, fill=palette.TEXT_DIM)
        y += 22
    for a in arts:
        slot = "HAND" if a.slot == "hand" else "BACK" if a.slot == "back" else clean(a.slot).upper()
        sw = int(fonts.font(17, True).getlength(slot)) + 10
        draw.rounded_rectangle((x, y, x + sw, y + 20), radius=4, fill=palette.PLATE_EDGE)
        text.stamp(img, (x + sw / 2, y + 10), slot, 17, bold=True, stroke=0, anchor="mm")
        stamp_fit(img, (x + sw + 8, y + 10), a.name or "?", w - sw - 8, bold=True)
        y = _wrapped(img, x + 4, y + 23, a.text, w - 4, n_lines, palette.TEXT_DIM) + 4
    y += 6
    text.stamp(img, (x, y), f"Skills ({len(skills)})", 18, bold=True, stroke=0, fill=palette.ALERT)
    y += 24
    for s in skills:
        if y + 27 + 20 * n_lines > y1:
            text.stamp(img, (x + 4, y), f"+{len(skills) - skills.index(s)} more", 17, stroke=0, fill=palette.TEXT_DIM)
            break
        cost = s.cost
        tokens.star(draw, x + 8, y + 10, 9)
        cx = text.stamp(img, (x + 18, y + 10), f"{cost} XP", 18, bold=True, stroke=0, fill=palette.ENERGY,
                        anchor="lm")[2]
        when = "your turn" if s.own_turn else "any time"
        wx = text.stamp(img, (x1 - 12, y + 10), when, 17, stroke=0, fill=palette.TEXT_DIM, anchor="rm")[0]
        stamp_fit(img, (cx + 10, y + 10), s.name or "?", wx - cx - 20, bold=True)
        y = _wrapped(img, x + 4, y + 23, s.text, w - 4, n_lines, palette.TEXT_DIM) + 4


def _team_card(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None,
               box: Box, seat: int) -> None:
    """The rest of the team, and the turn, beside a single Defender card."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, radius=10, fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE, width=1)
    x = x0 + 12
    text.stamp(img, (x, y0 + 12), "Team", 18, bold=True, stroke=0, fill=palette.ALERT)
    y = y0 + 40
    regions = region_names(view)
    for d in view.defenders[:6]:
        s = d.seat
        tokens.seat_token(draw, s, x + 10, y + 12, 10)
        rx = text.stamp(img, (x1 - 12, y + 12), str(d.xp), 17, bold=True, stroke=0, anchor="rm")[0]
        tokens.star(draw, rx - 9, y + 12, 8)
        rx = text.stamp(img, (rx - 20, y + 12), f"{d.hp}/{d.max_hp}", 17, bold=True, stroke=0, anchor="rm")[0]
        tokens.heart(draw, rx - 9, y + 12, 7)
        nx = stamp_fit(img, (x + 26, y + 12), d.name or "?", 170, bold=True,
                        fill_=palette.TEXT_DIM if d.exhausted else palette.TEXT)[2]
        stamp_fit(img, (nx + 8, y + 12), legend.name_for(names, s), rx - nx - 28, fill_=palette.TEXT_DIM)
        y += 24
        where = clean(regions.get(d.region, d.region))
        stamp_fit(img, (x + 26, y + 10), f"in {where}", x1 - x - 40, fill_=palette.TEXT_DIM)
        y += 30
    cap = view.capital
    y += 6
    text.stamp(img, (x, y), "Threat", 18, bold=True, stroke=0, fill=palette.ALERT)
    y += 26
    stamp_fit(img, (x, y + 10), f"{clean(cap.name or 'Capital')}: {cap.threat}/{cap.destruction}", x1 - x - 12)
    y += 24
    for r in view.ring[:6]:
        state = "destroyed" if r.destroyed else f"{r.threat}/{r.max_threat}"
        stamp_fit(img, (x, y + 10), f"{clean(r.name or r.key)}: {state}", x1 - x - 12,
                   fill_=palette.TEXT_DIM if r.destroyed else palette.TEXT)
        y += 22


def render_private_image(view: SeatView | Mapping[str, Any], names: list[str] | None = None) -> Image.Image:
    """A seat's panel: each of its Defenders in detail (HP, XP track, artifacts, skills)."""
    view = parse(SeatView, view)
    seat, mine = _mine(view)
    w, h = private_size(view)
    img, draw = tokens.private_canvas((w, h), seat)
    title = f"Your Defender{'s' * (len(mine) != 1)} - {legend.name_for(names, seat)}"
    active = view.active
    my_idx = {d.idx for d in mine}
    if active is not None and active.card == "defender" and active.defender in my_idx:
        right = f"Your turn: {active.ap} AP"
    elif active is not None and active.card == "all" and seat not in active.passed:
        right = f"All Defenders: {active.ap} AP"
    else:
        right = ""
    rx = w - 14
    if right:
        rx = text.stamp(img, (rx, 26), right, 20, bold=True, fill=palette.ENERGY, anchor="rm")[0] - 12
    stamp_fit(img, (52, 26), title, rx - 60, size=22, bold=True, stroke=2)
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
    footer = clean(fill(view.phase_label, names))
    if any(prompt.seat == seat and not prompt.answered for prompt in view.prompts):
        footer += " - waiting for you"
    draw.rectangle((0, h - 40, w, h), fill=palette.BACKGROUND_EDGE)
    stamp_fit(img, (16, h - 20), footer, w - 32, size=18, bold=True)
    return img


@functools.cache
def _private_palette(size: tuple[int, int]) -> Image.Image:
    base = Image.new("RGB", size, palette.PANEL)
    return encoding.fixed_palette(base, [*encoding.drawing_colours(), *icons.EXTRA_COLOURS])


def draw_private(view: SeatView | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the private panel for a seat view (`view["you"]` names the seat)."""
    img = render_private_image(view, names)
    return encoding.png(img, _private_palette(img.size))
