"""The guard on the boxes a phase draws in (board.phase_boxes): a phase post's PNG and replay frame
map only those boxes onto the palette and take the rest from the static layer mapped once, so
anything a renderer draws outside them would vanish from the posts without an error. In the city
the boxes are what the drawing says it drew (a name, a plate's marks and figures, rings, hero
rows); over and under the city, the box around what differs from the layer in each cell.

Here every map is drawn both ways and compared pixel for pixel: the way the posts are made (the
boxes on the mapped layer) against the whole map mapped (and halved) as a picture without a layer
is, over crowded views made to fill every part of the city at once (every location contested by
every clan, the most hero rows, rings for a combat and for the latest events, the biggest counts
and flags, on the engine's three cities and the fixtures' cities that reach the map's edges) and
over every public phase end of played matches of two, three and four seats. A renderer that
grows a drawing outside the boxes (a marker between plates, a longer hero row), or boxes cut too
small, fails here; so does a renderer whose picture gains a layer without views here to check it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from bot.service.history import public_frames
from bot.simulate import simulate
from engine.tinybigwars.view_models import PublicView
from render import anim, encode
from render import tinybigwars as tbw
from render.tinybigwars import board
from render.views import parse
from tests.render import defenders_views, samurai_views
from tests.render import views as fixtures

GAME = "tinybigwars"
LONG_NAMES = ["Wilhelmina Montgomery-Featherstonehaugh", "Bartholomew WWWWWWWWWWWWWWWWWWWW", "李小龙 the Dragon",
              "Ωmega Zoë Björn"]


def played(seats: int, seed: int, rounds: int) -> list[dict[str, Any]]:
    options = {"round_limit": rounds}
    return public_frames(GAME, seats, options, seed, simulate(GAME, seats, seed, options=options)["log"])


def crowded(view: dict[str, Any], combat: bool = True, result: bool = False) -> dict[str, Any]:
    """``view`` with every location as full as a phase can make it: contested by every clan at
    the biggest counts, infrastructure and a start flag, the most hero rows ("+N more"), a combat
    ringed in red and the latest events ringing other places, every seat awaited."""
    out = copy.deepcopy(view)
    seats = [seat["seat"] for seat in out["seats"]]
    kinds = ["dojo", "market", "watchtower"]
    heroes = []
    for number, location in enumerate(out["locations"]):
        location.update(minions=[[seat, 99] for seat in seats], contested=True, controller=None,
                        infrastructure=kinds[number % 3], start_seat=seats[number % len(seats)],
                        coin=9, coin_total=19, influence=9, influence_total=19)
        for row in range(5):
            seat = seats[(number + row) % len(seats)]
            heroes.append({"id": f"h{number}-{row}", "card": "ember", "name": "Magnificent Thunderbolt Dragon",
                           "seat": seat, "location": location["id"], "health": 10, "max_health": 10,
                           "energy": 9, "max_energy": 9, "power": 3, "activated": row % 2 == 0, "defeated": False,
                           "ability": ""})
    out["heroes"] = heroes
    names = [location["name"] for location in out["locations"]]
    out["last_events"] = [f"[[seat:{seats[0]}]] moved from {names[1]} to {names[2]} with 99 minions.",
                          f"{names[3]} and {names[4]} fall to [[seat:{seats[-1]}]].",
                          f"Fight at {names[5]}: " + "6 " * 40, "W" * 300]
    out["waiting"] = list(seats)
    out["active_seat"] = seats[0]
    for seat in out["seats"]:
        seat.update(influence=99, coins=99, locations=99, minions=999, heroes=99, passed=True)
    if combat:
        out["combat"] = {"location": out["locations"][0]["id"], "seats": list(seats),
                         "dice": [[seat, [6, 5, 4, 3, 2, 1] * 4] for seat in seats],
                         "hits": [[seat, 24] for seat in seats], "waiting": list(seats),
                         "attacker": seats[0], "stage": "energy"}
    if result:
        out["result"] = {"winners": list(seats), "reason": "W" * 200, "draw": False}
    return out


def widest(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with the widest figures a row can hold: four-digit minion counts and values (the
    minions row runs off its plate), hero figures in the thousands, the longest location names,
    no combat (the events panel and caption as most phases draw them) and the last seat out."""
    out = copy.deepcopy(view)
    out["combat"] = None
    for location in out["locations"]:
        name = location["id"].title() + " Palace of Heavenly Harmony"
        location.update(minions=[[seat, 9999] for seat, _ in location["minions"]], coin=999, coin_total=9999,
                        influence=999, influence_total=9999, name=name)
    for hero in out["heroes"]:
        hero.update(health=9999, max_health=9999, energy=9999, name="W" * 40)
    names = [location["name"] for location in out["locations"]]
    out["last_events"] = [f"{names[1]}, {names[2]} and {names[3]} hold.", "W" * 300]
    out["seats"][-1]["eliminated"] = True
    out["active_seat"] = None
    return out


def crowded_views() -> list[tuple[dict[str, Any], list[str] | None]]:
    cities = [played(seats, 1, 2)[-1] for seats in (2, 3, 4)]
    cities += [fixtures.two_seat_start(), fixtures.three_seat_mid(), fixtures.four_seat_combat()]
    out: list[tuple[dict[str, Any], list[str] | None]] = []
    for city in cities:
        seats = len(city["seats"])
        for combat, result in ((True, False), (False, True), (True, True)):
            out.append((crowded(city, combat, result), LONG_NAMES[:seats]))
        out.append((widest(crowded(city, False, False)), LONG_NAMES[:seats]))
    return out


def played_views() -> list[tuple[dict[str, Any], list[str] | None]]:
    """Every public phase end of matches as the load benchmark plays them (three seats, two
    rounds) and of two and four seats at two and three rounds, named a different way each."""
    out: list[tuple[dict[str, Any], list[str] | None]] = []
    for seats, seeds, rounds in ((3, range(21, 29), 2), (2, range(31, 35), 3), (4, range(41, 45), 3)):
        for seed in seeds:
            names = [f"p{seed}-{seat}" for seat in range(seats)]
            out += [(view, names) for view in played(seats, seed, rounds)]
    return out


def _whole_way(picture: encode.Picture) -> encode.Picture:
    """The same picture without its layer: mapped and halved whole, as before the boxes."""
    return picture._replace(layer=None)


def check_both_ways(view: dict[str, Any], names: list[str] | None) -> tuple[board.Box, ...]:
    """The post's PNG and frame from the boxes are the whole map's, byte for byte; and outside
    the boxes the drawn map is its static layer (else a drawing there is lost from the posts).
    Returns the boxes."""
    picture = tbw.picture(view, names)
    assert picture.layer is not None and picture.palette is not None
    frame_view = {**view, "phase_label": "Next phase"}
    boxes = render.post_and_frame(GAME, picture, view, names, frame_view)
    whole = render.post_and_frame(GAME, _whole_way(picture), view, names, frame_view)
    assert boxes == whole, "a post's PNG or replay frame from the boxes differs from the whole map's"
    assert encode.picture_png(picture) == encode.png(picture.image, picture.palette)
    assert anim.half_on_palette(picture).tobytes() == anim.on_palette(anim.halve(picture.image),
                                                                      picture.palette).tobytes()
    layer = tbw.static_layer(view).canvas()
    outside = picture.image.copy()
    for box in picture.layer.boxes:
        outside.paste(layer.crop(box), box[:2])
    stray = ImageChops.difference(outside, layer).getbbox()
    assert stray is None, f"drawn outside board.phase_boxes at {stray}"
    return picture.layer.boxes


CROWDED = crowded_views()


def test_the_crowded_views_fill_what_a_phase_can_draw() -> None:
    for view, _names in CROWDED:
        heroes = board.heroes_by_location(parse(PublicView, view))
        assert all(len(heroes[location["id"]]) == 5 for location in view["locations"])  # "+3 more" rows
        assert len(tbw.named_locations(view)) >= 3
    assert {len(view["seats"]) for view, _ in CROWDED} == {2, 3, 4}
    assert any(view["combat"] and view["result"] for view, _ in CROWDED)


@pytest.mark.parametrize("index", range(len(CROWDED)))
def test_a_crowded_map_is_the_same_drawn_both_ways(index: int) -> None:
    check_both_ways(*CROWDED[index])


def test_played_maps_are_the_same_drawn_both_ways() -> None:
    views = played_views()
    assert len(views) > 100
    shares = []
    for view, names in views:
        boxes = check_both_ways(view, names)
        shares.append(sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) / (tbw.WIDTH * tbw.HEIGHT))
    # what a played phase draws: its plates, hero rows, header, caption and the panels' texts
    # (about 30 % of the map; the whole header, a box per location and the strip under the city
    # made 62 %): every point over this is mapped and halved again in every post
    assert sum(shares) / len(shares) < 0.4


def test_every_renderer_with_a_layer_is_guarded_here() -> None:
    """Only Tiny Big Wars maps a phase's boxes alone; another game's picture gaining a layer
    needs its own views checked both ways before its posts may rely on it."""
    layered = set()
    samples: dict[str, tuple[Any, list[str] | None]] = {
        "tinybigwars": (fixtures.three_seat_mid(), fixtures.NAMES_4[:3]),
    }
    samples["samurai"] = (samurai_views.public("lwtv4_war"), samurai_views.names("lwtv4_war"))
    samples["defenders"] = (defenders_views.mid_battle(), defenders_views.names(defenders_views.mid_battle()))
    assert set(samples) == set(render.RENDERERS)
    for game, (view, names) in samples.items():
        module = render.RENDERERS[game]
        if isinstance(module, render.Pictures) and module.picture(view, names).layer is not None:
            layered.add(game)
    assert layered == {GAME}


def test_the_guard_catches_a_drawing_outside_the_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mark drawn on the key (outside every box: the strips' cells stop above it) is lost from
    the posts made from the boxes: the check above fails on it."""
    view, names = CROWDED[0]
    drawn = tbw.drawn

    def with_a_stray_mark(view: Any, names: list[str] | None = None) -> tuple[Image.Image, list[board.Box]]:
        image, boxes = drawn(view, names)
        image.paste((255, 0, 255), (tbw.WIDTH - 40, tbw.HEIGHT - 40, tbw.WIDTH - 30, tbw.HEIGHT - 30))
        return image, boxes

    monkeypatch.setattr(tbw, "drawn", with_a_stray_mark)
    with pytest.raises(AssertionError):
        check_both_ways(view, names)


def _cut(box: board.Box) -> board.Box:
    """``box`` two pixels smaller on every side (still an even box where it was one)."""
    return (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)


@pytest.mark.parametrize("where", ["city", "strips"])
def test_the_guard_catches_boxes_cut_too_tight(monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """The city's boxes (as the drawing reports them), or the strips' (found by comparing with the
    layer), each cut by two pixels a side: a hero row's edge, a ring's, a text's outline is left
    out of the posts, and the check fails on every crowded view."""
    found = board.phase_boxes

    def cut_too_tight(st: board.Static, image: Image.Image, city: Any) -> tuple[board.Box, ...]:
        city = list(city)
        if where == "city":
            return (*map(_cut, city), *found(st, image, [])[0:])
        return (*city, *map(_cut, found(st, image, [])))

    monkeypatch.setattr(board, "phase_boxes", cut_too_tight)
    for view, names in CROWDED:
        with pytest.raises(AssertionError):
            check_both_ways(view, names)


_BARE: dict[tuple[Any, ...], Image.Image] = {}


def _on_the_bare_map(view: dict[str, Any], names: list[str] | None, monkeypatch: pytest.MonkeyPatch) -> Image.Image:
    """``view``'s map drawn on the bare map (no empty cards nor events panel on the layer), as
    every map was drawn before the layer had them."""
    typed = parse(PublicView, view)
    key = board.background_key(typed)
    if key not in _BARE:
        _BARE[key] = board.bare_background(typed)[0]
    bare = _BARE[key]

    def bare_canvas(static: board.Static) -> Image.Image:
        image = bare.copy()
        for tile, at in static.tiles:
            image.paste(tile, at)
        return image

    with monkeypatch.context() as patched:
        patched.setattr(board.Static, "canvas", bare_canvas)
        return tbw.render_image(view, names)


def test_the_empty_panels_on_the_layer_leave_every_map_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """The players' empty cards and the events panel are on the layer, so the strip under the
    city is mapped only where a phase writes in them; a map drawn on that layer is the very
    picture drawn on the bare map (a card or panel drawn where the layer has none, or a combat's
    or a result's panels leaving the layer's panel showing between them, would differ)."""
    views = CROWDED + played_views()[::3]
    for view, names in views:
        assert tbw.render_image(view, names).tobytes() == _on_the_bare_map(view, names, monkeypatch).tobytes()


def test_the_layer_has_the_empty_panels_of_its_seats() -> None:
    """Matches on one map with other seats (cards laid out otherwise) get their own layer."""
    two = fixtures.two_seat_start()
    three = {**copy.deepcopy(two), "seats": copy.deepcopy(fixtures.three_seat_mid()["seats"])}
    assert tbw.static_layer(two).layer is not tbw.static_layer(three).layer
    check_both_ways(three, LONG_NAMES[:3])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_cells_tile_the_strips_over_and_under_the_city(seats: int) -> None:
    """The strips' boxes are found cell by cell: a pixel of the caption or of the panels under the
    city in no cell would be left out of the posts whatever is drawn on it, so the cells cover
    both strips, each pixel once (the header's boxes are panel.header's own)."""
    count = Image.new("L", (tbw.WIDTH, tbw.HEIGHT), 0)
    for cell in board.strip_cells(seats):
        count.paste(ImageChops.add(count.crop(cell), Image.new("L", (cell[2] - cell[0], cell[3] - cell[1]), 1)), cell)
    for strip in (board.CAPTION_STRIP, board.LOWER_STRIP):
        assert count.crop(strip).getextrema() == (1, 1)
    area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in board.strip_cells(seats))
    assert area == sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in (board.CAPTION_STRIP, board.LOWER_STRIP))
