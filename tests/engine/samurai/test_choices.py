"""Choices the player aid leaves open: raising a lost army is optional, garrison forces and
gatherings may be any part of what may go, and the ninja may strike at every moment of
Phases A, B and D of any player's Wage War turn."""

from __future__ import annotations

import pytest

from engine import IllegalChoice

from .helpers import (
    G,
    declare,
    own,
    prompt_for,
    put_army,
    submit,
    war_at,
)


def refused(st, seat, choice, message):
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match=message):
        G.submit(st, seat, choice)
    assert st.model_dump_json() == before


# ------------------------------------------------------------------ the rebuild is optional


def test_the_eliminator_may_decline_to_raise_a_lost_army(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=3)
    board.players[0].armies[1].alive = False
    board.players[1].armies = [a.model_copy(update={"alive": False, "location": None}) for a in board.players[1].armies]
    own(board, 1, "shinano")
    put_army(board, 1, 0, "shinano")
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano", army=0)
    dice.rolls = [1]
    st = submit(st, 0, {"act": "done"})
    pr = prompt_for(st, 0)
    assert pr.kind == "rebuild" and {"act": "decline"} in [o.choice for o in pr.options]
    refused(st, 0, {"act": "rebuild", "province": "kai"}, "province you own without an army")
    step = G.submit(st, 0, {"act": "decline"})
    assert not step.state.players[0].armies[1].alive
    assert any("does not raise" in e.text for e in step.events)
    assert prompt_for(step.state, 0).kind != "rebuild"


# ------------------------------------------------------------------ partial forces


def test_a_garrison_attack_sends_the_units_and_ronin_named(board, dice):
    own(board, 0, "echigo", spearman=2, gunner=1, bowman=2)
    board.provinces["echigo"].ronin = 3
    own(board, 1, "shinano", spearman=1)
    st = war_at(board, 0, "B")
    st = submit(st, 0, {"act": "source", "province": "echigo"})
    st = submit(st, 0, {"act": "attack", "target": "shinano"})
    pr = prompt_for(st, 0)
    assert pr.kind == "garrison_force"
    assert [(f.name, f.max) for f in pr.fields] == [("bowman", 2), ("gunner", 1), ("spearman", 2), ("ronin", 3)]
    assert pr.default == {"bowman": 2, "gunner": 1, "spearman": 1, "ronin": 3}
    refused(st, 0, {"spearman": 2, "gunner": 1, "bowman": 2}, "at most 4 units")
    refused(st, 0, {"spearman": 1, "ronin": 1}, "at most 0 ronin")
    refused(st, 0, {"ronin": 2}, "at least one regular unit")
    back = submit(st, 0, {"spearman": 0})
    assert prompt_for(back, 0).kind == "declare_target"
    st = submit(st, 0, {"gunner": 1, "spearman": 1, "ronin": 1})
    assert st.war.declarations[0].units == {"spearman": 1, "gunner": 1, "swordsman": 0, "bowman": 0, "ronin": 1}
    st = submit(st, 0, {"act": "done"})
    assert st.provinces["echigo"].garrison == {"spearman": 1, "gunner": 0, "swordsman": 0, "bowman": 2}
    assert st.provinces["echigo"].ronin == 2


def test_a_phase_d_garrison_move_takes_the_units_named(board):
    own(board, 0, "echigo", spearman=3, swordsman=1)
    board.provinces["echigo"].ronin = 2
    st = war_at(board, 0, "D")
    st = submit(st, 0, {"act": "garrison", "province": "echigo"})
    assert all("count" not in o.choice for o in prompt_for(st, 0).options if o.choice.get("act") == "to")
    st = submit(st, 0, {"act": "to", "province": "shinano"})
    pr = prompt_for(st, 0)
    assert pr.kind == "garrison_move" and pr.default == {"swordsman": 1, "spearman": 2, "ronin": 2}
    refused(st, 0, {"swordsman": 1, "spearman": 3}, "at most 3 units")
    st = submit(st, 0, {"spearman": 2, "ronin": 1})
    assert st.provinces["shinano"].garrison["spearman"] == 2 and st.provinces["shinano"].ronin == 1
    assert st.provinces["echigo"].garrison == {"spearman": 1, "gunner": 0, "swordsman": 1, "bowman": 0}
    assert st.provinces["echigo"].ronin == 1


# ------------------------------------------------------------------ the ninja's moments


def offer(st):
    return next((p for p in G.prompts(st) if p.kind == "ninja" and p.optional), None)


def test_the_ninja_offer_stays_open_through_phases_a_b_and_d_but_not_c(board, dice):
    own(board, 0, "echigo", spearman=2)
    own(board, 0, "etchu", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2)
    own(board, 1, "shinano", spearman=1)
    st = war_at(board, 0, "A")
    st.ninja = 1
    seen = []
    for choice in ({"act": "move", "army": 0}, {"act": "cancel"}, {"act": "done"}, {"act": "source", "province": "echigo",
                                                                                   "army": 0},
                   {"act": "attack", "target": "shinano"}):
        seen.append((st.war.sub, offer(st) is not None, [p.seat for p in G.prompts(st) if not p.optional]))
        st = submit(st, 0, choice)
    dice.rolls = [12] * 20
    st = submit(st, 0, {"act": "done"})  # Phase C: a battle
    seen.append((st.war.sub, offer(st) is not None, [p.seat for p in G.prompts(st) if not p.optional]))
    assert seen[:5] == [("A", True, [0])] * 3 + [("B", True, [0])] * 2
    assert seen[5] == ("C", False, [0])
    while st.war.sub == "C":
        pr = prompt_for(st, 0)
        st = submit(st, 0, {"act": "calloff"} if pr.kind == "battle" else pr.default)
    assert st.war.sub == "D" and offer(st) is not None


def test_passing_closes_the_offer_until_the_next_players_turn(board):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=1)
    st = war_at(board, 0, "A")
    st.ninja = 1
    st = submit(st, 1, {"act": "pass"})
    assert offer(st) is None
    st = submit(st, 0, {"act": "done"})
    assert offer(st) is None  # Phase B of the same turn
    while st.war.order_pos == 0:
        st = submit(st, 0, {"act": "done"})
    assert st.order[st.war.order_pos] == 1 and offer(st) is None  # the holder's own turn: his menu
    pr = prompt_for(st, 1)
    assert {"act": "ninja"} in [o.choice for o in pr.options]


def test_the_holder_sends_the_ninja_from_his_own_menu(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=1)
    st = war_at(board, 1, "A")
    st.ninja = 1
    assert offer(st) is None
    st = submit(st, 1, {"act": "ninja"})
    pr = prompt_for(st, 1)
    assert pr.kind == "ninja" and not pr.optional
    back = submit(st, 1, {"act": "pass"})
    assert prompt_for(back, 1).kind == "war_move" and back.ninja == 1
    dice.rolls = [3]
    st = submit(st, 1, {"act": "assassinate", "seat": 0, "army": 0})
    assert st.players[0].armies[0].assassinated and st.ninja is None
    assert {"act": "ninja"} not in [o.choice for o in prompt_for(st, 1).options]
    refused(st, 1, {"act": "ninja"}, "no ninja")
