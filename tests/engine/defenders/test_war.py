"""War Regions (both sides), Dire Enemy on-hit effects, boss round effects and boss passives."""

from __future__ import annotations

import pytest

from engine.defenders.content import content
from engine.defenders.state import DefendersState
from tests.engine.defenders.helpers import (
    G,
    attack,
    calm,
    do,
    find,
    new,
    new_round,
    next_cards,
    options,
    prompt_of,
    reveal,
    turn,
    use,
)


def war(side: str, key: str, **kw: object) -> DefendersState:
    st = calm(new(**kw))  # type: ignore[arg-type]
    r = st.regions[key]
    r.war, r.side = True, side  # type: ignore[assignment]
    if side == "hostile":
        st.war_hostile = key
    else:
        st.war_friendly = [key]
    return st


# ---------------------------------------------------------------------------- hostile sides


def test_hostile_coast_rolls_a_fleet_die_that_attacks_the_region_shown() -> None:
    st = war("hostile", "coast")
    st, events = next_cards(st, "e:bog_raiders", d=1)
    assert st.fleet_dice == 2
    hit = [k for k, r in st.regions.items() if r.fleet_die]
    assert len(hit) == 1
    assert sum(r.threat for r in st.regions.values()) == 3  # forest + coast + the die's attack
    assert st.regions[hit[0]].threat >= 1


def test_hostile_coast_runs_out_of_fleet_dice() -> None:
    st = war("hostile", "coast")
    st.fleet_dice = 0
    st, _ = next_cards(st, "e:bog_raiders", d=1)
    assert sum(r.threat for r in st.regions.values()) == 2


def test_hostile_desert_raises_a_storm_that_costs_ap_and_securing_clears_it() -> None:
    st = war("hostile", "desert")
    st, _ = next_cards(st, "e:ash_goblins", d=1)
    assert st.regions["desert"].storm and st.storms == 2
    st.defenders[0].region = "forest"
    st = turn(st, 0)
    st = do(st, act="move", d=0, to="desert", escort=0)
    assert st.active.ap == 1  # 1 + 1 for the storm
    st = do(st, act="secure", d=0)
    assert not st.regions["desert"].storm and st.regions["desert"].threat == 1 and st.storms == 3


def test_hostile_desert_storm_moves_on_to_the_next_region_without_one() -> None:
    st = war("hostile", "desert")
    st.regions["desert"].storm = True
    st, _ = next_cards(st, "e:ash_goblins", d=1)
    assert st.regions["forest"].storm  # desert is last in the ring; the next one is forest


@pytest.mark.parametrize(("threat", "ap_left"), [(1, 1), (0, 2)])
def test_hostile_forest_leaving_costs_one_more_ap_while_it_holds_threat(threat: int, ap_left: int) -> None:
    st = war("hostile", "forest")
    st.regions["forest"].threat = threat
    st.defenders[0].region = "forest"
    st = turn(st, 0)
    st = do(st, act="move", d=0, to="ruins", escort=0)
    assert st.active.ap == ap_left


def test_hostile_mountains_manticore_adds_threat_to_the_most_threatened_region() -> None:
    st = war("hostile", "mountains")
    st.regions["coast"].threat = 2
    st, _ = next_cards(st, "e:crag_trolls", d=1)
    assert st.manticore == "coast"
    assert st.regions["coast"].threat == 3 and st.regions["mountains"].threat == 1


def test_hostile_plains_shuffle_a_deserter_that_attacks_the_field_when_drawn() -> None:
    st = war("hostile", "plains")
    st, _ = next_cards(st, "e:horn_riders", d=1)
    assert st.soldiers == 4 and st.turn_deck.count("deserter") == 1
    st.regions["plains"].threat = 1
    st.soldiers = 0  # no further deserter joins, so only the drawn one attacks
    st, _ = next_cards(st, "deserter", d=1)
    assert st.regions["plains"].threat == 2


def test_hostile_plains_deserters_leave_once_the_field_is_calm() -> None:
    st = war("hostile", "plains")
    st.soldiers = 4
    st.discard = ["deserter"]
    st.horde, st.caravan_pile = [], []
    st, _ = new_round(st)
    assert "deserter" not in st.turn_deck + st.discard and st.soldiers == 5


def test_hostile_ruins_a_defender_of_the_moor_takes_a_death_token() -> None:
    st = war("hostile", "ruins")
    st.defenders[0].region = "ruins"
    st = attack(st, "ruins")
    st = do(st, 0, "defend", act="defend", d=0)
    d = st.defenders[0]
    assert d.death_tokens == 1 and st.death_tokens == 5
    assert d.hp == 3 and G.view(st, 0) is not None
    from engine.defenders import rules

    assert rules.max_hp(d) == 3


# ---------------------------------------------------------------------------- friendly sides


def test_friendly_coast_privateers_secure_the_region_the_die_shows_once_per_turn() -> None:
    st = war("friendly", "coast")
    for r in st.regions.values():
        r.threat = 1
    st.defenders[0].region = "coast"
    st = turn(st, 0)
    st = use(st, 0, "war")
    assert st.fleet_dice == 2 and st.active.ap == 2
    assert sum(r.threat for r in st.regions.values()) == 5
    assert find(st, act="use", d=0, src="war") is None


def test_friendly_desert_mystic_storm_wards_any_region() -> None:
    st = war("friendly", "desert")
    st.defenders[0].region = "desert"
    st = turn(st, 0)
    st = use(st, 0, "war", target="coast")
    assert st.regions["coast"].wards == 1 and st.storms == 2
    st, _ = next_cards(st, "e:bog_raiders", d=1)
    assert st.regions["coast"].threat == 0 and st.regions["coast"].wards == 0
    assert st.regions["forest"].threat == 1


def test_friendly_forest_great_tree_defends_the_glen_and_its_neighbours_for_free() -> None:
    st = war("friendly", "forest")
    st.defenders[0].region = "forest"
    st.defenders[1].region = "forest"
    st = turn(st, 0)
    st = use(st, 0, "war")
    assert st.defenders[0].in_tree and st.tree == 0
    assert find(st, act="use", d=1, src="war") is None
    st = attack(st, "ruins")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].hp == 4 and st.regions["ruins"].threat == 0


def test_friendly_forest_climbing_down_when_moving() -> None:
    st = war("friendly", "forest")
    st.defenders[0].region = "forest"
    st = turn(st, 0)
    st = use(st, 0, "war")
    st = do(st, act="move", d=0, to="ruins", escort=0)
    assert not st.defenders[0].in_tree and st.tree is None


def test_friendly_mountains_rider_flies_anywhere_for_one_ap_until_the_round_ends() -> None:
    st = war("friendly", "mountains")
    st.defenders[0].region = "mountains"
    st = turn(st, 0)
    st = use(st, 0, "war")
    assert st.defenders[0].riding and st.active.ap == 2
    assert [o for o in options(st) if o["act"] == "move"] == []
    st = do(st, act="fly", d=0, to="desert")
    assert st.defenders[0].region == "desert" and st.active.ap == 1
    st.horde, st.caravan_pile = [], []
    st, _ = new_round(st)
    assert not st.defenders[0].riding and st.manticore == "mountains"


def test_friendly_plains_muster_shuffles_a_soldier_that_secures_when_drawn() -> None:
    st = war("friendly", "plains")
    st.defenders[0].region = "plains"
    st = turn(st, 0)
    st = use(st, 0, "war")
    assert st.soldiers == 4 and st.turn_deck.count("soldier") == 1
    assert find(st, act="use", d=0, src="war") is None
    st.regions["ruins"].threat = 2
    st, _ = next_cards(st, "soldier", d=1)
    assert st.regions["ruins"].threat == 1 and st.soldiers == 5
    assert "soldier" not in st.discard


def test_friendly_ruins_spend_a_death_token_to_ward_a_region() -> None:
    st = war("friendly", "ruins")
    st.defenders[0].region = "ruins"
    st = turn(st, 0)
    st = use(st, 0, "war", target="mountains")
    assert st.regions["mountains"].wards == 1 and st.death_tokens == 5
    st.death_tokens = 0
    assert find(st, act="use", d=0, src="war") is None


# ---------------------------------------------------------------------------- dire enemies


@pytest.mark.parametrize("key", [x.key for x in content().dire])
def test_every_dire_enemy_on_hit_effect(key: str) -> None:
    st = calm(new())
    card = content().dire_card(key)
    r = card.region
    pile = len(st.caravan_pile)
    if card.on_hit == "maul":
        st.defenders[0].region, st.defenders[0].hp = r, 1  # too weak to defend a Dire Enemy
    if card.on_hit == "panic":
        st.regions[r].caravans = 2
    st.feed = 0
    st, events = next_cards(st, f"x:{key}", d=1)
    ring = st.ring
    threat = {k: st.regions[k].threat for k in ring}
    if card.on_hit == "surge":
        assert threat[r] == 2
    elif card.on_hit == "spread":
        i = ring.index(r)
        nb = {ring[(i - 1) % 6], ring[(i + 1) % 6]}
        assert threat == {k: 1 if (k == r or k in nb) else 0 for k in ring}
    elif card.on_hit == "siege":
        assert st.capital_threat == 1 and threat[r] == 1
    elif card.on_hit == "maul":
        assert st.defenders[0].hp == 0 and threat[r] == 1
    elif card.on_hit == "hex":
        assert st.hexed
        assert [o for o in options(st) if o["act"] == "use"] == []
    elif card.on_hit == "feed":
        assert st.feed == 2
    elif card.on_hit == "panic":
        assert st.regions[r].caravans == 0 and len(st.caravan_pile) == pile + 2
    else:  # pragma: no cover
        raise AssertionError(card.on_hit)


def test_hex_ends_with_the_round() -> None:
    st = calm(new())
    st.hexed = True
    st.horde, st.caravan_pile = [], []
    st, _ = new_round(st)
    assert not st.hexed


def test_feed_heals_a_revealed_boss_up_to_its_maximum() -> None:
    st = calm(new())
    reveal(st, "sand_titan", "mountains", hp=7)
    st.boss.max_hp = 12
    st, _ = next_cards(st, "x:hollow_king", d=1)
    assert st.boss.hp == 9


def test_fed_hp_join_the_boss_when_it_arrives() -> None:
    st = calm(new())
    st.boss.key, st.boss.hp, st.boss.max_hp = "cinder_drake", 10, 10
    st.feed = 2
    st.horde, st.caravan_pile = [], []
    st, _ = new_round(st)
    assert st.boss.revealed and st.boss.max_hp == 12 and st.feed == 0


def test_a_defended_dire_enemy_does_not_strike() -> None:
    st = calm(new())
    st.defenders[0].region = "ruins"
    st.artifact_deck = ["flask"]
    st = attack(st, "ruins", "dire", "bone_colossus")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.capital_threat == 0 and st.regions["ruins"].threat == 0


# ---------------------------------------------------------------------------- bosses


BOSSES = [b.key for b in content().epic_foes + content().generals]


@pytest.mark.parametrize("key", BOSSES)
def test_every_boss_round_effect_then_its_attack_on_its_region(key: str) -> None:
    st = calm(new())
    card = content().boss(key)
    reveal(st, key, hp=5)
    st.boss.max_hp = 10
    home = st.boss.region
    st.horde, st.caravan_pile = [], []
    i = st.ring.index(home)
    nb = [st.ring[(i - 1) % 6], st.ring[(i + 1) % 6]]
    far = st.ring[(i + 3) % 6]
    if card.round_effect == "wither":
        st.defenders[0].region = home
    if card.round_effect == "hunt":
        st.regions[far].threat = 2
    if card.round_effect == "stalk":
        st.regions[nb[1]].threat = 1
    st.boss.armor_soaked = []
    st, events = new_round(st)
    if card.round_effect == "wither":
        assert st.defenders[0].hp == 3
        st = do(st, 0, "defend", act="decline")
    threat = {k: st.regions[k].threat for k in st.ring}
    e = card.round_effect
    if e == "quake":
        assert threat == {k: 2 if k == home else 1 for k in st.ring}
    elif e == "siege":
        assert st.capital_threat == 1 and threat[home] == 1
    elif e == "wither":
        assert threat[home] == 1
    elif e == "regrow":
        assert st.boss.hp == 7 and threat[home] == 1
    elif e == "hunt":
        assert threat[far] == 3 and threat[home] == 1
    elif e == "stalk":
        assert st.boss.region == nb[1] and threat[nb[1]] == 2 and threat[home] == 0
    else:  # pragma: no cover
        raise AssertionError(e)


def test_a_general_acts_on_arrival() -> None:
    st = calm(new(mode="campaign"))
    st.boss.key, st.boss.kind, st.boss.hp, st.boss.max_hp = "one_eyed_warlord", "general", 8, 8
    st.horde, st.caravan_pile = [], []
    st, _ = new_round(st)
    assert st.boss.revealed and all(st.regions[k].threat >= 1 for k in st.ring)


def test_boss_passive_thorns_hurts_the_fighter() -> None:
    st = calm(new())
    reveal(st, "cinder_drake", "ruins")
    st.defenders[0].region = "ruins"
    st = turn(st, 0)
    st = do(st, act="fight", d=0)
    assert st.boss.hp == 9 and st.defenders[0].hp == 3


def test_boss_passive_fog_makes_its_region_cost_one_more_ap_to_enter() -> None:
    st = calm(new())
    reveal(st, "abyss_leviathan", "ruins")
    st.defenders[0].region = "forest"
    st = turn(st, 0)
    st = do(st, act="move", d=0, to="ruins", escort=0)
    assert st.active.ap == 1


def test_boss_passive_armor_ignores_the_first_damage_of_each_turn() -> None:
    st = calm(new())
    reveal(st, "elder_oak", "ruins")
    st.defenders[0].region = "ruins"
    st = turn(st, 0)
    st = do(st, act="fight", d=0)
    assert st.boss.hp == 10
    st = do(st, act="fight", d=0)
    assert st.boss.hp == 9
    st, _ = next_cards(st, "d:0", d=0)
    st = do(st, act="fight", d=0)
    assert st.boss.hp == 9


def test_boss_passive_dread_stops_abilities_in_its_region() -> None:
    st = calm(new())
    reveal(st, "lich_sovereign", "ruins")
    st.defenders[0].region = "ruins"
    st.defenders[0].hp = 2
    st = turn(st, 0)
    assert find(st, act="use", d=0, src="hero") is None
    st.defenders[0].region = "forest"
    assert find(st, act="use", d=0, src="hero") is not None


def test_boss_passive_frenzy_makes_defending_its_region_cost_one_more() -> None:
    st = calm(new())
    reveal(st, "meadow_giant", "ruins")
    st.defenders[0].region = "ruins"
    st = attack(st, "ruins")
    assert "-2 HP" in prompt_of(st, 0, "defend").options[0].label
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].hp == 2


@pytest.mark.parametrize("key", ["sand_titan", "iron_behemoth", "horse_lord"])
def test_boss_passive_tough_adds_two_hp(key: str) -> None:
    st = calm(new(mode="campaign" if key == "horse_lord" else "single"))
    st.boss.key, st.boss.hp, st.boss.max_hp = key, 8, 8
    st.feed = 0
    st.horde, st.caravan_pile = [], []
    st, _ = new_round(st)
    assert st.boss.max_hp == 10 and st.boss.hp == 10
