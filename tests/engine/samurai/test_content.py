"""Map, unit table and event deck: validated data (rules README: map, LWTV deck)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from engine.samurai.content import DATA, ContentError, content, load_events, load_map, load_units


def edges(kind: str) -> set[tuple[str, str]]:
    return {tuple(sorted((p.id, o))) for p in content().map.provinces for o in getattr(p, kind)}


def test_map_has_68_provinces_126_borders_23_sea_lanes():
    assert len(content().map.provinces) == 68
    assert len(edges("land")) == 126
    assert len(edges("sea")) == 23


def test_every_border_is_listed_from_both_sides_and_the_graph_is_connected():
    by_id = content().provinces
    for p in content().map.provinces:
        for o in p.land:
            assert p.id in by_id[o].land
        for o in p.sea:
            assert p.id in by_id[o].sea
    seen, todo = {"yamashiro"}, ["yamashiro"]
    while todo:
        for n in content().adj[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert len(seen) == 68


def test_islands_only_by_sea_and_two_awa_provinces_are_distinct():
    c = content()
    for island in ("sado", "oki", "awaji", "iki", "tsushima"):
        assert c.land[island] == ()
        assert c.sea[island]
    assert {"awa_boso", "awa_shikoku"} <= set(c.provinces)
    assert c.is_sea("echigo", "sado") and not c.is_sea("echigo", "dewa")


def test_each_region_fits_one_discord_select():
    counts: dict[str, int] = {}
    for p in content().map.provinces:
        counts[p.region] = counts.get(p.region, 0) + 1
    assert len(counts) == 8 and max(counts.values()) <= 20


def test_drawing_coordinates_spread_the_kinai_apart():
    ps = content().map.provinces
    draw = min(math.hypot(a.x - b.x, a.y - b.y) for a in ps for b in ps if a.id < b.id)
    assert draw >= 20
    kinai = [p for p in ps if p.region == "Kinai"]
    geo = min(math.hypot(a.geo_x - b.geo_x, a.geo_y - b.geo_y) for a in kinai for b in kinai if a.id < b.id)
    spread = min(math.hypot(a.x - b.x, a.y - b.y) for a in kinai for b in kinai if a.id < b.id)
    assert spread > 1.5 * geo
    assert all(0 <= p.x <= 1000 and 0 <= p.y <= 1000 for p in ps)


def write_map(tmp_path: Path, mutate) -> Path:
    raw = json.loads((DATA / "map.json").read_text(encoding="utf-8"))
    mutate(raw)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def test_asymmetric_border_is_rejected_naming_file_and_field(tmp_path):
    def cut(raw):
        raw["provinces"][0]["land"].remove("iga")
    with pytest.raises(ContentError, match=r"map.json: field 'provinces.5.land'.*iga lists yamashiro"):
        load_map(write_map(tmp_path, cut))


def test_unknown_neighbour_is_rejected(tmp_path):
    def bad(raw):
        raw["provinces"][3]["sea"].append("atlantis")
    with pytest.raises(ContentError, match=r"map.json: field 'provinces.3.sea': unknown province 'atlantis'"):
        load_map(write_map(tmp_path, bad))


def test_disconnected_map_is_rejected(tmp_path):
    def island(raw):
        for p in raw["provinces"]:
            if p["id"] == "sado":
                p["sea"] = []
            if p["id"] == "echigo":
                p["sea"] = []
    with pytest.raises(ContentError, match="not connected"):
        load_map(write_map(tmp_path, island))


def test_wrong_field_type_is_rejected(tmp_path):
    def typo(raw):
        raw["provinces"][2]["lat"] = "north"
    with pytest.raises(ContentError, match=r"map.json: field 'provinces.2.lat'"):
        load_map(write_map(tmp_path, typo))


def test_unit_table_matches_the_project_decisions():
    u = load_units()
    values = {k: v.value for k, v in u.units.items()}
    assert values == {"spearman": 4, "gunner": 4, "swordsman": 5, "bowman": 6, "daimyo": 6, "ronin": 5}
    assert {k: v.step for k, v in u.units.items() if v.step == "ranged"} == {"gunner": "ranged", "bowman": "ranged"}
    assert {k: u.units[k].supply for k in ("spearman", "gunner", "swordsman", "bowman", "daimyo", "ronin")} == {
        "spearman": 36, "gunner": 9, "swordsman": 9, "bowman": 9, "daimyo": 3, "ronin": 26}
    assert (u.fortifications["castle"].defenders, u.fortifications["castle"].defender_value) == (4, 4)
    assert (u.fortifications["fortress"].defenders, u.fortifications["fortress"].defender_value) == (5, 5)
    assert (u.fortifications["castle"].supply, u.fortifications["fortress"].supply) == (10, 5)
    assert (u.limits.garrison, u.limits.army_samurai, u.limits.army_ashigaru) == (5, 4, 10)


def test_event_deck_has_at_least_16_cards_some_with_vp():
    deck = load_events()
    assert len(deck.cards) >= 16
    assert sum(1 for c in deck.cards if c.vp or c.penalty) >= 5
    assert {c.kind for c in deck.cards} == {"immediate", "objective"}


def test_event_deck_rejects_unknown_province(tmp_path):
    text = (DATA / "events.toml").read_text(encoding="utf-8").replace('province = "izumi"', 'province = "narnia"')
    path = tmp_path / "events.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError, match=r"events.toml: field 'cards.\d+.province': unknown province 'narnia'"):
        load_events(path, provinces=set(content().provinces))
