"""The private panel's PNG maps only what the panel drew in onto the seat's mapped bare canvas
(render/tinybigwars/private.py): every panel must be byte for byte the PNG of the whole panel
mapped (``encode.png``), for seat views of played matches and for the fullest panels."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image, ImageChops

import engine
from bot.simulate import simulate
from render import encode
from render.tinybigwars import private
from tests.render import views

GAME = "tinybigwars"


def _whole(view: dict[str, Any], names: list[str] | None) -> bytes:
    """The panel's PNG the plain way: the whole panel mapped onto its palette."""
    return encode.png(private.render_private_image(view, names), private._private_palette())


def _played(seats: int, seed: int, every: int) -> list[tuple[dict[str, Any], list[str]]]:
    """Every seat's view at every ``every``-th choice of a simulated match."""
    options = {"round_limit": 2 if seats == 2 else 3}
    game = engine.get(GAME)
    working = engine.Working(game, game.setup(seats, engine.parse_options(game, options), seed), owned=True)
    names = [f"Seat {seat} of match {seed}" for seat in range(seats)]
    found = []
    for index, (seat, choice) in enumerate(simulate(GAME, seats, seed, options=options)["log"]):
        if index % every == 0:
            found += [(game.view(working.state, other), names) for other in range(seats)]
        working.submit(seat, choice)
    found += [(game.view(working.state, other), names) for other in range(seats)]
    return found


def _outside(view: dict[str, Any], names: list[str] | None) -> Image.Image:
    """The panel's pixels that are not mapped (outside ``drawn_boxes``), as the difference from
    the seat's bare canvas: black where the panel did not draw."""
    image, seat, spans = private._panel(view, names)
    bare, _draw = private.tokens.private_canvas(private.PRIVATE_SIZE, seat)
    image, bare = image.copy(), bare.copy()
    for box in private.drawn_boxes(spans):
        image.paste((0, 0, 0), box)
        bare.paste((0, 0, 0), box)
    return ImageChops.difference(image, bare)


def _unmapped_rows(view: dict[str, Any], names: list[str] | None) -> int:
    """Rows of the left column the panel's PNG takes from the bare canvas's."""
    boxes = private.drawn_boxes(private._panel(view, names)[2])
    left = [box for box in boxes if box[0] == 0 and box[2] == private.RIGHT_COLUMN]
    return private.PRIVATE_SIZE[1] - private.FOOTER - private.HEADER - sum(box[3] - box[1] for box in left)


def _fullest() -> list[tuple[dict[str, Any], list[str] | None]]:
    """Panels at their fullest: eight heroes at their most health and energy with long names,
    long cards and buildings, a sealed choice; none at all; the golden panels."""
    full = views.seat_view(views.four_seat_combat(), 3, {"energy_spend": 2, "use": "add hits"})
    force = full["you"].setdefault("force", {}) or {}
    full["you"]["force"] = force
    heroes = [hero for hero in full["heroes"]][:8]
    for hero in heroes:
        hero.update(seat=3, health=hero.get("max_health", 9), max_health=9, energy=9, max_energy=9,
                    name="A hero with a very long name indeed " + hero["id"], activated=True)
    force.update(heroes=[hero["card"] for hero in heroes] + ["not_placed_yet"] * 8,
                 minion_card_names=["A minion card with a very long name"] * 7,
                 building_names=["A building with a very long name too"] * 7)
    empty = copy.deepcopy(full)
    empty["you"]["force"] = None
    empty["you"]["sealed"] = None
    empty["heroes"] = []
    forcing = views.seat_view(views.force_building(), 1, {"heroes": ["ember", "monk"], "minion_cards": ["street_gang"]})
    return [(full, views.NAMES_4), (empty, views.NAMES_4), (forcing, None),
            (views.seat_view(views.three_seat_mid(), 0, None), ["W" * 60] * 3)]


PLAYED = _played(2, 3, 3) + _played(3, 8, 5) + _played(4, 5, 7)
CASES = PLAYED + _fullest()


@pytest.mark.parametrize("index", range(len(CASES)))
def test_a_panel_is_the_png_of_the_whole_panel_mapped(index: int) -> None:
    view, names = CASES[index]
    assert _outside(view, names).getbbox() is None, "the panel drew below its left column's end"
    assert private.draw_private(view, names) == _whole(view, names)


def test_the_unmapped_part_is_a_real_part_of_the_panel() -> None:
    """The panels of a played match leave part of their left column unmapped (else this guard
    tests nothing), and the fullest panel maps it all."""
    assert min(_unmapped_rows(view, names) for view, names in PLAYED) > 100
    assert _unmapped_rows(*_fullest()[0]) == 0


def test_a_palette_built_anew_maps_the_boxes_at_once() -> None:
    """Threads drawing panels at once may each build the palette (the cache does not lock), so a
    panel can map its boxes on a palette no mapping of a whole image has used yet: it must hold
    its entries already (else Pillow finds it empty and the panel is not drawn)."""
    view, names = CASES[0]
    seat = view["you"]["seat"]
    private._bare_rows(seat)
    private._private_palette.cache_clear()
    try:
        assert private.draw_private(view, names) == _whole(view, names)
    finally:
        private._private_palette.cache_clear()
        private._bare_rows.cache_clear()
