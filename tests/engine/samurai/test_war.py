"""Action 7 Wage War (A move, B declare, C combat, D final movement), Action 8, the end."""

from __future__ import annotations

import pytest

from engine import IllegalChoice
from engine.samurai import combat, movement, rounds, victory
from engine.samurai.battle import battle_sides
from engine.samurai.board import owned, who
from engine.samurai.combat import side_size
from engine.samurai.content import content
from engine.samurai.state import Declaration

from .helpers import (
    Dice,
    G,
    advance_to,
    blank,
    declare,
    kit_flow,
    new,
    opponents_elsewhere,
    own,
    prompt_for,
    prompt_kinds,
    put_army,
    submit,
    war_at,
)

# ------------------------------------------------------------------ combat primitives


def test_hits_are_dice_at_or_under_the_unit_value():
    side = [{"bowman": 1, "gunner": 1, "spearman": 1, "daimyo": 1}]
    dice, hits = combat.roll_side(side, "ranged", 0, Dice([6, 5]))
    assert dice == [[4, 6], [6, 5]] and hits == 1
    dice, hits = combat.roll_side(side, "melee", 0, Dice([4, 7]))
    assert dice == [[4, 4], [6, 7]] and hits == 1
    _, hits = combat.roll_side([{"fort": 5, "ronin": 1}], "melee", 5, Dice([5, 6, 5, 5, 5, 5]))
    assert hits == 5


def test_casualties_take_fortification_first_and_daimyo_last():
    side = [{"fort": 2}, {"spearman": 1, "ronin": 1}, {"bowman": 1, "daimyo": 1}]
    removed = combat.take_casualties(side, 4)
    assert [k for _, k in removed] == ["fort", "fort", "ronin", "spearman"]
    assert side[2] == {"bowman": 1, "daimyo": 1}


# ------------------------------------------------------------------ phase A


def test_armies_move_up_to_level_through_own_provinces(board):
    for pid in ("echigo", "shinano", "kai"):
        own(board, 0, pid, spearman=1)
    put_army(board, 0, 0, "echigo", level=1, bowman=1)
    st = war_at(board, 0, "A")
    st = submit(st, 0, {"act": "move", "army": 0})
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match="cannot reach Kai from Echigo"):
        G.submit(st, 0, {"act": "to", "province": "kai"})
    assert st.model_dump_json() == before
    st.players[0].armies[0].level = 2
    st.players[0].armies[0].moves_left = 2
    st = submit(st, 0, {"act": "to", "province": "kai"})
    assert st.players[0].armies[0].location == "kai"


def test_armies_never_pass_enemy_land_and_leave_a_garrison(board):
    own(board, 0, "echigo")
    own(board, 1, "shinano", spearman=1)
    own(board, 0, "kai", spearman=1)
    own(board, 0, "etchu", spearman=1)
    put_army(board, 0, 0, "echigo", level=2, bowman=1, spearman=1)
    st = war_at(board, 0, "A")
    assert movement.army_moves(st, 0, st.players[0].armies[0], False) == {"etchu": 1}
    st = submit(st, 0, {"act": "move", "army": 0})
    st = submit(st, 0, {"act": "to", "province": "etchu"})
    assert st.provinces["echigo"].garrison["spearman"] == 1 and st.provinces["echigo"].owner == 0
    assert st.players[0].armies[0].units["spearman"] == 0


def test_army_gathers_garrison_units_within_card_limits(board):
    own(board, 0, "echigo", spearman=3, bowman=2)
    put_army(board, 0, 0, "echigo", bowman=3)
    st = war_at(board, 0, "A")
    st = submit(st, 0, {"act": "gather", "army": 0})
    pr = prompt_for(st, 0)
    assert pr.kind == "gather" and pr.input == "numbers"
    assert [(f.name, f.max) for f in pr.fields] == [("bowman", 1), ("spearman", 3)]
    assert pr.default == {"bowman": 1, "spearman": 3}
    for choice, message in (({"bowman": 2}, "room for only 1 more samurai"), ({"spearman": 4}, "only 3 spearmen"),
                            ({"ronin": 1}, "ronin stay")):
        before = st.model_dump_json()
        with pytest.raises(IllegalChoice, match=message):
            G.submit(st, 0, choice)
        assert st.model_dump_json() == before
    st = submit(st, 0, {"bowman": 1, "spearman": 1})  # a partial gather
    a = st.players[0].armies[0]
    assert a.units["bowman"] == 4 and a.units["spearman"] == 1
    assert st.provinces["echigo"].garrison == {"spearman": 2, "gunner": 0, "swordsman": 0, "bowman": 1}
    st = submit(st, 0, {"act": "gather", "army": 0})
    st = submit(st, 0, {"spearman": 0})  # all 0: back to the menu, nothing moved
    assert prompt_for(st, 0).kind == "war_move" and st.players[0].armies[0].units["spearman"] == 1


# ------------------------------------------------------------------ phase B


def test_attack_only_on_adjacent_provinces(board):
    own(board, 0, "echigo", spearman=3)
    own(board, 1, "kai", spearman=1)
    st = war_at(board, 0, "B")
    st = submit(st, 0, {"act": "source", "province": "echigo"})
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match="Kai is not adjacent to Echigo"):
        G.submit(st, 0, {"act": "attack", "target": "kai"})
    assert st.model_dump_json() == before


def test_first_round_no_attack_on_a_province_with_an_army(board):
    own(board, 0, "echigo", spearman=3)
    own(board, 1, "shinano", spearman=1)
    put_army(board, 1, 0, "shinano")
    st = war_at(board, 0, "B", round_=1)
    st = submit(st, 0, {"act": "source", "province": "echigo"})
    with pytest.raises(IllegalChoice, match="first round"):
        G.submit(st, 0, {"act": "attack", "target": "shinano"})
    st.round = 2
    assert "shinano" in movement.attack_targets(st, 0, "echigo")


def test_at_most_twelve_battle_markers_per_turn(board):
    own(board, 0, "echigo", spearman=3)
    st = war_at(board, 0, "B")
    assert movement.declare_sources(st, 0)
    st.war.declarations = [Declaration(source="tosa", force="garrison", target="iyo")] * 12
    assert movement.declare_sources(st, 0) == []


def test_not_your_turn_is_refused(board):
    own(board, 0, "echigo", spearman=3)
    st = war_at(board, 0, "B")
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match="not your turn"):
        G.submit(st, 1, {"act": "done"})
    assert st.model_dump_json() == before


# ------------------------------------------------------------------ phase C




def test_unoccupied_province_taken_without_dice_and_experience_gained(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2)
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    step = G.submit(st, 0, {"act": "done"})
    st = step.state
    assert not [e for e in step.events if e.kind == "dice"]
    assert st.provinces["shinano"].owner == 0
    a = st.players[0].armies[0]
    assert a.location == "shinano" and a.level == 2
    assert st.war.sub == "D"


def test_castle_defenders_fall_first_and_return_each_battle(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2)
    own(board, 1, "shinano", spearman=1)
    board.provinces["shinano"].fort = 1
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    dice.rolls = [1, 1, 1] + [12] * 5
    step = G.submit(st, 0, {"act": "done"})
    st = step.state
    rolls = [e for e in step.events if e.kind == "dice"]
    assert rolls and rolls[0].data["attack_hits"] == 3 and rolls[0].seats is None
    assert st.war.battle.fort_left == 1 and st.provinces["shinano"].garrison["spearman"] == 1
    assert prompt_for(st, 0).kind == "battle"
    st = submit(st, 0, {"act": "calloff"})
    assert st.provinces["shinano"].owner == 1 and st.players[0].armies[0].location == "echigo"
    assert st.players[0].armies[0].level == 1
    # the castle is whole again for the next battle
    st = war_at(st, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    st = submit(st, 0, {"act": "done"})
    assert st.war.battle.fort_left == 4


def test_attacker_wins_after_rounds_and_occupies_keeping_the_castle(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2)
    own(board, 1, "shinano", spearman=1)
    board.provinces["shinano"].fort = 1
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    dice.rolls = [1, 1, 1] + [12] * 5
    st = submit(st, 0, {"act": "done"})
    dice.rolls = [1, 1, 1] + [12] * 2
    st = submit(st, 0, {"act": "continue"})
    assert st.provinces["shinano"].owner == 0 and st.provinces["shinano"].fort == 1
    assert st.players[0].armies[0].location == "shinano"
    assert st.players[1].tray["spearman"] == board.players[1].tray["spearman"] + 1


def test_ranged_step_comes_before_hand_to_hand_and_its_dead_do_not_strike(board, dice):
    own(board, 0, "echigo", gunner=1, spearman=2)
    own(board, 1, "shinano", bowman=1, spearman=1)
    board.players[1].losses_order = []  # asked in the battle
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano")
    # ranged: attacker gunner 1 (hit), defender bowman 12 (miss); the defender chooses to
    # lose the spearman, so hand-to-hand is the attacker's spearman (12, miss) against nobody
    # but the bowman, which does not fight hand-to-hand
    dice.rolls = [1, 12, 12]
    step = G.submit(st, 0, {"act": "done"})
    steps = [(e.data["step"], e.data["attack_dice"], e.data["defence_dice"]) for e in step.events
             if e.kind == "dice"]
    assert steps == [("ranged", [[4, 1]], [[6, 12]])]
    assert prompt_kinds(step.state) == ["casualties"] and prompt_for(step.state, 1).seat == 1
    step = G.submit(step.state, 1, {"spearman": 1, "bowman": 0})
    steps = [(e.data["step"], e.data["attack_dice"], e.data["defence_dice"]) for e in step.events
             if e.kind == "dice"]
    assert steps == [("melee", [[4, 12]], [])]
    st = step.state
    assert st.provinces["shinano"].garrison == {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 1}
    assert st.players[1].tray["spearman"] == board.players[1].tray["spearman"] + 1


def test_naval_invasion_defender_strikes_first(board, dice):
    own(board, 0, "echigo", spearman=5)
    own(board, 1, "sado", spearman=2)
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "sado")
    dice.rolls = [1, 1]
    step = G.submit(st, 0, {"act": "done"})
    naval = [e for e in step.events if e.kind == "dice" and e.data["step"] == "naval"]
    assert naval and naval[0].data["defence_hits"] == 2
    st = step.state
    assert side_size(battle_sides(st, st.war.battle)[0]) == 2


def test_both_sides_wiped_leaves_the_province_unoccupied(board, dice):
    own(board, 0, "echigo", spearman=2)
    own(board, 1, "shinano", spearman=1)
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano")
    dice.rolls = [1, 1]
    st = submit(st, 0, {"act": "done"})
    assert st.provinces["shinano"].owner is None and st.provinces["echigo"].owner == 0
    assert st.provinces["echigo"].garrison["spearman"] == 1


def test_called_off_garrison_force_returns_home(board, dice):
    own(board, 0, "echigo", spearman=4)
    own(board, 1, "shinano", spearman=3)
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano")
    st = submit(st, 0, {"act": "done"})
    assert st.provinces["echigo"].garrison["spearman"] == 1
    st = submit(st, 0, {"act": "calloff"})
    assert st.provinces["echigo"].garrison["spearman"] == 4
    assert st.provinces["shinano"].owner == 1


def test_experienced_daimyo_chains_attacks_without_markers(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", level=2, spearman=3)
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    st = submit(st, 0, {"act": "done"})
    p = prompt_for(st, 0)
    assert p.kind == "chain" and st.players[0].armies[0].location == "shinano"
    with pytest.raises(IllegalChoice, match="not adjacent"):
        G.submit(st, 0, {"act": "attack", "target": "sado"})
    result = G.submit(st, 0, {"act": "attack", "target": "kai"})
    st = result.state
    lines = [event.text for event in result.events if event.kind == "battle"]
    assert any(line.startswith(f"{who(0)}'s army 1 presses on from Shinano and attacks Kai") for line in lines), lines
    a = st.players[0].armies[0]
    assert a.location == "kai" and st.provinces["kai"].owner == 0 and a.attacks_used == 2
    assert st.war.sub == "D" and a.level == 3
    assert st.provinces["shinano"].owner == 0 and st.provinces["shinano"].garrison["spearman"] == 1


def test_destroying_the_last_army_eliminates_and_base_spoils(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=3)
    st = board
    st.players[0].armies[1].alive = False
    st.players[1].armies = [a.model_copy(update={"alive": False, "location": None}) for a in st.players[1].armies]
    own(st, 1, "shinano")
    put_army(st, 1, 0, "shinano")
    own(st, 1, "mino", spearman=2)
    own(st, 1, "satsuma", spearman=1)
    st.provinces["mino"].fort = 1
    st = war_at(st, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    dice.rolls = [1]
    step = G.submit(st, 0, {"act": "done"})
    st = step.state
    assert st.players[1].eliminated and st.players[0].armies_destroyed == 1
    assert st.provinces["mino"].owner == 0 and st.provinces["satsuma"].owner == 0
    assert st.provinces["shinano"].owner == 0
    p = G.prompts(st)[0]
    assert p.kind == "rebuild" and p.seat == 0
    st = submit(st, 0, {"act": "rebuild", "province": "mino"})
    assert st.players[0].armies[1].alive and st.players[0].armies[1].location == "mino"
    assert st.players[0].armies[1].level == 1


def test_lwtv_elimination_frees_land_and_ends_the_game_a_round_later():
    st = blank(advance_to(new("lwtv", 3, seed=5), "plan"))
    opponents_elsewhere(st)
    own(st, 0, "echigo", spearman=1)
    put_army(st, 0, 0, "echigo", spearman=3)
    st.players[0].armies[1].alive = False
    st.players[0].armies[2].alive = False
    st.players[1].armies = [a.model_copy(update={"alive": False, "location": None}) for a in st.players[1].armies]
    own(st, 1, "shinano")
    put_army(st, 1, 0, "shinano")
    own(st, 1, "mino", spearman=2)
    own(st, 1, "owari", spearman=2)
    st.provinces["mino"].fort = 1
    st = war_at(st, 0, "B", round_=3)
    st = declare(st, 0, "echigo", "shinano", army=0)
    orig = kit_flow.rng_for
    kit_flow.rng_for = lambda *a, **k: Dice([1])
    try:
        st = submit(st, 0, {"act": "done"})
    finally:
        kit_flow.rng_for = orig
    assert st.players[1].eliminated
    assert st.provinces["mino"].owner == 0 and st.provinces["mino"].garrison["spearman"] == 1
    assert st.provinces["owari"].owner is None and st.provinces["satsuma"].owner is None
    assert st.end_round == 4
    rebuilds = [i for i in st.interrupts if i.kind == "rebuild"]
    assert len(rebuilds) == 1


def test_35_provinces_wins_at_once(board):
    pids = [p for p in board.provinces if board.provinces[p].owner is None]
    for pid in pids[:33]:
        own(board, 0, pid, spearman=2)
    target = [p for p in pids[33:] if any(board.provinces[n].owner == 0 and board.provinces[n].garrison["spearman"]
                                          for n in content().adj[p])][0]
    st = war_at(board, 0, "D")
    assert len(owned(st, 0)) == 34
    src = [n for n in content().adj[target] if st.provinces[n].owner == 0][0]
    st = submit(st, 0, {"act": "garrison", "province": src})
    st = submit(st, 0, {"act": "to", "province": target, "count": 1})
    res = G.result(st)
    assert res is not None and res.winners == [0] and "35 provinces" in res.reason
    assert G.prompts(st) == []


# ------------------------------------------------------------------ phase D


def test_final_movement_armies_first_then_garrisons_claiming_land(board):
    own(board, 0, "echigo", spearman=3)
    put_army(board, 0, 0, "echigo", bowman=1)
    st = war_at(board, 0, "D")
    st = submit(st, 0, {"act": "move", "army": 0})
    st = submit(st, 0, {"act": "to", "province": "shinano"})
    assert st.provinces["shinano"].owner == 0
    st = submit(st, 0, {"act": "garrison", "province": "echigo"})
    st = submit(st, 0, {"act": "to", "province": "etchu", "count": 2})
    assert st.provinces["etchu"].owner == 0 and st.provinces["etchu"].garrison["spearman"] == 2
    assert st.provinces["echigo"].garrison["spearman"] == 1
    st.players[0].armies[0].moves_left = 1
    with pytest.raises(IllegalChoice, match="armies move before garrisons"):
        G.submit(st, 0, {"act": "move", "army": 0})


# ------------------------------------------------------------------ ninja


def test_assassination_success_and_new_daimyo_at_round_end(board, dice):
    own(board, 0, "echigo", spearman=1)
    own(board, 0, "shinano", spearman=1)
    put_army(board, 0, 0, "echigo", level=3, spearman=2)
    st = war_at(board, 0, "A")
    st.ninja = 1
    offer, turn = G.prompts(st)
    assert (offer.kind, offer.seat, offer.optional) == ("ninja", 1, True) and turn.seat == 0
    dice.rolls = [8]
    st = submit(st, 1, {"act": "assassinate", "seat": 0, "army": 0})
    a = st.players[0].armies[0]
    assert a.assassinated and st.ninja is None
    assert not movement.army_moves(st, 0, a, False)
    with pytest.raises(IllegalChoice):
        G.submit(st, 0, {"act": "move", "army": 0})
    rounds.end_round(st, [], Dice())
    a = st.players[0].armies[0]
    assert not a.assassinated and a.level == 1 and a.alive


def test_failed_assassination_lets_the_target_strike_back_on_9_or_more(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2)
    board.players[1].armies[2].units["spearman"] = 1
    st = war_at(board, 0, "A")
    st.ninja = 1
    dice.rolls = [9]
    st = submit(st, 1, {"act": "assassinate", "seat": 0, "army": 0})
    assert not st.players[0].armies[0].assassinated
    p = G.prompts(st)[0]
    assert p.kind == "counter" and p.seat == 0 and not p.optional
    dice.rolls = [9]
    st = submit(st, 0, {"act": "counter", "army": 2})
    assert st.players[1].armies[2].assassinated


def test_assassination_after_declaration_cancels_the_attack(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2)
    own(board, 1, "shinano", spearman=1)
    st = war_at(board, 0, "B")
    st.ninja = 1
    st = declare(st, 0, "echigo", "shinano", army=0)
    p = G.prompts(st)[0]
    assert p.kind == "ninja" and p.seat == 1  # still Phase B, the declaration made
    dice.rolls = [1]
    st = submit(st, 1, {"act": "assassinate", "seat": 0, "army": 0})
    assert st.war.declarations == []
    st = submit(st, 0, {"act": "done"})
    assert st.provinces["shinano"].owner == 1 and st.players[0].armies[0].location == "echigo"


def test_assassinating_a_lone_daimyo_removes_the_army(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo")
    st = war_at(board, 0, "A")
    st.ninja = 1
    dice.rolls = [2]
    st = submit(st, 1, {"act": "assassinate", "seat": 0, "army": 0})
    assert not st.players[0].armies[0].alive and st.players[1].armies_destroyed == 1


# ------------------------------------------------------------------ end of round, LWTV scoring


def test_ronin_leave_at_action_8(board):
    own(board, 0, "echigo", spearman=3)
    board.provinces["echigo"].ronin = 2
    a = put_army(board, 0, 0, "echigo", spearman=4)
    a.ronin = 3
    board.ronin_pool = 21
    st = war_at(board, 0, "A")
    rounds.end_round(st, [], Dice())
    assert st.provinces["echigo"].ronin == 0 and st.players[0].armies[0].ronin == 0 and st.ronin_pool == 26


def test_lwtv_victory_points_and_kyoto_hand_limit():
    st = blank(advance_to(new("lwtv", 3, seed=5), "plan"))
    opponents_elsewhere(st)
    own(st, 0, "yamashiro", spearman=1)
    own(st, 0, "musashi", spearman=1)
    st.provinces["yamashiro"].fort = 2
    st.players[0].armies_destroyed = 2
    st.players[0].hand = ["imperial_favour", "stone_walls"]
    # provinces 3 (tosa, yamashiro, musashi) + fort 1 + armies 2 + Kyoto 1 + favour 2 - walls 1
    assert victory.vp(st, 0) == 3 + 1 + 2 + 1 + 2 - 1
    st.players[0].armies[1].alive = False
    assert victory.hand_limit(st, 0) == 1 + 1
    st.provinces["yamashiro"].owner = 1
    assert victory.hand_limit(st, 0) == 1


def test_lwtv_event_draw_objectives_are_secret_immediates_public():
    st = advance_to(new("lwtv", 3, seed=8), "plan")
    assert st.round == 1
    kept = sum(len(p.hand) for p in st.players)
    assert kept + len(st.discard) == 3 and len(st.deck) == 20 - 3
    for pl in st.players:
        pub = str(G.view(st, (pl.seat + 1) % 3)["seats"][pl.seat])
        for cid in pl.hand:
            assert cid not in pub
            assert cid in str(G.view(st, pl.seat)["you"]["hand"])


def test_daimyo_level_never_exceeds_five(board):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", level=5, spearman=2)
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    st = submit(st, 0, {"act": "done"})
    st = submit(st, 0, {"act": "stop"})
    assert st.players[0].armies[0].level == 5 and st.war.sub == "D"


def test_hidden_ronin_are_revealed_when_they_move_or_defend(board, dice):
    own(board, 0, "echigo", spearman=2)
    own(board, 0, "etchu", spearman=1)
    a = put_army(board, 0, 0, "echigo", spearman=3)
    a.ronin = 2
    own(board, 1, "shinano", spearman=3)
    board.provinces["shinano"].ronin = 2
    st = war_at(board, 0, "A")
    pub = G.view(st, None)
    assert pub["armies"][0]["ronin"] is None
    assert [p for p in pub["provinces"] if p["id"] == "shinano"][0]["ronin"] is None
    st = submit(st, 0, {"act": "move", "army": 0})
    st = submit(st, 0, {"act": "to", "province": "etchu"})
    assert G.view(st, None)["armies"][0]["ronin"] == 2
    st = submit(st, 0, {"act": "done"})
    st = declare(st, 0, "echigo", "shinano")
    st = submit(st, 0, {"act": "done"})
    shinano = [p for p in G.view(st, None)["provinces"] if p["id"] == "shinano"][0]
    assert shinano["ronin"] == 2


def test_garrison_attack_may_send_fewer_units_but_never_the_last(board, dice):
    own(board, 0, "echigo", spearman=4)
    own(board, 1, "shinano", spearman=3)
    st = war_at(board, 0, "B")
    st = submit(st, 0, {"act": "source", "province": "echigo"})
    with pytest.raises(IllegalChoice, match="at most 3 units"):
        G.submit(st, 0, {"act": "attack", "target": "shinano", "count": 4})
    st = submit(st, 0, {"act": "attack", "target": "shinano"})
    pr = prompt_for(st, 0)
    assert pr.kind == "garrison_force" and [(f.name, f.max) for f in pr.fields] == [("spearman", 3)]
    assert pr.default == {"spearman": 3}
    with pytest.raises(IllegalChoice, match="at most 3 units"):
        G.submit(st, 0, {"spearman": 4})
    st = submit(st, 0, {"spearman": 2})
    st = submit(st, 0, {"act": "done"})
    assert st.provinces["echigo"].garrison["spearman"] == 2
    assert side_size(battle_sides(st, st.war.battle)[0]) == 2
