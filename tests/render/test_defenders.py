"""The Tiny Epic Defenders map and private panel: size, determinism, secrecy, names, random views."""

from __future__ import annotations

import copy
import itertools
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import render
from render import defenders as ted
from render import palette
from tests.render import defenders_views as dv
from tests.render.helpers import diff_fraction, has_colour, open_png

FIXTURES = list(dv.ALL)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_registered() -> None:
    assert render.RENDERERS["defenders"] is ted


@pytest.mark.parametrize("name", FIXTURES)
def test_map_is_a_png_of_the_expected_size(name: str) -> None:
    v = dv.ALL[name]()
    data = render.draw("defenders", v, dv.names(v))
    assert open_png(data).size == (ted.WIDTH, ted.HEIGHT)
    assert len(data) <= 400 * 1024


@pytest.mark.parametrize("name", FIXTURES)
def test_private_panel_for_every_seat(name: str) -> None:
    v = dv.ALL[name]()
    for seat in sorted({d["seat"] for d in v["defenders"]}):
        sv = dv.seat_view(v, seat)
        img = open_png(render.draw_private("defenders", sv, dv.names(v)))
        assert img.size == ted.private_size(sv)
        assert img.size[0] == ted.PRIVATE_W
        # the header bar carries the seat's colour
        assert has_colour(img, palette.seat_colour(seat), (0, 48, img.width, 56), tol=4)


@pytest.mark.parametrize("name", FIXTURES)
def test_same_input_same_bytes(name: str) -> None:
    v = dv.ALL[name]()
    assert render.draw("defenders", v, dv.names(v)) == render.draw("defenders", copy.deepcopy(v), dv.names(v))
    sv = dv.seat_view(v, 0)
    assert render.draw_private("defenders", sv, dv.names(v)) == render.draw_private("defenders", sv, dv.names(v))


@pytest.mark.parametrize("name", FIXTURES)
def test_public_image_ignores_you(name: str) -> None:
    v = dv.ALL[name]()
    expected = render.draw("defenders", v, dv.names(v))
    for seat in range(4):
        sv = dv.seat_view(v, seat)
        assert render.draw("defenders", sv, dv.names(v)) == expected
        sv["you"] = {"seat": seat, "defenders": [0, 1, 2, 3], "secret_hand": ["x"] * 9, "turn_deck": ["deserter"]}
        assert render.draw("defenders", sv, dv.names(v)) == expected


def test_public_changes_do_show() -> None:
    """The secrecy test could pass by drawing nothing: threat, destruction and damage must show."""
    v = dv.mid_battle()
    base = open_png(render.draw("defenders", v))
    forest = ted.plate_box(0)
    w = copy.deepcopy(v)
    w["ring"][0]["threat"] = 3
    assert diff_fraction(base, open_png(render.draw("defenders", w)), box=forest) > 0.002
    w = copy.deepcopy(v)
    w["ring"][0]["destroyed"] = True
    assert diff_fraction(base, open_png(render.draw("defenders", w)), box=forest) > 0.05
    w = copy.deepcopy(v)
    w["defenders"][3]["hp"] = 1
    assert diff_fraction(base, open_png(render.draw("defenders", w)), box=ted.capital_box()) > 0.001


def test_log_names_are_filled() -> None:
    v = dv.mid_battle()
    assert "[[seat:3]]" in v["log"][-3]  # among the newest lines, which the log box shows
    a = open_png(render.draw("defenders", v, ["Aiko", "Bo", "Cy", "Di"]))
    b = open_png(render.draw("defenders", v, ["Aiko", "Bo", "Cy", "Zebulon-Maximilian"]))
    assert diff_fraction(a, b, box=ted.LOG_BOX) > 0.002


@pytest.mark.parametrize("name", FIXTURES)
def test_unusual_names_do_not_crash(name: str) -> None:
    v = dv.ALL[name]()
    for names in (dv.ODD_NAMES, [], None, ["x" * 300] * 4, ["\u202e\u0000\n", "👩‍👩‍👧‍👦" * 20]):
        assert open_png(render.draw("defenders", v, names)).size == (ted.WIDTH, ted.HEIGHT)
        render.draw_private("defenders", dv.seat_view(v, 0), names)


def test_plates_never_overlap() -> None:
    boxes = list(ted.region_boxes(dv.early()).values())
    assert len(boxes) == 7
    for a, b in itertools.combinations(boxes, 2):
        assert not _overlap(a, b)
    for x0, y0, x1, y1 in boxes:
        assert x0 >= 0 and x1 <= ted.WIDTH and y0 > ted.CAPTION_BOX[3] and y1 < ted.RING_BOTTOM


def test_seat_colours_on_the_map() -> None:
    v = dv.mid_battle()
    img = open_png(render.draw("defenders", v))
    for d in v["defenders"]:
        assert has_colour(img, palette.seat_colour(d["seat"]), (0, ted.CAPTION_BOX[3], ted.WIDTH, ted.RING_BOTTOM), tol=6)


# --------------------------------------------------------------------------- randomized views

LONG = "Aurelianus Maximilian von Hohenzollern-Sigmaringen the Unbreakable"


@st.composite
def views(draw: st.DrawFn) -> dict[str, Any]:
    v = draw(st.sampled_from(FIXTURES))
    view = dv.ALL[v]()
    rng = random.Random(draw(st.integers(0, 2**32)))
    keys = ["capital"] + [r["key"] for r in view["ring"]]
    n = draw(st.integers(1, 4))
    view["defenders"] = []
    for i in range(n):
        max_hp = rng.randint(3, 8)
        view["defenders"].append({
            "idx": i, "seat": rng.randint(0, 3), "key": f"d{i}", "name": rng.choice(["Ember Warden", LONG, "Ω", ""]),
            "region": rng.choice(keys), "hp": rng.randint(0, max_hp), "max_hp": max_hp, "xp": rng.randint(0, 8),
            "xp_max": 8, "exhausted": rng.random() < 0.3, "death_tokens": rng.randint(0, 4),
            "in_tree": rng.random() < 0.2, "riding": rng.random() < 0.2, "shield": rng.random() < 0.3,
            "ability": rng.choice(["Rally", LONG]), "ability_text": rng.choice(["Short.", LONG * 3]),
            "artifacts": [dict(rng.choice(dv.ARTIFACTS), text=rng.choice(["x", LONG * 2])) for _ in range(rng.randint(0, 3))],
            "skills": [dict(rng.choice(dv.SKILLS), name=rng.choice(["Cleave", LONG])) for _ in range(rng.randint(1, 4))],
        })
    for r in view["ring"]:
        r["max_threat"] = rng.randint(1, 8)
        r["threat"] = rng.randint(0, r["max_threat"])
        r["destroyed"] = rng.random() < 0.3
        r["side"] = rng.choice(["A", "B", "hostile", "friendly"])
        r["war"] = r["side"] in ("hostile", "friendly")
        r["caravans"] = rng.randint(0, 3)
        r["ward"], r["storm"], r["fleet_die"] = (rng.random() < 0.4 for _ in range(3))
        if rng.random() < 0.3:
            r["name"] = LONG
            r["ability"] = LONG
    view["capital"]["destruction"] = rng.randint(3, 10)
    view["capital"]["threat"] = rng.randint(0, view["capital"]["destruction"])
    if rng.random() < 0.5:
        view["boss"] = {"kind": "epic", "revealed": True, "key": "b", "name": rng.choice(["Wyrm", LONG]),
                        "hp": rng.randint(0, 12), "max_hp": rng.randint(1, 12), "region": rng.choice(keys),
                        "text": LONG, "held": rng.random() < 0.5}
    if rng.random() < 0.5:
        view["active"] = {"card": rng.choice(["defender", "all"]), "defender": rng.randint(0, n - 1),
                          "ap": rng.randint(0, 6), "passed": [0, 1, 2]}
    if rng.random() < 0.5:
        view["attack"] = {"region": rng.choice(keys), "source": LONG, "dire": rng.random() < 0.5, "cost": 2,
                          "declined": [0, 1, 2, 3]}
    view["war"]["tree"] = rng.choice([None, 0])
    view["war"]["manticore"] = rng.choice(["mountains", "desert", 0])
    if rng.random() < 0.3:
        view["result"] = {"won": rng.random() < 0.5, "reason": LONG * 2}
    view["log"] = [rng.choice(["[[seat:0]] did a thing.", LONG * 2, "[[seat:7]] ?"]) for _ in range(rng.randint(0, 8))]
    return view


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(views(), st.lists(st.text(max_size=30), max_size=4))
def test_random_views_draw(v: dict[str, Any], names: list[str]) -> None:
    assert open_png(render.draw("defenders", v, names)).size == (ted.WIDTH, ted.HEIGHT)
    seat = v["defenders"][0]["seat"]
    sv = copy.deepcopy(v)
    sv["you"] = {"seat": seat, "defenders": [d["idx"] for d in v["defenders"] if d["seat"] == seat]}
    assert open_png(render.draw_private("defenders", sv, names)).size == ted.private_size(sv)


def test_draw_time_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    """Not asserted (shared machines): printed for `pytest -s`; see benchmarks/render.py."""
    v = dv.mid_battle()
    render.draw("defenders", v)
    t = time.perf_counter()
    for _ in range(5):
        render.draw("defenders", v, dv.NAMES)
    with capsys.disabled():
        print(f"\ndefenders map: {(time.perf_counter() - t) / 5 * 1000:.1f} ms per draw (warm)")


def test_the_card_and_the_newest_log_lines_mark_their_regions() -> None:
    v = dv.mid_battle()
    assert v["deck"]["current"]["regions"] == ["coast", "desert"]
    assert ted.in_play(v) == {"coast", "desert"}  # the newest log lines name Saltmere Shore (the coast) too
    w = copy.deepcopy(v)
    w["deck"]["current"] = None
    w["log"].append("[[seat:1]] moved Tidecaller to Whisperwood.")
    assert ted.in_play(w) == {"forest"}  # only the two newest lines count
    a, b = open_png(render.draw("defenders", v)), open_png(render.draw("defenders", w))
    x0, y0, _, y1 = ted.plate_box(0)
    edge = (x0, y0 + 40, x0 + 8, y1 - 40)  # the plate's left border, where the outline runs
    assert not has_colour(a, palette.ALERT, edge, tol=8) and has_colour(b, palette.ALERT, edge, tol=8)
    assert diff_fraction(a, b, box=ted.CAPTION_BOX) == 0, "the attack still heads the map"
    w["attack"] = None
    c = open_png(render.draw("defenders", w))
    assert diff_fraction(b, c, box=ted.CAPTION_BOX) > 0.01, "then the newest log line"
