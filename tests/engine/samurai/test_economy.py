"""Actions 1-6 and 9: plan, turn order, build, levy, ronin, ninja, koku, at the classic pace
(option steps="classic": each action its own step). The combined pace: test_pace.py."""

from __future__ import annotations

import json

import pytest

from engine import IllegalChoice
from engine.samurai import board, rounds
from engine.samurai.content import content

from .helpers import G, advance_to, first_open, new, prompt_for, submit

ZERO = {"swords": 0, "build": 0, "levy": 0, "ronin": 0, "ninja": 0}


@pytest.fixture(scope="module")
def planning():
    return advance_to(new("base", 3, seed=11, steps="classic"), "plan")


def plan(**bins):
    return {**ZERO, **bins}


def all_plans(st, plans):
    for seat, p in plans.items():
        st = submit(st, seat, p)
    return st


def test_plan_is_one_numbers_prompt_of_five_bins(planning):
    p = prompt_for(planning, 0)
    assert p.input == "numbers" and p.secret and [f.name for f in p.fields] == list(ZERO)
    assert sum(p.default.values()) == planning.players[0].koku


def test_plan_must_place_all_koku_and_build_is_0_or_2(planning):
    k = planning.players[0].koku
    before = planning.model_dump_json()
    with pytest.raises(IllegalChoice, match=f"must place all {k} koku"):
        G.submit(planning, 0, plan(levy=k - 1))
    with pytest.raises(IllegalChoice, match="0 or 2"):
        G.submit(planning, 0, plan(build=1, levy=k - 1))
    assert planning.model_dump_json() == before


def test_sealed_plan_is_revisable_and_hidden_until_all_are_in(planning):
    k = planning.players[0].koku
    st = submit(planning, 0, plan(levy=k - 3, ronin=3))
    st = submit(st, 0, plan(levy=k - 2, ninja=2))
    assert prompt_for(st, 0).answered and st.phase == "plan"
    assert st.players[0].draft["plan"]["ninja"] == 2
    assert G.view(st, 1)["seats"][0]["plan"] is None
    assert "sealed" in G.view(st, 0)["you"] and G.view(st, 0)["you"]["sealed"]["plan"]["ninja"] == 2
    assert G.view(st, 1)["you"]["sealed"] is None


def test_turn_order_highest_bidder_chooses_first_non_bidders_draw(planning):
    ks = [planning.players[s].koku for s in range(3)]
    st = all_plans(planning, {0: plan(levy=ks[0] - 1, swords=1), 1: plan(levy=ks[1] - 2, swords=2),
                              2: plan(levy=ks[2])})
    assert st.phase == "swords"
    p = G.prompts(st)[0]
    assert p.seat == 1 and p.kind == "sword"
    st = submit(st, 1, {"act": "sword", "position": 3})
    p = G.prompts(st)[0]
    assert p.seat == 0
    with pytest.raises(IllegalChoice, match="sword 3 is not available"):
        G.submit(st, 0, {"act": "sword", "position": 3})
    st = submit(st, 0, {"act": "sword", "position": 2})
    assert st.players[2].sword == 1 and st.order == [2, 0, 1]


def test_tied_bids_are_broken_by_the_seeded_draw(planning):
    ks = [planning.players[s].koku for s in range(3)]
    firsts = set()
    for seed in range(8):
        st = planning.model_copy(deep=True)
        st.seed = seed
        st = all_plans(st, {s: plan(levy=ks[s] - 1, swords=1) for s in range(3)})
        firsts.add(G.prompts(st)[0].seat)
    assert len(firsts) > 1


def to_build(st, builds: dict[int, bool]):
    ks = [st.players[s].koku for s in range(3)]
    return all_plans(st, {s: plan(build=2, levy=ks[s] - 2) if builds.get(s) else plan(levy=ks[s])
                          for s in range(3)})


def test_build_castle_then_fortress_upgrade_only_on_own_province(planning):
    st = to_build(planning, {0: True})
    assert st.phase == "build"
    p = G.prompts(st)[0]
    assert p.seat == 0 and p.kind == "build"
    theirs = board.owned(st, 1)[0]
    with pytest.raises(IllegalChoice, match="you do not own"):
        G.submit(st, 0, {"act": "build", "province": theirs})
    mine = board.owned(st, 0)[0]
    st = submit(st, 0, {"act": "build", "province": mine})
    assert st.provinces[mine].fort == 1 and st.castles == 9 and st.phase == "levy"


def test_build_without_supply_loses_the_koku(planning):
    st = planning.model_copy(deep=True)
    st.castles = 0
    st = to_build(st, {0: True})
    assert st.phase == "levy"
    assert all(p.fort == 0 for p in st.provinces.values())


def test_builds_served_in_turn_order_when_supply_is_short(planning):
    st = planning.model_copy(deep=True)
    st.castles = 1
    st = to_build(st, {0: True, 1: True, 2: True})
    first = st.order[0]
    assert G.prompts(st)[0].seat == first
    st = submit(st, first, G.prompts(st)[0].default)
    assert st.castles == 0 and st.phase == "levy"


def to_levy(st, budgets: dict[int, int]):
    ks = [st.players[s].koku for s in range(3)]
    return all_plans(st, {s: plan(levy=budgets.get(s, 0), ninja=ks[s] - budgets.get(s, 0)) for s in range(3)})


def test_levy_limits_budget_provinces_and_tray(planning):
    st = to_levy(planning, {0: 5})
    assert st.phase == "levy"
    p = prompt_for(st, 0)
    assert p.input == "numbers" and p.secret and len(p.fields) == 4
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match="cost 6 koku but your levy bin holds 5"):
        G.submit(st, 0, {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 2})
    st2 = st.model_copy(deep=True)
    for pid in board.owned(st2, 0)[2:]:
        st2.provinces[pid].owner = None
    with pytest.raises(IllegalChoice, match="one unit per province you own"):
        G.submit(st2, 0, {"spearman": 3, "gunner": 0, "swordsman": 0, "bowman": 0})
    st3 = st.model_copy(deep=True)
    st3.players[0].tray["gunner"] = 1
    with pytest.raises(IllegalChoice, match="only 1 gunners are left"):
        G.submit(st3, 0, {"spearman": 0, "gunner": 2, "swordsman": 0, "bowman": 0})
    with pytest.raises(IllegalChoice, match="unknown field 'pikemen'"):
        G.submit(st, 0, {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 0, "pikemen": 1})
    assert st.model_dump_json() == before


def test_levy_placement_one_per_province_and_stacking(planning):
    st = to_levy(planning, {0: 3})
    st.players[0].tray["spearman"] = 10
    st = submit(st, 0, {"spearman": 3, "gunner": 0, "swordsman": 0, "bowman": 0})
    assert st.phase == "place"
    p = prompt_for(st, 0)
    assert p.kind == "place" and p.secret
    mine = [pid for pid in board.owned(st, 0) if board.army_at(st, pid) is None]
    full = mine[1]
    st.provinces[full].garrison["spearman"] = 5
    st = submit(st, 0, {"act": "place", "province": mine[0], "to": "garrison"})
    with pytest.raises(IllegalChoice, match="one per province"):
        G.submit(st, 0, {"act": "place", "province": mine[0], "to": "garrison"})
    with pytest.raises(IllegalChoice, match="full"):
        G.submit(st, 0, {"act": "place", "province": full, "to": "garrison"})
    theirs = board.owned(st, 1)[0]
    with pytest.raises(IllegalChoice, match="you do not own"):
        G.submit(st, 0, {"act": "place", "province": theirs, "to": "garrison"})
    army = st.players[0].armies[0]
    st = submit(st, 0, {"act": "place", "province": army.location, "to": "army"})
    st = submit(st, 0, {"act": "undo"})
    st = submit(st, 0, {"act": "place", "province": army.location, "to": "army"})
    before_g = st.provinces[mine[0]].garrison["spearman"]
    pub = json.dumps(G.view(st, None))
    assert "placed" not in pub
    st = submit(st, 0, {"act": "skip"})
    assert st.phase != "place"
    assert st.provinces[mine[0]].garrison["spearman"] == before_g + 1
    assert st.players[0].armies[0].units["spearman"] == 1
    assert st.players[0].tray["spearman"] == 10 - 2


def test_army_card_limits_four_samurai(planning):
    st = to_levy(planning, {0: 6})
    st.players[0].armies[0].units["swordsman"] = 2
    st = submit(st, 0, {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 2})
    loc = st.players[0].armies[0].location
    st = submit(st, 0, {"act": "place", "province": loc, "to": "army"})
    other = st.players[0].armies[1].location
    st2 = st.model_copy(deep=True)
    st2.players[0].armies[1].units["bowman"] = 3
    with pytest.raises(IllegalChoice, match="has room"):
        G.submit(st2, 0, {"act": "place", "province": other, "to": "army"})


def to_ronin(st, ronin: dict[int, int]):
    ks = [st.players[s].koku for s in range(3)]
    return all_plans(st, {s: plan(ronin=ronin.get(s, 0), swords=ks[s] - ronin.get(s, 0)) for s in range(3)})


def finish_swords(st):
    while st.phase in ("swords", "build", "levy", "place"):
        p = first_open(st)
        st = submit(st, p.seat, p.default)
    return st


def test_ronin_two_per_koku_hidden_and_never_outnumbering(planning):
    st = finish_swords(to_ronin(planning, {0: 2}))
    assert st.phase == "ronin" and st.players[0].draft["ronin_todo"] == 4
    p = prompt_for(st, 0)
    assert p.secret and p.kind == "ronin"
    loc = st.players[0].armies[0].location
    regulars = board.regulars_in(st, loc)
    with pytest.raises(IllegalChoice, match="only"):
        G.submit(st, 0, {"act": "ronin", "province": loc, "to": "army", "count": regulars})
    lone = [pid for pid in board.owned(st, 0) if board.regulars_in(st, pid) == 1][0]
    with pytest.raises(IllegalChoice, match="never outnumber"):
        G.submit(st, 0, {"act": "ronin", "province": lone, "to": "garrison", "count": 1})
    st = submit(st, 0, {"act": "ronin", "province": loc, "to": "army", "count": 3})
    st = submit(st, 0, {"act": "release"})
    assert st.phase == "war"
    a = st.players[0].armies[0]
    assert a.ronin == 3 and not a.ronin_revealed
    assert st.ronin_pool == 26 - 3
    pub = G.view(st, None)
    assert all(m["ronin"] is None for m in pub["armies"])
    assert G.view(st, 0)["you"]["armies"][0]["ronin"] == 3


def test_ronin_pool_shortage_served_in_turn_order(planning):
    st = planning.model_copy(deep=True)
    st.ronin_pool = 5
    for s in range(3):
        st.players[s].koku = 6
    st = finish_swords(all_plans(st, {s: plan(ronin=3, swords=3) for s in range(3)}))
    got = [st.players[s].ronin_hired for s in st.order]
    assert got == [5, 0, 0]


def test_ninja_goes_to_the_single_highest_bid_and_ties_hire_nobody(planning):
    ks = [planning.players[s].koku for s in range(3)]
    st = finish_swords(all_plans(planning, {0: plan(ninja=2, levy=ks[0] - 2), 1: plan(ninja=1, levy=ks[1] - 1),
                                            2: plan(levy=ks[2])}))
    assert st.phase == "war" and st.ninja == 0
    st = finish_swords(all_plans(planning, {0: plan(ninja=2, levy=ks[0] - 2), 1: plan(ninja=2, levy=ks[1] - 2),
                                            2: plan(levy=ks[2])}))
    assert st.ninja is None


def test_spy_sees_one_plan_and_revises_before_the_reveal(planning):
    st = planning.model_copy(deep=True)
    st.ninja = 0
    ks = [st.players[s].koku for s in range(3)]
    st = all_plans(st, {0: plan(levy=ks[0]), 1: plan(swords=ks[1]), 2: plan(levy=ks[2])})
    assert st.phase == "spy" and G.prompts(st)[0].kind == "spy"
    step = G.submit(st, 0, {"act": "spy", "seat": 1})
    spied = [e for e in step.events if e.kind == "spy"]
    assert spied and spied[0].seats == [0] and spied[0].data["plan"]["swords"] == ks[1]
    st = step.state
    assert G.prompts(st)[0].kind == "plan_revise"
    st = submit(st, 0, plan(swords=ks[0]))
    assert st.phase == "swords" and st.players[0].plan.swords == ks[0] and st.ninja is None


def test_koku_one_per_three_provinces_minimum_three_osaka_bonus():
    st = advance_to(new("lwtv", 3, seed=3), "plan")
    for pid in board.owned(st, 0)[4:]:
        st.provinces[pid].owner = None
    assert board.income(st, 0) == 3
    mine = [p for p in st.provinces if st.provinces[p].owner is None and not st.provinces[p].neutral][:14]
    for pid in mine:
        st.provinces[pid].owner = 0
    n = len(board.owned(st, 0))
    assert board.income(st, 0) == max(3, n // 3)
    st.provinces["settsu"].owner = 0
    assert board.income(st, 0) == max(3, (n + 1) // 3) + 1


def test_event_effects_resolve_as_printed():
    from engine.samurai.content import content

    from .helpers import blank, opponents_elsewhere, own
    st = blank(advance_to(new("lwtv", 3, seed=3), "plan"))
    opponents_elsewhere(st)
    own(st, 0, "chikuzen", spearman=2)
    own(st, 0, "chikugo", spearman=4)
    own(st, 1, "higo", spearman=1)
    st.players[0].tray["spearman"] = 10
    cards = content().cards
    ev: list = []
    st.players[0].koku = 1
    rounds.apply_event(st, ev, 0, cards["tax_revolt"])
    rounds.apply_event(st, ev, 0, cards["tax_revolt"])
    assert st.players[0].koku == 0
    rounds.apply_event(st, ev, 0, cards["rice_harvest"])
    assert st.players[0].koku == 2
    rounds.apply_event(st, ev, 0, cards["peasant_levy"])
    assert [st.provinces[p].garrison["spearman"] for p in ("tosa", "chikuzen", "chikugo")] == [2, 3, 5]
    castles = st.castles
    rounds.apply_event(st, ev, 0, cards["master_mason"])
    assert st.provinces["chikugo"].fort == 1 and st.castles == castles - 1
    rounds.apply_event(st, ev, 0, cards["war_council"])
    assert st.players[0].armies[2].level == 2
    rounds.apply_event(st, ev, 0, cards["typhoon_west"])
    assert [st.provinces[p].garrison["spearman"] for p in ("chikuzen", "chikugo", "higo", "tosa")] == [2, 4, 1, 2]
    rounds.apply_event(st, ev, 0, cards["restless_camps"])
    assert st.provinces["chikugo"].garrison["spearman"] == 3


def test_round_limit_ends_with_most_provinces():
    from .helpers import step_default
    st = new("base", 3, seed=31, round_limit=1)
    for _ in range(3000):
        if G.result(st):
            break
        st = step_default(st)
    res = G.result(st)
    assert res is not None and "round limit (1)" in res.reason and st.round == 1
    best = max(len(board.owned(st, s)) for s in range(3))
    assert all(len(board.owned(st, s)) == best for s in res.winners)


def test_every_action_of_a_round_ends_with_a_phase_end_event():
    st = advance_to(new("base", 3, seed=41, steps="classic"), "plan")
    kinds = []
    start = st.round
    while st.round == start and G.result(st) is None:
        p = first_open(st)
        step = G.submit(st, p.seat, p.default)
        kinds += [e.kind for e in step.events if e.phase_end]
        st = step.state
    assert kinds == ["plans", "turn_order", "build", "levy", "ronin", "war_turn", "war_turn", "war_turn", "koku"]


def test_bowman_placement_asks_for_a_region_that_lists_the_players_provinces_in_it(planning):
    """22 provinces do not fit one select: the regions come first, each naming the provinces it holds."""
    st = to_levy(planning, {0: 3})
    st = submit(st, 0, {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 1})
    p = prompt_for(st, 0)
    assert p.kind == "place" and "bowman" in p.text and "region" in p.text and "map" in p.text
    groups = [o for o in p.options if o.choice.get("act") == "region"]
    assert len(groups) >= 2
    region_of = content().region_of
    mine = board.owned(st, 0)
    for o in groups:
        region = o.choice["region"]
        names = [board.province_name(pid) for pid in mine if region_of[pid] == region]
        assert o.label.startswith(f"{region}: {len(names)} province")
        assert all(name in o.description for name in names[:3]), (o.label, o.description)
    region = groups[0].choice["region"]
    st = submit(st, 0, groups[0].choice)
    p = prompt_for(st, 0)
    assert f"Provinces in {region}:" in p.text
    picks = {o.choice["province"] for o in p.options if o.choice.get("act") == "place"}
    assert picks and all(region_of[pid] == region for pid in picks)
