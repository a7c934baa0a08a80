"""The Dark War's timing rules, driven through prompts() and submit(): Level Up at any time (even
inside a defence), escorts only on a regular Move that spends AP, any-turn skills open for the
whole Turn, the Rebuild trade as a swap, the boss's armour per Defender Turn, and no prompt that
offers nothing but passing."""

from __future__ import annotations

from tests.engine.defenders.helpers import (
    attack,
    calm,
    do,
    find,
    new,
    options,
)

# ---------------------------------------------------------------------------- Level Up at any time


def test_a_defender_at_eight_xp_may_level_up_inside_the_defence_and_then_defend() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.hp, d.xp = "forest", 1, 8
    st.skill_deck = ["scouting"]
    st.artifact_deck = ["sunsteel"]
    st = attack(st, "forest", "dire", "thornback", source="Thornback")
    # 1 HP cannot pay a Dire defence (2 HP), yet the seat is asked: a Level Up would pay for it.
    assert [o["act"] for o in options(st, 0, "defend")] == ["level", "decline"]
    st = do(st, 0, "defend", act="level", d=0)
    d = st.defenders[0]
    assert (d.hp, d.xp, d.skills) == (4, 0, ["scouting"])
    assert st.attacks and st.attacks[0].region == "forest"  # the same decision, still open
    assert find(st, 0, "defend", act="defend", d=0) is not None
    st = do(st, 0, "defend", act="defend", d=0)
    d = st.defenders[0]
    assert (d.hp, d.xp, d.artifacts) == (2, 1, ["sunsteel"])
    assert st.regions["forest"].threat == 0


def test_an_exhausted_defender_at_eight_xp_is_asked_and_may_let_it_through() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.hp, d.xp = "forest", 0, 8
    st = attack(st, "forest")
    assert [o["act"] for o in options(st, 0, "defend")] == ["level", "decline"]
    st = do(st, 0, "defend", act="decline")
    assert st.regions["forest"].threat == 1 and st.defenders[0].xp == 8


def test_a_defender_who_can_pay_may_still_level_up_first() -> None:
    st = calm(new())
    d = st.defenders[0]
    d.region, d.hp, d.xp = "forest", 3, 8
    st = attack(st, "forest")
    assert [o["act"] for o in options(st, 0, "defend")] == ["defend", "level", "decline"]

