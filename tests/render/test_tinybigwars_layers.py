"""The Tiny Big Wars background is shared by every match on a map; names are per match."""

from __future__ import annotations

import copy
from typing import Any

from PIL import ImageChops, ImageDraw

from engine.tinybigwars.view_models import PublicView
from render import text
from render.tinybigwars import board
from render.tinybigwars import layout as lay
from render.views import parse
from tests.render import views


def _renamed(view: dict[str, Any], suffix: str) -> dict[str, Any]:
    renamed = copy.deepcopy(view)
    renamed["map"] = "layer-probe"
    for location in renamed["locations"]:
        location["name"] = f"{location['name'][:12]} {suffix}"
    return renamed


def test_matches_with_other_names_share_one_background() -> None:
    base = views.three_seat_mid()
    builds = board._BACKGROUND.builds
    first = board.static_layer(_renamed(base, "one"))
    second = board.static_layer(_renamed(base, "two"))
    assert board._BACKGROUND.builds == builds + 1
    assert first.palette is second.palette
    assert first.names != second.names
    assert ImageChops.difference(first.image, second.image).getbbox() is not None


def test_pasted_names_are_the_pixels_drawing_them_gives() -> None:
    """The layer must equal the old way: each name drawn outlined on its empty plate."""
    for build in (views.two_seat_start, views.four_seat_combat, views.force_building):
        view = parse(PublicView, build())
        layer = board.static_layer(view)
        expected = board._BACKGROUND.get(board.background_key(view), lambda view=view: board._build_background(view))
        image = expected.image.copy()
        draw = ImageDraw.Draw(image)
        for location in view.locations:
            centre = layer.centres[location.id]
            plate = lay.plate_box(centre)
            name, font = text.fit(location.name, lay.NAME_MAX_W, lay.NAME_SIZES, bold=True)
            box = text.outlined(draw, (centre[0], plate[1] + 19), name, font, anchor="mm")
            assert layer.name_boxes[location.id] == box
        assert ImageChops.difference(layer.image, image).getbbox() is None


def test_forty_matches_drawn_in_turn_keep_their_layers() -> None:
    """A worker drawing 40 running matches in turn builds each match's layer once, and its
    maps are the pixels of a layer built fresh for the draw."""
    matches = [_renamed(views.three_seat_mid(), f"m{index}") for index in range(40)]
    board._STATIC.clear()
    for view in matches:
        board.static_layer(view)
    builds = board._STATIC.builds
    for view in matches:
        board.static_layer(view)
    assert board._STATIC.builds == builds
    kept = board.static_layer(matches[0]).canvas()
    board._STATIC.clear()
    assert ImageChops.difference(kept, board.static_layer(matches[0]).canvas()).getbbox() is None
