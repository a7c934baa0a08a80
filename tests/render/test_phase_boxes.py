"""A Tiny Big Wars map maps onto its palette only the boxes a phase draws in (board.phase_boxes),
the rest taken from its static layer mapped once: its PNG and its replay frame must be the very
pixels mapping (and halving) the whole map gives, for real views of played matches (combats,
heroes, results) and the fixtures' crowded ones. A drawing that strays out of the boxes, or a
box cut too small, shows here as a pixel of the layer where the map drew something else."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

import render
from bot.service.history import public_frames
from bot.simulate import simulate
from render import anim, encode
from render import tinybigwars as tbw
from tests.render import views as fixtures


def _played(seats: int, seed: int, rounds: int) -> list[tuple[dict[str, Any], list[str]]]:
    options = {"round_limit": rounds}
    log = simulate("tinybigwars", seats, seed, options=options)["log"]
    names = [f"Player {seed}.{seat} Ωmega" for seat in range(seats)]
    return [(view, names) for view in public_frames("tinybigwars", seats, options, seed, log)]


VIEWS = [pair for seats, seed in [(2, 11), (2, 3), (3, 5), (4, 2), (4, 7)] for pair in _played(seats, seed, 2)] + [
    (fixtures.two_seat_start(), fixtures.NAMES_4[:2]),
    (fixtures.three_seat_mid(), fixtures.NAMES_4[:3]),
    (fixtures.four_seat_combat(), fixtures.NAMES_4),
    (fixtures.three_seat_over(), fixtures.NAMES_4[:3]),
    (fixtures.force_building(), None),
]


def _whole(picture: encode.Picture) -> Image.Image:
    assert picture.palette is not None
    return picture.image.quantize(palette=picture.palette, dither=Image.Dither.NONE)


def test_the_views_cover_what_a_phase_draws() -> None:
    shown = [view for view, _ in VIEWS]
    assert any(view.get("combat") for view in shown)
    assert any(view.get("result") for view in shown)
    assert any(hero.get("location") for view in shown for hero in view["heroes"])


@pytest.mark.parametrize("index", range(len(VIEWS)))
def test_a_maps_png_and_replay_frame_are_the_whole_maps_pixels(index: int) -> None:
    view, names = VIEWS[index]
    picture = tbw.picture(view, names)
    assert picture.layer is not None and picture.palette is not None
    whole = _whole(picture)
    png = render.draw("tinybigwars", view, names)
    assert png == encode.png(picture.image, picture.palette)
    decoded = Image.open(io.BytesIO(png))
    assert decoded.tobytes() == whole.tobytes() and decoded.getpalette() == whole.getpalette()
    halved = anim.on_palette(anim.halve(picture.image), picture.palette)
    assert anim.half_on_palette(picture).tobytes() == halved.tobytes()
    assert render.draw_and_frame("tinybigwars", view, names, view) == (png, anim.piece(halved))
    assert anim.indices(picture)[0] == encode.rows_of(whole)
    # a phase post titles its map with the phase it closes, the replay frame with the next one
    post = {**view, "phase_label": f"{view.get('phase_label')} ends"}
    drawn = tbw.picture(post, names).image
    assert render.draw_and_frame("tinybigwars", post, names, view) == (
        encode.png(drawn, picture.palette), anim.piece(halved))


def test_outside_the_boxes_a_map_is_its_static_layer() -> None:
    """Every played view: the map's pixels outside its boxes are the layer's (a drawing
    outside them would be lost from the PNG), and the boxes leave the city's streets out."""
    for view, names in VIEWS:
        picture = tbw.picture(view, names)
        assert picture.layer is not None
        outside = picture.image.copy()
        layer = tbw.static_layer(view).canvas()
        for box in picture.layer.boxes:
            outside.paste(layer.crop(box), box[:2])
        assert outside.tobytes() == layer.tobytes()
        mapped = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in picture.layer.boxes)
        assert mapped < 0.8 * tbw.WIDTH * tbw.HEIGHT
