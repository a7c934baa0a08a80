"""The standing losses order (option losses="standing", the default): a defender's units fall
in the order he keeps in his sealed muster, so nobody waits for him in another player's turn;
he may change it in any muster or ask to be asked; losses="asked" keeps the classic wait."""

from __future__ import annotations

import pytest

from engine import IllegalChoice
from engine.samurai.casualties import LOSS_KINDS

from .helpers import (
    G,
    advance_to,
    declare,
    first_open,
    new,
    own,
    prompt_for,
    submit,
    war_at,
)


def fight(board, dice):
    """Seat 0 attacks seat 1's spearmen and bowman; one melee hit on the defence."""
    own(board, 0, "echigo", spearman=5)
    own(board, 1, "shinano", spearman=2, bowman=1)
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano")
    dice.rolls = [12, 1]  # ranged: the bowman misses; melee: one attacker hit, the rest miss
    return G.submit(st, 0, {"act": "done"})


def until_one_is_sealed(st):
    """Answer the muster by defaults until one seat's muster is sealed (its review open)."""
    for _ in range(200):
        if any(p.answered for p in G.prompts(st)):
            return st
        prompt = first_open(st)
        st = submit(st, prompt.seat, prompt.default)
    raise AssertionError("no muster was sealed")


def test_every_player_starts_with_the_default_order_and_classic_options_start_with_none():
    assert all(player.losses_order == list(LOSS_KINDS) for player in new("base", 3).players)
    assert all(player.losses_order == [] for player in new("base", 3, losses="asked").players)
    assert all(player.losses_order == [] for player in new("base", 3, steps="classic").players)


def test_the_defenders_standing_order_answers_for_him(board, dice):
    board.players[1].losses_order = ["bowman", "ronin", "spearman", "gunner", "swordsman"]
    step = fight(board, dice)
    st = step.state
    assert not any(p.kind == "casualties" for p in G.prompts(st))  # nobody waits for seat 1
    assert st.provinces["shinano"].garrison["bowman"] == 0 and st.provinces["shinano"].garrison["spearman"] == 2
    losses = [e for e in step.events if e.kind == "losses"]
    assert losses and losses[0].seats is None and "1 bowman" in losses[0].text


def test_an_empty_order_asks_the_defender_as_before(board, dice):
    board.players[1].losses_order = []
    st = fight(board, dice).state
    assert prompt_for(st, 1).kind == "casualties"


def test_the_muster_review_changes_the_order_one_kind_at_a_time():
    st = advance_to(new("base", 3, seed=4), "muster")
    st = until_one_is_sealed(st)
    seat = next(p.seat for p in G.prompts(st) if p.answered)
    review = prompt_for(st, seat)
    assert review.answered and "losses" in [option.value for option in review.options]
    st = submit(st, seat, {"act": "losses"})
    asked = prompt_for(st, seat)
    assert asked.kind == "losses_order" and asked.secret and not asked.answered
    with pytest.raises(IllegalChoice, match="which of the units left"):
        G.submit(st, seat, {"act": "fall", "unit": "daimyo"})
    for kind in ("bowman", "swordsman", "gunner", "spearman"):
        st = submit(st, seat, {"act": "fall", "unit": kind})
    assert st.players[seat].losses_order == ["bowman", "swordsman", "gunner", "spearman", "ronin"]
    assert prompt_for(st, seat).answered  # back at the sealed review
    st = submit(st, seat, {"act": "losses"})
    st = submit(st, seat, {"act": "ask"})
    assert st.players[seat].losses_order == []
    others = [G.view(st, other) for other in range(3) if other != seat] + [G.view(st, None)]
    assert all("losses_order" not in str(view) for view in others)


def test_losses_asked_offers_no_order_in_the_muster():
    st = advance_to(new("base", 3, seed=4, losses="asked"), "muster")
    st = until_one_is_sealed(st)
    seat = next(p.seat for p in G.prompts(st) if p.answered)
    assert "losses" not in [option.value for option in prompt_for(st, seat).options]
    with pytest.raises(IllegalChoice):
        G.submit(st, seat, {"act": "losses"})
