"""One test (or a few) per rulebook clause, named after the clause they cover."""

from __future__ import annotations

import pytest

import engine
from engine.contract import IllegalChoice
from engine.tinybigwars import combat, rules
from engine.tinybigwars.board import controlled, income, influence
from engine.tinybigwars.content import content
from engine.tinybigwars.state import Options
from tests.engine.tinybigwars.helpers import (
    Dice,
    G,
    activation,
    blank,
    finish_clan_phase,
    hero,
    level_starts,
    new,
    plain,
    prompt_of,
    put_card,
    started,
    sub,
    sub_ev,
)

# --------------------------------------------------------------------------- setup / map


@pytest.mark.parametrize(("seats", "map_id", "nodes"), [(2, "city2", 12), (3, "city3", 13), (4, "city4", 14)])
def test_city_map_per_player_count_with_one_start_node_each(seats: int, map_id: str, nodes: int) -> None:
    s = new(seats)
    assert s.map == map_id
    assert len(s.locations) == nodes
    assert sorted(loc.start_seat for loc in s.locations if loc.start_seat is not None) == list(range(seats))
    cards = [loc.card for loc in s.locations]
    assert len(set(cards)) == len(cards)
    assert set(cards) <= set(content().locations)


def test_location_cards_are_shuffled_by_seed() -> None:
    deals = {tuple(loc.card for loc in new(3, seed).locations) for seed in range(8)}
    assert len(deals) > 1
    assert [loc.card for loc in new(3, 5).locations] == [loc.card for loc in new(3, 5).locations]


def test_roads_follow_the_fixed_graph() -> None:
    s = new(2)
    assert set(s.neighbours("w")) == {"nw", "sw", "c"}
    assert "e" not in s.neighbours("w")


# --------------------------------------------------------------------------- force building


def test_force_building_is_a_secret_multi_prompt_for_every_seat() -> None:
    s = new(3)
    ps = G.prompts(s)
    assert [p.seat for p in ps] == [0, 1, 2]
    for p in ps:
        assert p.kind == "force" and p.input == "multi" and p.secret and not p.answered
        assert len(p.options) <= 25
        rules.force_of(p.default["picks"], 30)


def test_force_can_be_revised_until_every_force_is_in() -> None:
    s = sub(new(2), 0, {"picks": ["ember"]})
    assert prompt_of(s, 0).answered and not prompt_of(s, 1).answered
    assert s.phase == "force"
    s = sub(s, 0, {"picks": ["tiger", "alley"]})
    assert s.seats[0].force is not None and s.seats[0].force.heroes == ["tiger"]
    s = sub(s, 1, {"picks": ["crane"]})
    assert s.phase == "clan"
    assert [h.card for h in s.live_heroes(0)] == ["tiger"]


def test_forces_are_revealed_together_with_a_phase_end_event() -> None:
    s = sub(new(2), 0, {"picks": ["ember"]})
    _, events = sub_ev(s, 1, {"picks": ["crane"]})
    reveal = [e for e in events if e.kind == "force_reveal"]
    assert reveal and reveal[0].phase_end and reveal[0].seats is None
    assert "Ember Fist" in reveal[0].text and "Swift Crane" in reveal[0].text


def test_force_over_the_point_limit_is_refused() -> None:
    with pytest.raises(IllegalChoice, match="costs 31 points; the limit is 30"):
        sub(new(2), 0, {"picks": ["tiger", "ember", "goldhand", "brothers", "market_charter", "alley"]})


def test_force_needs_a_hero_and_at_most_one_building() -> None:
    with pytest.raises(IllegalChoice, match="at least one Hero"):
        sub(new(2), 0, {"picks": ["legion"]})
    with pytest.raises(IllegalChoice, match="at most one Building"):
        sub(new(2), 0, {"picks": ["crane", "dojo_charter", "market_charter"]})
    with pytest.raises(IllegalChoice, match="only once"):
        sub(new(2), 0, {"picks": ["crane", "crane"]})
    with pytest.raises(IllegalChoice, match="no card called"):
        sub(new(2), 0, {"picks": ["crane", "dragon"]})


def test_point_limit_option_accepts_any_value_from_10() -> None:
    assert Options().point_limit == 30
    with pytest.raises(IllegalChoice):
        engine.parse_options(G, {"point_limit": 9})
    s = new(2, point_limit=10)
    p = prompt_of(s, 0)
    assert rules.force_of(p.default["picks"], 10).points <= 10
    s = new(2, point_limit=60)
    sub(s, 0, {"picks": ["tiger", "ember", "storm", "ironmonk", "crane", "shadow"]})


def test_minion_and_building_cards_bring_their_miniatures() -> None:
    s = new(2)
    put_card(s, "w", "counting")
    put_card(s, "e", "gate")  # start cards that add no minions in the Clan Phase
    s = sub(sub(s, 0, {"picks": ["crane", "legion", "dojo_charter"]}), 1, {"picks": ["shadow"]})
    start0 = next(loc for loc in s.locations if loc.start_seat == 0)
    start1 = next(loc for loc in s.locations if loc.start_seat == 1)
    assert start0.minions[0] == 4 + 8
    assert start0.infrastructure is None and s.seats[0].charters == ["dojo"]  # placed in a Clan Phase
    assert start1.minions[1] == 4 and start1.infrastructure is None and s.seats[1].charters == []


def test_a_building_card_is_placed_free_where_the_clan_could_build() -> None:
    s = new(2)
    put_card(s, "w", "barracks")  # no coins in round 1: the placement costs none
    put_card(s, "e", "hall")
    s = sub(sub(s, 0, {"picks": ["crane", "sage", "tower_charter"]}), 1, {"picks": ["shadow"]})
    assert s.seats[0].coins == 0 and not s.seats[0].clan_done
    p = prompt_of(s, 0)
    assert p.kind == "clan" and {o.value for o in p.options} == {"charter:w", "done"}
    with pytest.raises(IllegalChoice, match="control with one of your heroes"):
        sub(s, 0, {"action": "charter", "location": "e"})
    s, events = sub_ev(s, 0, {"action": "charter", "location": "w"})
    assert s.loc("w").infrastructure == "watchtower" and s.seats[0].charters == []
    assert any(e.kind == "build" and e.data["charter"] for e in events)
    assert s.seats[0].coins == 0 and s.phase == "activation"


def test_an_unplaced_building_card_waits_for_a_later_clan_phase() -> None:
    s = new(2)
    put_card(s, "w", "barracks")
    put_card(s, "e", "hall")
    s = sub(sub(s, 0, {"picks": ["crane", "dojo_charter"]}), 1, {"picks": ["shadow"]})
    s = sub(s, 0, {"action": "done"})
    assert s.phase == "activation" and s.seats[0].charters == ["dojo"]
    s = sub(s, s.turn.order[0], {"hero": "pass"})
    s = sub(s, s.turn.order[1], {"hero": "pass"})
    assert s.round == 2 and prompt_of(s, 0).kind == "clan"
    s = sub(s, 0, {"action": "charter", "location": "w"})
    assert s.loc("w").infrastructure == "dojo" and s.seats[0].charters == []
    with pytest.raises(IllegalChoice):
        sub(s, 0, {"action": "charter", "location": "w"})


# --------------------------------------------------------------------------- start


def test_start_heroes_on_start_node_full_health_zero_energy_before_first_clan_phase() -> None:
    s = new(2)
    s = sub(s, 0, {"picks": ["ironmonk", "sage"]})
    s, events = sub_ev(s, 1, {"picks": ["tiger"]})
    for h in s.heroes:
        start = next(loc.id for loc in s.locations if loc.start_seat == h.seat)
        assert h.location == start
        assert h.health == content().heroes[h.card].health
        assert h.energy == 1  # 0 at the start, +1 from the first Clan Phase
    assert any(e.kind == "clan_start" for e in events)


# --------------------------------------------------------------------------- clan phase


def test_clan_phase_energy_gain_is_capped_at_max_energy() -> None:
    s = blank(["tiger"], ["sage"])
    plain(s, "w", "e")
    s.round = 1
    hero(s, 1, "sage").energy = 2
    rules._start_round(s, [], Dice())
    assert hero(s, 0, "tiger").energy == 1  # max 1
    assert hero(s, 1, "sage").energy == 3
    rules._start_round(s, [], Dice())
    assert hero(s, 0, "tiger").energy == 1


def test_clan_phase_coins_equal_coin_values_of_controlled_locations() -> None:
    s = blank(["crane"], ["tiger"])
    plain(s, "w", "nw", "c", "e")
    put_card(s, "nw", "spring")
    s.loc("nw").minions[0] = 1
    s.loc("c").minions = [1, 1]  # contested: nothing
    cards = content().locations
    expected = cards["counting"].coin + 1 + cards["spring"].coin  # w (Counting House with a hero: +1) + nw
    assert income(s, 0) == expected
    rules._start_round(s, [], Dice())
    assert s.seats[0].coins == expected


def test_recruit_places_one_minion_per_coin_where_a_hero_stands() -> None:
    s = blank(["crane"], ["tiger"])
    plain(s, "w", "e", "nw")
    s.loc("nw").minions[0] = 1
    s.seats[0].coins, s.seats[0].clan_done, s.phase = 2, False, "clan"
    p = prompt_of(s, 0)
    assert {o.value for o in p.options} == {"recruit:w", "build:w", "done"}
    with pytest.raises(IllegalChoice, match="control with one of your heroes"):
        sub(s, 0, {"action": "recruit", "location": "nw"})
    s = sub(s, 0, {"action": "recruit", "location": "w"})
    assert prompt_of(s, 0).kind == "recruit" and prompt_of(s, 0).input == "numbers"
    with pytest.raises(IllegalChoice, match="between 1 and 2"):
        sub(s, 0, {"count": 3})
    s = sub(s, 0, {"count": 2})
    assert s.loc("w").minions[0] == 2 and s.seats[0].coins == 0


def test_build_costs_two_coins_one_infrastructure_per_location() -> None:
    s = blank(["crane"], ["tiger"])
    plain(s, "w", "e")
    s.seats[0].coins, s.seats[0].clan_done, s.phase = 5, False, "clan"
    s = sub(s, 0, {"action": "build", "location": "w"})
    p = prompt_of(s, 0)
    assert p.kind == "build" and {o.value for o in p.options} == {"dojo", "market", "watchtower"}
    s = sub(s, 0, {"infrastructure": "watchtower"})
    assert s.loc("w").infrastructure == "watchtower" and s.seats[0].coins == 3
    with pytest.raises(IllegalChoice, match="already has infrastructure"):
        sub(s, 0, {"action": "build", "location": "w"})


def test_building_needs_the_coins() -> None:
    s = blank(["crane"], ["tiger"])
    plain(s, "w", "e")
    s.seats[0].coins, s.seats[0].clan_done, s.phase = 1, False, "clan"
    assert "build:w" not in {o.value for o in prompt_of(s, 0).options}
    with pytest.raises(IllegalChoice, match="2 coins"):
        sub(s, 0, {"action": "build", "location": "w"})


def test_dojo_market_watchtower_effects() -> None:
    s = blank(["crane"], ["tiger"])
    plain(s, "w", "e")
    base_inf, base_coin = influence(s, 0), income(s, 0)
    s.loc("w").infrastructure = "dojo"
    assert influence(s, 0) == base_inf + 1
    s.loc("w").infrastructure = "market"
    assert income(s, 0) == base_coin + 1
    s.loc("w").infrastructure = "watchtower"
    s.loc("w").minions = [2, 1]
    assert combat.dice_pool(s, "w", 0, attacker=1) == 2 + 2 + 1
    assert combat.dice_pool(s, "w", 1, attacker=1) == 1
    assert combat.dice_pool(s, "w", 0, attacker=None) == 2 + 2


def test_infrastructure_stays_when_control_changes() -> None:
    s = blank(["crane"], ["tiger"])
    plain(s, "w", "nw", "e")
    s.loc("nw").infrastructure = "dojo"
    s.loc("nw").minions = [1, 0]
    assert "nw" in controlled(s, 0)
    s.loc("nw").minions = [0, 1]
    assert s.loc("nw").infrastructure == "dojo" and "nw" in controlled(s, 1)


def test_unspent_coins_are_lost_and_the_clan_phase_ends_with_an_event() -> None:
    s = blank(["crane"], ["tiger"])
    plain(s, "w", "e")
    for st in s.seats:
        st.coins, st.clan_done = 3, False
    s.phase = "clan"
    s = sub(s, 0, {"action": "done"})
    s, events = sub_ev(s, 1, {"action": "done"})
    assert [st.coins for st in s.seats] == [0, 0]
    assert any(e.kind == "clan_end" and e.phase_end for e in events)
    assert s.phase == "activation"


# --------------------------------------------------------------------------- activation


def test_activation_order_starts_at_the_seat_drawn_by_seed_and_rotates_each_round() -> None:
    firsts = {new(3, seed).first_seat for seed in range(12)}
    assert firsts == {0, 1, 2}
    for seed in range(4):
        s = started(["crane"], ["tiger"], ["sage"], seed=seed)
        level_starts(s, "gate", "academy", "infirmary")
        s, events = finish_clan_phase(s)
        order = next(e for e in events if e.kind == "activation_start").data["order"]
        first = s.first_seat
        assert order == [first, (first + 1) % 3, (first + 2) % 3]
        assert G.prompts(s)[0].seat == first and G.prompts(s)[0].kind == "activate"
        for seat in order:
            s = sub(s, seat, {"hero": "pass"})
        assert s.round == 2
        s, events = finish_clan_phase(s)
        order = next(e for e in events if e.kind == "activation_start").data["order"]
        assert order == [(first + 1) % 3, (first + 2) % 3, first]


def test_influence_does_not_change_the_activation_order() -> None:
    s = started(["crane"], ["tiger"], ["sage"], seed=2)
    level_starts(s, "gate", "academy", "infirmary")
    for loc in s.locations:
        if loc.start_seat is None:
            loc.minions[(s.first_seat + 2) % 3] = 1  # the last in the order leads by far
    s, events = finish_clan_phase(s)
    order = next(e for e in events if e.kind == "activation_start").data["order"]
    assert order == [s.first_seat, (s.first_seat + 1) % 3, (s.first_seat + 2) % 3]


def test_players_alternate_and_activate_up_to_two_heroes() -> None:
    s = activation(blank(["crane", "sage", "tiger"], ["warden", "goldhand"]), [0, 1])
    plain(s, "w", "e")
    p = prompt_of(s, 0)
    assert p.kind == "activate" and {o.value for o in p.options} == {"h0-crane", "h0-sage", "h0-tiger", "pass"}
    s = sub(s, 0, {"hero": "h0-tiger"})
    s = sub(s, 0, {"action": "end"})
    assert G.prompts(s)[0].seat == 1
    s = sub(s, 1, {"hero": "h1-warden"})
    s = sub(s, 1, {"action": "end"})
    s = sub(s, 0, {"hero": "h0-sage"})
    s = sub(s, 0, {"action": "end"})
    s = sub(s, 1, {"hero": "h1-goldhand"})
    assert s.seats[0].activations == 2 and s.seats[1].activations == 2
    assert "h0-crane" in {h.id for h in s.live_heroes(0) if not h.activated}
    s, events = sub_ev(s, 1, {"action": "end"})
    assert s.round == 2  # seat 0's third hero was never offered: the phase ended
    assert any(e.kind == "activation_end" and e.phase_end for e in events)


def test_a_passing_player_is_skipped_for_the_rest_of_the_round() -> None:
    s = activation(blank(["crane", "sage"], ["warden", "goldhand"]), [0, 1])
    plain(s, "w", "e")
    s = sub(s, 0, {"hero": "pass"})
    s = sub(s, 1, {"hero": "h1-warden"})
    s = sub(s, 1, {"action": "end"})
    assert prompt_of(s, 1).kind == "activate"
    assert all(p.seat == 1 for p in G.prompts(s))


def test_a_hero_is_activated_once_per_round() -> None:
    s = activation(blank(["crane", "sage"], ["warden"]), [0, 1])
    plain(s, "w", "e")
    s = sub(s, 0, {"hero": "h0-sage"})
    s = sub(s, 0, {"action": "end"})
    s = sub(s, 1, {"hero": "pass"})
    assert "h0-sage" not in {o.value for o in prompt_of(s, 0).options}
    with pytest.raises(IllegalChoice, match="already been activated"):
        sub(s, 0, {"hero": "h0-sage"})


def test_an_activated_hero_gets_two_actions_and_may_repeat_an_action() -> None:
    s = activation(blank(["tiger"], ["warden"]), [0, 1])
    plain(s, "w", "e")
    hero(s, 0, "tiger").health = 1
    s = sub(s, 0, {"hero": "h0-tiger"})
    assert s.turn.actions == 2
    s = sub(s, 0, {"action": "train_health"})
    s = sub(s, 0, {"action": "train_health"})
    assert hero(s, 0, "tiger").health == 3
    assert prompt_of(s, 1).kind == "activate"


def test_train_gives_one_health_or_energy_never_above_max() -> None:
    s = activation(blank(["tiger"], ["warden"]), [0, 1])
    plain(s, "w", "e")
    s = sub(s, 0, {"hero": "h0-tiger"})
    assert "train_health" not in {o.value for o in prompt_of(s, 0).options}
    with pytest.raises(IllegalChoice, match="already at full health"):
        sub(s, 0, {"action": "train_health"})
    s = sub(s, 0, {"action": "train_energy"})
    assert hero(s, 0, "tiger").energy == 1
    with pytest.raises(IllegalChoice, match="already has full energy"):
        sub(s, 0, {"action": "train_energy"})


def test_move_to_an_adjacent_location_taking_any_number_of_minions() -> None:
    s = activation(blank(["tiger"], ["warden"]), [0, 1])
    plain(s, "w", "c", "e", "nw")
    s.loc("w").minions[0] = 3
    s = sub(s, 0, {"hero": "h0-tiger"})
    with pytest.raises(IllegalChoice, match="is not adjacent to"):
        sub(s, 0, {"action": "move", "to": "e"})
    s = sub(s, 0, {"action": "move", "to": "nw"})
    p = prompt_of(s, 0)
    assert p.kind == "escort" and p.fields[0].max == 3
    s = sub(s, 0, {"minions": 2})
    assert hero(s, 0, "tiger").location == "nw"
    assert s.loc("nw").minions[0] == 2 and s.loc("w").minions[0] == 1
    assert s.turn.actions == 1


def test_minions_only_move_with_a_hero() -> None:
    s = activation(blank(["tiger"], ["warden"]), [0, 1])
    plain(s, "w", "c", "e", "nw")
    s.loc("nw").minions[0] = 2
    s = sub(s, 0, {"hero": "h0-tiger"})
    s = sub(s, 0, {"action": "move", "to": "c"})  # no minions at w: no escort prompt
    assert s.loc("nw").minions[0] == 2 and s.loc("c").minions[0] == 0


def test_moving_onto_enemy_units_starts_combat_immediately() -> None:
    s = activation(blank(["tiger"], ["warden"]), [0, 1])
    plain(s, "w", "c", "e")
    s.loc("c").minions[1] = 1
    hero(s, 0, "tiger").energy = 0
    s, events = sub_ev(s, 0, {"hero": "h0-tiger"})
    s, events = sub_ev(s, 0, {"action": "move", "to": "c"})
    kinds = [e.kind for e in events]
    assert kinds.index("move") < kinds.index("combat_roll") < kinds.index("combat_damage")
    roll = next(e for e in events if e.kind == "combat_roll")
    assert [len(d) for d in roll.data["dice"]] == [4, 1]
    assert s.combat is None  # no energy anywhere: resolved at once
    assert s.turn.hero == "h0-tiger" and s.turn.actions == 1  # activation continues


def test_combat_waits_for_secret_energy_before_the_activation_continues() -> None:
    s = activation(blank(["tiger"], ["warden"]), [0, 1])
    plain(s, "w", "c", "e")
    s.loc("c").minions[1] = 1
    hero(s, 0, "tiger").energy = 1
    s = sub(s, 0, {"hero": "h0-tiger"})
    s = sub(s, 0, {"action": "move", "to": "c"})
    assert s.phase == "combat"
    p = prompt_of(s, 0)
    assert p.kind == "energy" and p.secret and p.input == "numbers"
    assert [f.name for f in p.fields] == ["attack", "guard"]
    s = sub(s, 0, {"attack": 1, "guard": 0})
    assert s.combat is None and s.phase == "activation"
    assert s.loc("c").minions[1] == 0
    assert hero(s, 0, "tiger").energy == 0
