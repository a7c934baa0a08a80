"""Tiny Big Wars geometry: the phone canvas and where each location's plate sits.

The map is 1200 px wide and taller than wide, for phones (Discord previews it about 550 px
wide): header, a caption with the latest happening, the city across the full width, the
players, then the combat and the events, and a key.
"""

from __future__ import annotations

from typing import Any

from engine.tinybigwars.view_models import LocationView, PublicView
from render.labels import separate

Box = tuple[int, int, int, int]

WIDTH, HEIGHT = 1200, 1560
HEADER_H = 64
CAPTION_BOX: Box = (0, HEADER_H + 2, WIDTH, HEADER_H + 42)
MAP_BOX: Box = (8, CAPTION_BOX[3] + 6, WIDTH - 8, 1090)
LEGEND_Y = MAP_BOX[3] + 8
LEGEND_H = 108
LOWER_Y = LEGEND_Y + LEGEND_H + 4
KEY_BOX: Box = (8, HEIGHT - 76, WIDTH - 8, HEIGHT - 6)
LOWER_BOTTOM = KEY_BOX[1] - 8
COMBAT_W = 560  # the combat box (left of the events) while a combat is being fought

PLATE_W, PLATE_H = 224, 100
HERO_W = 244  # hero rows overhang the plate a little so names fit
HERO_ROW_H = 32
MAX_HERO_ROWS = 3  # more heroes at one location collapse into "+N more"
NAME_SIZES = (24, 22, 20)
NAME_MAX_W = PLATE_W - 36  # leaves room for the contested badge on the corner


def map_key(view: PublicView) -> tuple[Any, ...]:
    """Cache key: the map id plus the geometry and the seats (their cards are on the layer), so
    two maps never share a layer by mistake."""
    locations = tuple((location.id, location.name, location.x, location.y) for location in view.locations)
    return (view.map, locations, tuple(view.roads), tuple(seat.seat for seat in view.seats))


def place(locations: list[LocationView]) -> dict[str, tuple[int, int]]:
    """Plate centres from the 0..1 coordinates, nudged apart where plates would collide."""
    x0, y0, x1, y1 = MAP_BOX
    half_w, half_h = HERO_W / 2, PLATE_H / 2
    reserve = HERO_ROW_H * 2  # room below each plate for its hero rows
    pos: dict[str, list[float]] = {}
    for location in locations:
        fx = min(1.0, max(0.0, location.x))
        fy = min(1.0, max(0.0, location.y))
        pos[location.id] = [
            x0 + half_w + fx * (x1 - x0 - HERO_W),
            y0 + half_h + fy * (y1 - y0 - PLATE_H - reserve),
        ]
    bounds = (x0 + half_w, y0 + half_h, x1 - half_w, y1 - half_h - reserve)
    return separate(pos, (HERO_W + 6, PLATE_H + reserve + 4), bounds, list(pos), 60)


def plate_box(centre: tuple[int, int]) -> Box:
    """The location plate around a centre."""
    cx, cy = centre
    return (cx - PLATE_W // 2, cy - PLATE_H // 2, cx + PLATE_W // 2, cy + PLATE_H // 2)
