"""The Samurai Swords map and private screen: size, colours, names, secrecy, layout, threads."""

from __future__ import annotations

import copy
import itertools
from concurrent.futures import ThreadPoolExecutor

import pytest
from pydantic import ValidationError

import engine
import render
from bot.simulate import simulate
from render import palette
from render import samurai as sam
from render.labels import inside
from tests.render import samurai_views as sv
from tests.render.helpers import diff_fraction, has_colour, open_png

FIXTURES = sv.ALL


def _legend_name_box(index: int, count: int) -> tuple[int, int, int, int]:
    x, y, w = sam.legend_origin(index, count)
    return (x + 40, y + 6, x + w - 90, y + 34)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("name", FIXTURES)
def test_map_is_a_png_of_the_expected_size_and_weight(name: str) -> None:
    data = render.draw("samurai", sv.public(name), sv.names(name))
    assert open_png(data).size == (sam.WIDTH, sam.HEIGHT)
    assert len(data) <= 400 * 1024


@pytest.mark.parametrize("name", FIXTURES)
def test_each_seat_colour_is_in_its_legend_card_and_on_the_map(name: str) -> None:
    v = sv.public(name)
    img = open_png(render.draw("samurai", v))
    n = len(v["seats"])
    for i, seat in enumerate(v["seats"]):
        colour = palette.seat_colour(seat["seat"])
        x, y, _ = sam.legend_origin(i, n)
        assert has_colour(img, colour, (x, y, x + 40, y + 40), tol=6), f"seat {i} swatch"
        if seat["provinces"]:
            assert has_colour(img, colour, sam.MAP_BOX, tol=6), f"seat {i} on the map"
            assert has_colour(img, sam.OWNER_TINT[seat["seat"]], sam.MAP_BOX, tol=3), f"seat {i} province tint"


@pytest.mark.parametrize("name", ["base4_battle", "qs5_levy"])
def test_each_seat_name_is_drawn_in_its_legend_card(name: str) -> None:
    v = sv.public(name)
    n = len(v["seats"])
    base = open_png(render.draw("samurai", v, sv.NAMES_5[:n]))
    default = open_png(render.draw("samurai", v))
    for i in range(n):
        other = list(sv.NAMES_5[:n])
        other[i] = "Zoltan"
        changed = open_png(render.draw("samurai", v, other))
        assert diff_fraction(base, changed, box=_legend_name_box(i, n)) > 0.01, f"name of seat {i} not drawn"
        for j in range(n):
            if j != i:
                assert diff_fraction(base, changed, box=_legend_name_box(j, n)) == 0
        assert diff_fraction(base, default, box=_legend_name_box(i, n)) > 0.01  # "Player N" by default


def test_event_seat_references_are_filled_with_names() -> None:
    v = sv.public("base4_battle")
    assert any("[[seat:" in e for e in v["last_events"])
    a = open_png(render.draw("samurai", v, ["Aiko", "Benkei", "Chiyo", "Daisuke"]))
    b = open_png(render.draw("samurai", v, ["Aiko", "Benkei", "Chiyo", "Zebulon-Maximilian"]))
    assert diff_fraction(a, b, box=sam.EVENTS_BOX) > 0.002
    long_names = open_png(render.draw("samurai", v, ["Дмитрий", "李小龍🐉", "Ελένη", "Bartholomew the Magnificent III"]))
    assert long_names.size == (sam.WIDTH, sam.HEIGHT)


@pytest.mark.parametrize("name", FIXTURES)
def test_public_image_ignores_you_and_hidden_compositions(name: str) -> None:
    data = sv.load(name)
    public = data["public"]
    expected = render.draw("samurai", public)
    for seat, you in data["you"].items():
        seat_view = copy.deepcopy(public)
        seat_view["you"] = you
        assert render.draw("samurai", seat_view) == expected, f"seat {seat}'s view leaks"
        # the same public state with other secrets: other army screens, hidden ronin, sealed choices
        other = copy.deepcopy(seat_view)
        for army in other["you"]["armies"]:
            army["units"] = {"spearman": 9, "gunner": 4, "swordsman": 0, "bowman": 2}
            army["ronin"] = 5
        other["you"]["ronin"] = [{"province": p["id"], "ronin": 3} for p in public["provinces"][:4]]
        other["you"]["sealed"] = {"plan": {"swords": 3, "build": 2, "levy": 1, "ronin": 1, "ninja": 1}}
        other["you"]["hand"] = [{"id": "x", "title": "Secret", "text": "Hold Kyoto."}]
        other["you"]["koku"] = 99
        assert render.draw("samurai", other) == expected


@pytest.mark.parametrize("where", ["top", "province", "army"])
def test_a_field_the_view_model_lacks_is_refused(where: str) -> None:
    """The view model is the allow-list: an army's units or any undeclared key cannot be drawn, it is refused."""
    public = sv.public("base4_battle")
    target = {"top": public, "province": public["provinces"][0], "army": public["armies"][0]}[where]
    target["units"] = {"spearman": 4}
    with pytest.raises(ValidationError):
        render.draw("samurai", public)


def test_public_changes_do_show() -> None:
    """The secrecy test could pass by drawing nothing: a revealed ronin and an owner change must show."""
    v = sv.public("base4_battle")
    base = open_png(render.draw("samurai", v))
    st = sam.static_layer(v)
    w = copy.deepcopy(v)
    p = w["provinces"][10]
    p["ronin"] = 3
    c = st.whole.point(st.whole.centres[p["id"]])
    box = (c[0] - 20, c[1] - 20, c[0] + 30, c[1] + 30)
    assert diff_fraction(base, open_png(render.draw("samurai", w)), box=box) > 0.02
    w = copy.deepcopy(v)
    w["provinces"][10]["owner"] = (v["provinces"][10]["owner"] + 1) % len(v["seats"])
    assert diff_fraction(base, open_png(render.draw("samurai", w)), box=box) > 0.05


def _check_layout(v: dict) -> dict[str, tuple[dict, dict, dict]]:
    scenes = sam.placements(v)
    for scene, (badges, labels, feet) in scenes.items():
        box = sam.MAP_BOX if scene == "whole" else sam.INSET_MAP
        for (a, ba), (b, bb) in itertools.combinations(feet.items(), 2):
            assert not _overlap(ba, bb), f"{scene}: nodes {a} and {b} overlap"
        for (a, ba), (b, bb) in itertools.combinations(labels.items(), 2):
            assert not _overlap(ba, bb), f"{scene}: labels {a} and {b} overlap"
        for (a, ba), (b, bb) in itertools.combinations(badges.items(), 2):
            assert not _overlap(ba, bb), f"{scene}: army badges at {a} and {b} overlap"
        for pid, b in list(labels.items()) + list(badges.items()) + list(feet.items()):
            assert inside(b, box), f"{scene}: {pid} leaves its map"
        for pid, b in list(labels.items()) + list(badges.items()):
            for q, f in feet.items():
                assert not _overlap(b, f), f"{scene}: {pid}'s label or badge covers node {q}"
        for (a, ba), (b, bb) in itertools.product(badges.items(), labels.items()):
            assert not _overlap(ba, bb), f"{scene}: army badge at {a} covers the name of {b}"
    assert len(scenes["whole"][2]) == len(v["provinces"]) == 68
    return scenes


@pytest.mark.parametrize("name", FIXTURES)
def test_labels_badges_and_nodes_never_overlap(name: str) -> None:
    v = sv.public(name)
    scenes = _check_layout(v)
    whole_badges, whole_labels, _ = scenes["whole"]
    inset_badges, inset_labels, inset_feet = scenes["inset"]
    assert not set(whole_labels) & set(inset_labels), "a province is named on both maps"
    assert len(set(whole_labels) | set(inset_labels)) >= 64  # nearly every province is named once
    armies = {a["location"] for a in v["armies"] if a["alive"]}
    assert set(whole_badges) == armies
    assert set(inset_badges) == armies & set(inset_feet)
    assert armies <= set(whole_labels) | set(inset_labels), "a province with an army lost its name"


def test_crowded_kinai_armies_still_do_not_overlap() -> None:
    """Fifteen armies packed into the crowded middle of Honshu."""
    v = sv.public("qs5_levy")
    kinai = ["yamashiro", "settsu", "kawachi", "izumi", "yamato", "iga", "omi", "tanba", "wakasa", "harima",
             "mino", "owari", "ise", "echizen", "mimasaka"]
    for k, (army, pid) in enumerate(zip(v["armies"], kinai, strict=False)):
        army.update(alive=True, location=pid, seat=k % 5, army=k // 5)
    for p in v["provinces"]:
        p["army"] = next((a for a in v["armies"] if a["location"] == p["id"]), None)
    scenes = _check_layout(v)
    badges, labels, _ = scenes["whole"]
    assert len(badges) == 15
    assert set(badges) <= set(labels) | set(scenes["inset"][1])
    render.draw("samurai", v)


def test_battle_declarations_and_result_are_visible() -> None:
    v = sv.public("base4_battle")
    target = v["war"]["battle"]["target"]
    img = open_png(render.draw("samurai", v))
    calm = copy.deepcopy(v)
    calm["war"]["battle"] = None
    other = open_png(render.draw("samurai", calm))
    whole = sam.static_layer(v).whole
    cx, cy = whole.point(whole.centres[target])
    assert diff_fraction(img, other, box=(cx - 30, cy - 30, cx + 30, cy + 30)) > 0.1
    assert has_colour(img, palette.COMBAT, sam.WAR_BOX)

    w = sv.public("lwtv4_war")
    dec = w["war"]["declarations"][0]
    plain = copy.deepcopy(w)
    plain["war"]["declarations"] = []
    a, b = open_png(render.draw("samurai", w)), open_png(render.draw("samurai", plain))
    whole = sam.static_layer(w).whole
    (sx, sy), (tx, ty) = (whole.point(whole.centres[dec[k]]) for k in ("source", "target"))
    mid = ((sx + tx) // 2, (sy + ty) // 2)
    assert diff_fraction(a, b, box=(mid[0] - 8, mid[1] - 8, mid[0] + 8, mid[1] + 8)) > 0.1

    over = sv.public("base3_over")
    running = copy.deepcopy(over)
    running["result"] = None
    band = sam.RESULT_BOX
    assert diff_fraction(open_png(render.draw("samurai", over)), open_png(render.draw("samurai", running)), box=band) > 0.2


def test_static_layer_is_built_once_per_map() -> None:
    v = sv.public("base3_plan")
    v["map"] = "cache-probe"
    render.draw("samurai", v)
    builds = sam._STATIC.builds
    for name in FIXTURES:
        w = sv.public(name)
        w["map"] = "cache-probe"
        render.draw("samurai", w)
    assert sam._STATIC.builds == builds


def test_concurrent_draws_give_the_same_bytes_as_sequential() -> None:
    jobs = [(name, seat) for name in FIXTURES for seat in (None, 0)] * 2

    def work(job: tuple[str, int | None]) -> bytes:
        name, seat = job
        if seat is None:
            return render.draw("samurai", sv.public(name), sv.names(name))
        return render.draw_private("samurai", sv.seat_view(name, seat), sv.names(name))

    sam._STATIC.clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        concurrent = list(pool.map(work, jobs))
    sequential = [work(j) for j in jobs]
    assert concurrent == sequential


def test_private_screen_shows_the_seat_armies_sealed_choice_and_hand() -> None:
    v = sv.seat_view("lwtv4_war", 1)
    img = open_png(render.draw_private("samurai", v, sv.names("lwtv4_war")))
    assert img.size == sam.PRIVATE_SIZE
    assert has_colour(img, palette.seat_colour(1), (0, 0, sam.PRIVATE_SIZE[0], 60), tol=6)
    # the army screen: other units change the left column only
    w = copy.deepcopy(v)
    w["you"]["armies"][0]["units"]["spearman"] += 5
    changed = open_png(render.draw_private("samurai", w, sv.names("lwtv4_war")))
    assert diff_fraction(img, changed, box=(12, 90, 520, 170)) > 0.001
    assert diff_fraction(img, changed, box=(530, 60, 900, 560)) == 0
    # a sealed choice appears in the right column
    w = copy.deepcopy(v)
    w["you"]["sealed"] = {"levy": {"spearman": 3, "gunner": 1, "swordsman": 0, "bowman": 0}}
    sealed = open_png(render.draw_private("samurai", w, sv.names("lwtv4_war")))
    assert diff_fraction(img, sealed, box=(530, 60, 900, 200)) > 0.01
    # the hand of objectives is drawn
    w = copy.deepcopy(v)
    w["you"]["hand"] = []
    empty = open_png(render.draw_private("samurai", w, sv.names("lwtv4_war")))
    assert diff_fraction(img, empty, box=(530, 140, 900, 400)) > 0.01
    # another seat's screen differs
    other = open_png(render.draw_private("samurai", sv.seat_view("lwtv4_war", 2), sv.names("lwtv4_war")))
    assert diff_fraction(img, other, box=(0, 60, 520, 300)) > 0.01


def test_private_screen_of_a_sealed_plan_and_hidden_ronin() -> None:
    v = sv.seat_view("base3_plan", 1)
    assert v["you"]["sealed"]
    a = open_png(render.draw_private("samurai", v))
    w = copy.deepcopy(v)
    w["you"]["sealed"] = None
    w["you"]["ronin"] = [{"province": "echigo", "ronin": 2}]
    b = open_png(render.draw_private("samurai", w))
    assert diff_fraction(a, b, box=(530, 60, 900, 220)) > 0.01
    assert diff_fraction(a, b, box=(0, 300, 520, 420)) > 0.002


@pytest.mark.parametrize("mode", ["base", "lwtv"])
def test_a_whole_seeded_match_renders_at_every_phase_end(mode: str) -> None:
    game = engine.get("samurai")
    drawn = {"public": 0, "private": 0}
    names = ["Aiko", "Benkei", "Chiyo"]

    def on_step(state: object, events: list) -> None:
        if not any(e.phase_end for e in events):
            return
        pub = game.view(state, None)
        img = open_png(render.draw("samurai", pub, names))
        assert img.size == (sam.WIDTH, sam.HEIGHT)
        drawn["public"] += 1
        seat = drawn["public"] % 3
        assert open_png(render.draw_private("samurai", game.view(state, seat), names)).size == sam.PRIVATE_SIZE
        drawn["private"] += 1

    simulate("samurai", 3, 17, options={"round_limit": 1 if mode == "lwtv" else 2, "mode": mode}, on_step=on_step)
    assert drawn["public"] >= 6


def test_assassinated_army_and_revealed_ronin_are_marked() -> None:
    v = sv.public("base4_battle")
    army = next(a for a in v["armies"] if a["alive"])
    box = sam.placements(v)["whole"][0][army["location"]]
    base = open_png(render.draw("samurai", v))
    w = copy.deepcopy(v)
    next(a for a in w["armies"] if a["seat"] == army["seat"] and a["army"] == army["army"])["assassinated"] = True
    assert diff_fraction(base, open_png(render.draw("samurai", w)), box=box) > 0.03
    w = copy.deepcopy(v)
    next(a for a in w["armies"] if a["seat"] == army["seat"] and a["army"] == army["army"])["ronin"] = 2
    whole = sam.static_layer(v).whole
    pill = whole.to_canvas(whole.marks.pill(whole.centres[army["location"]]))
    assert diff_fraction(base, open_png(render.draw("samurai", w)), box=pill) > 0.05


def test_the_two_awa_are_told_apart() -> None:
    v = sv.public("base4_battle")
    labels = sam.static_layer(v).atlas.labels
    assert labels["awa_boso"] == "Awa (Boso)" and labels["awa_shikoku"] == "Awa (Shikoku)"
    assert labels["yamashiro"] == "Yamashiro" and labels["settsu"] == "Settsu", "other cities stay off the map"
    assert sam.display_names({"a": "Awa (Boso)", "b": "Awa (Shikoku)", "c": "Awaji"}) == {
        "a": "Awa (Boso)", "b": "Awa (Shikoku)", "c": "Awaji"}
    _, _, _, whole, inset = sam.layout(v)
    drawn = {lab.text for lab in (*whole.labels.values(), *inset.labels.values())}
    assert {"Awa (Boso)", "Awa (Shikoku)"} <= drawn
    assert "Awa" not in drawn


def test_the_inset_enlarges_the_battle_and_names_it_large() -> None:
    v = sv.public("base4_battle")
    wanted, crop, shown, whole, inset = sam.layout(v)
    target = v["war"]["battle"]["target"]
    assert wanted.kind == "battle" and shown[0] == target
    assert crop.zoom >= 1.8
    assert target in inset.centres and inset.labels[target].px > whole.marks.label_px
    assert inset.marks.node_r > whole.marks.node_r
    # the battle shows in the inset, and the caption says where
    calm = copy.deepcopy(v)
    calm["war"]["battle"] = None
    a, b = open_png(render.draw("samurai", v)), open_png(render.draw("samurai", calm))
    cx, cy = inset.point(inset.centres[target])
    assert diff_fraction(a, b, box=(cx - 40, cy - 40, cx + 40, cy + 40)) > 0.1
    caption = (0, sam.INSET_BOX[1], sam.WIDTH, sam.INSET_MAP[1])
    assert diff_fraction(a, b, box=caption) > 0.02


def test_the_inset_follows_declarations_then_the_latest_events() -> None:
    v = sv.public("lwtv4_war")
    dec = v["war"]["declarations"][0]
    wanted, _, shown, _, inset = sam.layout(v)
    assert wanted.kind == "war" and shown[:2] == (dec["target"], dec["source"])
    assert {dec["target"], dec["source"]} <= set(inset.centres)
    w = sv.public("qs5_levy")  # no war: the provinces the events name, the newest first
    wanted, _, shown, _, inset = sam.layout(w)
    assert wanted.kind == "events" and shown[0] == "yamashiro"
    assert "Yamashiro" in wanted.line and inset.labels["yamashiro"].text == "Yamashiro (Kyoto)"
    quiet = copy.deepcopy(w)
    quiet["last_events"] = ["Round 1 begins."]
    wanted, _, shown, _, inset = sam.layout(quiet)
    assert wanted.kind == "region" and shown == () and "yamashiro" in inset.centres
    render.draw("samurai", quiet)


def test_far_apart_events_keep_the_inset_enlarged() -> None:
    """Events at both ends of Japan: the inset keeps the newest and a useful zoom."""
    v = sv.public("qs5_levy")
    v["last_events"] = ["[[seat:0]] takes Satsuma.", "[[seat:1]] takes Mutsu."]
    _, crop, shown, _, inset = sam.layout(v)
    assert shown == ("mutsu",) and crop.zoom >= 1.8 and "mutsu" in inset.centres


def test_the_newest_move_is_shown_whole() -> None:
    """Both ends of an army's long move are in the inset, even if it must zoom out a little for them."""
    v = sv.public("qs5_levy")
    v["last_events"] = ["[[seat:1]] takes Wakasa.", "[[seat:0]] moves army 1 from Totomi to Etchu, claiming it."]
    wanted, crop, shown, _, inset = sam.layout(v)
    assert wanted.first == ("totomi", "etchu") and shown[:2] == ("totomi", "etchu")
    assert {"totomi", "etchu"} <= set(inset.centres) and crop.zoom >= 1.5
    assert "Etchu" in wanted.line


def test_sealed_muster_lines_leave_out_the_engines_bookkeeping() -> None:
    from render.samurai.private import _sealed_lines

    lines = _sealed_lines({"build": None, "levy": {"spearman": 2}, "todo": [], "last": "levy"}, {})
    assert lines == ["levy: spearman 2"]


@pytest.mark.parametrize("name", ["base4_battle", "lwtv4_war"])
def test_the_war_box_names_the_step_in_words(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The war box says what the seat is doing (moving armies, declaring attacks...), never the
    rulebook's letter for it."""
    from render import text as render_text
    from render.samurai import panel

    stamped: list[str] = []
    real = render_text.stamp

    def record(img: object, at: object, line: str, *args: object, **kwargs: object) -> object:
        stamped.append(line)
        return real(img, at, line, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(panel.text, "stamp", record)
    view = sv.public(name)
    render.draw("samurai", view)
    heads = [line for line in stamped if "wages war" in line]
    assert heads and all("step" not in line for line in heads), heads
    assert any(line.endswith(panel.WAR_STEPS[view["war"]["phase"]]) for line in heads), heads
