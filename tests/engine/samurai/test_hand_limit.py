"""LWTV event hand limit (one card per living army, one more for Kyoto's lord): it holds after
every draw, after a lost army and after a lost Kyoto; the discard is sealed."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import IllegalChoice
from engine.samurai import rounds, victory
from engine.samurai.content import content
from engine.samurai.state import Interrupt, SamuraiOptions

from .helpers import (
    PHASES,
    Flow,
    G,
    declare,
    own,
    prompt_for,
    put_army,
    submit,
    war_at,
)


@pytest.fixture(scope="module")
def board_options():
    return {"mode": "lwtv"}


def secret_everywhere_but(step, st, seat: int, card_ids: list[str]) -> None:
    """No public event, public view or other seat's view names the discarded card."""
    titles = [content().cards[card_id].title for card_id in card_ids]
    public = [event.text + json.dumps(event.data) for event in step.events if event.seats is None]
    others = [json.dumps(G.view(st, other)) for other in range(st.seats) if other != seat]
    for text in [*public, json.dumps(G.view(st, None)), *others]:
        for secret in [*card_ids, *titles]:
            assert secret not in text


def test_a_lost_army_asks_its_owner_to_discard_the_lowest_valued_card_by_default(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2)
    own(board, 1, "shinano")
    put_army(board, 1, 0, "shinano")  # a lone daimyo: one hit destroys the army
    board.players[1].hand = ["three_banners", "lord_of_kanto"]  # limit 2 (two armies)
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    dice.rolls = [1]
    step = G.submit(st, 0, {"act": "done"})
    st = step.state
    assert not st.players[1].armies[0].alive and victory.hand_limit(st, 1) == 1
    prompts = G.prompts(st)
    assert [(p.seat, p.kind, p.secret) for p in prompts] == [(1, "discard", True)]
    # three banners unmet scores 0, the eastern plain unmet -1: the default gives up the latter
    assert prompts[0].default == {"act": "discard", "card": "lord_of_kanto"}
    assert engine.decide(G, G.policies()["heuristic"], st, prompts[0], random.Random(1)) == prompts[0].default
    with pytest.raises(IllegalChoice, match="choose a card from your hand"):
        G.submit(st, 1, {"act": "discard", "card": "imperial_favour"})
    step = G.submit(st, 1, {"act": "discard", "card": "three_banners"})
    st = step.state
    assert st.players[1].hand == ["lord_of_kanto"] and "three_banners" in st.discard
    assert any(e.text.endswith("discards an event card.") and e.seats is None for e in step.events)
    secret_everywhere_but(step, st, 1, ["three_banners"])
    assert G.view(st, None)["seats"][1]["event_cards"] == 1
    assert prompt_for(st, 0).kind != "discard" and st.war is not None  # seat 0's turn goes on


def test_a_lost_kyoto_asks_for_a_discard(board, dice):
    own(board, 0, "omi", spearman=3)
    own(board, 1, "yamashiro", spearman=1)
    board.players[1].hand = ["imperial_favour", "stone_walls"]  # limit 2: one army + Kyoto
    assert victory.hand_limit(board, 1) == 2
    st = war_at(board, 0, "B")
    st = declare(st, 0, "omi", "yamashiro", units={"spearman": 2})
    dice.rolls = [1, 12, 12]
    step = G.submit(st, 0, {"act": "done"})
    st = step.state
    assert st.provinces["yamashiro"].owner == 0 and victory.hand_limit(st, 1) == 1
    prompt = G.prompts(st)[0]
    assert (prompt.seat, prompt.kind, prompt.secret) == (1, "discard", True)
    step = G.submit(st, 1, prompt.default)
    assert len(step.state.players[1].hand) == 1
    secret_everywhere_but(step, step.state, 1, [prompt.default["card"]])


def test_two_cards_over_are_asked_one_at_a_time(board, dice):
    """An army lost in Kyoto costs two places in the hand: two discards, one answer each."""
    own(board, 0, "omi", spearman=1)
    put_army(board, 0, 0, "omi", spearman=2)
    own(board, 1, "yamashiro")
    put_army(board, 1, 0, "yamashiro")
    board.players[1].hand = ["three_banners", "lord_of_kanto", "merchant_port"]  # limit 3
    st = war_at(board, 0, "B")
    st = declare(st, 0, "omi", "yamashiro", army=0)
    dice.rolls = [1]
    st = submit(st, 0, {"act": "done"})
    assert victory.hand_limit(st, 1) == 1
    for left in (2, 1):
        prompt = G.prompts(st)[0]
        assert (prompt.seat, prompt.kind) == (1, "discard")
        st = submit(st, 1, prompt.default)
        assert len(st.players[1].hand) == left
    assert G.prompts(st)[0].seat == 0


def test_drawing_any_card_checks_the_limit(board):
    """An objective drawn beyond the limit, or any card drawn by a hand already over it
    (here an army lost at Action 8), is discarded as the seat's part of the Plan step."""
    board.players[0].hand = ["merchant_port"]  # one army: limit 1
    board.players[1].hand = ["three_banners", "lord_of_kanto"]  # over its limit, not yet asked
    board.deck = ["imperial_favour", "rice_harvest", "tax_revolt"] + board.deck
    board.order = [0, 1, 2]
    board.phase = "war"
    events: list = []
    rng = random.Random(3)
    rounds.start_round(board, events, rng)
    PHASES.settle(Flow(board, rng))
    assert board.phase == "plan"
    assert board.players[0].hand == ["merchant_port", "imperial_favour"]
    assert board.players[1].hand == ["three_banners", "lord_of_kanto"]  # drew an immediate card
    kinds = {p.seat: (p.kind, p.secret) for p in G.prompts(board)}
    assert kinds == {0: ("discard", True), 1: ("discard", True), 2: ("plan", True)}
    assert not board.interrupts  # the others plan meanwhile
    st = submit(board, 0, prompt_for(board, 0).default)
    assert prompt_for(st, 0).kind == "plan" and len(st.players[0].hand) == 1


def test_a_hand_within_the_limit_is_never_asked(board):
    board.players[0].hand = ["merchant_port"]
    board.deck = ["rice_harvest", "tax_revolt", "peasant_levy"] + board.deck
    board.order = [0, 1, 2]
    events: list = []
    rng = random.Random(3)
    rounds.start_round(board, events, rng)
    PHASES.settle(Flow(board, rng))
    assert {p.kind for p in G.prompts(board)} == {"plan"}


def test_the_final_score_counts_only_the_best_cards_within_the_limit(board):
    board.players[1].hand = ["imperial_favour", "lord_of_kanto"]  # one army: limit 1; both unmet
    board.players[1].armies_destroyed = 0
    events: list = []
    victory.final_scores(board, events, "test")
    assert board.players[1].hand == ["imperial_favour"]  # 0 kept, -1 discarded
    assert board.scores["1"] == victory.public_vp(board, 1)


def test_matches_stored_before_the_edition_keep_the_rules_they_were_played_with(board, dice):
    """Options stored before issue 28 (every option but `edition` and `losses`) read as
    edition 1: a lost army asks nothing, so their logs replay as they were played."""
    stored = SamuraiOptions(mode="lwtv").model_dump(mode="json", exclude={"edition", "losses"})
    assert SamuraiOptions.model_validate(stored).edition == 1
    assert SamuraiOptions.model_validate({"mode": "lwtv", "round_limit": 3}).edition == 2
    assert G.setup(3, SamuraiOptions.model_validate(stored), 5).players[0].losses_order == []
    board.options = SamuraiOptions.model_validate(stored)
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2)
    own(board, 1, "shinano")
    put_army(board, 1, 0, "shinano")
    board.players[1].hand = ["three_banners", "lord_of_kanto"]
    st = war_at(board, 0, "B")
    st = declare(st, 0, "echigo", "shinano", army=0)
    dice.rolls = [1]
    st = submit(st, 0, {"act": "done"})
    assert not st.players[1].armies[0].alive and not st.interrupts
    assert all(p.kind != "discard" for p in G.prompts(st))


def test_a_discard_is_not_asked_once_a_raised_army_makes_the_hand_fit(board):
    own(board, 1, "mino", spearman=1)
    board.players[1].hand = ["three_banners", "lord_of_kanto"]  # one army (limit 1): one over
    st = war_at(board, 0, "A")
    st.interrupts = [Interrupt(seat=1, kind="rebuild"), Interrupt(seat=1, kind="discard")]
    assert prompt_for(st, 1).kind == "rebuild"
    st = submit(st, 1, {"act": "rebuild", "province": "mino"})
    assert victory.hand_limit(st, 1) == 2 and not st.interrupts
    assert all(p.kind != "discard" for p in G.prompts(st)) and len(st.players[1].hand) == 2
