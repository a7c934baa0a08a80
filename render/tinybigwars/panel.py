"""Everything on the Tiny Big Wars map besides the city: header, caption, players, combat, events, result.

All text is at least fonts.MAP_MIN_PX (20 px): the 1200 px map is previewed about 550 px
wide on phones, where that stays >= 9 px.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.text import fill
from engine.tinybigwars.view_models import PublicView, ResultView, SeatPublic
from render import fonts, legend, palette, panels, text, tokens
from render.tinybigwars import key
from render.tinybigwars import layout as lay

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]
PX = fonts.MAP_MIN_PX
LINE_H = 25
COMBAT_FILL: RGB = (70, 30, 36)
RESULT_BOX: Box = (8, lay.LOWER_Y, lay.WIDTH - 8, lay.LOWER_Y + 130)  # over the events: the final city stays whole


def _name(names: list[str] | None, seat: int) -> str:
    """A seat's display name, safe to draw."""
    return fonts.sanitize(legend.name_for(names, seat))


def header(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView) -> list[Box]:
    """The phase label, the round and the goal; returns the boxes of what it drew."""
    label = fonts.sanitize(view.phase_label or view.phase, True)
    rnd, limit = view.round, view.round_limit
    to_win = view.to_win
    if not limit:
        right = f"win at {to_win}"
    elif rnd <= 0:  # force building: no round has been played yet
        right = f"{limit} rounds · win at {to_win}"
    else:
        right = f"Round {rnd}/{limit} · win at {to_win}"
    h = lay.HEADER_H
    tokens.star(draw, lay.WIDTH - 24, h // 2, 11)
    right_box = text.stamp(img, (lay.WIDTH - 42, h // 2), right, 22, bold=True, anchor="rm")
    left = 236
    label_box = text.stamp(img, (left, h // 2), text.ellipsize(label, fonts.font(22, True), right_box[0] - 20 - left),
                           22, bold=True, anchor="lm")
    star = (lay.WIDTH - 24 - 12, h // 2 - 12, lay.WIDTH - 24 + 13, h // 2 + 13)  # r 11, its outline beside
    return [label_box, (min(right_box[0], star[0]), min(right_box[1], star[1]), star[2], max(right_box[3], star[3]))]


def caption(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, st_names: dict[str, str],
            names: list[str] | None) -> None:
    """The strip over the city: the combat being fought, else the newest public event."""
    x0, y0, x1, y1 = lay.CAPTION_BOX
    cy = (y0 + y1) // 2
    combat = view.combat
    events = [fill(event, names) for event in view.last_events if event]
    if combat is not None:
        draw.rectangle(lay.CAPTION_BOX, fill=COMBAT_FILL)
        tokens.swords(draw, 24, cy, 13)
        where = st_names.get(combat.location, combat.location)
        who = " vs ".join(_name(names, seat) for seat in combat.seats)
        line = f"Combat at {where}" + (f": {who}" if who else "")
    else:
        line = panels.latest_or_idle(draw, cy, events, "Nothing has happened yet")
    panels.caption_line(img, (46, cy), line, x1 - 58)


def _status(view: PublicView, seat: SeatPublic) -> tuple[str, RGB]:
    """The one-word status of a legend card."""
    ended = panels.end_status(seat.seat, seat.eliminated, view.result.winners if view.result else None)
    if ended is not None:
        return ended
    if view.active_seat == seat.seat:
        return "to act", palette.ALERT
    if seat.seat in view.waiting:
        return "deciding", palette.ALERT
    if view.phase == "force" and seat.force_ready:
        return "ready", palette.TEXT_DIM
    if seat.passed:
        return "passed", palette.TEXT_DIM
    return "", palette.TEXT_DIM


def players(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None) -> None:
    """One card per seat: influence against the goal, coins, locations, minions, heroes."""
    seats = view.seats
    narrow = len(seats) >= 4
    winners = view.result.winners if view.result else []
    for i, seat in enumerate(seats):
        status, status_colour = _status(view, seat)
        places = seat.locations
        entry = legend.Entry(
            seat=seat.seat,
            name=legend.name_for(names, seat.seat),
            progress=seat.influence,
            target=view.to_win,
            progress_icon=tokens.star,
            facts=[
                (tokens.coin, str(seat.coins)),
                (key.location, str(places) if narrow else f"{places} loc"),
                (key.minion, str(seat.minions)),
                (key.hero, str(seat.heroes)),
            ],
            status=status,
            status_colour=status_colour,
            highlight=view.active_seat == seat.seat or seat.seat in winners,
        )
        x, y, w = legend.card_origin(i, len(seats), lay.WIDTH, lay.LEGEND_Y)
        legend.draw_entry(img, draw, x, y, w, lay.LEGEND_H, entry)


def combat_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, st_names: dict[str, str],
               box: Box, names: list[str] | None) -> None:
    """The combat being fought: each side's rolled dice and hits, and who still spends energy."""
    combat = view.combat
    assert combat is not None
    x, y, x1, y1 = box
    w = x1 - x
    where = st_names.get(combat.location, combat.location)
    dice = {seat: list(faces) for seat, faces in combat.dice}
    hits = dict(combat.hits)
    seats = combat.seats
    draw.rounded_rectangle(box, radius=8, fill=COMBAT_FILL, outline=palette.COMBAT, width=3)
    tokens.swords(draw, x + 20, y + 20, 12)
    title = text.ellipsize("Combat: " + fonts.sanitize(where, True), fonts.font(22, True), w - 50)
    text.outlined(draw, (x + 40, y + 20), title, fonts.font(22, bold=True), anchor="lm")
    waiting = combat.waiting
    bottom = y1 - (34 if waiting else 8)
    cy = y + 44
    per_row = max(1, (w - 140) // 27)
    for s in seats:
        if cy + 30 > bottom:
            break
        tokens.seat_token(draw, s, x + 22, cy + 14, 15)
        faces = dice.get(s, [])
        dx = x + 44
        if not faces:
            text.stamp(img, (dx, cy + 14), "no dice yet", PX, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        for k, v in enumerate(faces):
            if k and k % per_row == 0:
                if cy + 62 > bottom:
                    break
                cy += 30
                dx = x + 44
            tokens.die(draw, dx, cy + 2, 24, v, 2 if v == 6 else 1 if v == 5 else 0)
            dx += 27
        if s in hits:
            text.stamp(img, (x1 - 10, cy + 14), f"{hits[s]} hit" + ("" if hits[s] == 1 else "s"), PX, bold=True,
                       anchor="rm")
        cy += 32
    if waiting:
        who = ", ".join(_name(names, s) for s in waiting)
        line = f"Spending energy: {who}"
        line = text.ellipsize(line, fonts.font_for(line, PX), w - 20)
        text.stamp(img, (x + 12, y1 - 18), line, PX, fill=palette.ALERT, anchor="lm")


def events(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, box: Box, names: list[str] | None) -> None:
    """Who is awaited, then the latest public events, as many lines as fit."""
    waiting = [] if view.result else view.waiting
    panels.events_box(img, box, waiting, view.last_events, names, PX, LINE_H)


BANNER = panels.BannerStyle(verb="wins!", fit_margin=140, sizes=(48, 40, 32), headline_dy=18, reason_dy=34,
                            token_gap=36, token_step=40, token_r=16)


def result(img: Image.Image, outcome: ResultView, names: list[str] | None) -> int:
    """The end banner at the top of the events, so the final city stays whole."""
    band = RESULT_BOX
    ImageDraw.Draw(img).rounded_rectangle(band, radius=8, fill=palette.BACKGROUND_EDGE, outline=palette.ALERT, width=3)
    panels.banner_text(img, band, BANNER, outcome.winners, outcome.draw, outcome.reason, names)
    return band[3] + 8
