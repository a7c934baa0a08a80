"""Fights and location states, one test (or a few) per rulebook clause (the rest: test_rules.py)."""

from __future__ import annotations

import pytest

from engine.contract import IllegalChoice
from engine.tinybigwars import combat
from engine.tinybigwars.board import income, influence
from engine.tinybigwars.content import content
from tests.engine.tinybigwars.helpers import (
    Dice,
    activation,
    blank,
    hero,
    plain,
    prompt_of,
    put_card,
    sub,
    sub_ev,
)

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
