"""Tiny Epic Defenders golden images: the fixture views must keep rendering the same, within a tolerance.

Same rule as tests/render/test_golden.py: at most 0.5 % of the pixels may differ by more than
40 in some channel. Regenerate after an intended visual change, look at the PNGs, commit:

    WARHOST_REGEN_GOLDEN=1 /work/venv/bin/python -m pytest tests/render/test_defenders_golden.py
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from PIL import Image

import render
from tests.render import defenders_views as dv
from tests.render.helpers import GOLDEN, MAX_DIFF, check_golden, diff_fraction, open_png


def _public(name: str) -> Callable[[], bytes]:
    def make() -> bytes:
        v = dv.ALL[name]()
        return render.draw("defenders", v, dv.names(v))
    return make


def _private(name: str, seat: int) -> Callable[[], bytes]:
    def make() -> bytes:
        v = dv.ALL[name]()
        return render.draw_private("defenders", dv.seat_view(v, seat), dv.names(v))
    return make


CASES: dict[str, Callable[[], bytes]] = {
    **{f"defenders-{name}": _public(name) for name in dv.ALL},
    "defenders-private-mid_battle-2": _private("mid_battle", 2),
    "defenders-private-campaign_final-0": _private("campaign_final", 0),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_golden(name: str) -> None:
    check_golden(name, CASES[name]())


def test_tolerance_catches_a_real_change() -> None:
    """Two regions destroyed must exceed the tolerance."""
    v = copy.deepcopy(dv.mid_battle())
    for r in v["ring"][:2]:
        r["destroyed"] = True
    changed = open_png(render.draw("defenders", v, dv.names(v)))
    expected = Image.open(GOLDEN / "defenders-mid_battle.png").convert("RGB")
    assert diff_fraction(changed, expected) > MAX_DIFF
