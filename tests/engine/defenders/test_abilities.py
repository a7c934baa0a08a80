"""Every activated ability in cards.toml, used through the prompts, and every passive.

Each case arranges a table where the ability is usable, picks it from the prompt (and its
target from the target prompt when one is asked), then checks what a player would notice and
what it cost. Skills that work on any Turn are used from a react prompt on someone else's Turn.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.defenders import board, rules
from engine.defenders.content import Ability, content
from engine.defenders.state import DefendersState
from tests.engine.defenders.helpers import G, attack, calm, do, find, new, prompt_of, reveal, turn

C = content()


def cases() -> list[Any]:
    out = []
    for card in C.defenders:
        if not card.ability.passive:
            out.append(pytest.param("defender", card.key, None, id=f"defender-{card.key}"))
    for a in C.artifacts:
        if not a.ability.passive:
            out.append(pytest.param("artifact", a.key, None, id=f"artifact-{a.key}"))
    for s in C.skills:
        out.append(pytest.param("skill", s.key, None, id=f"skill-{s.key}"))
    for r in C.regions:
        for side in ("A", "B"):
            out.append(pytest.param("region", r.key, side, id=f"region-{r.key}-{side}"))
    out.append(pytest.param("capital", "capital", None, id="capital"))
    return out


def ability(kind: str, key: str, side: str | None) -> Ability:
    if kind == "defender":
        return C.defender(key).ability
    if kind == "artifact":
        return C.artifact(key).ability
    if kind == "skill":
        return C.skill(key).ability
    if kind == "region":
        reg = C.region(key)
        return (reg.a if side == "A" else reg.b).ability
    return C.capital.ability


def other_of(key: str) -> str:
    return "hearthkeeper" if key == "stonewall" else "stonewall"


@pytest.mark.parametrize(("kind", "key", "side"), cases())
def test_every_activated_ability(kind: str, key: str, side: str | None) -> None:
    ab = ability(kind, key, side)
    react = kind == "skill" and not ab.own_turn
    hero = key if kind == "defender" else "ember_knight"
    if react:
        # seat 1's Defender reacts during seat 0's Turn
        st = calm(new(seats=2, defenders=(other_of(hero), hero)))
        me, src_seat = 1, 1
    else:
        st = calm(new(seats=1, defenders=(hero, other_of(hero))))
        me, src_seat = 0, 0
    other = 1 - me
    d = st.defenders[me]
    here = key if kind == "region" else ("capital" if kind == "capital" else "ruins")
    d.region = here
    if kind == "region":
        st.regions[key].side = side  # type: ignore[assignment]
    src = {"defender": "hero", "artifact": f"art:{key}", "skill": f"skill:{key}", "region": "region",
           "capital": "capital"}[kind]
    if kind == "artifact":
        d.artifacts = [key]
    if kind == "skill":
        d.skills = [key]
        d.xp = ab.xp + 1
    st = turn(st, 0)
    st.defenders[other].region = "desert" if here != "desert" else "coast"
    ring = st.ring
    i = ring.index(here) if here in ring else 0
    near = [k for k in board.adjacent(st, here) if k != "capital"]
    far = ring[(i + 3) % 6]
    target: Any = None
    e = ab.effect
    if e == "heal":
        if ab.scope == "self":
            d.hp = 1
        else:
            st.defenders[other].region = here
            st.defenders[other].hp = 1
            d.hp = 2
            target = other
    elif e == "secure":
        for k in near if ab.scope == "adjacent" else [far, near[0]]:
            st.regions[k].threat = 2
        target = near[0] if ab.scope == "adjacent" else far
    elif e == "secure_capital":
        st.capital_threat = 2
    elif e == "strike":
        reveal(st, "sand_titan", here if ab.scope == "here" else far, hp=10)
    elif e == "dash":
        target = near[0] if ab.scope == "adjacent" else far
    elif e == "ward":
        target = here if ab.scope == "here" else (near[0] if ab.scope == "adjacent" else far)
    elif e == "scout":
        st.turn_deck = ["d:1", "d:0", "e:bog_raiders", "all", "e:tomb_rats"]
    elif e == "summon":
        target = other
    elif e == "haul":
        st.regions[here].caravans = 1
        target = board.adjacent(st, here)[0]
    elif e == "draw_skill":
        st.skill_deck = ["scouting"]
    before_xp, before_hp = d.xp, d.hp
    kind_prompt = "react" if react else "turn"
    assert prompt_of(st, src_seat, kind_prompt).kind == kind_prompt
    st = do(st, src_seat, kind_prompt, act="use", d=me, src=src)
    asked = st.active is not None and st.active.pick is not None
    single = e == "summon" or (e == "ward" and ab.scope == "here")
    assert asked == (target is not None and not single)
    if asked:
        p = prompt_of(st, src_seat, "target")
        assert p.kind == "target"
        st = do(st, src_seat, "target", act="target", target=target)
    d = st.defenders[me]
    # costs
    assert d.xp == before_xp - ab.xp
    gained_ap = ab.amount if e == "rally" else 0
    assert st.active is not None and st.active.ap == 3 - ab.ap + gained_ap
    if ab.hp:
        assert d.hp == before_hp - ab.hp
    # the effect
    if e == "heal":
        who = d if ab.scope == "self" else st.defenders[other]
        assert who.hp == 1 + ab.amount
    elif e == "secure":
        assert st.regions[target].threat == 2 - ab.amount
    elif e == "secure_capital":
        assert st.capital_threat == 2 - ab.amount
    elif e == "strike":
        assert st.boss.hp == 10 - ab.amount
    elif e == "dash":
        assert d.region == target
    elif e == "rally":
        assert st.active.ap == 3 + ab.amount
    elif e == "ward":
        assert st.regions[target].wards == 1
        assert sum(r.wards for r in st.regions.values()) == 1
    elif e == "scout":
        n = ab.amount
        expect = {2: ["e:tomb_rats", "d:1", "d:0", "e:bog_raiders", "all"],
                  3: ["e:bog_raiders", "e:tomb_rats", "d:1", "d:0", "all"]}[n]
        assert st.turn_deck == expect
    elif e == "shield":
        assert d.shield
        st = attack(st, here, "dire", "thornback")
        st.artifact_deck = ["flask"]
        hp = st.defenders[me].hp
        st = do(st, src_seat, "defend", act="defend", d=me)
        assert st.defenders[me].hp == hp and st.regions[here].threat == 0
    elif e == "summon":
        assert st.defenders[other].region == here
    elif e == "haul":
        assert st.regions[here].caravans == 0
        if target == "capital":
            assert st.capital_caravans == 1
        else:
            assert st.regions[target].caravans == 1
    elif e == "draw_skill":
        assert d.skills[-1] == "scouting"
    else:  # pragma: no cover
        raise AssertionError(e)
    # once per Turn / round: not offered again
    if ab.limit != "none" and st.active is not None and e not in ("shield",):
        again = find(st, src_seat, act="use", d=me, src=src) if G.prompts(st) else None
        assert again is None


def test_every_card_is_covered_by_a_case() -> None:
    ids = {p.id for p in cases()}
    passive = {c.key for c in C.defenders if c.ability.passive} | {a.key for a in C.artifacts if a.ability.passive}
    for c in C.defenders:
        assert c.key in passive or f"defender-{c.key}" in ids
    for a in C.artifacts:
        assert a.key in passive or f"artifact-{a.key}" in ids
    assert sum(i.startswith("skill-") for i in ids) == 12
    assert sum(i.startswith("region-") for i in ids) == 12
    assert passive == {"gale_runner", "stonewall", "far_eye", "ember_knight", "lantern_monk",
                       "sunsteel", "buckler", "road_boots", "stone_mantle"}


# ---------------------------------------------------------------------------- passives


def solo(key: str, art: str | None = None) -> DefendersState:
    st = calm(new(defenders=(key, other_of(key))))
    if art:
        st.defenders[0].artifacts = [art]
        st.defenders[0].hp = rules.max_hp(st.defenders[0])
    return st


@pytest.mark.parametrize(("key", "art"), [("stonewall", None), ("hearthkeeper", "buckler")])
def test_passive_defend_discount(key: str, art: str | None) -> None:
    st = solo(key, art)
    st.defenders[0].region = "forest"
    top = st.defenders[0].hp
    st = attack(st, "forest")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].hp == top  # enemy: 1 - 1
    st.artifact_deck = ["flask"]
    st = attack(st, "forest", "dire", "thornback")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.defenders[0].hp == top - 1  # dire: 2 - 1


def test_passive_ranged_defends_an_adjacent_region() -> None:
    st = solo("far_eye")
    st.defenders[0].region = "ruins"
    st = attack(st, "mountains")
    st = do(st, 0, "defend", act="defend", d=0)
    assert st.regions["mountains"].threat == 0 and st.defenders[0].hp == 3
    st = attack(st, "plains")  # two steps away: out of reach
    from engine.defenders import rules as r

    assert r.defenders_for(st, st.attacks[0]) == []


def test_without_ranged_only_your_own_region_can_be_defended() -> None:
    st = solo("hearthkeeper")
    st.defenders[0].region = "ruins"
    st = attack(st, "mountains")
    assert rules.defenders_for(st, st.attacks[0]) == []


@pytest.mark.parametrize(("key", "art"), [("ember_knight", None), ("hearthkeeper", "sunsteel")])
def test_passive_fight_bonus(key: str, art: str | None) -> None:
    st = solo(key, art)
    reveal(st, "sand_titan", "ruins")
    st.defenders[0].region = "ruins"
    st = turn(st, 0)
    st = do(st, act="fight", d=0)
    assert st.boss.hp == 8 and st.active.ap == 2


def test_passive_secure_bonus() -> None:
    st = solo("lantern_monk")
    st.defenders[0].region = "ruins"
    st.regions["ruins"].threat = 3
    st = turn(st, 0)
    st = do(st, act="secure", d=0)
    assert st.regions["ruins"].threat == 1 and st.active.ap == 2


@pytest.mark.parametrize(("key", "art"), [("gale_runner", None), ("hearthkeeper", "road_boots")])
def test_passive_swift_first_move_is_free(key: str, art: str | None) -> None:
    st = solo(key, art)
    st = turn(st, 0)
    st = do(st, act="move", d=0, to="forest", escort=0)
    assert st.active.ap == 3
    st = do(st, act="move", d=0, to="ruins", escort=0)
    assert st.active.ap == 2


def test_passive_max_hp() -> None:
    st = solo("hearthkeeper")
    d = st.defenders[0]
    d.region = "forest"
    st.artifact_deck = ["stone_mantle"]
    st = attack(st, "forest", "dire", "thornback")
    st = do(st, 0, "defend", act="defend", d=0)
    d = st.defenders[0]
    assert d.artifacts == ["stone_mantle"] and rules.max_hp(d) == 5
    assert d.hp == 3  # 4 - 2 for the defence + 1 with the new maximum


def test_a_max_hp_artifact_taken_by_dropping_another_also_raises_current_hp() -> None:
    st = solo("hearthkeeper")
    d = st.defenders[0]
    d.region, d.artifacts = "forest", ["road_boots"]
    st.artifact_deck = ["stone_mantle"]
    st = attack(st, "forest", "dire", "thornback")
    st = do(st, 0, "defend", act="defend", d=0)
    st = do(st, 0, "artifact", act="drop", key="road_boots")
    d = st.defenders[0]
    assert d.artifacts == ["stone_mantle"] and rules.max_hp(d) == 5 and d.hp == 3


def test_dropping_a_max_hp_artifact_lowers_hp_to_the_new_maximum() -> None:
    st = solo("hearthkeeper", "stone_mantle")
    d = st.defenders[0]
    assert d.hp == 5
    d.region = "forest"
    st.artifact_deck = ["windstep"]
    st = attack(st, "forest", "dire", "thornback")
    st.defenders[0].shield = True
    st = do(st, 0, "defend", act="defend", d=0)
    st = do(st, 0, "artifact", act="drop", key="stone_mantle")
    d = st.defenders[0]
    assert d.artifacts == ["windstep"] and d.hp == 4
