"""The Tiny Big Wars map and private panel: size, colours, names, secrecy, layout, threads."""

from __future__ import annotations

import copy
import itertools
from concurrent.futures import ThreadPoolExecutor

import pytest
from pydantic import ValidationError

import render
from render import palette
from render import tinybigwars as tbw
from tests.render import views
from tests.render.helpers import diff_fraction, has_colour, open_png

FIXTURES = list(views.ALL)


def _legend_name_box(index: int, count: int) -> tuple[int, int, int, int]:
    x, y, _ = tbw.legend_origin(index, count)
    return (x + 40, y + 6, x + 190, y + 36)


@pytest.mark.parametrize("name", FIXTURES)
def test_map_is_a_png_of_the_expected_size_and_weight(name: str) -> None:
    data = render.draw("tinybigwars", views.ALL[name]())
    assert open_png(data).size == (tbw.WIDTH, tbw.HEIGHT)
    assert len(data) <= 400 * 1024


@pytest.mark.parametrize("name", FIXTURES)
def test_each_seat_colour_is_in_its_legend_swatch_and_on_the_board(name: str) -> None:
    v = views.ALL[name]()
    img = open_png(render.draw("tinybigwars", v))
    for i, seat in enumerate(v["seats"]):
        colour = palette.seat_colour(seat["seat"])
        x, y, _ = tbw.legend_origin(i, len(v["seats"]))
        assert has_colour(img, colour, (x, y, x + 40, y + 40), tol=6), f"seat {i} swatch"
        assert has_colour(img, colour, tbw.MAP_BOX, tol=6), f"seat {i} on the board"


@pytest.mark.parametrize("name", ["three_seat_mid", "four_seat_combat"])
def test_each_seat_name_is_drawn_in_its_legend_row(name: str) -> None:
    v = views.ALL[name]()
    n = len(v["seats"])
    base = open_png(render.draw("tinybigwars", v, views.NAMES_4[:n]))
    default = open_png(render.draw("tinybigwars", v))
    for i in range(n):
        other = list(views.NAMES_4[:n])
        other[i] = "Zoltan"
        changed = open_png(render.draw("tinybigwars", v, other))
        assert diff_fraction(base, changed, box=_legend_name_box(i, n)) > 0.01, f"name of seat {i} not drawn"
        for j in range(n):
            if j != i:
                assert diff_fraction(base, changed, box=_legend_name_box(j, n)) == 0
        assert diff_fraction(base, default, box=_legend_name_box(i, n)) > 0.01  # "Player N" by default


def test_unicode_and_long_names_draw_within_their_row() -> None:
    v = views.four_seat_combat()
    names = ["Дмитрий", "Ελένη", "李小龍🐉", "Bartholomew the Magnificent of the Northern Reaches"]
    img = open_png(render.draw("tinybigwars", v, names))
    plain = open_png(render.draw("tinybigwars", v, ["A", "B", "C", "D"]))
    assert diff_fraction(img, plain, box=_legend_name_box(0, 4)) > 0.01
    # the long name is ellipsised: the status column ("deciding") is untouched
    x, y, w = tbw.legend_origin(3, 4)
    status_box = (x + w - 84, y + 6, x + w - 4, y + 36)
    assert diff_fraction(img, plain, box=status_box) == 0


def test_public_image_ignores_secrets_and_seat_only_keys() -> None:
    for build in (views.four_seat_combat, views.force_building):
        public = build()
        a = views.seat_view(public, 1, sealed={"energy_spend": 3, "use": "cancel"})
        b = views.seat_view(public, 1, sealed={"energy_spend": 0, "use": "add"})
        b["you"]["force"] = {"heroes": ["owl"], "minion_cards": [], "buildings": ["market"], "points": 20}
        images = {render.draw("tinybigwars", x) for x in (public, a, b)}
        assert len(images) == 1


def test_a_field_the_view_model_lacks_is_refused() -> None:
    """The view model is the allow-list: an undeclared (secret) key cannot be drawn, it is refused."""
    for where in ("top", "seat", "location"):
        extra = views.four_seat_combat()
        target = {"top": extra, "seat": extra["seats"][0], "location": extra["locations"][0]}[where]
        target["hidden_force"] = ["viper"]
        with pytest.raises(ValidationError):
            render.draw("tinybigwars", extra)


def test_location_labels_and_footprints_never_overlap() -> None:
    x0, y0, x1, y1 = tbw.MAP_BOX
    for build in views.ALL.values():
        v = build()
        for boxes in (tbw.label_boxes(v), tbw.footprints(v)):
            assert len(boxes) == len(v["locations"])
            for (ia, a), (ib, b) in itertools.combinations(boxes.items(), 2):
                overlap = a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                assert not overlap, f"{ia} overlaps {ib} on {v['map']}"
            for box in boxes.values():
                assert x0 <= box[0] and box[2] <= x1 and y0 <= box[1] and box[3] <= y1


def test_crowded_coordinates_are_pushed_apart() -> None:
    v = views.three_seat_mid()
    v["map"] = "crowded"
    for lo in v["locations"][:6]:
        lo["x"], lo["y"] = 0.5, 0.5
    boxes = tbw.label_boxes(v)
    for a, b in itertools.combinations(boxes.values(), 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_contested_marker_combat_and_result_are_visible() -> None:
    v = views.four_seat_combat()
    img = open_png(render.draw("tinybigwars", v))
    st = tbw.static_layer(v)
    calm = copy.deepcopy(v)
    lantern = next(lo for lo in calm["locations"] if lo["id"] == "lantern")
    lantern["contested"] = False
    calm["combat"] = None
    other = open_png(render.draw("tinybigwars", calm))
    assert diff_fraction(img, other, box=tbw.plate_box(st.centres["lantern"])) > 0.03
    px, py, qx, qy = tbw.plate_box(st.centres["pagoda"])
    assert diff_fraction(img, other, box=(px - 12, py - 12, qx + 12, qy + 12)) > 0.03
    assert has_colour(img, palette.COMBAT, (0, tbw.LEGEND_Y + tbw.LEGEND_H, tbw.WIDTH, tbw.HEIGHT)), "the combat box"
    assert has_colour(img, palette.COMBAT, tbw.CAPTION_BOX, tol=30), "the combat caption"

    over = views.three_seat_over()
    running = copy.deepcopy(over)
    running["result"] = None
    ended, still = open_png(render.draw("tinybigwars", over)), open_png(render.draw("tinybigwars", running))
    assert diff_fraction(ended, still, box=tbw.RESULT_BOX) > 0.1
    assert diff_fraction(ended, still, box=tbw.MAP_BOX) < 0.001, "the final city stays whole"


def test_static_layer_is_built_once_per_map() -> None:
    v = views.three_seat_mid()
    v["map"] = "cache-probe"
    render.draw("tinybigwars", v)
    builds = tbw._STATIC.builds
    for _ in range(3):
        render.draw("tinybigwars", v)
    assert tbw._STATIC.builds == builds


def test_concurrent_draws_give_the_same_bytes_as_sequential() -> None:
    jobs = [(name, seat) for name in FIXTURES for seat in (None, 0)] * 3

    def work(job: tuple[str, int | None]) -> bytes:
        name, seat = job
        v = views.ALL[name]()
        if seat is None:
            return render.draw("tinybigwars", v, views.NAMES_4)
        return render.draw_private("tinybigwars", views.seat_view(v, seat, {"energy_spend": 1}), views.NAMES_4)

    tbw._STATIC.clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(work, jobs))
    sequential = [work(j) for j in jobs]
    assert concurrent == sequential


def test_private_panel_shows_the_seat_and_its_sealed_choice() -> None:
    public = views.four_seat_combat()
    sealed = views.seat_view(public, 3, {"energy_spend": 2, "use": "add hits"})
    empty = views.seat_view(public, 3, None)
    a = open_png(render.draw_private("tinybigwars", sealed))
    b = open_png(render.draw_private("tinybigwars", empty))
    assert a.size == tbw.PRIVATE_SIZE
    assert has_colour(a, palette.seat_colour(3), (0, 0, tbw.PRIVATE_SIZE[0], 60), tol=6)
    assert diff_fraction(a, b, box=(512, 200, 790, 460)) > 0.005
    assert diff_fraction(a, b, box=(0, 60, 505, 440)) == 0  # the heroes do not depend on it
    other_seat = open_png(render.draw_private("tinybigwars", views.seat_view(public, 0, None)))
    assert diff_fraction(b, other_seat, box=(0, 60, 505, 440)) > 0.01


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError):
        render.draw("chess", {})


def crowded_five_seats() -> dict:
    """Five seats, a pile of heroes in one place and odd values the engine might send."""
    v = views.four_seat_combat()
    v["seats"].append(dict(v["seats"][0], seat=4, influence=12))
    v["combat"] = None
    v["result"] = None
    v["heroes"] += [views._hero(4, "owl", "garden"), views._hero(4, "viper", "garden", id="h4-viper2"),
                    views._hero(0, "storm", "garden"), views._hero(2, "monk", "garden"),
                    views._hero(1, "ember", "nowhere")]
    garden = next(lo for lo in v["locations"] if lo["id"] == "garden")
    garden.update(minions=[[0, 1], [1, 12], [2, 3], [3, 1], [4, 20]], contested=True, infrastructure="castle")
    v["roads"].append(["garden", "atlantis"])
    v["last_events"] = ["x" * 300] * 10
    return v


def test_odd_and_crowded_views_still_draw() -> None:
    v = crowded_five_seats()
    img = open_png(render.draw("tinybigwars", v, ["Only one name"]))
    assert img.size == (tbw.WIDTH, tbw.HEIGHT)
    x, y, _ = tbw.legend_origin(4, 5)
    assert has_colour(img, palette.seat_colour(4), (x, y, x + 40, y + 40), tol=6)
    minimal = {"locations": [{"id": "a", "name": "Alone", "x": 0.5, "y": 0.5}], "roads": [], "seats": []}
    with pytest.raises(ValidationError):  # a view missing documented fields is a broken contract, not drawn
        render.draw("tinybigwars", minimal)


def test_the_latest_events_ring_their_places_and_head_the_map() -> None:
    v = views.three_seat_mid()
    assert tbw.named_locations(v) == ["garden"]
    st = tbw.static_layer(v)
    quiet = copy.deepcopy(v)
    quiet["last_events"] = ["Jade Viper trained: +1 energy.", "Player 2 passed."]
    a, b = open_png(render.draw("tinybigwars", v)), open_png(render.draw("tinybigwars", quiet))
    x0, y0, x1, y1 = tbw.plate_box(st.centres["garden"])
    ring = (x0 - 14, y0 - 14, x1 + 14, y0)
    glow = palette.tint(palette.ALERT, 0.2)  # the inner ring of the glow
    assert has_colour(a, glow, ring, tol=16) and not has_colour(b, glow, ring, tol=16)
    assert diff_fraction(a, b, box=tbw.CAPTION_BOX) > 0.001, "the caption shows the newest event"
    many = copy.deepcopy(v)
    many["last_events"] = [f"Someone went to {lo['name']}." for lo in v["locations"]]
    assert len(tbw.named_locations(many)) == 4, "only the newest few are ringed"
