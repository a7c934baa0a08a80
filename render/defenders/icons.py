"""Tiny Epic Defenders pictograms, drawn as polygons: caravans, wards, storms, dice, shields, the Tree,
the Manticore, skulls, soldiers, exhaustion and card backs, with the colours of the board.

Polygons rather than glyphs, so they look the same in every font and at every size.
"""

from __future__ import annotations

from PIL import ImageDraw

from render import palette

RGB = tuple[int, int, int]

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
