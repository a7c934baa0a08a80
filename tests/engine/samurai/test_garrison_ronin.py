"""Ronin hired into a garrison go with it when it attacks or moves, fewer than its regular
units, and are revealed when they attack, defend or move; lone ronin never fight on."""

from __future__ import annotations

from .helpers import (
    G,
    declare,
    own,
    prompt_for,
    put_army,
    submit,
    war_at,
)


def public_ronin(st, pid):
    return next(p["ronin"] for p in G.view(st, None)["provinces"] if p["id"] == pid)


def test_garrison_ronin_attack_with_their_garrison_and_take_the_province(board, dice):
    own(board, 0, "echigo", spearman=4)
    board.provinces["echigo"].ronin = 3
    own(board, 1, "shinano", spearman=1)
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano")
    assert public_ronin(st, "echigo") is None  # hidden until they go
    # melee: the 2 ronin roll first (the first one's 1 kills the defender), then 3 spearmen
    dice.rolls = [1]
    step = G.submit(st, 0, {"act": "done"})
    st = step.state
    battle = [e for e in step.events if e.kind == "battle"][0]
    assert battle.data["attack"][0] == {"spearman": 3, "gunner": 0, "swordsman": 0, "bowman": 0, "ronin": 2}
    melee = [e for e in step.events if e.kind == "dice" and e.data["step"] == "melee"][0]
    assert melee.data["attack_dice"] == [[5, 1, 12], [4, 12, 12, 12]]
    assert st.provinces["shinano"].owner == 0
    assert st.provinces["shinano"].ronin == 2 and public_ronin(st, "shinano") == 2
    assert st.provinces["echigo"].ronin == 1 and public_ronin(st, "echigo") == 1


def test_ronin_return_home_with_a_called_off_garrison_force(board, dice):
    own(board, 0, "echigo", spearman=3)
    board.provinces["echigo"].ronin = 1
    own(board, 1, "shinano", spearman=3)
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano")
    st = submit(st, 0, {"act": "done"})
    assert prompt_for(st, 0).kind == "battle"
    st = submit(st, 0, {"act": "calloff"})
    assert st.provinces["echigo"].garrison["spearman"] == 3 and st.provinces["echigo"].ronin == 1
    assert public_ronin(st, "echigo") == 1


def test_lone_ronin_leave_when_their_regulars_fall(board, dice):
    own(board, 0, "echigo", spearman=3)
    board.provinces["echigo"].ronin = 1
    own(board, 1, "shinano", gunner=2)
    pool = board.ronin_pool
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano")
    dice.rolls = [1, 1]  # ranged: both gunners hit; the defender's hits take the two spearmen first
    step = G.submit(st, 0, {"act": "done"})
    st = step.state
    assert prompt_for(st, 0).kind == "casualties"  # spearmen or ronin: the attacker chooses
    st = submit(st, 0, {"spearman": 2, "ronin": 0})
    assert st.war.battle is None and st.provinces["shinano"].owner == 1
    assert st.provinces["echigo"].ronin == 0 and st.ronin_pool == pool + 1


def test_phase_d_garrison_moves_take_their_ronin_along(board):
    own(board, 0, "echigo", spearman=4)
    board.provinces["echigo"].ronin = 3
    st = war_at(board, 0, "D")
    st = submit(st, 0, {"act": "garrison", "province": "echigo"})
    st = submit(st, 0, {"act": "to", "province": "shinano", "count": 2})
    assert st.provinces["shinano"].owner == 0 and st.provinces["shinano"].garrison["spearman"] == 2
    assert st.provinces["shinano"].ronin == 1 and st.provinces["echigo"].ronin == 2
    assert public_ronin(st, "shinano") == 1 and public_ronin(st, "echigo") == 2


def test_army_ronin_stay_hidden_until_the_army_moves_or_fights(board):
    own(board, 0, "echigo", spearman=1)
    own(board, 0, "etchu", spearman=1)
    army = put_army(board, 0, 0, "echigo", spearman=3)
    army.ronin = 2
    st = war_at(board, 0, "A")
    marker = lambda s: next(a for a in G.view(s, None)["armies"] if a["seat"] == 0 and a["army"] == 0)  # noqa: E731
    assert marker(st)["ronin"] is None
    st = submit(st, 0, {"act": "move", "army": 0})
    st = submit(st, 0, {"act": "to", "province": "etchu"})
    assert marker(st)["ronin"] == 2
