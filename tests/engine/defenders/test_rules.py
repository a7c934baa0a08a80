"""The Dark War rulebook and the base-game facts the engine relies on: one test per clause."""

from __future__ import annotations

import pytest

from engine.contract import IllegalChoice
from engine.defenders import rounds, rules
from engine.defenders.content import content
from tests.engine.defenders.helpers import (
    G,
    all_card,
    attack,
    calm,
    do,
    find,
    new,
    new_round,
    next_cards,
    options,
    play,
    prompt_of,
    reveal,
    texts,
    turn,
)

# ---------------------------------------------------------------------------- caravans


def test_a_caravan_is_revealed_in_its_region_at_the_start_of_the_first_round() -> None:
    st = G.setup(1, {"defenders": ["hearthkeeper", "stonewall"]}, 5)
    pile = list(st.caravan_pile)
    assert len(pile) == 6 and sorted(pile) == sorted(content().regions[i].terrain for i in range(6))
    while st.phase == "setup":
        p = G.prompts(st)[0]
        st = G.submit(st, p.seat, p.options[0].choice).state
    assert st.round == 1
    assert st.caravan_pile == pile[:-1]
    assert {k: r.caravans for k, r in st.regions.items() if r.caravans} == {pile[-1]: 1}


def test_a_caravan_is_revealed_at_the_start_of_every_later_round() -> None:
    st = calm(new())
    st.caravan_pile = ["coast", "ruins"]
    st.horde = []
    st, events = new_round(st)
    assert st.round == 2
    assert st.regions["ruins"].caravans == 1 and st.caravan_pile == ["coast"]
    assert any(e.kind == "caravan" for e in events)


def test_escorting_costs_one_xp_per_caravan_on_a_regular_move() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.xp = "ruins", 3
    st.regions["ruins"].caravans = 2
    st = turn(st, 0)
    st = do(st, act="move", d=0, to="forest", escort=2)
    assert st.defenders[0].xp == 1 and st.active.ap == 2
    assert st.regions["ruins"].caravans == 0 and st.regions["forest"].caravans == 2


def test_escorting_needs_xp() -> None:
    st = calm(new())
    st.defenders[0].region = "ruins"
    st.regions["ruins"].caravans = 1
    st = turn(st, 0)
    assert find(st, act="move", d=0, to="forest", escort=0) is not None
    assert [o for o in options(st) if o.get("escort")] == []


def test_a_caravan_escorted_into_the_capital_gives_two_xp_and_stays() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.xp = "forest", 1
    st.regions["forest"].caravans = 1
    st = turn(st, 0)
    st = do(st, act="move", d=0, to="capital", escort=1)
    assert st.capital_caravans == 1 and st.regions["forest"].caravans == 0
    assert st.defenders[0].xp == 0 + rules.XP_ESCORT
    # from the Capital no move offers an escort and no haul can take it out again
    assert [o for o in options(st) if o.get("escort")] == []


def test_ability_moves_cannot_escort() -> None:
    st = calm(new(defenders=("sunmane", "stonewall")))
    d = st.defenders[0]
    d.region, d.xp = "ruins", 3
    st.regions["ruins"].caravans = 1
    st = turn(st, 0)
    escorts = [o for o in options(st) if o["act"] == "use" or o.get("escort")]
    assert all(o["act"] == "move" for o in escorts if o.get("escort"))
    st = do(st, act="use", d=0, src="hero")
    st = do(st, kind="target", act="target", target="coast")
    assert st.defenders[0].region == "coast"
    assert st.regions["ruins"].caravans == 1 and st.defenders[0].xp == 3


def test_a_rider_flying_cannot_escort() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.xp, d.riding = "ruins", 3, True
    st.regions["ruins"].caravans = 1
    st = turn(st, 0)
    assert [o for o in options(st) if o["act"] == "move"] == []
    assert find(st, act="fly", d=0, to="coast") is not None
    assert all("escort" not in o for o in options(st) if o["act"] == "fly")


def test_the_boss_keeps_its_last_hp_until_all_six_caravans_are_home() -> None:
    st = calm(new(defenders=("ember_knight", "stonewall")))
    reveal(st, "cinder_drake", "ruins", hp=2)
    st.defenders[0].region = "ruins"
    st.capital_caravans = 5
    st = turn(st, 0)
    st = do(st, act="fight", d=0)
    assert st.boss.hp == 1 and st.phase == "play"
    assert find(st, act="fight", d=0) is None
    st.capital_caravans = 6
    st.defenders[0].hp = 4
    st = do(st, act="end")
    st = turn(st, 0)
    st, events = play(st, act="fight", d=0)
    assert st.boss.hp == 0 and st.phase == "over" and st.won is True
    assert G.result(st).winners == [0]


# ---------------------------------------------------------------------------- experience


def test_prepare_turns_one_ap_into_one_xp_on_your_own_defender_card() -> None:
    st = calm(new())
    st = turn(st, 0)
    st = do(st, act="prepare", d=0)
    st = do(st, act="prepare", d=0)
    assert st.defenders[0].xp == 2 and st.active.ap == 1
    assert find(st, act="prepare", d=1) is None


def test_a_defence_two_seats_could_make_is_shared() -> None:
    st = calm(new(2, ("hearthkeeper", "gale_runner")))
    st.defenders[0].region = st.defenders[1].region = "forest"
    st = attack(st, "forest", "enemy", None)
    ps = [prompt_of(st, s, "defend") for s in (0, 1)]
    assert all(p.shared and "first answer counts" in p.text for p in ps)
    st = do(st, 1, "defend", act="defend", d=1)
    assert not [p for p in G.prompts(st) if p.kind == "defend"]
    assert st.defenders[1].hp == 3 and st.defenders[0].hp == 4


def test_prepare_is_not_offered_on_an_all_defenders_card() -> None:
    st = calm(new())
    st = all_card(st)
    assert [o for o in options(st, 0, "all") if o["act"] == "prepare"] == []
    assert find(st, 0, "all", act="move", d=0, to="forest") is not None


@pytest.mark.parametrize(("kind", "dire", "cost"), [("enemy", None, 1), ("dire", "thornback", 2)])
def test_defending_an_enemy_or_dire_enemy_gives_one_xp(kind: str, dire: str | None, cost: int) -> None:
    st = calm(new())
    st.defenders[0].region = "forest"
    st.artifact_deck = ["sunsteel"]
    st = attack(st, "forest", kind, dire)
    p = prompt_of(st, 0, "defend")
    assert not p.shared  # one seat present: nobody to race
    assert "earns 1 XP" in p.text
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].xp == 1
    assert st.defenders[0].hp == 4 - cost
    assert st.regions["forest"].threat == 0


def test_defending_a_boss_attack_costs_two_and_gives_no_xp() -> None:
    st = calm(new())
    reveal(st, "cinder_drake", "forest")
    st.defenders[0].region = "forest"
    st = attack(st, "forest", "boss", source="Cinder Drake")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].xp == 0 and st.defenders[0].hp == 2


def test_every_defender_gains_three_xp_when_a_general_falls() -> None:
    st = calm(new(mode="campaign"))
    reveal(st, "ash_captain", "ruins", hp=1)
    st.capital_caravans = 6
    st.defenders[0].region = "ruins"
    st.defenders[1].xp = 2
    st = turn(st, 0)
    st, events = play(st, act="fight", d=0)
    assert [d.xp for d in st.defenders] == [3, 5]
    # Nothing to spend or trade between battles (no Capital Threat, no Artifacts): nobody is
    # asked only to say they are ready, and the second battle begins.
    assert any(e.kind == "rebuild" for e in events)
    assert st.phase == "play" and st.battle == 2


def test_xp_is_capped_at_eight() -> None:
    st = calm(new())
    st.defenders[0].region = "forest"
    st.defenders[0].xp = 8
    st = attack(st, "forest")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].xp == 8
    st = turn(st, 0)
    assert find(st, act="prepare", d=0) is None


def test_level_up_spends_eight_xp_draws_a_skill_and_heals() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.xp, d.hp, d.region = 8, 1, "ruins"
    st.skill_deck = ["scouting", "second_wind"]
    st = turn(st, 0)
    st = do(st, act="level", d=0)
    d = st.defenders[0]
    assert (d.xp, d.hp, d.skills) == (0, 4, ["second_wind"])
    assert st.active.ap == 3


def test_level_up_is_optional_a_defender_may_stay_at_eight() -> None:
    st = calm(new())
    st.defenders[0].xp = 8
    st = turn(st, 0)
    assert find(st, act="level", d=0) is not None
    st = do(st, act="end")
    assert st.defenders[0].xp == 8 and st.defenders[0].skills == []


# ---------------------------------------------------------------------------- skills on other turns


def two_seats() -> object:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    st.defenders[1].xp = 4
    st.defenders[1].skills = ["long_watch", "field_dressing"]
    st.defenders[1].hp = 2
    return turn(st, 0)


def test_any_turn_skills_are_offered_on_another_players_turn_as_an_optional_prompt() -> None:
    st = two_seats()
    p = prompt_of(st, 1, "react")
    assert p.optional and p.default == {"act": "pass"}
    srcs = [o["src"] for o in options(st, 1, "react") if o["act"] == "use"]
    assert srcs == ["skill:long_watch"]
    st = do(st, 1, "react", act="use", d=1, src="skill:long_watch")
    st = do(st, 1, "target", act="target", target="coast")
    assert st.regions["coast"].wards == 1 and st.defenders[1].xp == 2
    assert st.active.ap == 3 and st.active.defender == 0


def test_on_your_turn_skills_wait_for_your_own_turn() -> None:
    st = two_seats()
    st = do(st, 1, "react", act="pass")
    assert [p.kind for p in G.prompts(st) if not p.answered] == ["turn"]
    st = do(st, 0, act="end")
    # the next card is Stonewall's own (seat 1): First-Aid-like skills now work
    st = turn(st, 1)
    assert find(st, 1, "turn", act="use", d=1, src="skill:field_dressing") is not None


# ---------------------------------------------------------------------------- All Defenders card


def test_all_defenders_ap_are_shared_first_come_and_the_card_ends_when_they_are_gone() -> None:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    st = all_card(st, ap=3, deck=["d:1"])
    ps = G.prompts(st)
    assert [(p.seat, p.kind, p.shared) for p in ps] == [(0, "all", True), (1, "all", True)]
    st = do(st, 0, "all", act="move", d=0, to="forest")
    st = do(st, 1, "all", act="move", d=1, to="plains")
    assert st.active.ap == 1
    st = do(st, 1, "all", act="pass")
    assert [p.seat for p in G.prompts(st)] == [0]
    st = do(st, 0, "all", act="move", d=0, to="ruins")
    assert st.current == "d:1" and st.active.card == "defender"
    assert st.discard[-1] == "all"


def test_all_defenders_card_ends_when_every_seat_passes() -> None:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    st = all_card(st, ap=3, deck=["d:1"])
    st = do(st, 0, "all", act="pass")
    st = do(st, 1, "all", act="pass")
    assert st.current == "d:1"


def test_the_capital_heals_a_defender_at_the_start_of_their_turn() -> None:
    st = calm(new())
    st.defenders[0].hp = 1
    st, events = next_cards(st, "d:0", d=1)
    assert st.current == "d:0" and st.defenders[0].hp == 4
    assert "rests in the Capital City" in texts(events)


def test_the_capital_heals_only_outer_defenders_not() -> None:
    st = calm(new())
    st.defenders[0].hp, st.defenders[0].region = 1, "forest"
    st, _ = next_cards(st, "d:0", d=1)
    assert st.defenders[0].hp == 1


def test_on_an_all_defenders_card_the_capital_heals_at_the_first_ap_spent() -> None:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    st.defenders[0].hp = 1
    st.defenders[1].hp = 1
    st = all_card(st)
    assert st.defenders[0].hp == 1
    st = do(st, 0, "all", act="move", d=0, to="forest")
    assert st.defenders[0].hp == 4 and st.defenders[0].region == "forest"
    assert st.defenders[1].hp == 1


# ---------------------------------------------------------------------------- exhausted


def test_exhausted_defenders_may_move_but_not_secure_fight_or_defend() -> None:
    st = calm(new())
    reveal(st, "cinder_drake", "ruins")
    d = st.defenders[0]
    d.region, d.hp = "ruins", 0
    st.regions["ruins"].threat = 1
    st = turn(st, 0)
    acts = {o["act"] for o in options(st)}
    assert "secure" not in acts and "fight" not in acts and "move" in acts
    # nobody can defend: the attack resolves by itself
    st2 = calm(new())
    st2.defenders[0].region, st2.defenders[0].hp = "ruins", 0
    st2, events = next_cards(st2, "e:crag_trolls", d=1)
    assert st2.regions["ruins"].threat == 1 and st2.regions["mountains"].threat == 1
    assert "defend" not in {p.kind for p in G.prompts(st2)}


# ---------------------------------------------------------------------------- defence


def test_a_defender_without_the_hp_for_a_dire_defence_cannot_defend_it() -> None:
    st = calm(new())
    st.defenders[0].region, st.defenders[0].hp = "forest", 1
    st, _ = next_cards(st, "x:thornback", d=1)
    assert st.regions["forest"].threat == 1


def test_a_dire_defence_wins_an_artifact() -> None:
    st = calm(new())
    st.defenders[0].region = "forest"
    st.artifact_deck = ["wardstone", "flask"]
    st = attack(st, "forest", "dire", "thornback")
    st, events = play(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].artifacts == ["flask"] and st.artifact_deck == ["wardstone"]
    assert any(e.kind == "artifact" for e in events)


def test_an_enemy_defence_wins_no_artifact() -> None:
    st = calm(new())
    st.defenders[0].region = "forest"
    st.artifact_deck = ["flask"]
    st = attack(st, "forest")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].artifacts == []


def test_a_full_hand_offers_to_drop_an_artifact_for_the_new_one() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.artifacts = "forest", ["sunsteel", "buckler", "road_boots"]
    st.artifact_deck = ["flask"]
    st = attack(st, "forest", "dire", "thornback")
    st = do(st, 0, "defend", act="defend", d=0)
    p = prompt_of(st, 0, "artifact")
    assert [o.choice for o in p.options] == [{"act": "drop", "key": "sunsteel"}, {"act": "drop", "key": "buckler"},
                                             {"act": "leave"}]
    st = do(st, 0, "artifact", act="drop", key="buckler")
    assert sorted(st.defenders[0].artifacts) == ["flask", "road_boots", "sunsteel"]
    assert st.artifact_deck == ["buckler"]


def test_leaving_a_won_artifact_puts_it_back_into_the_deck() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.artifacts = "forest", ["road_boots"]
    st.artifact_deck = ["windstep"]
    st = attack(st, "forest", "dire", "thornback")
    st = do(st, 0, "defend", act="defend", d=0)
    assert [o.choice for o in prompt_of(st, 0, "artifact").options] == [{"act": "drop", "key": "road_boots"},
                                                                         {"act": "leave"}]
    st = do(st, 0, "artifact", act="leave")
    assert st.defenders[0].artifacts == ["road_boots"] and st.artifact_deck == ["windstep"]


def test_an_empty_artifact_deck_still_lets_the_defence_succeed() -> None:
    st = calm(new())
    st.defenders[0].region = "forest"
    st.artifact_deck = []
    st = attack(st, "forest", "dire", "thornback")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.regions["forest"].threat == 0 and st.defenders[0].artifacts == []


def test_declining_lets_the_attack_through() -> None:
    st = calm(new())
    st.defenders[0].region = "forest"
    st = attack(st, "forest")
    st = do(st, 0, "defend", act="decline")
    assert st.regions["forest"].threat == 1 and st.defenders[0].hp == 4


# ---------------------------------------------------------------------------- threat


def test_an_undefended_attack_raises_the_regions_threat() -> None:
    st = calm(new())
    st, _ = next_cards(st, "e:bog_raiders", d=1)
    assert st.regions["forest"].threat == 1 and st.regions["coast"].threat == 1
    assert st.capital_threat == 0


def test_an_undefended_attack_at_the_top_destroys_the_region_without_hitting_the_capital() -> None:
    st = calm(new())
    st.regions["forest"].threat = 3
    st, events = next_cards(st, "x:thornback", d=1)
    assert st.regions["forest"].destroyed
    # the Thornback's spread still lands on the neighbours, but the capital is untouched by the destroying hit
    assert st.capital_threat == 0
    assert any(e.kind == "destroyed" for e in events)


def test_later_attacks_on_a_destroyed_region_spill_into_the_capital() -> None:
    st = calm(new())
    st.regions["forest"].destroyed = True
    st.regions["forest"].threat = 3
    st, _ = next_cards(st, "e:tomb_rats", d=1)
    assert st.capital_threat == 1 and st.regions["ruins"].threat == 1


def test_a_destroyed_region_cannot_be_secured_and_its_ability_is_gone() -> None:
    st = calm(new())
    st.regions["forest"].destroyed = True
    st.regions["forest"].threat = 3
    st.defenders[0].region = "forest"
    st = turn(st, 0)
    acts = {(o["act"], o.get("src")) for o in options(st)}
    assert ("secure", None) not in acts and ("use", "region") not in acts


def test_every_card_gives_four_ap_once_a_region_is_destroyed() -> None:
    st = calm(new())
    st, _ = next_cards(st, "d:0", d=1)
    assert st.active.ap == 3
    st.regions["desert"].destroyed = True
    st, _ = next_cards(st, "all", d=1)
    assert st.active.card == "all" and st.active.ap == 4


def test_the_capital_falls_at_its_destruction_level() -> None:
    st = calm(new())
    assert st.options.destruction == 10
    st.capital_threat = 9
    st.regions["forest"].destroyed = True
    st, events = next_cards(st, "e:tomb_rats", d=1)
    assert st.phase == "over" and st.won is False and "Capital" in st.reason
    assert G.result(st).winners == []


@pytest.mark.parametrize(("difficulty", "level"), [("easy", 12), ("normal", 10), ("hard", 8), ("epic", 7)])
def test_difficulty_sets_the_capitals_destruction_level(difficulty: str, level: int) -> None:
    st = new(difficulty=difficulty)
    assert st.options.destruction == level
    assert new(difficulty=difficulty, capital_destruction=5).options.destruction == 5


def test_the_capital_cannot_be_secured_by_the_secure_action() -> None:
    st = calm(new())
    st.capital_threat = 2
    st = turn(st, 0)
    assert find(st, act="secure", d=0) is None


def test_securing_removes_one_threat_in_your_region() -> None:
    st = calm(new())
    st.defenders[0].region = "ruins"
    st.regions["ruins"].threat = 2
    st = turn(st, 0)
    st = do(st, act="secure", d=0)
    assert st.regions["ruins"].threat == 1 and st.active.ap == 2


def test_moving_to_an_adjacent_region_costs_one_ap() -> None:
    st = calm(new())
    st = turn(st, 0)
    assert {o["to"] for o in options(st) if o["act"] == "move"} == {"forest", "plains"}
    st = do(st, act="move", d=0, to="forest", escort=0)
    assert st.active.ap == 2
    assert {o["to"] for o in options(st) if o["act"] == "move"} == {"ruins", "desert", "capital"}


def test_fighting_deals_one_damage_in_the_bosses_region() -> None:
    st = calm(new())
    reveal(st, "sand_titan", "ruins")
    st.defenders[0].region = "ruins"
    st = turn(st, 0)
    st = do(st, act="fight", d=0)
    assert st.boss.hp == 9 and st.active.ap == 2
    st.defenders[0].region = "forest"
    assert find(st, act="fight", d=0) is None


# ---------------------------------------------------------------------------- decks, rounds, the boss


def test_a_horde_card_joins_the_turn_deck_each_round() -> None:
    st = calm(new())
    st.horde = ["x:rot_treant", "e:ash_goblins"]
    st.caravan_pile = []
    st.discard = ["d:1", "all", "all", "e:bog_raiders", "e:tomb_rats"]
    st, _ = new_round(st)
    assert st.horde == ["x:rot_treant"]
    assert st.round == 2
    seen = st.turn_deck + st.discard + [st.current]
    assert "e:ash_goblins" in seen and seen.count("all") == 2


def test_the_boss_is_revealed_in_its_region_when_the_horde_is_empty() -> None:
    st = calm(new())
    st.boss.key, st.boss.hp, st.boss.max_hp = "sand_titan", 10, 10
    st.horde = []
    st.caravan_pile = []
    st.feed = 0
    st, events = new_round(st)
    assert st.boss.revealed and st.boss.region == "desert"
    assert st.boss.max_hp == 12  # Sand Titan is tough: +2
    assert any(e.kind == "boss_reveal" for e in events)


def test_an_undecided_battle_is_lost_at_the_round_limit() -> None:
    st = calm(new(round_limit=5))
    st.round = 5
    st, events = new_round(st)
    assert st.phase == "over" and st.won is False and "5-round limit" in st.reason


def test_the_turn_deck_starts_with_two_enemies_and_four_player_cards() -> None:
    st = G.setup(1, {"defenders": ["hearthkeeper", "stonewall"]}, 3)
    deck = sorted(st.turn_deck)
    assert sum(c.startswith("e:") for c in deck) == 2
    assert sorted(c for c in deck if not c.startswith("e:")) == ["all", "all", "d:0", "d:1"]
    st4 = G.setup(4, {}, 3)
    assert sorted(c for c in st4.turn_deck if not c.startswith("e:")) == ["d:0", "d:1", "d:2", "d:3"]


@pytest.mark.parametrize(("difficulty", "dire"), [("easy", 1), ("normal", 2), ("hard", 3), ("epic", 4)])
def test_the_horde_holds_one_enemy_and_d_dire_enemies(difficulty: str, dire: int) -> None:
    st = G.setup(1, {"difficulty": difficulty}, 3)
    assert sum(c.startswith("x:") for c in st.horde) == dire
    assert sum(c.startswith("e:") for c in st.horde) == 1
    camp = G.setup(1, {"difficulty": difficulty, "mode": "campaign"}, 3)
    assert sum(c.startswith("x:") for c in camp.horde) == dire - 1


def test_setup_deals_two_skills_to_keep_one_and_the_other_goes_under_the_deck() -> None:
    st = G.setup(1, {"defenders": ["hearthkeeper", "stonewall"]}, 3)
    p = G.prompts(st)[0]
    assert p.kind == "skill" and len(p.options) == 2
    offer = list(st.defenders[0].skill_offer)
    st = G.submit(st, 0, p.options[1].choice).state
    assert st.defenders[0].skills == [offer[1]] and st.skill_deck[0] == offer[0]
    assert all(d.region == "capital" and d.xp == 0 for d in st.defenders)


# ---------------------------------------------------------------------------- modes


def test_single_mode_setup_one_hostile_and_one_friendly_war_region_and_an_epic_foe() -> None:
    st = G.setup(2, {"mode": "single"}, 11)
    war = {k: r.side for k, r in st.regions.items() if r.war}
    assert sorted(war.values()) == ["friendly", "hostile"]
    assert st.boss.kind == "epic" and not st.boss.revealed and st.bosses_ahead == []
    assert st.boss.hp == 10


def test_campaign_setup_one_hostile_war_region_general_general_epic() -> None:
    st = G.setup(2, {"mode": "campaign"}, 11)
    war = {k: r.side for k, r in st.regions.items() if r.war}
    assert list(war.values()) == ["hostile"]
    c = content()
    generals = {g.key for g in c.generals}
    assert st.boss.kind == "general" and st.boss.key in generals and st.boss.hp == 8
    assert st.bosses_ahead[0] in generals and st.bosses_ahead[0] != st.boss.key
    assert st.bosses_ahead[1] in {e.key for e in c.epic_foes}


def campaign_won(seed: int = 1) -> object:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall"), mode="campaign", seed=seed))
    st.war_hostile = "coast"
    st.regions["coast"].war, st.regions["coast"].side = True, "hostile"
    st.war_unused = ["desert", "forest"]
    reveal(st, st.boss.key, "ruins", hp=1)
    st.boss.armor_soaked = [0]  # an armoured boss has already soaked this Turn's first damage
    st.capital_caravans = 6
    st.capital_threat = 3
    st.regions["forest"].threat = 2
    st.regions["desert"].destroyed = True
    st.regions["plains"].caravans = 1
    st.turn_deck = []
    st.discard = ["e:bog_raiders", "x:thornback", "x:rot_treant", "d:1", "all", "all"]
    st.leftover_dire = ["kraken_spawn"]
    d = st.defenders[0]
    d.region, d.hp, d.xp, d.death_tokens = "ruins", 2, 5, 1
    st.defenders[1].artifacts = ["sunsteel"]
    st = turn(st, 0, deck=[])
    st.discard = ["e:bog_raiders", "x:thornback", "x:rot_treant", "d:1", "all", "all"]
    return do(st, 0, act="fight", d=0)


def test_rebuild_heals_resets_regions_and_caravans_and_keeps_capital_threat() -> None:
    st = campaign_won()
    assert st.phase == "rebuild"
    assert [d.hp for d in st.defenders] == [4, 5] and st.defenders[0].death_tokens == 0
    assert all(r.threat == 0 and not r.destroyed and r.caravans == 0 for r in st.regions.values())
    assert sorted(st.caravan_pile) == sorted(content().regions[i].terrain for i in range(6))
    assert st.capital_caravans == 0
    assert st.capital_threat == 3
    assert st.defenders[0].xp == 8  # 5 + 3 for the General
    assert [d.region for d in st.defenders] == ["capital", "capital"]


def test_rebuild_two_xp_remove_one_capital_threat() -> None:
    st = campaign_won()
    st = do(st, 0, "rebuild", act="cap", d=0)
    assert st.capital_threat == 2 and st.defenders[0].xp == 6


def test_rebuild_allows_level_up_and_artifact_trades() -> None:
    st = campaign_won()
    st.skill_deck = ["scouting"]
    st = do(st, 0, "rebuild", act="level", d=0)
    assert st.defenders[0].xp == 0 and st.defenders[0].skills == ["scouting"]
    st = do(st, 1, "rebuild", act="trade", d=1, key="sunsteel", to=0)
    st = do(st, 0, "rebuild", act="accept")
    assert st.defenders[0].artifacts == ["sunsteel"] and st.defenders[1].artifacts == []
    assert prompt_of(st, 1, "rebuild").shared


def test_regroup_redistributes_the_enemies_and_returns_the_dire_enemies_plus_one() -> None:
    st = campaign_won()
    st = do(st, 0, "rebuild", act="ready")
    assert st.phase == "rebuild"
    st = do(st, 1, "rebuild", act="ready")
    assert st.phase == "play" and st.battle == 2 and st.round == 1
    cards = st.turn_deck + st.discard + st.horde + ([st.current] if st.current else [])
    assert sorted(c for c in cards if c.startswith("x:")) == ["x:kraken_spawn", "x:rot_treant", "x:thornback"]
    enemies = [c for c in cards if c.startswith("e:")] + [f"e:{k}" for k in st.leftover_enemies]
    assert sorted(enemies) == sorted(f"e:{e.key}" for e in content().enemies)
    assert sum(c.startswith("e:") for c in st.horde) == 1
    assert st.leftover_dire == []


def test_reconcile_flips_the_hostile_region_and_brings_a_new_one() -> None:
    st = campaign_won()
    st = do(st, 0, "rebuild", act="ready")
    st = do(st, 1, "rebuild", act="ready")
    assert st.regions["coast"].side == "friendly" and st.war_friendly == ["coast"]
    assert st.war_hostile in ("desert", "forest") and st.regions[st.war_hostile].side == "hostile"
    assert len(st.war_unused) == 1


def test_the_campaign_is_general_general_then_epic_foe_and_capital_threat_carries() -> None:
    st = campaign_won()
    second = st.bosses_ahead[0]
    st = do(st, 0, "rebuild", act="ready")
    st = do(st, 1, "rebuild", act="ready")
    assert st.boss.key == second and st.boss.kind == "general" and not st.boss.revealed
    assert st.capital_threat >= 3
    # win battle 2 the same way
    st = calm(st)
    st.capital_threat = 4
    reveal(st, second, "ruins", hp=1)
    st.boss.armor_soaked = [0]
    st.capital_caravans = 6
    st.defenders[0].region = "ruins"
    st = turn(st, 0, deck=[])
    st = do(st, 0, act="fight", d=0)
    assert st.phase == "rebuild" and st.capital_threat == 4
    st = do(st, 0, "rebuild", act="ready")
    st = do(st, 1, "rebuild", act="ready")
    assert st.battle == 3 and st.boss.kind == "epic"
    st = calm(st)
    reveal(st, st.boss.key, "ruins", hp=1)
    st.boss.armor_soaked = [0]  # an armoured boss has already soaked this Turn's first damage
    st.capital_caravans = 6
    st.defenders[0].region = "ruins"
    st = turn(st, 0, deck=[])
    st = do(st, 0, act="fight", d=0)
    assert st.phase == "over" and st.won is True


def test_a_lost_campaign_battle_ends_the_war() -> None:
    st = calm(new(mode="campaign"))
    st.capital_threat = 9
    st.regions["forest"].destroyed = True
    st, _ = next_cards(st, "e:tomb_rats", d=1)
    assert st.phase == "over" and st.won is False and st.battle == 1


# ---------------------------------------------------------------------------- refusals


def test_a_choice_not_in_the_prompt_is_refused() -> None:
    st = calm(new())
    st = turn(st, 0)
    with pytest.raises(IllegalChoice):
        G.submit(st, 0, {"act": "move", "d": 0, "to": "coast", "escort": 0})
    with pytest.raises(IllegalChoice):
        G.submit(st, 0, {"act": "prepare", "d": 1})



def test_content_counts() -> None:
    c = content()
    counts = {g: len(getattr(c, g)) for g in ("defenders", "artifacts", "skills", "enemies", "dire",
                                               "epic_foes", "generals", "war_regions", "regions")}
    assert counts == {"defenders": 15, "artifacts": 14, "skills": 12, "enemies": 9, "dire": 12,
                      "epic_foes": 12, "generals": 6, "war_regions": 6, "regions": 6}
    assert [sum(x.expansion for x in getattr(c, g)) for g in ("defenders", "artifacts", "dire", "epic_foes")] \
        == [5, 4, 6, 6]


def test_a_caravan_in_a_destroyed_region_can_still_be_escorted() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.xp = "forest", 1
    st.regions["forest"].destroyed, st.regions["forest"].threat = True, 3
    st.regions["forest"].caravans = 1
    st = turn(st, 0)
    st = do(st, act="move", d=0, to="capital", escort=1)
    assert st.capital_caravans == 1 and st.defenders[0].xp == 2


def test_any_number_of_caravans_up_to_your_xp_may_be_escorted() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.xp = "ruins", 3
    st.regions["ruins"].caravans = 3
    st = turn(st, 0)
    assert sorted(o["escort"] for o in options(st) if o["act"] == "move" and o["to"] == "forest") == [0, 1, 2, 3]
    st = do(st, act="move", d=0, to="forest", escort=2)
    assert st.regions["ruins"].caravans == 1 and st.regions["forest"].caravans == 2 and st.defenders[0].xp == 1


@pytest.mark.parametrize("card", ["d:0", "all"])
def test_every_turn_card_ends_a_phase_so_the_map_is_posted_before_players_act(card: str) -> None:
    import random

    st = calm(new(2))
    st.turn_deck = [card]
    f = rules.Flow(st, random.Random(1))
    rounds.draw_card(f)
    assert [e.phase_end for e in f.events] == [True]
    assert st.active is not None and st.active.card == ("defender" if card == "d:0" else "all")


def test_a_crowded_turn_keeps_every_action_kind_within_25_options() -> None:
    """Forest sits left of the Capital (three roads). Six Caravans, 8 XP, three artifacts and six
    skills: escort counts shrink to one per road so no ability and no End is cut."""
    st = calm(new(2, ("hearthkeeper", "gale_runner")))
    d = st.defenders[0]
    d.region, d.xp, d.hp = "forest", 8, 2
    d.skills = ["long_watch", "restore_order", "distant_shot", "second_wind", "stand_fast", "scouting"]
    d.artifacts = ["ember_bow", "flask", "dawn_banner"]
    st.regions["forest"].caravans = 6
    st.regions["forest"].threat = st.regions["ruins"].threat = 2
    st.capital_threat = 2
    reveal(st, st.boss.key, "forest", hp=5)
    st = turn(st, 0)
    acts = [o.choice for o in prompt_of(st, 0, "turn").options]
    assert len(acts) <= 25 and acts[-1] == {"act": "end"}
    escorts = [a for a in acts if a["act"] == "move" and a["escort"]]
    assert len(escorts) == 3 and all(a["escort"] == 6 for a in escorts)
    for kind in ("secure", "fight", "level"):
        assert any(a["act"] == kind for a in acts), kind
    sources = {a.get("src") for a in acts}
    assert {"hero", "region", "art:ember_bow", "art:flask", "art:dawn_banner"} <= sources
    assert {f"skill:{k}" for k in d.skills} <= sources
