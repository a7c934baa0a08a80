"""Seat colours stay apart for colour-blind players, and every seat has its own shape."""

from __future__ import annotations

import itertools
import math

import pytest

from render import palette

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied in linear RGB.
CVD = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
}
MIN_DELTA_E = 15.0  # CIE76; ~2.3 is a just-noticeable difference, 15 is clearly different at a glance


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def simulate(colour: tuple[int, int, int], kind: str) -> tuple[float, float, float]:
    """Lab colour as seen with the given colour vision."""
    lin = [_linear(c) for c in colour]
    m = CVD[kind]
    out = tuple(min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3))
    return _lab(out)  # type: ignore[arg-type]


def min_distance(colours: list[tuple[int, int, int]], kind: str) -> float:
    return min(math.dist(simulate(a, kind), simulate(b, kind)) for a, b in itertools.combinations(colours, 2))


@pytest.mark.parametrize("kind", list(CVD))
def test_seat_colours_and_neutral_stay_apart(kind: str) -> None:
    colours = [*palette.SEAT_COLOURS, palette.NEUTRAL]
    assert len(palette.SEAT_COLOURS) >= 5
    assert min_distance(colours, kind) >= MIN_DELTA_E


def test_check_rejects_a_red_green_pair() -> None:
    """The simulation is strong enough to catch the classic mistake."""
    red, green = (220, 50, 40), (60, 170, 40)
    assert min_distance([red, green], "normal") >= MIN_DELTA_E
    assert min_distance([red, green], "deuteranopia") < MIN_DELTA_E


def test_each_seat_has_its_own_shape() -> None:
    shapes = [palette.seat_shape(s) for s in range(len(palette.SEAT_COLOURS))]
    assert len(set(shapes)) == len(shapes)
    assert palette.seat_colour(None) == palette.NEUTRAL
