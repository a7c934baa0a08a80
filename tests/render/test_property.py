"""Any view of the documented shape draws: random boards, names and values never crash."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import render
from render import tinybigwars as tbw
from tests.render import views
from tests.render.helpers import open_png

HEROES = list(views._HERO_CARDS)


@st.composite
def public_views(draw: st.DrawFn) -> dict[str, Any]:
    base = draw(st.sampled_from([views.two_seat_start, views.three_seat_mid, views.four_seat_combat]))()
    n = draw(st.integers(1, 5))
    base["seats"] = [
        {"seat": s, "influence": draw(st.integers(0, 14)), "coins": draw(st.integers(0, 99)),
         "locations": draw(st.integers(0, 18)), "minions": draw(st.integers(0, 60)), "heroes": draw(st.integers(0, 4)),
         "activations": draw(st.integers(0, 2)), "passed": draw(st.booleans()), "force_ready": draw(st.booleans()),
         "eliminated": draw(st.booleans()), "income": draw(st.integers(0, 9)), "charters": []}
        for s in range(n)
    ]
    ids = [lo["id"] for lo in base["locations"]]
    for lo in base["locations"]:
        present = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n))
        lo["minions"] = [[s, draw(st.integers(1, 30))] for s in present]
        lo["contested"] = len(present) > 1
        lo["controller"] = present[0] if len(present) == 1 else None
        lo["infrastructure"] = draw(st.sampled_from([None, "dojo", "market", "watchtower"]))
        lo["coin_total"] = lo["coin"] + draw(st.integers(0, 2))
        lo["start_seat"] = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    base["heroes"] = [
        views._hero(draw(st.integers(0, n - 1)), draw(st.sampled_from(HEROES)), draw(st.sampled_from(ids)),
                    health=draw(st.integers(0, 9)), energy=draw(st.integers(0, 9)), id=f"h{i}",
                    activated=draw(st.booleans()), defeated=draw(st.booleans()))
        for i in range(draw(st.integers(0, 14)))
    ]
    if n > 1 and draw(st.booleans()):
        fighters = [0, n - 1]
        base["combat"] = {
            "location": draw(st.sampled_from(ids)), "seats": fighters,
            "dice": [[s, draw(st.lists(st.integers(1, 6), max_size=20))] for s in fighters],
            "hits": [[s, draw(st.integers(0, 20))] for s in fighters], "waiting": fighters[:1],
            "attacker": fighters[0], "stage": "energy",
        }
    else:
        base["combat"] = None
    base["phase_label"] = draw(st.text(max_size=60))
    base["active_seat"] = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    base["last_events"] = draw(st.lists(st.text(max_size=120), max_size=8))
    if draw(st.booleans()):
        base["result"] = {"winners": draw(st.lists(st.integers(0, n - 1), unique=True, max_size=2)),
                          "reason": draw(st.text(max_size=80)), "draw": draw(st.booleans())}
    return base


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(view=public_views(), names=st.lists(st.text(max_size=40), max_size=6))
def test_random_views_draw(view: dict[str, Any], names: list[str]) -> None:
    data = render.draw("tinybigwars", view, names)
    assert open_png(data).size == (tbw.WIDTH, tbw.HEIGHT)
    assert len(data) <= 400 * 1024
    seat_view = views.seat_view(view, 0, {"energy_spend": 1}) if view["seats"] else dict(view, you={"seat": 0})
    assert open_png(render.draw_private("tinybigwars", seat_view, names)).size == tbw.PRIVATE_SIZE
