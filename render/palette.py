"""Player colours and shapes that stay distinguishable for colour-blind players.

The five seat colours are from the Okabe–Ito palette, ordered so that the first seats
differ most. Every seat also has its own token shape and number, so colour is never the
only cue (tests/render/test_palette.py simulates deuteranopia and protanopia).
"""

from __future__ import annotations

RGB = tuple[int, int, int]

SEAT_COLOURS: tuple[RGB, ...] = (
    (0, 114, 178),  # blue
    (230, 159, 0),  # orange
    (0, 158, 115),  # bluish green
    (213, 94, 0),  # vermillion
    (204, 121, 167),  # reddish purple
)
SEAT_COLOUR_NAMES: tuple[str, ...] = ("blue", "orange", "green", "vermillion", "purple")
SEAT_SHAPES: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "hexagon")
NEUTRAL: RGB = (205, 205, 205)

# Board colours (not player colours): a dark theme that matches Discord's default.
BACKGROUND: RGB = (30, 34, 44)
BACKGROUND_EDGE: RGB = (22, 25, 33)
PANEL: RGB = (40, 45, 58)
PANEL_EDGE: RGB = (70, 78, 96)
ROAD: RGB = (120, 112, 96)
ROAD_EDGE: RGB = (52, 48, 42)
PLATE: RGB = (56, 62, 78)
PLATE_EDGE: RGB = (96, 104, 124)
TEXT: RGB = (245, 245, 245)
TEXT_DIM: RGB = (185, 190, 200)
OUTLINE: RGB = (10, 10, 14)
COIN: RGB = (240, 200, 60)
INFLUENCE: RGB = (170, 200, 255)
HEALTH: RGB = (235, 80, 90)
ENERGY: RGB = (250, 220, 70)
EMPTY_PIP: RGB = (90, 95, 110)
ALERT: RGB = (255, 235, 59)
COMBAT: RGB = (255, 70, 70)


def seat_colour(seat: int | None) -> RGB:
    """Colour of a seat, or the neutral grey for None (uncontrolled)."""
    if seat is None:
        return NEUTRAL
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_shape(seat: int) -> str:
    """Token shape of a seat: a second cue besides colour."""
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


def tint(colour: RGB, amount: float, towards: RGB = BACKGROUND) -> RGB:
    """Mix a colour towards another (default the background) to make a muted fill."""
    return tuple(round(c + (t - c) * amount) for c, t in zip(colour, towards, strict=True))  # type: ignore[return-value]


def text_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on the given fill."""
    r, g, b = colour
    return OUTLINE if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else TEXT
