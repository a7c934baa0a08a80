"""Tiny Epic Defenders golden images: the fixture views must keep rendering the same, within a tolerance.

Same rule as tests/render/test_golden.py: at most 0.5 % of the pixels may differ by more than
40 in some channel. Regenerate after an intended visual change, look at the PNGs, commit:

    WARHOST_REGEN_GOLDEN=1 /work/venv/bin/python -m pytest tests/render/test_defenders_golden.py
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import render
from tests.render import defenders_views as dv
from tests.render.helpers import diff_fraction, open_png

GOLDEN = Path(__file__).with_name("golden")
MAX_DIFF = 0.005
REGEN = os.environ.get("WARHOST_REGEN_GOLDEN") == "1"


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
    data = CASES[name]()
    path = GOLDEN / f"{name}.png"
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(data)
    assert path.is_file(), f"missing golden {path}; run with WARHOST_REGEN_GOLDEN=1"
    expected = Image.open(path).convert("RGB")
    actual = open_png(data)
    assert actual.size == expected.size
    frac = diff_fraction(actual, expected)
    assert frac <= MAX_DIFF, f"{name}: {frac:.2%} of pixels differ (limit {MAX_DIFF:.1%})"


def test_tolerance_catches_a_real_change() -> None:
    """Two regions destroyed must exceed the tolerance."""
    v = copy.deepcopy(dv.mid_battle())
    for r in v["ring"][:2]:
        r["destroyed"] = True
    changed = open_png(render.draw("defenders", v, dv.names(v)))
    expected = Image.open(GOLDEN / "defenders-mid_battle.png").convert("RGB")
    assert diff_fraction(changed, expected) > MAX_DIFF
