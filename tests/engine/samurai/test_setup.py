"""Setup: deal, starting spearmen, placement rounds, swords, army screens, deployment."""

from __future__ import annotations

import pytest

from engine import IllegalChoice
from engine.samurai import board
from engine.samurai.setup import deal_count

from .helpers import G, advance_to, new, prompt_for, step_default, submit

BASE = {5: (13, 25, 11, 3), 4: (17, 29, 7, 0), 3: (22, 34, 2, 2)}


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_base_deal_and_one_spearman_each(seats):
    st = new("base", seats, seed=seats)
    for s in range(seats):
        mine = board.owned(st, s)
        assert len(mine) == BASE[seats][0]
        assert all(st.provinces[p].garrison == {"spearman": 1, "gunner": 0, "swordsman": 0, "bowman": 0}
                   for p in mine)
    assert sorted(st.order) == list(range(seats))
    assert [st.players[s].sword for s in st.order] == list(range(1, seats + 1))


@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("mode", ["base", "quickstart"])
def test_board_after_setup_matches_the_table(seats, mode):
    st = advance_to(new(mode, seats, seed=seats), "plan")
    owned_, on_board, in_tray, empty = BASE[seats]
    for s in range(seats):
        mine = board.owned(st, s)
        assert len(mine) == owned_
        assert sum(st.provinces[p].garrison["spearman"] for p in mine) == on_board
        assert st.players[s].tray["spearman"] == in_tray
        assert st.players[s].koku == max(3, owned_ // 3)
        assert sum(1 for a in st.players[s].armies if a.location) == 3
    assert sum(1 for p in st.provinces.values() if p.owner is None) == empty


def test_base_armies_are_daimyo_bowman_swordsman_two_gunners():
    st = new("base", 3)
    for pl in st.players:
        for a in pl.armies:
            assert a.units == {"spearman": 0, "gunner": 2, "swordsman": 1, "bowman": 1} and a.level == 1
        assert pl.tray["gunner"] == 3 and pl.tray["bowman"] == 6


def test_setup_placement_is_two_spearmen_per_turn_in_sword_order_max_three():
    st = new("base", 3, seed=5, setup="classic")
    first = st.order[0]
    p = prompt_for(st, first)
    assert p.kind == "spear"
    pid = p.options[0].choice["province"]
    st = submit(st, first, {"act": "spear", "province": pid})
    assert [q.seat for q in G.prompts(st)] == [first]
    st = submit(st, first, {"act": "spear", "province": pid})
    assert st.provinces[pid].garrison["spearman"] == 3
    assert G.prompts(st)[0].seat == st.order[1]
    # later: that province is full
    while G.prompts(st)[0].seat != first:
        st = step_default(st)
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match="already holds 3 spearmen"):
        G.submit(st, first, {"act": "spear", "province": pid})
    assert st.model_dump_json() == before


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_quickstart_deals_fewer_and_claims_six(seats):
    st = new("quickstart", seats, seed=2, setup="classic")
    assert all(len(board.owned(st, s)) == {5: 7, 4: 11, 3: 16}[seats] for s in range(seats))
    p = G.prompts(st)[0]
    assert p.kind == "claim"
    target = p.default["province"]
    assert st.provinces[target].owner is None
    st2 = submit(st, p.seat, p.default)
    assert st2.provinces[target].owner == p.seat and st2.provinces[target].garrison["spearman"] == 1
    assert prompt_for(st2, p.seat).kind == "spear"


def test_claim_of_an_owned_province_is_refused():
    st = new("quickstart", 3, seed=2, setup="classic")
    p = G.prompts(st)[0]
    theirs = board.owned(st, (p.seat + 1) % 3)[0]
    with pytest.raises(IllegalChoice, match="is not unoccupied"):
        G.submit(st, p.seat, {"act": "claim", "province": theirs})


def test_lwtv_kyoto_and_osaka_are_neutral_fortresses_and_the_deal_fits_66():
    for seats in (3, 4, 5):
        st = new("lwtv", seats, seed=9)
        for pid in ("yamashiro", "settsu"):
            prov = st.provinces[pid]
            assert prov.neutral and prov.owner is None and prov.fort == 2
        n = deal_count("lwtv", seats)
        assert (n + 6) * seats <= 66
        assert all(len(board.owned(st, s)) == n for s in range(seats))
        assert st.castles == 8 and st.bases == 3
        assert len(st.deck) >= 16
    assert deal_count("lwtv", 4) == 10 and deal_count("lwtv", 5) == 7 and deal_count("lwtv", 3) == 16


def test_army_screens_are_secret_and_checked():
    st = advance_to(new("quickstart", 3, seed=4, setup="classic"), "screens")
    p = prompt_for(st, 0)
    assert p.kind == "army_screen" and p.secret and p.input == "numbers" and len(p.fields) == 3
    with pytest.raises(IllegalChoice, match="at most 4 samurai"):
        G.submit(st, 0, {"bowman": 3, "swordsman": 2, "gunner": 0})
    with pytest.raises(IllegalChoice, match="armies 2 and 3 could not hold"):
        G.submit(st, 0, {"bowman": 0, "swordsman": 1, "gunner": 0})
    st = submit(st, 0, {"bowman": 4, "swordsman": 0, "gunner": 6})
    st = submit(st, 0, {"bowman": 1, "swordsman": 3, "gunner": 0})
    assert prompt_for(st, 0).answered
    pub = G.view(st, None)
    assert "a1" not in str(pub) and st.phase == "screens"
    st = submit(st, 1, G.prompts(st)[1].default)
    st = submit(st, 1, prompt_for(st, 1).default)
    st = submit(st, 2, prompt_for(st, 2).default)
    st = submit(st, 2, prompt_for(st, 2).default)
    assert st.phase == "deploy"
    units = [a.units for a in st.players[0].armies]
    assert units[0] == {"spearman": 0, "gunner": 6, "swordsman": 0, "bowman": 4}
    assert units[2] == {"spearman": 0, "gunner": 0, "swordsman": 2, "bowman": 0}
    assert st.players[0].tray == {"spearman": 36 - 16 - 18, "gunner": 3, "swordsman": 4, "bowman": 4}


def test_deploy_one_army_at_a_time_in_sword_order_one_per_province():
    st = advance_to(new("base", 3, seed=3, setup="classic"), "deploy")
    order = list(st.order)
    seen = []
    for _ in range(9):
        p = G.prompts(st)[0]
        seen.append(p.seat)
        st = submit(st, p.seat, p.default)
    assert seen == order * 3
    for pl in st.players:
        locs = [a.location for a in pl.armies]
        assert len(set(locs)) == 3 and all(st.provinces[x].owner == pl.seat for x in locs)
