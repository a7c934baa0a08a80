"""Golden images: the fixture views must keep rendering the same, within a small tolerance.

Pixels are compared, not bytes: at most 0.5 % of the pixels may differ by more than 40
in some channel (room for FreeType or zlib differences, none for a changed drawing).

Regenerate after an intended visual change, then look at the PNGs before committing:

    WARHOST_REGEN_GOLDEN=1 /work/venv/bin/python -m pytest tests/render/test_golden.py
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import render
from tests.render import views
from tests.render.helpers import GOLDEN, MAX_DIFF, check_golden, diff_fraction, open_png


def _private_combat() -> bytes:
    sv = views.seat_view(views.four_seat_combat(), 3, {"energy_spend": 2, "use": "add hits"})
    return render.draw_private("tinybigwars", sv, views.NAMES_4)


def _private_force() -> bytes:
    sv = views.seat_view(views.force_building(), 1, {"heroes": ["ember", "monk"], "minion_cards": ["street_gang"]})
    sv["you"]["force"]["heroes"] = ["ember", "monk"]
    return render.draw_private("tinybigwars", sv)


CASES: dict[str, Callable[[], bytes]] = {
    "two_seat_start": lambda: render.draw("tinybigwars", views.two_seat_start()),
    "three_seat_mid": lambda: render.draw("tinybigwars", views.three_seat_mid(), views.NAMES_4[:3]),
    "four_seat_combat": lambda: render.draw("tinybigwars", views.four_seat_combat(), views.NAMES_4),
    "three_seat_over": lambda: render.draw("tinybigwars", views.three_seat_over(), views.NAMES_4[:3]),
    "force_building": lambda: render.draw("tinybigwars", views.force_building()),
    "private_combat": _private_combat,
    "private_force": _private_force,
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_golden(name: str) -> None:
    check_golden(name, CASES[name]())


def test_tolerance_catches_a_real_change() -> None:
    """A few locations changing hands must exceed the tolerance."""
    v: dict[str, Any] = copy.deepcopy(views.three_seat_mid())
    for lo in v["locations"]:
        if lo["id"] in ("alley", "night", "bazaar"):
            lo["controller"] = 1
            lo["minions"] = [[1, 2]]
    changed = open_png(render.draw("tinybigwars", v, views.NAMES_4[:3]))
    expected = Image.open(GOLDEN / "three_seat_mid.png").convert("RGB")
    assert diff_fraction(changed, expected) > MAX_DIFF
