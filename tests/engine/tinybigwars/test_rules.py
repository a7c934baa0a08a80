"""One test (or a few) per rulebook clause, named after the clause they cover."""

from __future__ import annotations

import pytest

import engine
from engine.contract import IllegalChoice
from engine.tinybigwars import combat, rules, victory
from engine.tinybigwars.board import controlled, income, influence
from engine.tinybigwars.content import content
from engine.tinybigwars.state import Options
from tests.engine.tinybigwars.helpers import (
    Dice,
    G,
    activation,
    blank,
    hero,
    new,
    prompt_of,
    put_card,
    started,
    sub,
    sub_ev,
)


def plain(state, *nodes: str) -> None:
    """Give the nodes cards whose abilities never touch moving, training or fighting."""
    for node, card in zip(nodes, ["counting", "gate", "academy", "hall", "temple"], strict=False):
        put_card(state, node, card)


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


def _finish_clan_phase(s):
    """Every seat still in the Clan Phase says Done, through ``submit``."""
    events: list = []
    while s.phase == "clan":
        p = G.prompts(s)[0]
        s, more = sub_ev(s, p.seat, {"action": "done"})
        events += more
    return s, events


def _home(s, seat: int) -> str:
    return next(loc.id for loc in s.locations if loc.start_seat == seat)


def _level_starts(s, *cards: str) -> None:
    """Same-influence cards on the start nodes, nobody anywhere else."""
    for loc in s.locations:
        if loc.start_seat is None:
            loc.minions = [0] * s.seats_n
    for seat, card in enumerate(cards):
        put_card(s, _home(s, seat), card)


def test_activation_order_starts_at_the_seat_drawn_by_seed_and_rotates_each_round() -> None:
    firsts = {new(3, seed).first_seat for seed in range(12)}
    assert firsts == {0, 1, 2}
    for seed in range(4):
        s = started(["crane"], ["tiger"], ["sage"], seed=seed)
        _level_starts(s, "gate", "academy", "infirmary")
        s, events = _finish_clan_phase(s)
        order = next(e for e in events if e.kind == "activation_start").data["order"]
        first = s.first_seat
        assert order == [first, (first + 1) % 3, (first + 2) % 3]
        assert G.prompts(s)[0].seat == first and G.prompts(s)[0].kind == "activate"
        for seat in order:
            s = sub(s, seat, {"hero": "pass"})
        assert s.round == 2
        s, events = _finish_clan_phase(s)
        order = next(e for e in events if e.kind == "activation_start").data["order"]
        assert order == [(first + 1) % 3, (first + 2) % 3, first]


def test_influence_does_not_change_the_activation_order() -> None:
    s = started(["crane"], ["tiger"], ["sage"], seed=2)
    _level_starts(s, "gate", "academy", "infirmary")
    for loc in s.locations:
        if loc.start_seat is None:
            loc.minions[(s.first_seat + 2) % 3] = 1  # the last in the order leads by far
    s, events = _finish_clan_phase(s)
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


# --------------------------------------------------------------------------- combat


def _fight(state, node: str, attacker, *faces: int):
    events: list = []
    done = combat.start(state, node, attacker, Dice(*faces), events)
    return done, events


def test_dice_pool_is_hero_power_plus_one_per_minion() -> None:
    s = blank(["tiger", "sage"], ["crane"])
    plain(s, "w", "e")
    s.loc("w").minions[0] = 3
    assert combat.dice_pool(s, "w", 0, attacker=None) == 4 + 1 + 3


def test_fives_hit_once_sixes_twice() -> None:
    s = blank(["crane"], ["sage"])
    assert combat.score(s, "w", 0, [1, 2, 3, 4]) == 0
    assert combat.score(s, "w", 0, [5, 6, 6]) == 5


def test_damage_kills_minions_first_then_heroes_and_minions_remain() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "c")
    hero(s, 0, "crane").location = "c"
    hero(s, 1, "sage").location = "c"
    s.loc("c").minions = [2, 1]
    # seat 0: crane power 2 + 2 minions = 4 dice; seat 1: sage 1 + 1 minion = 2 dice
    done, _ = _fight(s, "c", 0, 6, 6, 1, 1, 1, 1)
    assert done
    assert s.loc("c").minions == [2, 0]
    assert hero(s, 1, "sage").health == 4 - 3
    assert s.present("c") == [0, 1]


def test_a_hero_at_zero_health_is_removed() -> None:
    s = blank(["tiger"], ["storm"])
    plain(s, "c")
    hero(s, 0, "tiger").location = "c"
    hero(s, 1, "storm").location = "c"
    # tiger rolls 4 dice: 6,6 = 3+3 hits (Tiger Claw); storm 3 dice + 1 sure hit
    done, events = _fight(s, "c", 0, 6, 6, 1, 1, 1, 1, 1)
    assert done
    assert hero(s, 1, "storm").defeated and hero(s, 1, "storm").location is None
    assert any(e.kind == "hero_defeated" for e in events)
    assert s.controller("c") == 0


def test_energy_adds_hits_or_cancels_incoming_hits_secretly() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "c")
    hero(s, 0, "crane").location = "c"
    hero(s, 1, "sage").location = "c"
    hero(s, 0, "crane").energy = 2
    hero(s, 1, "sage").energy = 3
    done, _ = _fight(s, "c", 0, 5, 1, 1)  # crane 1 hit, sage 0
    assert not done and s.combat is not None
    assert combat.submit_energy(s, 0, 2, 0, []) is False
    with pytest.raises(IllegalChoice, match="only 3"):
        combat.submit_energy(s, 1, 2, 2, [])
    assert combat.submit_energy(s, 1, 1, 2, [])
    assert hero(s, 1, "sage").health == 4 - (3 - 2)
    assert hero(s, 0, "crane").health == 4 - 1
    assert hero(s, 0, "crane").energy == 0 and hero(s, 1, "sage").energy == 0


def test_heroes_take_damage_in_an_order_their_owner_sets() -> None:
    s = activation(blank(["crane"], ["sage", "goldhand"]), [0, 1])
    plain(s, "w", "c", "e")
    hero(s, 1, "sage").location = "c"
    hero(s, 1, "goldhand").location = "c"
    hero(s, 0, "crane").location = "c"
    done, _ = _fight(s, "c", 0, 6, 5, 1, 1, 1)  # 3 hits on seat 1's heroes (capacity 8)
    assert not done and s.combat is not None and s.combat.stage == "damage"
    p = prompt_of(s, 1)
    assert p.kind == "damage_order" and {o.value for o in p.options} == {"h1-sage", "h1-goldhand"}
    s.after_combat = "end_fights"
    s.turn.index = -1
    s = sub(s, 1, {"hero": "h1-goldhand"})
    assert hero(s, 1, "goldhand").health == 1 and hero(s, 1, "sage").health == 4


def test_a_downed_hero_cannot_be_picked_to_take_more_hits() -> None:
    s = blank(["tiger"], ["sage", "goldhand", "lamp"])
    plain(s, "c")
    for h in s.heroes:
        h.location = "c"
    combat.start(s, "c", 0, Dice(6, 6, 6, 1, 1, 1, 1, 1, 1), [])  # 9 hits, capacity 12
    assert combat.submit_damage(s, 1, "h1-goldhand", []) is False
    assert hero(s, 1, "goldhand").health == 0
    with pytest.raises(IllegalChoice, match="already down"):
        combat.submit_damage(s, 1, "h1-goldhand", [])


def test_overflowing_damage_moves_on_to_the_next_hero() -> None:
    s = blank(["crane"], ["sage", "goldhand"])
    plain(s, "c")
    for h in s.heroes:
        h.location = "c"
    hero(s, 1, "goldhand").health = 1
    combat.start(s, "c", 0, Dice(6, 6, 1, 1, 1), [])
    assert combat.submit_damage(s, 1, "h1-goldhand", [])
    assert hero(s, 1, "goldhand").defeated and hero(s, 1, "sage").health == 1


def test_three_way_fights_split_hits_between_opponents() -> None:
    s = blank(["crane"], ["sage"], ["goldhand"])
    plain(s, "g")
    for h in s.heroes:
        h.location = "g"
    s.loc("g").minions = [0, 3, 1]
    cb = combat.Combat(
        location="g", seats=[0, 1, 2], attacker=0, dice=[[], [], []], hits=[0, 0, 0], spend=[None] * 3, needs_spend=[False] * 3
    )
    assert combat.split_hits(s, cb, 0, 5) == {1: 3, 2: 2}
    assert combat.split_hits(s, cb, 1, 4) == {2: 2, 0: 2}


# --------------------------------------------------------------------------- location states


def test_controlled_contested_and_neutral_locations() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "w", "c", "e")
    assert s.controller("w") == 0 and s.controller("e") == 1
    assert s.controller("c") is None and s.present("c") == []
    s.loc("c").minions = [1, 1]
    assert s.controller("c") is None and s.present("c") == [0, 1]


def test_contested_locations_give_no_coins_influence_or_abilities() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "w", "c", "e")
    put_card(s, "c", "temple")
    s.loc("c").minions = [1, 0]
    hero(s, 0, "crane").location = "c"
    with_c = influence(s, 0), income(s, 0)
    s.loc("c").minions = [1, 1]
    temple = content().locations["temple"]
    assert influence(s, 0) == with_c[0] - temple.influence - 1 and income(s, 0) == with_c[1] - temple.coin
    from engine.tinybigwars.board import ability_for

    assert ability_for(s, "c", 0) is None


def test_heroes_of_two_players_left_together_fight_again_at_phase_end() -> None:
    s = activation(blank(["ironmonk"], ["warden"]), [0, 1])
    plain(s, "w", "c", "e")
    hero(s, 0, "ironmonk").location = "c"
    hero(s, 1, "warden").location = "c"
    s = sub(s, 0, {"hero": "pass"})
    s, events = sub_ev(s, 1, {"hero": "pass"})
    rolls = [e for e in events if e.kind == "combat_roll"]
    assert rolls and rolls[0].data["location"] == "c" and rolls[0].data["attacker"] is None
    kinds = [e.kind for e in events]
    assert kinds.index("combat_roll") < kinds.index("activation_end")


def test_a_watchtower_keeps_its_die_for_the_holder_in_the_end_of_phase_refight() -> None:
    s = activation(blank(["ironmonk"], ["ironmonk"]), [0, 1])
    plain(s, "w", "c", "e")
    hero(s, 1, "ironmonk").location = "c"
    s.loc("c").infrastructure = "watchtower"
    s = sub(s, 0, {"hero": "h0-ironmonk"})
    s, events = sub_ev(s, 0, {"action": "move", "to": "c"})
    fight = next(e for e in events if e.kind == "combat_roll")
    assert fight.data["attacker"] == 0
    assert [len(d) for d in fight.data["dice"]] == [2, 3]  # defender: power 2 + Watchtower
    assert s.controller("c") is None and s.loc("c").held_by == 1
    s = sub(s, 0, {"action": "end"})
    s, events = sub_ev(s, 1, {"hero": "pass"})
    refight = next(e for e in events if e.kind == "combat_roll")
    assert refight.data["attacker"] is None and refight.data["location"] == "c"
    assert [len(d) for d in refight.data["dice"]] == [2, 3]  # the holder still defends


# --------------------------------------------------------------------------- victory


def _round_end(s):
    events: list = []
    rules._victory_check(s, events, Dice())
    return events


def test_ten_influence_at_the_end_of_a_round_wins() -> None:
    s = blank(["crane"], ["sage"])
    s.round, s.phase = 1, "activation"
    s.options.to_win = max(influence(s, 0), influence(s, 1)) + 1
    for loc in s.locations:
        if loc.start_seat is None:
            loc.minions[0] = 1
    events = _round_end(s)
    assert G.result(s) is not None and G.result(s).winners == [0]
    assert s.reason == "influence" and G.result(s).reason == f"first to {s.options.to_win} influence"
    assert events[-1].kind == "game_over" and events[-1].phase_end


def test_default_target_is_ten_influence() -> None:
    assert Options().to_win == 10


def test_tiebreakers_highest_influence_then_most_locations_then_draw() -> None:
    assert victory.rank([0, 1], [12, 11], [3, 5]) == [0]
    assert victory.rank([0, 1], [12, 12], [3, 5]) == [1]
    assert victory.rank([0, 1], [12, 12], [4, 4]) == [0, 1]


def test_a_tie_at_ten_is_a_draw() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "w", "e")
    s.round = 1
    s.options.to_win = 1
    put_card(s, "w", "gate")
    put_card(s, "e", "academy")
    assert influence(s, 0) == influence(s, 1) >= 1
    assert len(controlled(s, 0)) == len(controlled(s, 1))
    _round_end(s)
    result = G.result(s)
    assert result is not None and result.draw and result.winners == [0, 1]


def _play_out_round(s):
    """Clan Phase done and every clan passes, through ``submit``: the round ends."""
    s, events = _finish_clan_phase(s)
    while s.phase != "over" and s.phase == "activation":
        p = G.prompts(s)[0]
        s, more = sub_ev(s, p.seat, {"hero": "pass"})
        events += more
    return s, events


def test_round_limit_highest_influence_wins() -> None:
    s = started(["crane"], ["sage"], round_limit=1)
    _level_starts(s, "gate", "academy")
    spare = next(loc for loc in s.locations if loc.start_seat is None)
    put_card(s, spare.id, "infirmary")
    spare.minions[1] = 1
    s, events = _play_out_round(s)
    result = G.result(s)
    assert result.winners == [1] and not result.draw
    assert result.reason == f"the most influence at the {s.options.round_limit}-round limit"
    assert events[-1].kind == "game_over" and "wins" in events[-1].text


def test_round_limit_then_most_locations() -> None:
    s = started(["crane"], ["sage"], round_limit=1)
    _level_starts(s, "gate", "academy")
    spare = next(loc for loc in s.locations if loc.start_seat is None)
    put_card(s, spare.id, "infirmary")
    spare.minions[0] = 1
    s.loc(_home(s, 1)).infrastructure = "dojo"
    assert influence(s, 0) == influence(s, 1)
    s, _ = _play_out_round(s)
    assert G.result(s).winners == [0] and not G.result(s).draw


def test_round_limit_full_tie_is_a_draw() -> None:
    s = started(["crane"], ["sage"], round_limit=1)
    _level_starts(s, "gate", "academy")
    assert influence(s, 0) == influence(s, 1) and len(controlled(s, 0)) == len(controlled(s, 1))
    s, events = _play_out_round(s)
    result = G.result(s)
    assert result is not None and result.draw and result.winners == [0, 1]
    assert result.reason == f"tied on influence and locations at the {s.options.round_limit}-round limit"
    assert "Draw between" in events[-1].text and "tied" in events[-1].text


def test_round_end_event_marks_the_phase_end_and_a_new_round_starts() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "w", "e")
    s.round = 1
    events = _round_end(s)
    assert any(e.kind == "round_end" and e.phase_end for e in events)
    assert s.round == 2


def test_a_clan_without_units_is_out_and_the_last_clan_wins() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "w", "e")
    hero(s, 1, "sage").defeated = True
    hero(s, 1, "sage").location = None
    s.round = 1
    _round_end(s)
    assert s.seats[1].eliminated
    assert G.result(s).winners == [0] and G.result(s).reason == "the last clan standing"
