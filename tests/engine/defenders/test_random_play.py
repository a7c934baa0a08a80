"""Whole matches by AI: both modes over 1 to 4 seats end, states round-trip, replays rebuild
the final state, prompts fit Discord, defaults are legal, and no view leaks hidden cards."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

import engine
from engine.contract import IllegalChoice
from engine.defenders.state import DefendersState
from tests.engine.random_matches import defenders_match, defenders_play
from tests.engine.random_matches import play as play_match

G = engine.get("defenders")
SAMPLE = 4
"""Random matches per mode and seat count, the first fully checked (`benchmarks/soak.py --game
defenders` plays the same series on, 200 matches a mode)."""


def play(seats: int, mode: str, seed: int, full: bool, policy: str = "random", difficulty: str = "normal"):
    return defenders_play(seats, mode, seed, full, policy, difficulty).state


@pytest.mark.parametrize("mode", ["single", "campaign"])
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_random_matches_per_mode_end(mode: str, seats: int) -> None:
    for n in range(SAMPLE):
        match = replace(defenders_match(mode, seats, n), full=n == 0)
        assert play_match(match) > 0


@pytest.mark.parametrize("mode", ["single", "campaign"])
def test_heuristic_matches_end_and_replay(mode: str) -> None:
    for seed in range(4):
        play(1 + seed, mode, seed, full=True, policy="heuristic")


def pure(seats: int, seed: int, policy: str, **options) -> DefendersState:
    """An all-AI match without the random noise of `play`: the AI answers the first prompt."""
    st = G.setup(seats, G.options_model()(**options), seed)
    pol = G.policies()[policy]
    while G.result(st) is None:
        p = next(p for p in G.prompts(st) if not p.answered)
        st = G.submit(st, p.seat, engine.decide(G, pol, st, p, engine.rng_for(seed, st.step, f"ai:{p.seat}"))).state
    return st


def test_heuristic_wins_more_than_random() -> None:
    won = {policy: sum(bool(pure(3, seed, policy).won) for seed in range(12)) for policy in ("random", "heuristic")}
    assert won["heuristic"] >= 3, won
    assert won["heuristic"] > won["random"] + 2, won


def test_a_campaign_reaches_its_later_battles() -> None:
    battles = set()
    for seed in range(10):  # the first seed that gets there is enough
        st = play(3, "campaign", seed, full=False, policy="heuristic", difficulty="easy")
        battles.add(st.battle)
        if st.battle >= 2:
            break
    assert max(battles) >= 2


# ------------------------------------------------------------------ hidden information


def shuffled_hidden(st: DefendersState, seed: int) -> DefendersState:
    """The same table with every hidden order (and a face-down boss) changed."""
    other = st.model_copy(deep=True)
    rng = random.Random(seed)
    for name in ("turn_deck", "horde", "caravan_pile", "skill_deck", "artifact_deck", "bosses_ahead"):
        getattr(other, name).reverse()
        rng.shuffle(getattr(other, name))
    if not other.boss.revealed:
        other.boss.key = "sand_titan" if other.boss.key != "sand_titan" else "night_hydra"
    return other


def test_views_never_show_hidden_orders_or_face_down_bosses() -> None:
    for seed in range(6):
        st = G.setup(1 + seed % 4, G.options_model()(mode="campaign" if seed % 2 else "single"), seed)
        pol = G.policies()["heuristic"]
        for _ in range(40):
            if G.result(st) is not None:
                break
            p = next(p for p in G.prompts(st) if not p.answered)
            st = G.submit(st, p.seat, engine.decide(G, pol, st, p, random.Random(st.step))).state
            twin = shuffled_hidden(st, seed)
            for seat in [None, *range(st.seats)]:
                assert G.view(st, seat) == G.view(twin, seat)


def test_the_face_down_boss_is_not_named_anywhere_public() -> None:
    st = G.setup(2, G.options_model()(mode="campaign"), 5)
    text = json.dumps(G.view(st, None)) + json.dumps([p.model_dump() for p in G.prompts(st)])
    from engine.defenders.content import content

    for key in [st.boss.key, *st.bosses_ahead]:
        assert content().boss(key).name not in text


# ------------------------------------------------------------------ illegal answers


def refused(st: DefendersState, seat, choice, match: str) -> None:
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match=match):
        G.submit(st, seat, choice)
    assert st.model_dump_json() == before


def in_turn(seed: int = 3) -> DefendersState:
    st = G.setup(2, G.options_model()(), seed)
    pol = G.policies()["heuristic"]
    while not any(p.kind == "turn" for p in G.prompts(st)):
        p = next(p for p in G.prompts(st) if not p.answered)
        st = G.submit(st, p.seat, engine.decide(G, pol, st, p, random.Random(0))).state
    return st


@pytest.mark.parametrize("seat", [7, -1, "0", None, True, 1.5])
def test_a_seat_that_does_not_exist(seat) -> None:
    refused(G.setup(2, G.options_model()(), 1), seat, {"act": "keep"}, "no seat")


def test_answers_that_are_not_open() -> None:
    st = in_turn()
    turn = next(p for p in G.prompts(st) if p.kind == "turn")
    me = turn.seat
    other = 1 - me
    mine = next(d for d in st.defenders if d.seat == me)
    theirs = next(d for d in st.defenders if d.seat == other)
    if not any(p.seat == other for p in G.prompts(st)):
        refused(st, other, {"act": "end"}, "no decision")
    refused(st, me, ["end"], "named fields")
    refused(st, me, {"act": "teleport"}, "Unknown action")
    refused(st, me, {"act": "defend", "d": mine.idx}, "cannot defend now")
    refused(st, me, {"act": "secure", "d": theirs.idx}, "not your Defender")
    refused(st, me, {"act": "secure", "d": 99}, "no Defender 99")
    far = next(k for k in st.ring if k not in __import__("engine.defenders.board", fromlist=["x"]).adjacent(
        st, mine.region) and k != mine.region)
    refused(st, me, {"act": "move", "d": mine.idx, "to": far, "escort": 0}, "adjacent")
    refused(st, me, {"act": "move", "d": mine.idx, "to": "atlantis", "escort": 0}, "no region")
    refused(st, me, {"act": "end", "extra": {1, 2}}, "not open")


def test_bad_options_are_refused() -> None:
    with pytest.raises(IllegalChoice, match="Bad options"):
        engine.parse_options(G, {"mode": "skirmish"})
    with pytest.raises(IllegalChoice, match="Bad options"):
        engine.parse_options(G, {"capital_destruction": 1})
    with pytest.raises(ValueError, match="1 to 4 players"):
        G.setup(5, G.options_model()(), 1)
    with pytest.raises(ValueError, match="different Defenders"):
        G.setup(2, G.options_model()(defenders=["gale_runner", "gale_runner"]), 1)


def test_events_never_name_a_card_before_it_is_drawn_or_a_boss_before_it_arrives() -> None:
    from engine.defenders.content import content
    from engine.defenders.names import card_name

    c = content()
    for seed in range(4):
        st = G.setup(2 + seed % 3, G.options_model()(mode="campaign", difficulty="easy"), seed)
        pol = G.policies()["heuristic"]
        said: list[str] = []
        drawn: list[str] = []
        while G.result(st) is None:
            p = next(p for p in G.prompts(st) if not p.answered)
            step = G.submit(st, p.seat, engine.decide(G, pol, st, p, engine.rng_for(seed, st.step, "ai")))
            st = step.state
            said += [e.text for e in step.events]
            drawn += [e.text for e in step.events if e.kind == "card"]
            text, seen = "\n".join(said), "\n".join(drawn)
            for card in st.horde:
                name = card_name(card).split(": ")[1]
                assert name in seen or name not in text, card
            hidden = [] if st.boss.revealed else [st.boss.key]
            for key in hidden + st.bosses_ahead:
                assert c.boss(key).name not in text, key
