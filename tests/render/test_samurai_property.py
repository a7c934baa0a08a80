"""Any Samurai view of the documented shape draws, and nothing drawn on the map overlaps.

Random owners, garrisons, forts, revealed ronin, armies (anywhere, assassinated or not),
battles, declarations and results over the real 68-province map.
"""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import render
from render import samurai as sam
from tests.render import samurai_views as sv
from tests.render.helpers import open_png

BASE = sv.public("lwtv4_war")
IDS = [p["id"] for p in BASE["provinces"]]


@st.composite
def public_views(draw: st.DrawFn) -> dict[str, Any]:
    v = sv.public("lwtv4_war")
    n = draw(st.integers(3, 5))
    v["seats"] = [dict(v["seats"][s % 4], seat=s, provinces=draw(st.integers(0, 68)), koku=draw(st.integers(0, 40)),
                       sword=draw(st.one_of(st.none(), st.integers(1, n))), eliminated=draw(st.booleans()),
                       vp=draw(st.integers(0, 99)))
                  for s in range(n)]
    v["to_win"] = draw(st.sampled_from([None, 35]))
    v["turn_order"] = draw(st.permutations(list(range(n))))
    for p in v["provinces"]:
        p["owner"] = draw(st.one_of(st.none(), st.integers(0, n - 1)))
        p["neutral"] = p["owner"] is None and draw(st.booleans())
        p["garrison_total"] = draw(st.integers(0, 12))
        p["fort"] = draw(st.sampled_from([None, None, "castle", "fortress"]))
        p["ronin"] = draw(st.one_of(st.none(), st.integers(1, 9)))
        p["army"] = None
    places = draw(st.lists(st.sampled_from(IDS), unique=True, max_size=3 * n))
    v["armies"] = []
    for k, pid in enumerate(places):
        army = {"seat": k % n, "army": k // n, "alive": True, "location": pid, "level": draw(st.integers(1, 5)),
                "assassinated": draw(st.booleans()), "ronin": draw(st.one_of(st.none(), st.integers(1, 5)))}
        v["armies"].append(army)
        v["provinces"][IDS.index(pid)]["army"] = army
    v["armies"].append({"seat": 0, "army": 2, "alive": False, "location": None, "level": 1, "assassinated": False,
                        "ronin": None})
    if draw(st.booleans()):
        pairs = draw(st.lists(st.sampled_from(v["borders"] + v["sea_lanes"]), max_size=4))
        v["war"] = {"seat": draw(st.integers(0, n - 1)), "phase": "B",
                    "declarations": [{"source": a, "force": "garrison", "army": None, "target": b, "count": None,
                                      "units": None} for a, b in pairs],
                    "battle": None if not pairs else {"target": pairs[0][1], "attacker": 0, "defender": None,
                                                      "naval": draw(st.booleans()), "round": 1, "fort_defenders": 0,
                                                      "losses_pending": None}}
    else:
        v["war"] = None
    v["waiting"] = draw(st.lists(st.integers(0, n - 1), unique=True))
    if draw(st.booleans()):
        v["result"] = {"winners": draw(st.lists(st.integers(0, n - 1), unique=True, max_size=2)), "reason": "test",
                       "scores": {}}
    return v


def assert_nothing_overlaps(view: dict[str, Any], names: list[str]) -> None:
    """The view draws at full size; no badge or name overlaps another, nor any node."""
    img = open_png(render.draw("samurai", view, names))
    assert img.size == (sam.WIDTH, sam.HEIGHT)
    scenes = sam.placements(view)
    assert set(scenes["whole"][0]) == {a["location"] for a in view["armies"] if a["alive"]}
    for badges, labels, feet in scenes.values():
        boxes = list(badges.values()) + list(labels.values())
        for a, b in itertools.combinations(boxes, 2):
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
        for a in boxes:
            assert not any(a[0] < f[2] and f[0] < a[2] and a[1] < f[3] and f[1] < a[3] for f in feet.values())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(public_views(), st.lists(st.text(max_size=40), max_size=5))
def test_random_views_draw_and_never_overlap(v: dict[str, Any], names: list[str]) -> None:
    assert_nothing_overlaps(v, names)


def crowded_battle_view() -> dict[str, Any]:
    """The example Hypothesis once found: a battle in Tanba, the inset's names around it kept,
    and no ring spot near Tanba clear for its army's badge (it fell back onto Wakasa's node)."""
    v = sv.public("lwtv4_war")
    v["seats"] = [dict(v["seats"][s % 4], seat=s, provinces=0, koku=0, sword=None, eliminated=False, vp=0)
                  for s in range(5)]
    v["to_win"] = None
    v["turn_order"] = [0, 1, 2, 3, 4]
    extras = {"shima": (None, 1), "totomi": ("castle", None), "awa_shikoku": (None, 1)}
    for p in v["provinces"]:
        fort, ronin = extras.get(p["id"], (None, None))
        p.update(owner=None, neutral=False, garrison_total=0, fort=fort, ronin=ronin, army=None)
    v["armies"] = [{"seat": seat, "army": 0, "alive": True, "location": pid, "level": 1, "assassinated": False,
                    "ronin": None} for seat, pid in enumerate(("kai", "tanba", "yamashiro"))]
    for army in v["armies"]:
        v["provinces"][IDS.index(army["location"])]["army"] = army
    v["armies"].append({"seat": 0, "army": 2, "alive": False, "location": None, "level": 1, "assassinated": False,
                        "ronin": None})
    pairs = [("settsu", "tanba"), ("ise", "yamato"), ("awa_boso", "kazusa"), ("omi", "wakasa")]
    v["war"] = {"seat": 0, "phase": "B",
                "declarations": [{"source": a, "force": "garrison", "army": None, "target": b, "count": None,
                                  "units": None} for a, b in pairs],
                "battle": {"target": "tanba", "attacker": 0, "defender": None, "naval": False, "round": 1,
                           "fort_defenders": 0, "losses_pending": None}}
    v["waiting"] = []
    v["result"] = None
    return v


def test_crowded_battle_badge_finds_a_clear_spot() -> None:
    """A fixed regression case, so a fresh clone (no .hypothesis/ database) checks it every run."""
    assert_nothing_overlaps(crowded_battle_view(), [])
