"""The Dark War's timing rules, driven through prompts() and submit(): Level Up at any time (even
inside a defence), escorts only on a regular Move that spends AP, any-turn skills open for the
whole Turn, the Rebuild trade as a swap, the boss's armour per Defender Turn, and no prompt that
offers nothing but passing."""

from __future__ import annotations

import pytest

from engine.contract import IllegalChoice
from tests.engine.defenders.helpers import (
    G,
    attack,
    calm,
    do,
    find,
    new,
    options,
    prompt_of,
    turn,
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



# ---------------------------------------------------------------------------- escorts


@pytest.mark.parametrize(("key", "art"), [("gale_runner", None), ("hearthkeeper", "road_boots")])
def test_the_free_first_move_cannot_escort_an_escort_pays_one_ap_and_uses_it_up(key: str, art: str | None) -> None:
    st = calm(new(defenders=(key, "stonewall")))
    d = st.defenders[0]
    d.region, d.xp = "ruins", 2
    d.artifacts = [art] if art else []
    st.regions["ruins"].caravans = 1
    st = turn(st, 0)
    assert find(st, act="move", d=0, to="forest", escort=0) is not None
    assert "free first move" in next(o.label for o in prompt_of(st).options if o.value == "move:0:forest")
    assert "(1 AP, 1 XP)" in next(o.label for o in prompt_of(st).options if o.value == "move:0:forest:1")
    st = do(st, act="move", d=0, to="forest", escort=1)
    assert st.active.ap == 2 and st.defenders[0].xp == 1
    assert st.regions["forest"].caravans == 1
    st = do(st, act="move", d=0, to="capital", escort=0)
    assert st.active.ap == 1  # the first move of the Turn was the paid escort


def test_an_escort_needs_the_ap_of_a_regular_move() -> None:
    st = calm(new(defenders=("gale_runner", "stonewall")))
    d = st.defenders[0]
    d.region, d.xp = "ruins", 2
    st.regions["ruins"].caravans = 1
    st = turn(st, 0, ap=0)
    assert find(st, act="move", d=0, to="forest", escort=0) is not None
    assert [o for o in options(st) if o.get("escort")] == []
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice):
        G.submit(st, 0, {"act": "move", "d": 0, "to": "forest", "escort": 1})
    assert st.model_dump_json() == before


# ---------------------------------------------------------------------------- any-turn skills all Turn


def open_prompts(st) -> list[tuple[int, str]]:
    """What an AI driver or the match service waits on: prompts not answered yet."""
    return [(p.seat, p.kind) for p in G.prompts(st) if not p.answered]


def test_not_now_keeps_any_turn_skills_usable_for_the_rest_of_the_turn() -> None:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    d = st.defenders[1]
    d.region, d.xp, d.skills = "forest", 4, ["long_watch", "call_to_arms"]
    st.defenders[0].region = "forest"
    st = turn(st, 0)
    assert [o["src"] for o in options(st, 1, "react") if o["act"] == "use"] == ["skill:long_watch"]
    st = do(st, 1, "react", act="pass")
    react = prompt_of(st, 1, "react")
    assert react.answered and react.optional  # still open, but nobody waits for it
    assert open_prompts(st) == [(0, "turn")]
    # Hearthkeeper leaves the Forest: Call to Arms now has someone to call, so the prompt is new.
    st = do(st, 0, "turn", act="move", d=0, to="capital", escort=0)
    assert not prompt_of(st, 1, "react").answered
    assert [o["src"] for o in options(st, 1, "react") if o["act"] == "use"] == [
        "skill:long_watch", "skill:call_to_arms"]
    st = do(st, 1, "react", act="pass")
    before = prompt_of(st, 1, "react").model_dump(mode="json")
    # Another move that changes nothing Stonewall can do: the same prompt, not a new one.
    st = do(st, 0, "turn", act="move", d=0, to="plains", escort=0)
    assert prompt_of(st, 1, "react").model_dump(mode="json") == before
    # ...and its skills still work after "Not now".
    st = do(st, 1, "react", act="use", d=1, src="skill:long_watch")
    st = do(st, 1, "target", act="target", target="coast")
    assert st.regions["coast"].wards == 1 and st.defenders[1].xp == 2
    assert not prompt_of(st, 1, "react").answered  # used, not passed: asked as new


def test_the_react_prompt_closes_with_the_turn() -> None:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    d = st.defenders[1]
    d.xp, d.skills = 4, ["long_watch"]
    st = turn(st, 0, deck=["d:1"])
    st = do(st, 1, "react", act="pass")
    st = do(st, 0, "turn", act="end")
    assert st.active.defender == 1 and st.active.react_passed == {}
    assert [p.kind for p in G.prompts(st)] == ["turn"]
