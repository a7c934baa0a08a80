"""Tiny Epic Defenders geometry: the phone canvas and where the capital and the six regions sit.

The map is 1200 px wide and taller than wide, for phones (Discord previews it about 550 px
wide): header, a caption with the card or attack in play, the ring of regions across the
full width, a key, then the boss, the turn, supplies, the Dark War, the team and the log.
The ring is fixed (pos 0 left of the capital, then clockwise), so it is the same for every
match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.defenders.view_models import PublicView
from render.views import parse

Box = tuple[int, int, int, int]

WIDTH, HEIGHT = 1200, 1680
HEADER_H = 64
CAPTION_BOX: Box = (0, HEADER_H + 2, WIDTH, HEADER_H + 42)
PLATE_W, PLATE_H = 372, 282
CAPITAL_W, CAPITAL_H = 336, 266
ROW_H = 30  # a compact Defender row on a plate
TALL_ROW_H = 54  # a two-line Defender row
BOSS_H = 54

_TOP = CAPTION_BOX[3] + 16
_MID, _BOT = _TOP + PLATE_H + 18, _TOP + 2 * (PLATE_H + 18)
RING_XY: dict[int, tuple[int, int]] = {  # plate top-left per ring position: pos 0 left of the capital, then clockwise
    0: (8, _MID), 1: (212, _TOP), 2: (616, _TOP), 3: (WIDTH - 8 - PLATE_W, _MID), 4: (616, _BOT), 5: (212, _BOT),
}
CAPITAL_XY = (WIDTH // 2 - CAPITAL_W // 2, _MID + (PLATE_H - CAPITAL_H) // 2)
RING_BOTTOM = _BOT + PLATE_H + 10
KEY_BOX: Box = (8, RING_BOTTOM + 4, WIDTH - 8, RING_BOTTOM + 76)
PANEL_Y = KEY_BOX[3] + 8
COLUMN_W = (WIDTH - 24) // 2
LEFT_X, RIGHT_X = 8, 16 + COLUMN_W  # the two columns of boxes under the ring
LOG_H = 190  # the log runs across the bottom
LOG_BOX: Box = (8, HEIGHT - 8 - LOG_H, WIDTH - 8, HEIGHT - 8)


def plate_box(pos: int) -> Box:
    """The plate of a ring position."""
    x, y = RING_XY[pos % 6]
    return (x, y, x + PLATE_W, y + PLATE_H)


def capital_box() -> Box:
    """The capital's plate in the middle of the ring."""
    x, y = CAPITAL_XY
    return (x, y, x + CAPITAL_W, y + CAPITAL_H)


def centre(box: Box) -> tuple[int, int]:
    """The middle of a box."""
    return ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)


def region_boxes(view: PublicView | Mapping[str, Any]) -> dict[str, Box]:
    """Region key -> its plate, the capital included (tests check plates never overlap)."""
    out = {"capital": capital_box()}
    for region in parse(PublicView, view).ring:
        out[region.key] = plate_box(region.pos)
    return out
