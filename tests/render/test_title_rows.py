"""A Tiny Big Wars map's title rows drawn alone are the map's own top rows, and the only rows its
phase label changes: a replay frame made from a phase post's map (render.draw_and_frame) is
then the very frame a replay draws from scratch."""

from __future__ import annotations

import pytest
from PIL import ImageChops

import render
from bot.service.history import public_frames
from bot.simulate import simulate
from render.tinybigwars import TITLE_ROWS, WIDTH, title_rows


@pytest.mark.parametrize(("seats", "seed"), [(2, 11), (3, 5), (4, 2)])
def test_the_phase_label_changes_the_title_rows_alone(seats: int, seed: int) -> None:
    options = {"round_limit": 2}
    views = public_frames("tinybigwars", seats, options, seed, simulate("tinybigwars", seats, seed,
                                                                        options=options)["log"])
    names = [f"Player {seed}.{seat}" for seat in range(seats)]
    module = render.RENDERERS["tinybigwars"]
    assert TITLE_ROWS % 2 == 0  # halving keeps them whole rows of the frame
    for before, view in zip(views, views[1:], strict=False):
        image = module.picture(view, names).image  # type: ignore[attr-defined]
        assert title_rows(view, names).tobytes() == image.crop((0, 0, WIDTH, TITLE_ROWS)).tobytes()
        retitled = module.picture({**view, "phase_label": before["phase_label"]}, names).image  # type: ignore[attr-defined]
        changed = ImageChops.difference(image, retitled).getbbox()
        assert changed is not None and changed[3] <= TITLE_ROWS
