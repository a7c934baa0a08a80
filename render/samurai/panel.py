"""Everything on the Samurai map besides the provinces: header, inset caption, players, events, war, key.

All text is at least fonts.MAP_MIN_PX (20 px): the 1200 px map is previewed about 550 px
wide on phones, where that stays >= 9 px.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.samurai.view_models import PublicView, ResultView, SeatPublic
from engine.text import fill
from render import fonts, legend, palette, panels, text, tokens
from render.samurai import icons, land
from render.samurai import layout as lay
from render.samurai.focus import Focus
from render.samurai.scene import Static

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
PX = fonts.MAP_MIN_PX
LINE_H = 25
PLAN_BINS = ("swords", "build", "levy", "ronin", "ninja")  # the action order, whatever the dict order
BATTLE_FILL: RGB = (70, 30, 36)


def _name(names: list[str] | None, seat: int) -> str:
    """A seat's display name, safe to draw."""
    return fonts.sanitize(legend.name_for(names, seat))


def compass(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """North arrow: the map is turned 20° clockwise, like the printed board (more so there)."""
    r = 20
    a = math.radians(lay.ROTATION_DEG)
    ux, uy = math.sin(a), -math.cos(a)
    tip = (x + ux * r, y + uy * r)
    tail = (x - ux * r, y - uy * r)
    draw.line([tail, tip], fill=palette.TEXT_DIM, width=3)
    draw.polygon([tip, (x + ux * 6 - uy * 8, y + uy * 6 + ux * 8), (x + ux * 6 + uy * 8, y + uy * 6 - ux * 8)],
                 fill=palette.TEXT_DIM)
    text.stamp(img, (tip[0] + ux * 13, tip[1] + uy * 13), "N", PX, bold=True, fill=palette.TEXT_DIM, anchor="mm")


def header(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView) -> None:
    """Title, the phase label with the goal under it, and the turn order as seat tokens."""
    h = lay.HEADER_H
    text.stamp(img, (12, h // 2), "SAMURAI SWORDS", 24, bold=True, fill=palette.ALERT, anchor="lm")
    label = fonts.sanitize(view.phase_label or view.phase, True)
    limit = view.round_limit
    goal = f"{view.to_win} provinces win" if view.to_win else "most VP wins"
    if limit:
        goal += f" · {limit} rounds"
    if view.end_round:
        goal += f" · last round {view.end_round}"
    order = view.turn_order
    x = lay.WIDTH - 12
    for s in reversed(order):
        tokens.seat_token(draw, s, x - 15, h // 2, 15)
        x -= 36
    if order:
        icons.sword(draw, x - 12, h // 2, 11)
        x -= 28
    left = 246
    avail = x - left - 10
    text.stamp(img, (left, h // 2 - 12), text.ellipsize(label, fonts.font(22, True), avail), 22, bold=True, stroke=0,
               anchor="lm")
    text.stamp(img, (left, h // 2 + 15), text.ellipsize(goal, fonts.font(PX), avail), PX, stroke=0,
               fill=palette.TEXT_DIM, anchor="lm")


def caption(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, st: Static, wanted: Focus,
            shown: tuple[str, ...], names: list[str] | None) -> None:
    """The strip over the inset: what it shows (the battle, the attacks, the latest events)."""
    x0, y0, x1, _ = lay.INSET_BOX
    y1 = y0 + lay.CAPTION_H
    war = view.war
    battle = war.battle if war else None
    fill_ = BATTLE_FILL if battle else palette.BACKGROUND_EDGE
    draw.rectangle((x0, y0, x1, y1), fill=fill_)
    cy = (y0 + y1) // 2
    label = st.atlas.labels
    if wanted.kind == "battle" and battle is not None:
        tokens.swords(draw, 24, cy, 12)
        where = label.get(battle.target, "?")
        de = battle.defender
        kind = "Naval battle" if battle.naval else "Battle"
        line = (f"{kind} for {where}: {_name(names, battle.attacker)} attacks "
                f"{'unowned land' if de is None else _name(names, de)} · round {battle.round or 1}")
    elif wanted.kind == "war" and war is not None:
        tokens.seat_token(draw, war.seat, 24, cy, 15)
        attacks = [f"{label.get(d.source, '?')} → {label.get(d.target, '?')}" for d in war.declarations]
        line = f"{_name(names, war.seat)} declares: " + ", ".join(attacks)
    elif wanted.kind == "events":
        tokens.star(draw, 24, cy, 12, fill=palette.ALERT)
        line = "Latest: " + fonts.sanitize(fill(wanted.line, names)) if wanted.line else \
            "Latest events: " + ", ".join(label[p] for p in shown)
    else:
        tokens.star(draw, 24, cy, 12, fill=palette.TEXT_DIM)
        line = "Kinai, the middle of Japan (Kyoto and Osaka)"
    panels.caption_line(img, (44, cy), line, x1 - 56)


def _status(view: PublicView, seat: SeatPublic) -> tuple[str, RGB]:
    """The one-word status of a legend card: out, winner, deciding or at war."""
    ended = panels.end_status(seat.seat, seat.eliminated, view.result.winners if view.result else None)
    if ended is not None:
        return ended
    if seat.seat in view.waiting:
        return "deciding", palette.ALERT
    if view.war is not None and view.war.seat == seat.seat:
        return "at war", palette.COMBAT
    return "", palette.TEXT_DIM


def players(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None) -> None:
    """One card per seat: provinces against the goal (or VP in LWTV), koku, sword, armies."""
    seats = view.seats
    to_win = view.to_win
    war_seat = view.war.seat if view.war else None
    winners = view.result.winners if view.result else []
    narrow = len(seats) >= 5
    for i, row in enumerate(seats):
        s = row.seat
        status, status_colour = _status(view, row)
        provinces = row.provinces
        facts: list[tuple[legend.Icon, str]] = [(icons.koku, str(row.koku) + ("" if narrow else " koku"))]
        if row.sword:
            facts.append((icons.sword, f"#{row.sword}"))
        facts.append((icons.banner, str(row.armies)))
        if not to_win:  # LWTV: enemy armies destroyed score VP
            facts.append((tokens.swords, str(row.armies_destroyed)))
        highlight = s == war_seat or s in winners
        if to_win:
            entry = legend.Entry(seat=s, name=legend.name_for(names, s), progress=provinces, target=to_win,
                                 progress_icon=icons.province, facts=facts, status=status, status_colour=status_colour,
                                 highlight=highlight)
        else:
            facts.insert(0, (icons.province, str(provinces)))
            entry = legend.Entry(seat=s, name=legend.name_for(names, s), facts=facts, status=status,
                                 status_colour=status_colour, highlight=highlight)
        x, y, w = legend.card_origin(i, len(seats), lay.WIDTH, lay.LEGEND_Y)
        legend.draw_entry(img, draw, x, y, w, lay.LEGEND_H, entry)
        if not to_win:
            tokens.star(draw, x + 22, y + 52, 11)
            vx = text.stamp(img, (x + 38, y + 52), f"{row.vp or 0} VP", 22, bold=True, stroke=0,
                            anchor="lm")[2]
            cards = row.event_cards
            extra = f"{cards} card{'s' * (cards != 1)}"
            text.stamp(img, (vx + 10, y + 52), text.ellipsize(extra, fonts.font(PX), x + w - vx - 18), PX, stroke=0,
                       fill=palette.TEXT_DIM, anchor="lm")


def events(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None) -> None:
    """Who is awaited, then the latest public events with seat references filled with names."""
    waiting = [] if view.result else view.waiting
    panels.events_box(img, lay.EVENTS_BOX, waiting, view.last_events, names, PX, LINE_H)


WAR_STEPS = {"A": "moving armies", "B": "declaring attacks", "C": "battles", "D": "final moves"}
"""The Wage War sub-steps as a player reads them (the engine names them A to D, as the rulebook does)."""


def war_box(img: Image.Image, draw: ImageDraw.ImageDraw, st: Static, view: PublicView,
            names: list[str] | None) -> None:
    """The war turn (battle, declarations) or the revealed plans; then supply and the ninja."""
    x0, y0, x1, y1 = lay.WAR_BOX
    war = view.war
    battle = war.battle if war else None
    draw.rounded_rectangle(lay.WAR_BOX, radius=8, fill=BATTLE_FILL if battle else palette.BACKGROUND_EDGE,
                           outline=palette.COMBAT if war else palette.PANEL_EDGE, width=2)
    f, b = fonts.font(PX), fonts.font(PX, True)
    w = x1 - x0 - 24
    y = y0 + 20
    label = st.atlas.labels
    supply_y = y1 - 2 * LINE_H - 8
    if war:
        s = war.seat
        tokens.seat_token(draw, s, x0 + 24, y, 15)
        head = f"{_name(names, s)} wages war: {WAR_STEPS.get(war.phase, 'battles')}"
        text.stamp(img, (x0 + 46, y), text.ellipsize(head, b, w - 38), PX, bold=True, stroke=0, anchor="lm")
        y += LINE_H + 4
        if battle:
            where = label.get(battle.target, battle.target)
            de = battle.defender
            tokens.swords(draw, x0 + 22, y, 11)
            kind = "Naval battle" if battle.naval else "Battle"
            line = f"{kind} at {where}, round {battle.round or 1}"
            text.stamp(img, (x0 + 42, y), text.ellipsize(line, f, w - 34), PX, stroke=0, anchor="lm")
            y += LINE_H
            who = f"{_name(names, battle.attacker)} vs {'nobody' if de is None else _name(names, de)}"
            text.stamp(img, (x0 + 42, y), text.ellipsize(who, f, w - 34), PX, stroke=0, anchor="lm")
            y += LINE_H
            if battle.fort_defenders:
                text.stamp(img, (x0 + 42, y), f"fort defenders: {battle.fort_defenders}", PX, stroke=0,
                           fill=palette.TEXT_DIM, anchor="lm")
                y += LINE_H
        for dec in war.declarations:
            if y > supply_y - LINE_H:
                break
            force = f"army {dec.army + 1}" if dec.force == "army" and dec.army is not None else "garrison"
            line = f"{label.get(dec.source, '?')} → {label.get(dec.target, '?')} ({force})"
            text.stamp(img, (x0 + 42, y), text.ellipsize(fonts.sanitize(line), f, w - 34), PX, stroke=0, anchor="lm")
            y += LINE_H
    else:
        _plans(img, draw, view, names, x0 + 12, y - 4, x1 - 12, supply_y - LINE_H)
    sup = view.supply
    y = supply_y
    icons.castle(draw, x0 + 22, y - 2, 10)
    cx = text.stamp(img, (x0 + 38, y), f"{sup.castles} castles", PX, stroke=0, anchor="lm")[2] + 20
    icons.castle(draw, cx, y - 2, 10, True)
    cx = text.stamp(img, (cx + 16, y), f"{sup.fortress_bases} fortresses", PX, stroke=0,
                    anchor="lm")[2] + 20
    icons.ronin_icon(draw, cx, y, 10)
    text.stamp(img, (cx + 16, y), f"{sup.ronin} ronin left", PX, stroke=0, anchor="lm")
    ninja = view.ninja
    who = "nobody" if ninja is None else _name(names, ninja)
    text.stamp(img, (x0 + 14, y + LINE_H + 2), text.ellipsize(f"Ninja: {who}", f, w), PX, stroke=0, anchor="lm")


def _plans(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None,
           x: int, y: int, x1: int, bottom: int) -> None:
    """Outside a war: the plans (public once all are in) as a table, one row per seat, else a quiet note."""
    rows = [(r.seat, r.plan) for r in view.seats if r.plan]
    if not rows:
        text.stamp(img, (x, y + 4), "No war this moment", PX, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
        return
    col_w = 72
    cols_x = x1 - col_w * len(PLAN_BINS)
    for k, key in enumerate(PLAN_BINS):
        text.stamp(img, (cols_x + col_w * k + col_w / 2, y + 4), key, PX, stroke=0, fill=palette.TEXT_DIM, anchor="mm")
    y += LINE_H + 2
    b = fonts.font(PX, True)
    for s, plan in rows[:5]:
        if y > bottom:
            break
        tokens.seat_token(draw, s, x + 10, y + 4, 10, label=False)  # the name beside it tells the seat
        name = text.ellipsize(_name(names, s), b, cols_x - x - 34)
        text.stamp(img, (x + 26, y + 4), name, PX, bold=True, stroke=0, anchor="lm")
        for k, key in enumerate(PLAN_BINS):
            text.stamp(img, (cols_x + col_w * k + col_w / 2, y + 4), str(getattr(plan, key)), PX, bold=True,
                       stroke=0, anchor="mm")
        y += LINE_H


def key(img: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """What the map marks mean, in one row under everything."""
    x0, y0, x1, y1 = lay.KEY_BOX
    y = (y0 + y1) // 2
    dim = palette.TEXT_DIM
    x = x0 + 4
    draw.ellipse((x, y - 11, x + 22, y + 11), fill=palette.NEUTRAL, outline=palette.OUTLINE, width=2)
    text.stamp(img, (x + 11, y), "3", PX, bold=True, fill=palette.OUTLINE, stroke=0, anchor="mm")
    x = text.stamp(img, (x + 28, y), "garrison", PX, stroke=0, fill=dim, anchor="lm")[2] + 16
    draw.rounded_rectangle((x, y - 14, x + 56, y + 14), radius=6, fill=palette.BACKGROUND_EDGE, outline=palette.NEUTRAL,
                           width=2)
    draw.ellipse((x + 4, y - 11, x + 26, y + 11), fill=palette.NEUTRAL, outline=palette.OUTLINE)
    text.stamp(img, (x + 15, y), "2", PX, bold=True, fill=palette.OUTLINE, stroke=0, anchor="mm")
    text.stamp(img, (x + 29, y), "L3", PX, bold=True, stroke=0, anchor="lm")
    x = text.stamp(img, (x + 64, y), "army 2, daimyo level 3", PX, stroke=0, fill=dim, anchor="lm")[2] + 16
    land.dashed(draw, (x, y), (x + 34, y), land.LANE_RGB, 3, 9, 7)
    x = text.stamp(img, (x + 42, y), "sea lane", PX, stroke=0, fill=dim, anchor="lm")[2] + 16
    draw.line([(x, y), (x + 28, y)], fill=land.BORDER_RGB, width=2)
    x = text.stamp(img, (x + 36, y), "land border", PX, stroke=0, fill=dim, anchor="lm")[2] + 16
    draw.rounded_rectangle((x, y - 10, x + 30, y + 10), radius=5, fill=palette.OUTLINE, outline=icons.RONIN, width=1)
    text.stamp(img, (x + 15, y), "R2", PX, bold=True, fill=icons.RONIN, stroke=0, anchor="mm")
    text.stamp(img, (x + 38, y), text.ellipsize("revealed ronin", fonts.font(PX), x1 - x - 40), PX, stroke=0, fill=dim,
               anchor="lm")


BANNER = panels.BannerStyle(verb="rules Japan!", fit_margin=160, sizes=(44, 36, 28), headline_dy=20, reason_dy=30,
                            token_gap=30, token_step=38, token_r=15)


def result(img: Image.Image, outcome: ResultView, names: list[str] | None) -> None:
    """The end banner over the top of the inset, so the final whole map stays readable."""
    band = lay.RESULT_BOX
    overlay = Image.new("RGBA", (band[2] - band[0], band[3] - band[1]), (10, 10, 14, 235))
    img.paste(overlay, band[:2], overlay)
    ImageDraw.Draw(img).rectangle(band, outline=palette.ALERT, width=3)
    panels.banner_text(img, band, BANNER, outcome.winners, False, outcome.reason, names)
