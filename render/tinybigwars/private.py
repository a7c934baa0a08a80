"""Tiny Big Wars: a seat's private force panel (heroes, minion cards, buildings, its sealed choice).

Drawn from the seat's `you` block and the public view only. The panel is 800 px wide, so its
17 px text stays >= 11 px in a phone's 550 px preview.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.tinybigwars.view_models import PublicView, SeatView
from render import encode as encoding
from render import fonts, legend, palette, panels, text, tokens
from render.views import parse

PRIVATE_SIZE = (800, 500)


def render_private_image(view: SeatView | Mapping[str, Any], names: list[str] | None = None) -> Image.Image:
    """A seat's private panel: its force, coins, points and its own sealed choice."""
    view = parse(SeatView, view)
    you = view.you
    seat = you.seat
    force = you.force
    w, h = PRIVATE_SIZE
    img, draw = tokens.private_canvas((w, h), seat)
    colour = palette.seat_colour(seat)
    rw = panels.private_corner(img, w, f"Points {force.points if force else 0}")
    tokens.coin(draw, w - 14 - rw - 60, 26, 10)
    text.stamp(img, (w - 14 - rw - 46, 26), str(you.coins), 22, bold=True, anchor="lm")
    panels.private_title(img, f"Your force - {legend.name_for(names, seat)}", w - 130 - rw - 60)

    f17, b17 = fonts.font(17), fonts.font(17, bold=True)
    locations = {location.id: location.name for location in view.locations}
    public = [hero for hero in view.heroes if hero.seat == seat]
    by_card = {hero.card: hero for hero in public}
    cards = (list(force.heroes) if force else []) or [hero.card for hero in public]
    y = 66
    text.stamp(img, (16, y), "Heroes", 20, bold=True, fill=palette.ALERT)
    for cx, caption in ((182, "power"), (248, "health"), (374, "energy")):
        text.stamp(img, (cx, y + 4), caption, 17, stroke=0, fill=palette.TEXT_DIM)
    y += 30
    for card in cards[:8]:
        hero = by_card.get(card)
        draw.rounded_rectangle((12, y, 500, y + 44), radius=8, fill=palette.PLATE, outline=colour, width=2)
        name = hero.name if hero else card.replace("-", " ").replace("_", " ").title()
        nm = text.ellipsize(fonts.sanitize(name, True), b17, 150)
        text.stamp(img, (24, y + 12), nm, 17, bold=True, stroke=0, fill=palette.TEXT, anchor="lm")
        if hero is None:
            text.stamp(img, (24, y + 32), "not on the board yet", 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        else:
            where = "defeated" if hero.defeated else locations.get(str(hero.location), "-")
            if hero.activated and not hero.defeated:
                where += " (activated)"
            text.stamp(img, (24, y + 32), text.ellipsize(fonts.sanitize(where), f17, 170), 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
            tokens.fist(draw, 200, y + 22, 9)
            draw.text((212, y + 22), str(hero.power), font=b17, fill=palette.TEXT, anchor="lm")
            tokens.heart(draw, 246, y + 22, 8)
            hx = tokens.pips(draw, 258, y + 22, hero.health, hero.max_health, palette.HEALTH, 9, 2)
            draw.text((hx + 4, y + 22), f"{hero.health}/{hero.max_health}",
                      font=f17, fill=palette.TEXT, anchor="lm")
            tokens.bolt(draw, 380, y + 22, 9)
            ex = tokens.pips(draw, 392, y + 22, hero.energy, hero.max_energy, palette.ENERGY, 9, 2)
            draw.text((ex + 4, y + 22), str(hero.energy), font=f17, fill=palette.TEXT, anchor="lm")
        y += 50
    if not cards:
        text.stamp(img, (16, y + 10), "No heroes chosen yet", 17, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        y += 30
    _draw_clan_summary(img, draw, view, seat, max(y + 8, 270))

    x = 516
    y = 66
    minion_cards = (force.minion_card_names or force.minion_cards) if force else []
    buildings = (force.building_names or force.buildings) if force else []
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
    sealed = you.sealed
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
    panels.private_footer(img, view.phase_label, seat in view.waiting)
    return img


def _draw_clan_summary(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, seat: int, y: int) -> None:
    """The seat's public standing, repeated privately: influence bar, places, minions, turns."""
    row = next((row for row in view.seats if row.seat == seat), None)
    if row is None or y > PRIVATE_SIZE[1] - 120:
        return
    to_win = view.to_win
    text.stamp(img, (16, y), "Your clan", 20, bold=True, fill=palette.ALERT)
    y += 36
    tokens.star(draw, 26, y, 10)
    influence = row.influence
    draw.rectangle((42, y - 8, 330, y + 8), fill=palette.BACKGROUND, outline=palette.PANEL_EDGE)
    frac = max(0.0, min(1.0, influence / to_win))
    if frac:
        draw.rectangle((43, y - 7, 43 + 286 * frac, y + 7), fill=palette.seat_colour(seat))
    text.stamp(img, (342, y), f"{influence}/{to_win} influence", 17, bold=True, stroke=0, anchor="lm")
    y += 30
    places, minions = row.locations, row.minions
    facts = f"{places} location{'s' * (places != 1)} · {minions} minion{'s' * (minions != 1)}"
    if view.round > 0:
        facts += f" · {row.activations}/2 heroes activated"
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


def draw_private(view: SeatView | Mapping[str, Any], names: list[str] | None = None) -> bytes:
    """PNG bytes of the private panel for a seat view."""
    return encoding.png(render_private_image(view, names), _private_palette())
