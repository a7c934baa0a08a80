"""The Dark War's timing rules, driven through prompts() and submit(): Level Up at any time (even
inside a defence), escorts only on a regular Move that spends AP, any-turn skills open for the
whole Turn, the Rebuild trade as a swap, the boss's armour per Defender Turn, and no prompt that
offers nothing but passing."""

from __future__ import annotations

import pytest

from engine.contract import IllegalChoice
from engine.defenders.state import DefendersState
from tests.engine.defenders.helpers import (
    G,
    all_card,
    attack,
    calm,
    do,
    find,
    new,
    options,
    play,
    prompt_of,
    reveal,
    texts,
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


# ---------------------------------------------------------------------------- the Rebuild trade


def won_battle(seats: int = 2, mine: tuple[str, ...] = (), theirs: tuple[str, ...] = ()) -> DefendersState:
    """Battle 1 of a campaign just won; Defender 0 holds `mine`, Defender 1 holds `theirs`."""
    st = calm(new(seats=seats, mode="campaign"))
    reveal(st, "ash_captain", "ruins", hp=1)
    st.capital_caravans = 6
    st.defenders[0].region = "ruins"
    st.defenders[0].artifacts, st.defenders[1].artifacts = list(mine), list(theirs)
    st = turn(st, 0)
    st = do(st, act="fight", d=0)
    assert st.phase == "rebuild"
    return st


def test_a_trade_is_a_swap_offered_to_the_partner_who_accepts() -> None:
    # Both hands are full: a one-way gift is impossible, a swap is not.
    st = won_battle(mine=("sunsteel", "buckler"), theirs=("ember_bow", "flask"))
    offer = find(st, 0, "rebuild", act="trade", d=0, key="sunsteel", to=1, **{"for": "ember_bow"})
    assert offer is not None
    assert find(st, 0, "rebuild", act="trade", d=0, key="sunsteel", to=1, **{"for": None}) is None
    st, events = play(st, 0, "rebuild", **offer)
    assert st.defenders[0].artifacts == ["sunsteel", "buckler"]  # nothing moves before a yes
    assert "offers a trade" in texts(events)
    assert [o["act"] for o in options(st, 1, "rebuild")] == ["accept", "refuse", "ready"]
    assert [o["act"] for o in options(st, 0, "rebuild")] == ["withdraw", "ready"]
    st = do(st, 1, "rebuild", act="accept")
    assert sorted(st.defenders[0].artifacts) == ["buckler", "ember_bow"]
    assert sorted(st.defenders[1].artifacts) == ["flask", "sunsteel"]
    assert st.trade_offer is None


def test_a_refused_or_lapsed_offer_changes_nothing() -> None:
    st = won_battle(mine=("sunsteel",), theirs=("ember_bow",))
    st = do(st, 0, "rebuild", act="trade", d=0, key="sunsteel", to=1, **{"for": "ember_bow"})
    st = do(st, 1, "rebuild", act="refuse")
    assert st.defenders[0].artifacts == ["sunsteel"] and st.defenders[1].artifacts == ["ember_bow"]
    st = do(st, 0, "rebuild", act="trade", d=0, key="sunsteel", to=1, **{"for": None})
    st, events = play(st, 1, "rebuild", act="ready")
    assert "lapses" in texts(events) and st.trade_offer is None
    assert st.defenders[1].artifacts == ["ember_bow"]


def test_offering_to_a_ready_seat_asks_it_again() -> None:
    st = won_battle(mine=("sunsteel",), theirs=("ember_bow",))
    st = do(st, 1, "rebuild", act="ready")
    st = do(st, 0, "rebuild", act="trade", d=0, key="sunsteel", to=1, **{"for": "ember_bow"})
    assert st.phase == "rebuild" and 1 not in st.ready
    st = do(st, 1, "rebuild", act="accept")
    assert st.defenders[1].artifacts == ["sunsteel"]


def test_a_solo_player_swaps_between_their_own_defenders_at_once_and_hp_follows_the_mantle() -> None:
    st = won_battle(seats=1, mine=("stone_mantle",), theirs=("road_boots",))
    assert [d.hp for d in st.defenders] == [5, 5]  # Hearthkeeper 4 + Mantle 1, Stonewall 5
    swaps = [o for o in options(st, 0, "rebuild") if o["act"] == "trade" and o["for"] is not None]
    assert len(swaps) == 1  # the same swap is not listed from both sides
    st = do(st, 0, "rebuild", **swaps[0])
    assert st.defenders[0].artifacts == ["road_boots"] and st.defenders[1].artifacts == ["stone_mantle"]
    assert [d.hp for d in st.defenders] == [4, 6]


def test_a_trade_that_is_not_offered_is_refused_and_changes_nothing() -> None:
    st = won_battle(mine=("sunsteel",), theirs=("ember_bow",))
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match="not open"):
        G.submit(st, 0, {"act": "trade", "d": 0, "key": "flask", "to": 1, "for": "ember_bow"})
    with pytest.raises(IllegalChoice, match="cannot accept"):
        G.submit(st, 1, {"act": "accept"})
    assert st.model_dump_json() == before


# ---------------------------------------------------------------------------- armour per Defender Turn


def test_armour_soaks_the_first_damage_of_each_defenders_turn_on_an_all_defenders_card() -> None:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    reveal(st, "elder_oak", "ruins")
    for d in st.defenders:
        d.region = "ruins"
    st = all_card(st, ap=4)
    st = do(st, 0, "all", act="fight", d=0)
    assert st.boss.hp == 10  # Hearthkeeper's Turn: soaked
    st = do(st, 1, "all", act="fight", d=1)
    assert st.boss.hp == 10  # Stonewall's own Turn on the same card: soaked again
    st = do(st, 0, "all", act="fight", d=0)
    st = do(st, 1, "all", act="fight", d=1)
    assert st.boss.hp == 8


def test_on_a_defender_card_a_skill_from_another_seat_shares_the_active_turns_armour() -> None:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    reveal(st, "elder_oak", "ruins")
    st.defenders[0].region = "ruins"
    st.defenders[1].xp, st.defenders[1].skills = 3, ["distant_shot"]
    st = turn(st, 0)
    st = do(st, 0, "turn", act="fight", d=0)
    assert st.boss.hp == 10
    st = do(st, 1, "react", act="use", d=1, src="skill:distant_shot")
    assert st.boss.hp == 9  # one Turn, one soak


# ---------------------------------------------------------------------------- no prompt only to pass


def test_a_seat_that_could_only_pass_on_an_all_defenders_card_is_not_asked() -> None:
    st = calm(new(seats=2, defenders=("hearthkeeper", "stonewall")))
    st.defenders[0].xp, st.defenders[0].skills = 2, ["long_watch"]
    st = all_card(st, ap=0)
    # No AP left: Stonewall could only pass, so only Hearthkeeper's seat (a 0-AP skill) is asked.
    assert [(p.seat, p.kind) for p in G.prompts(st)] == [(0, "all")]
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match="no decision"):
        G.submit(st, 1, {"act": "pass"})
    assert st.model_dump_json() == before
    st = do(st, 0, "all", act="use", d=0, src="skill:long_watch")
    st, events = play(st, 0, "target", act="target", target="coast")
    # Nobody has anything left to do with the card: it closes by itself, the next card is drawn.
    assert "The All Defenders card is spent." in texts(events)
    assert st.active.card == "defender" and st.current == "d:0"


def test_a_seat_with_nothing_to_spend_or_trade_between_battles_is_not_asked() -> None:
    st = calm(new(seats=2, mode="campaign"))
    reveal(st, "ash_captain", "ruins", hp=1)
    st.capital_caravans, st.capital_threat = 6, 3
    st.defenders[0].region = "ruins"
    st.defenders[1].xp = 0
    st.defenders[0].xp = 0
    st = turn(st, 0)
    st = do(st, act="fight", d=0)
    # The General gave both 3 XP; only 2 XP buy Capital Threat, so both are asked.
    assert [p.seat for p in G.prompts(st)] == [0, 1]
    st = do(st, 1, "rebuild", act="cap", d=1)
    assert [p.seat for p in G.prompts(st)] == [0]  # 1 XP left, nothing else: seat 1 is done
    st = do(st, 0, "rebuild", act="ready")
    assert st.phase == "play" and st.battle == 2
