"""Everything on the Defenders map besides the ring: header, caption, boss, turn, supplies, Dark War, team, log.

The boxes sit in two columns under the ring and the log runs across the bottom. All text is
at least fonts.MAP_MIN_PX (20 px): the 1200 px map is previewed about 550 px wide on phones,
where that stays >= 9 px.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.defenders.view_models import CAPITAL_FELL, PublicView, ResultView, RevealedBoss
from engine.text import fill
from render import fonts, legend, palette, panels, text, tokens
from render.defenders import icons
from render.defenders import layout as lay
from render.defenders.common import clean, defender_name, region_names, stamp_fit, wrapped_lines

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]
PX = fonts.MAP_MIN_PX
LINE_H = 25
ATTACK_FILL: RGB = (70, 30, 36)
CARD_KIND = {"defender": "Defender", "all": "All Defenders", "enemy": "Enemy", "dire": "Dire", "soldier": "Soldier",
             "deserter": "Deserter"}


def header(img: Image.Image, view: PublicView, names: list[str] | None) -> None:
    """The phase label, and under it the battle, round, difficulty and mode."""
    label = clean(fill(view.phase_label or view.phase, names), True)
    rnd = view.round
    parts = [f"Battle {view.battle}/{view.battles}", f"Round {rnd}" if rnd > 0 else "Setup",
             clean(view.difficulty).title(), clean(view.mode).title()]
    left = 322
    width = lay.WIDTH - left - 14
    stamp_fit(img, (left, 20), label, width, 22, bold=True)
    stamp_fit(img, (left, 46), " · ".join(p for p in parts if p), width, PX, fill_=palette.TEXT_DIM)


def result_headline(capital: str, outcome: ResultView | None) -> str:
    """The end banner's headline: the Capital is said to have fallen only when it did (a
    battle lost at the round limit is a plain defeat; the reason under it says why)."""
    if outcome is not None and outcome.won:
        return f"Victory! {capital} stands"
    return f"Defeat: {capital} fell" if outcome is not None and outcome.reason == CAPITAL_FELL else "Defeat"


def caption(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None) -> None:
    """The strip over the ring: the attack to answer, else the card in play, else the newest log line."""
    x0, y0, x1, y1 = lay.CAPTION_BOX
    cy = (y0 + y1) // 2
    regions = region_names(view)
    attack = view.attack
    cur = view.deck.current
    log = [fill(event, names) for event in view.log if event]
    result = view.result
    if result:
        tokens.star(draw, 24, cy, 12, fill=palette.ALERT)
        line = ("Victory: " if result.won else "Defeat: ") + result.reason
    elif attack:
        draw.rectangle(lay.CAPTION_BOX, fill=ATTACK_FILL)
        tokens.swords(draw, 24, cy, 13)
        where = regions.get(attack.region, attack.region or "?")
        line = (f"Attack on {where}{' (DIRE)' if attack.dire else ''} by {clean(attack.source or '?')}"
                f" · defend for {attack.cost} HP")
    elif cur:
        tokens.star(draw, 24, cy, 12, fill=palette.ALERT)
        kind = CARD_KIND.get(cur.kind, "Card")
        where = ", ".join(regions.get(k, k) for k in cur.regions)
        name = clean(cur.name)
        named = name and name.casefold() not in (kind.casefold(), f"{kind} card".casefold())
        line = f"{kind} card" + (f": {name}" if named else "") + (f" → {where}" if where else "")
        active = view.active
        if active:
            line += f" · {active.ap} AP" + (" each" if active.card == "all" else "")
    else:
        line = panels.latest_or_idle(draw, cy, log, "The battle has not begun")
    stamp_fit(img, (46, cy), line, x1 - 58, 22, bold=True)


def _box(draw: ImageDraw.ImageDraw, x: int, y: int, h: int, edge: RGB = palette.PANEL_EDGE,
         fill_: RGB = palette.PLATE) -> Box:
    """A box of the column starting at `x`, `h` tall."""
    b = (x, y, x + lay.COLUMN_W, y + h)
    draw.rounded_rectangle(b, radius=8, fill=fill_, outline=edge, width=2)
    return b


def boss_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, x: int, y: int) -> int:
    """The boss: face down, or its name, HP, region and rule (and "held" at 1 HP)."""
    boss = view.boss
    kind = "Epic boss" if boss.kind == "epic" else "General"
    if not isinstance(boss, RevealedBoss):
        b = _box(draw, x, y, 76, icons.BOSS_EDGE)
        icons.card_back(draw, b[0] + 12, y + 10, 42, 56)
        text.stamp(img, (b[0] + 68, y + 24), kind, 22, bold=True, stroke=0, anchor="lm")
        text.stamp(img, (b[0] + 68, y + 52), "face down - not revealed yet", PX, stroke=0, fill=palette.TEXT_DIM,
                   anchor="lm")
        return y + 84
    held = boss.held
    h = 148 + (30 if held else 0)
    b = _box(draw, x, y, h, icons.BOSS_EDGE, icons.BOSS_FILL)
    x0, x1 = b[0] + 12, b[2] - 12
    icons.skull(draw, x0 + 11, y + 20, 11)
    where = region_names(view).get(boss.region, boss.region)
    kx = text.stamp(img, (x1, y + 20), kind, PX, stroke=0, fill=palette.TEXT_DIM, anchor="rm")[0]
    stamp_fit(img, (x0 + 28, y + 20), boss.name or "Boss", kx - x0 - 38, 22, bold=True)
    hp, mx = boss.hp, max(1, boss.max_hp)
    cy = y + 50
    lx = text.stamp(img, (x1, cy), f"{hp}/{mx} HP", PX, bold=True, stroke=0, anchor="rm")[0] - 10
    tokens.heart(draw, x0 + 9, cy, 9)
    draw.rectangle((x0 + 24, cy - 9, lx, cy + 9), fill=palette.BACKGROUND_EDGE, outline=palette.OUTLINE)
    seg = (lx - x0 - 26) / mx
    for i in range(min(hp, mx)):
        sx = x0 + 25 + i * seg
        draw.rectangle((sx, cy - 8, sx + seg - 2, cy + 8), fill=palette.HEALTH)
    stamp_fit(img, (x0, y + 78), f"in {clean(where)}", x1 - x0, PX, fill_=palette.TEXT_DIM)
    for k, line in enumerate(wrapped_lines(boss.text, x1 - x0, 2, PX)):
        text.stamp(img, (x0, y + 92 + LINE_H * k), line, PX, stroke=0)
    if held:
        hy = y + h - 24
        draw.rounded_rectangle((x0 - 4, hy - 13, x1 + 4, hy + 13), radius=5, fill=palette.ALERT)
        text.stamp(img, ((x0 + x1) / 2, hy), "HELD AT 1 HP until every caravan is home", PX, bold=True, stroke=0,
                   fill=palette.OUTLINE, anchor="mm")
    return y + h + 8


def turn_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None,
             x: int, y: int) -> int:
    """The current card, whose AP are being spent, and the pending attack."""
    cur = view.deck.current
    active = view.active
    attack = view.attack
    regions = region_names(view)
    x0, x1 = x + 12, x + lay.COLUMN_W - 12
    passed = [legend.name_for(names, seat) for seat in active.passed] if active else []
    declined = [legend.name_for(names, seat) for seat in attack.declined] if attack else []
    lines = 1 + (1 if active else 0) + (1 if active and passed else 0)
    h = 16 + 30 * lines + ((62 + (LINE_H if declined else 0)) if attack else 0)
    _box(draw, x, y, h)
    cy = y + 22
    if cur:
        kind = cur.kind
        tag = CARD_KIND.get(kind, kind.title() or "Card")
        tcol = palette.COMBAT if kind in ("enemy", "dire") else palette.ALERT
        tw = int(fonts.font(PX, True).getlength(tag)) + 14
        draw.rounded_rectangle((x0, cy - 13, x0 + tw, cy + 13), radius=5, fill=tcol)
        text.stamp(img, (x0 + tw / 2, cy), tag, PX, bold=True, stroke=0, fill=palette.text_on(tcol), anchor="mm")
        name = clean(cur.name)
        where = ", ".join(regions.get(k, k) for k in cur.regions)
        line = ("" if name == tag else name) + (f" → {where}" if where else "")
        stamp_fit(img, (x0 + tw + 10, cy), line.strip(), x1 - x0 - tw - 10, PX, bold=True)
    else:
        text.stamp(img, (x0, cy), "No card in play", PX, stroke=0, fill=palette.TEXT_DIM, anchor="lm")
    cy += 30
    if active:
        ap = active.ap
        ax = x1
        for _ in range(min(ap, 6)):
            tokens.bolt(draw, ax - 8, cy, 10)
            ax -= 18
        ax = text.stamp(img, (ax - 4, cy), f"{ap} AP", 22, bold=True, stroke=0, fill=palette.ENERGY, anchor="rm")[0]
        who = "Every Defender acts" + (" (each)" if ap else "") if active.card == "all" else \
            f"{defender_name(view, active.defender)} acts"
        stamp_fit(img, (x0, cy), who, ax - x0 - 10, PX)
        cy += 30
        if passed:
            stamp_fit(img, (x0, cy), "passed: " + ", ".join(passed), x1 - x0, PX, fill_=palette.TEXT_DIM)
            cy += 30
    if attack:
        ay = cy - 10
        draw.rounded_rectangle((x0 - 4, ay, x1 + 4, ay + 56 + (LINE_H if declined else 0)), radius=6, fill=ATTACK_FILL,
                               outline=palette.COMBAT, width=2)
        tokens.swords(draw, x0 + 12, ay + 16, 11)
        dire = " (DIRE)" if attack.dire else ""
        where = regions.get(attack.region, attack.region or "?")
        stamp_fit(img, (x0 + 30, ay + 16), f"Attack on {where}{dire}", x1 - x0 - 34, PX, bold=True)
        sub = f"by {clean(attack.source or '?')} · defend for {attack.cost} HP"
        stamp_fit(img, (x0 + 4, ay + 41), sub, x1 - x0 - 4, PX)
        if declined:
            stamp_fit(img, (x0 + 4, ay + 41 + LINE_H), "declined: " + ", ".join(declined), x1 - x0 - 4, PX,
                      fill_=palette.TEXT_DIM)
    return y + h + 8


def supply_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, x: int, y: int) -> int:
    """The decks and the caravans."""
    deck = view.deck
    car = view.caravans
    x0, x1 = x + 12, x + lay.COLUMN_W - 12
    _box(draw, x, y, 70)
    cy = y + 20
    draw.rounded_rectangle((x0, cy - 11, x0 + 16, cy + 11), radius=2, fill=palette.PLATE_EDGE, outline=palette.TEXT_DIM)
    stamp_fit(img, (x0 + 26, cy), f"Turn deck {deck.turn}/{deck.round_cards} · discard {deck.discard} · horde "
              f"{deck.horde}", x1 - x0 - 26, PX)
    cy += 30
    on_map = sum(car.on_map.values())
    icons.caravan(draw, x0 + 9, cy, 10)
    stamp_fit(img, (x0 + 26, cy), f"Caravans {car.home}/{car.total} home · {on_map} waiting · {car.pile} in pile",
              x1 - x0 - 26, PX)
    return y + 78


def war_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, x: int, y: int) -> int:
    """The Dark War components still on their cards: dice, storms, soldiers, death tokens, Tree, Manticore."""
    war = view.war
    regions = region_names(view)
    x0, x1 = x + 12, x + lay.COLUMN_W - 12
    _box(draw, x, y, 124, icons.WAR_EDGE)
    cy = y + 20
    cx = text.stamp(img, (x0, cy), "Dark War", PX, bold=True, stroke=0, fill=icons.WAR_EDGE, anchor="lm")[2] + 18
    for icon, n in ((icons.fleet_die, war.fleet_dice), (icons.storm, war.storms),
                    (icons.soldier, war.soldiers), (icons.skull, war.death_tokens)):
        icon(draw, cx + 10, cy, 10)
        cx = text.stamp(img, (cx + 25, cy), f"×{n}", PX, bold=True, stroke=0, anchor="lm")[2] + 18
    cy += 28
    deserters = war.deserters
    icons.soldier(draw, x0 + 10, cy, 10, palette.COMBAT)
    stamp_fit(img, (x0 + 26, cy), f"{deserters} deserter{'s' * (deserters != 1)} in the Turn Deck", x1 - x0 - 26, PX)
    cy += 28
    t = war.tree
    icons.tree(draw, x0 + 10, cy, 10)
    stamp_fit(img, (x0 + 26, cy), f"Great Tree: {'empty' if t is None else defender_name(view, t)}", x1 - x0 - 26, PX)
    cy += 28
    m = war.manticore
    icons.manticore(draw, x0 + 10, cy, 10)
    if isinstance(m, int) and not isinstance(m, bool):
        m_txt = f"Manticore ridden by {defender_name(view, m)}"
    else:
        m_txt = f"Manticore at {regions.get(str(m), str(m or '-'))}"
    stamp_fit(img, (x0 + 26, cy), m_txt, x1 - x0 - 26, PX)
    return y + 132


def team_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None,
             x: int, y: int) -> int:
    """One row per Defender: seat token, Defender name, player name, whether they act or must answer."""
    x0, x1 = x, x + lay.COLUMN_W
    active = view.active
    waiting = {prompt.seat for prompt in view.prompts if not prompt.answered}
    for d in view.defenders[:4]:
        seat = d.seat
        acting = active is not None and active.card == "defender" and active.defender == d.idx
        draw.rounded_rectangle((x0, y, x1, y + 34), radius=6, fill=palette.PLATE,
                               outline=palette.ALERT if acting else palette.PANEL_EDGE, width=2 if acting else 1)
        draw.rectangle((x0 + 1, y + 5, x0 + 5, y + 29), fill=palette.seat_colour(seat))
        tokens.seat_token(draw, seat, x0 + 24, y + 17, 15)
        status = "acting" if acting else ("to answer" if seat in waiting else "")
        rx = x1 - 10
        if status:
            rx = text.stamp(img, (rx, y + 17), status, PX, bold=True, stroke=0, fill=palette.ALERT, anchor="rm")[0] - 10
        nx = stamp_fit(img, (x0 + 46, y + 17), d.name or "?", 240, PX, bold=True)[2]
        stamp_fit(img, (nx + 10, y + 17), legend.name_for(names, seat), rx - nx - 10, PX, fill_=palette.TEXT_DIM)
        y += 38
    return y + 4


def log_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView, names: list[str] | None,
            top: int = lay.LOG_BOX[1]) -> None:
    """The latest public log lines, as many as fit across the bottom (from `top` down)."""
    x0, _, x1, y1 = lay.LOG_BOX
    box = (x0, top, x1, y1)
    draw.rounded_rectangle(box, radius=8, fill=palette.BACKGROUND_EDGE, outline=palette.PANEL_EDGE)
    text.stamp(img, (x0 + 10, top + 8), "Log", PX, bold=True, stroke=0, fill=palette.TEXT_DIM)
    y = top + 8 + LINE_H
    filled = [fill(event, names) for event in view.log[-8:] if event]
    panels.newest_lines(img, filled, (x0 + 14, y), x1 - x0 - 28, y1 - 6, PX, LINE_H)


def result_box(img: Image.Image, draw: ImageDraw.ImageDraw, view: PublicView) -> int:
    """The end banner at the top of the log, so the final ring and boxes stay whole; returns the y under it."""
    outcome = view.result
    won = bool(outcome and outcome.won)
    colour = palette.ALERT if won else palette.COMBAT
    x0, y, x1, _ = lay.LOG_BOX
    b = (x0, y, x1, y + 104)
    draw.rounded_rectangle(b, radius=8, fill=palette.BACKGROUND_EDGE, outline=colour, width=3)
    cap = clean(view.capital.name or "The capital", True)
    headline = result_headline(cap, outcome)
    headline, f = text.fit(headline, b[2] - b[0] - 24, (36, 32, 28, 24), bold=True)
    text.outlined(draw, ((b[0] + b[2]) / 2, y + 30), headline, f, fill=colour, stroke=2, anchor="mm")
    reason = wrapped_lines(outcome.reason if outcome else "", b[2] - b[0] - 24, 1, PX)
    for line in reason:
        text.stamp(img, ((b[0] + b[2]) / 2, y + 74), line, PX, stroke=0, anchor="mm")
    return b[3] + 6
