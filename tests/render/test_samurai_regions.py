"""The eight regions on the Samurai map: a player asked for "a bowman in Tokaido" can find Tokaido."""

from __future__ import annotations

import itertools

import pytest

import render
from engine.samurai.content import content
from render import samurai as sam
from render.samurai import land
from tests.render import samurai_views as sv
from tests.render.helpers import has_colour, open_png

REGIONS = content().map.regions


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("name", sv.ALL)
def test_every_region_is_named_on_the_whole_map_clear_of_everything(name: str) -> None:
    v = sv.public(name)
    _, crop, _, whole, inset = sam.layout(v)
    assert set(whole.regions) == set(REGIONS), "each of the eight regions is named once on the whole map"
    assert {lab.text for lab in whole.regions.values()} == {r.upper() for r in REGIONS}
    badges, names, feet = sam.placements(v)["whole"]
    frame = sam.frame_box(sam.static_layer(v), crop)
    for scene in (whole, inset):
        boxes = [lab.box for lab in scene.regions.values()]
        for a, b in itertools.combinations(boxes, 2):
            assert not _overlap(a, b), "two region names overlap"
    for region, lab in whole.regions.items():
        box = whole.to_canvas(lab.box)
        assert sam.MAP_BOX[0] <= box[0] and box[2] <= sam.MAP_BOX[2] and sam.MAP_BOX[1] <= box[1] and box[3] <= sam.MAP_BOX[3]
        for what, others in (("node", feet), ("province name", names), ("army badge", badges)):
            for pid, other in others.items():
                assert not _overlap(box, other), f"{region}'s name covers the {what} of {pid}"
        edges = [(frame[0], frame[1], frame[2], frame[1] + 1), (frame[0], frame[3] - 1, frame[2], frame[3]),
                 (frame[0], frame[1], frame[0] + 1, frame[3]), (frame[2] - 1, frame[1], frame[2], frame[3])]
        assert not any(_overlap(lab.box, e) for e in edges), f"{region}'s name sits on the inset's frame"


@pytest.mark.parametrize("name", sv.ALL)
def test_region_names_sit_on_their_own_land_or_open_sea(name: str) -> None:
    """A name over another region's provinces would send the player to the wrong place."""
    v = sv.public(name)
    st = sam.static_layer(v)
    _, _, _, whole, _ = sam.layout(v)
    value_of = {i + 1: pid for i, pid in enumerate(st.atlas.order)}
    for region, lab in whole.regions.items():
        values = {v for _, v in whole.land.crop(lab.box).getcolors(maxcolors=1 << 16)}
        foreign = {value_of[x] for x in values if x in value_of and st.atlas.regions[value_of[x]] != region}
        assert not foreign, f"{region}'s name covers {sorted(foreign)}"
        assert land.LANE not in values, f"{region}'s name hides a sea lane"


def test_region_names_and_borders_are_drawn() -> None:
    v = sv.public("base4_battle")
    img = open_png(render.draw("samurai", v, sv.names("base4_battle")))
    _, _, _, whole, _ = sam.layout(v)
    for region, lab in whole.regions.items():
        assert has_colour(img, land.REGION_EDGE_RGB, whole.to_canvas(lab.box), tol=6), f"{region} is not written"
    st = sam.static_layer(v)
    a, b = whole.centres["mikawa"], whole.centres["mino"]  # Tokaido meets Tosando between them
    between = (min(a[0], b[0]) + sam.MAP_BOX[0], min(a[1], b[1]) + sam.MAP_BOX[1],
               max(a[0], b[0]) + sam.MAP_BOX[0] + 1, max(a[1], b[1]) + sam.MAP_BOX[1] + 1)
    assert st.atlas.regions["mikawa"] != st.atlas.regions["mino"]
    assert has_colour(img, land.REGION_EDGE_RGB, between, tol=6), "no region border between Mikawa and Mino"
