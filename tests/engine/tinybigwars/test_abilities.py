"""Every hero and location ability is a real rule: one test each."""

from __future__ import annotations

import pytest

from engine.contract import IllegalChoice
from engine.tinybigwars import combat, rules
from engine.tinybigwars.board import income, influence
from engine.tinybigwars.content import content
from tests.engine.tinybigwars.helpers import Dice, activation, blank, hero, prompt_of, put_card, sub

HERO_TESTS = {
    "attack_die": "test_ember_fist_rolls_an_extra_die_when_attacking",
    "ignore_first_hit": "test_iron_monk_ignores_the_first_hit_of_each_fight",
    "three_actions": "test_swift_crane_gets_three_actions",
    "train_heal_extra": "test_lotus_sage_heals_one_extra_when_training",
    "auto_hit": "test_storm_dancer_adds_a_sure_hit",
    "defend_die": "test_jade_warden_rolls_an_extra_die_when_defending",
    "rally": "test_banner_captain_rallies_a_minion_when_activated",
    "free_first_move": "test_shadow_step_first_move_is_free",
    "six_three_hits": "test_tiger_claw_makes_sixes_worth_three",
    "mend_after_fight": "test_willow_mender_heals_her_clan_after_a_fight",
    "clan_coin": "test_golden_hand_brings_a_coin",
    "double_energy": "test_spirit_lamp_gains_two_energy",
}
LOCATION_TESTS = {
    "train_health_2": "test_moonwell_spring_training_heals_two",
    "train_energy_2": "test_cinder_forge_training_gives_two_energy",
    "train_both": "test_lantern_hall_training_gives_both",
    "recruit_double": "test_red_barracks_recruits_two_per_coin",
    "build_discount": "test_builders_academy_builds_for_one_coin",
    "clan_energy": "test_quiet_teahouse_gives_extra_energy",
    "hero_coin": "test_counting_house_coin_with_a_hero",
    "hero_influence": "test_sky_temple_influence_with_a_hero",
    "clan_heal": "test_willow_infirmary_heals_in_the_clan_phase",
    "free_minion": "test_recruiting_hall_free_minion",
    "extra_action": "test_scroll_archive_extra_action",
    "free_move_in": "test_five_crossroads_moving_in_is_free_without_enemies",
    "free_move_out": "test_swift_bridge_moving_away_is_free",
    "rest_end": "test_mountain_pass_rest_gives_energy",
    "recruit_no_hero": "test_open_gate_recruits_without_a_hero",
}


def test_every_ability_in_the_content_has_a_test() -> None:
    c = content()
    assert {h.ability for h in c.heroes.values()} == set(HERO_TESTS)
    assert {loc.ability for loc in c.locations.values()} == set(LOCATION_TESTS)
    assert len({h.ability for h in c.heroes.values()}) == len(c.heroes)
    assert len({loc.ability for loc in c.locations.values()}) == len(c.locations)
    for name in [*HERO_TESTS.values(), *LOCATION_TESTS.values()]:
        assert callable(globals()[name])


def plain(state, *nodes: str) -> None:
    """Cards with no movement, training or combat effect."""
    for node, card in zip(nodes, ["gate", "academy", "counting", "hall"], strict=False):
        put_card(state, node, card)


def in_fight(state, node: str) -> None:
    for h in state.heroes:
        h.location = node


# ----------------------------------------------------------------------------- heroes


def test_ember_fist_rolls_an_extra_die_when_attacking() -> None:
    s = blank(["ember"], ["sage"])
    in_fight(s, "c")
    assert combat.dice_pool(s, "c", 0, attacker=0) == 3 + 1
    assert combat.dice_pool(s, "c", 0, attacker=1) == 3
    assert combat.dice_pool(s, "c", 0, attacker=None) == 3


def test_iron_monk_ignores_the_first_hit_of_each_fight() -> None:
    s = blank(["crane"], ["ironmonk"])
    plain(s, "c")
    in_fight(s, "c")
    combat.start(s, "c", 0, Dice(5, 5, 1, 1), [])  # 2 hits on the monk
    assert hero(s, 1, "ironmonk").health == 6 - 1
    assert not hero(s, 1, "ironmonk").shield_used  # reset for the next fight
    combat.start(s, "c", 0, Dice(5, 1, 1, 1), [])
    assert hero(s, 1, "ironmonk").health == 5


def test_swift_crane_gets_three_actions() -> None:
    s = activation(blank(["crane", "sage"], ["tiger"]), [0, 1])
    plain(s, "w", "e")
    assert sub(s, 0, {"hero": "h0-crane"}).turn.actions == 3
    assert sub(s, 0, {"hero": "h0-sage"}).turn.actions == 2


def test_lotus_sage_heals_one_extra_when_training() -> None:
    s = activation(blank(["sage", "crane"], ["tiger"]), [0, 1])
    plain(s, "w", "e")
    hero(s, 0, "sage").health = 1
    hero(s, 0, "crane").health = 1
    assert hero(sub(sub(s, 0, {"hero": "h0-sage"}), 0, {"action": "train_health"}), 0, "sage").health == 3
    assert hero(sub(sub(s, 0, {"hero": "h0-crane"}), 0, {"action": "train_health"}), 0, "crane").health == 2


def test_storm_dancer_adds_a_sure_hit() -> None:
    s = blank(["storm"], ["sage"])
    in_fight(s, "c")
    assert combat.score(s, "c", 0, [1, 1, 1]) == 1
    assert combat.score(s, "c", 1, [1]) == 0


def test_jade_warden_rolls_an_extra_die_when_defending() -> None:
    s = blank(["warden"], ["sage"])
    in_fight(s, "c")
    assert combat.dice_pool(s, "c", 0, attacker=1) == 2 + 1
    assert combat.dice_pool(s, "c", 0, attacker=0) == 2


def test_banner_captain_rallies_a_minion_when_activated() -> None:
    s = activation(blank(["banner", "sage"], ["tiger"]), [0, 1])
    plain(s, "w", "e")
    assert sub(s, 0, {"hero": "h0-banner"}).loc("w").minions[0] == 1
    assert sub(s, 0, {"hero": "h0-sage"}).loc("w").minions[0] == 0


def test_shadow_step_first_move_is_free() -> None:
    s = activation(blank(["shadow"], ["tiger"]), [0, 1])
    plain(s, "w", "nw", "n", "e")
    s = sub(s, 0, {"hero": "h0-shadow"})
    s = sub(s, 0, {"action": "move", "to": "nw"})
    assert s.turn.actions == 2
    s = sub(s, 0, {"action": "move", "to": "n"})
    assert s.turn.actions == 1


def test_tiger_claw_makes_sixes_worth_three() -> None:
    s = blank(["tiger"], ["sage"])
    in_fight(s, "c")
    assert combat.score(s, "c", 0, [6, 5]) == 4
    assert combat.score(s, "c", 1, [6, 5]) == 3


def test_willow_mender_heals_her_clan_after_a_fight() -> None:
    s = blank(["willow", "sage"], ["crane"])
    plain(s, "c")
    in_fight(s, "c")
    hero(s, 0, "sage").health = 2
    combat.start(s, "c", 1, Dice(1, 1, 1, 1, 1), [])
    assert hero(s, 0, "sage").health == 3
    s2 = blank(["sage"], ["crane"])
    plain(s2, "c")
    in_fight(s2, "c")
    hero(s2, 0, "sage").health = 2
    combat.start(s2, "c", 1, Dice(1, 1, 1), [])
    assert hero(s2, 0, "sage").health == 2


def test_golden_hand_brings_a_coin() -> None:
    s = blank(["goldhand"], ["sage"])
    plain(s, "w", "e")
    before = income(s, 0)
    hero(s, 0, "goldhand").defeated = True
    hero(s, 0, "goldhand").location = None
    s.loc("w").minions[0] = 1
    assert income(s, 0) == before - 1


def test_spirit_lamp_gains_two_energy() -> None:
    s = blank(["lamp", "sage"], ["crane"])
    plain(s, "w", "e")
    rules._start_round(s, [], Dice())
    assert hero(s, 0, "lamp").energy == 2 and hero(s, 0, "sage").energy == 1


# ----------------------------------------------------------------------------- locations


def _train(card: str, action: str, health: int = 1, energy: int = 0):
    s = activation(blank(["crane"], ["tiger"]), [0, 1])
    plain(s, "e")
    put_card(s, "w", card)
    hero(s, 0, "crane").health = health
    hero(s, 0, "crane").energy = energy
    s = sub(s, 0, {"hero": "h0-crane"})
    return hero(sub(s, 0, {"action": action}), 0, "crane")


def test_moonwell_spring_training_heals_two() -> None:
    assert _train("spring", "train_health").health == 3
    assert _train("gate", "train_health").health == 2


def test_cinder_forge_training_gives_two_energy() -> None:
    assert _train("forge", "train_energy").energy == 2
    assert _train("gate", "train_energy").energy == 1


def test_lantern_hall_training_gives_both() -> None:
    h = _train("lantern", "train_health")
    assert (h.health, h.energy) == (2, 1)
    h = _train("lantern", "train_energy")
    assert (h.health, h.energy) == (2, 1)


def _clan(card: str, coins: int = 2):
    s = blank(["crane"], ["tiger"])
    plain(s, "e")
    put_card(s, "w", card)
    s.phase = "clan"
    s.seats[0].coins, s.seats[0].clan_done = coins, False
    return s


def test_red_barracks_recruits_two_per_coin() -> None:
    s = sub(sub(_clan("barracks"), 0, {"action": "recruit", "location": "w"}), 0, {"count": 2})
    assert s.loc("w").minions[0] == 4
    s = sub(sub(_clan("gate"), 0, {"action": "recruit", "location": "w"}), 0, {"count": 2})
    assert s.loc("w").minions[0] == 2


def test_builders_academy_builds_for_one_coin() -> None:
    s = _clan("academy", coins=1)
    s = sub(sub(s, 0, {"action": "build", "location": "w"}), 0, {"infrastructure": "market"})
    assert s.loc("w").infrastructure == "market"
    with pytest.raises(IllegalChoice):
        sub(_clan("gate", coins=1), 0, {"action": "build", "location": "w"})


def test_quiet_teahouse_gives_extra_energy() -> None:
    s = blank(["sage"], ["lamp"])
    plain(s, "e")
    put_card(s, "w", "teahouse")
    rules._start_round(s, [], Dice())
    assert hero(s, 0, "sage").energy == 2


def test_counting_house_coin_with_a_hero() -> None:
    s = blank(["sage"], ["lamp"])
    plain(s, "e")
    put_card(s, "w", "counting")
    cards = content().locations
    assert income(s, 0) == cards["counting"].coin + 1
    hero(s, 0, "sage").location = "nw"
    s.loc("w").minions[0] = 1
    put_card(s, "nw", "gate")
    assert income(s, 0) == cards["counting"].coin + cards["gate"].coin


def test_sky_temple_influence_with_a_hero() -> None:
    s = blank(["sage"], ["lamp"])
    plain(s, "e", "nw")
    put_card(s, "w", "temple")
    temple = content().locations["temple"].influence
    assert influence(s, 0) == temple + 1
    hero(s, 0, "sage").location = "nw"
    s.loc("w").minions[0] = 1
    assert influence(s, 0) == temple + content().locations["gate"].influence


def test_willow_infirmary_heals_in_the_clan_phase() -> None:
    s = blank(["sage"], ["lamp"])
    plain(s, "e")
    put_card(s, "w", "infirmary")
    hero(s, 0, "sage").health = 1
    hero(s, 1, "lamp").health = 1
    rules._start_round(s, [], Dice())
    assert hero(s, 0, "sage").health == 2 and hero(s, 1, "lamp").health == 1


def test_recruiting_hall_free_minion() -> None:
    s = activation(blank(["sage"], ["lamp"]), [0, 1])
    plain(s, "e", "nw")
    put_card(s, "w", "hall")
    s.loc("w").minions[0] = 2
    s = sub(s, 0, {"hero": "pass"})
    s = sub(s, 1, {"hero": "pass"})  # round over: the next Clan Phase places the free minion
    assert s.round == 2 and s.loc("w").minions[0] == 3 and s.loc("e").minions[1] == 0


def test_recruiting_hall_gives_nothing_without_a_hero_there() -> None:
    s = activation(blank(["sage"], ["lamp"]), [0, 1])
    plain(s, "e", "w")
    put_card(s, "nw", "hall")
    s.loc("nw").minions[0] = 2
    s = sub(s, 0, {"hero": "pass"})
    s = sub(s, 1, {"hero": "pass"})
    assert s.round == 2 and s.loc("nw").minions[0] == 2


def test_scroll_archive_extra_action() -> None:
    s = activation(blank(["sage"], ["tiger"]), [0, 1])
    plain(s, "e")
    put_card(s, "w", "archive")
    assert sub(s, 0, {"hero": "h0-sage"}).turn.actions == 3


def test_five_crossroads_moving_in_is_free_without_enemies() -> None:
    s = activation(blank(["sage"], ["tiger"]), [0, 1])
    plain(s, "w", "e")
    put_card(s, "c", "crossroads")
    s = sub(s, 0, {"hero": "h0-sage"})
    assert sub(s, 0, {"action": "move", "to": "c"}).turn.actions == 2
    s.loc("c").minions[1] = 1
    assert rules.move_cost(s, 0, hero(s, 0, "sage"), "c") == (1, False)


def test_swift_bridge_moving_away_is_free() -> None:
    s = activation(blank(["sage"], ["tiger"]), [0, 1])
    plain(s, "e", "nw")
    put_card(s, "w", "bridge")
    s = sub(s, 0, {"hero": "h0-sage"})
    s = sub(s, 0, {"action": "move", "to": "nw"})
    assert s.turn.actions == 2
    s = sub(s, 0, {"action": "move", "to": "w"})
    assert s.turn.actions == 1


def test_mountain_pass_rest_gives_energy() -> None:
    s = activation(blank(["sage"], ["tiger"]), [0, 1])
    plain(s, "e")
    put_card(s, "w", "pass")
    s = sub(sub(s, 0, {"hero": "h0-sage"}), 0, {"action": "end"})
    assert hero(s, 0, "sage").energy == 1
    s = activation(blank(["sage"], ["tiger"]), [0, 1])
    plain(s, "e", "w")
    s = sub(sub(s, 0, {"hero": "h0-sage"}), 0, {"action": "end"})
    assert hero(s, 0, "sage").energy == 0


def test_open_gate_recruits_without_a_hero() -> None:
    s = _clan("counting")
    put_card(s, "nw", "gate")
    s.loc("nw").minions[0] = 1
    assert "recruit:nw" in {o.value for o in prompt_of(s, 0).options}
    put_card(s, "nw", "academy")
    assert "recruit:nw" not in {o.value for o in prompt_of(s, 0).options}
