"""Samurai golden images: the stored fixture views must keep rendering the same, within a tolerance.

Same rule as tests/render/test_golden.py: at most 0.5 % of the pixels may differ by more than
40 in some channel. Regenerate after an intended visual change, look at the PNGs, commit:

    WARHOST_REGEN_GOLDEN=1 /work/venv/bin/python -m pytest tests/render/test_samurai_golden.py
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from PIL import Image

import render
from tests.render import samurai_views as sv
from tests.render.helpers import GOLDEN, MAX_DIFF, check_golden, diff_fraction, open_png


def _public(name: str) -> Callable[[], bytes]:
    return lambda: render.draw("samurai", sv.public(name), sv.names(name))


def _private(name: str, seat: int) -> Callable[[], bytes]:
    return lambda: render.draw_private("samurai", sv.seat_view(name, seat), sv.names(name))


CASES: dict[str, Callable[[], bytes]] = {
    "samurai-base4_battle": _public("base4_battle"),
    "samurai-lwtv4_war": _public("lwtv4_war"),
    "samurai-qs5_levy": _public("qs5_levy"),
    "samurai-base3_over": _public("base3_over"),
    "samurai-private-lwtv4_war-1": _private("lwtv4_war", 1),
    "samurai-private-base3_plan-1": _private("base3_plan", 1),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_golden(name: str) -> None:
    check_golden(name, CASES[name]())


def test_tolerance_catches_a_real_change() -> None:
    """Three provinces changing hands must exceed the tolerance."""
    v = copy.deepcopy(sv.public("base4_battle"))
    for p in v["provinces"]:
        if p["id"] in ("echigo", "shinano", "mutsu"):
            p["owner"] = (int(p["owner"]) + 1) % 4
    changed = open_png(render.draw("samurai", v, sv.names("base4_battle")))
    expected = Image.open(GOLDEN / "samurai-base4_battle.png").convert("RGB")
    assert diff_fraction(changed, expected) > MAX_DIFF
