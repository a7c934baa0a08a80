"""Losses chosen by their owner after each combat step (fortification defenders first, the
daimyo last), asked only when there is a real choice, both sides at once and sealed."""

from __future__ import annotations

import pytest

import engine
from engine import IllegalChoice
from engine.samurai import casualties
from tests.engine.random_matches import other_views, strip_waiting

from .helpers import (
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
    """Losses asked in the battle (the standing order: test_losses_order.py)."""
    return {"mode": "base", "losses": "asked"}


def test_defender_chooses_which_units_fall(board, dice):
    own(board, 0, "echigo", spearman=5)
    own(board, 1, "shinano", spearman=2, bowman=1)
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano")
    dice.rolls = [12, 1]  # ranged: the bowman misses; melee: one attacker hit, the rest miss
    st = submit(st, 0, {"act": "done"})
    pr = prompt_for(st, 1)
    assert pr.kind == "casualties" and pr.input == "numbers" and pr.secret
    assert [f.name for f in pr.fields] == ["spearman", "bowman"]
    assert all(f.max == 1 for f in pr.fields)
    assert pr.default == {"spearman": 1, "bowman": 0}  # the old fixed order: cheapest first
    st = submit(st, 1, {"spearman": 0, "bowman": 1})
    assert st.provinces["shinano"].garrison["bowman"] == 0 and st.provinces["shinano"].garrison["spearman"] == 2
    assert st.players[1].tray["bowman"] == board.players[1].tray["bowman"] + 1
    assert G.prompts(st)[0].kind == "battle"


def test_a_bad_choice_of_losses_is_refused_and_changes_nothing(board, dice):
    own(board, 0, "echigo", spearman=5)
    own(board, 1, "shinano", spearman=2, bowman=1)
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano")
    dice.rolls = [12, 1]
    st = submit(st, 0, {"act": "done"})
    before = st.model_dump_json()
    for choice, message in (({"spearman": 1, "bowman": 1}, "takes 1 losses; you chose 2"),
                            ({"spearman": 0, "bowman": 0}, "takes 1 losses; you chose 0"),
                            ({"gunner": 1}, "only 0 gunners"),
                            ({"daimyo": 1}, "unknown field 'daimyo'")):
        with pytest.raises(IllegalChoice, match=message):
            G.submit(st, 1, choice)
        assert st.model_dump_json() == before
    with pytest.raises(IllegalChoice, match="not your turn"):
        G.submit(st, 0, {"spearman": 1})


def test_both_owners_choose_at_once_sealed_until_both_are_in(board, dice):
    own(board, 0, "echigo", spearman=1)
    put_army(board, 0, 0, "echigo", spearman=2, swordsman=1)
    own(board, 1, "shinano", spearman=2, gunner=1)
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano", army=0)
    # ranged: only the defender's gunner (1: a hit); the attacker loses a spearman or the swordsman
    dice.rolls = [1]
    st = submit(st, 0, {"act": "done"})
    assert [(p.seat, p.kind) for p in G.prompts(st)] == [(0, "casualties")]
    # melee: attacker spearman 1, swordsman 12, daimyo 12; defender spearmen 1, 12
    dice.rolls = [1, 12, 12, 1, 12]
    st = submit(st, 0, {"spearman": 1, "swordsman": 0})
    assert [(p.seat, p.kind) for p in G.prompts(st)] == [(0, "casualties"), (1, "casualties")]
    hidden = [strip_waiting(v) for v in other_views(st, 0)]
    sealed = submit(st, 0, {"spearman": 0, "swordsman": 1})
    assert [strip_waiting(v) for v in other_views(sealed, 0)] == hidden
    assert prompt_for(sealed, 0).answered and not prompt_for(sealed, 1).answered
    revised = submit(sealed, 0, {"spearman": 1, "swordsman": 0})  # still open: a revision counts
    done = G.submit(revised, 1, {"spearman": 0, "gunner": 1})
    st = done.state
    army = st.players[0].armies[0]
    assert army.units["spearman"] == 0 and army.units["swordsman"] == 1
    assert st.provinces["shinano"].garrison == {"spearman": 2, "gunner": 0, "swordsman": 0, "bowman": 0}
    assert any(e.kind == "losses" and e.seats is None for e in done.events)


def test_no_prompt_without_a_real_choice(board, dice):
    # a castle's defenders take the only hit; one kind left; more hits than units
    own(board, 0, "echigo", spearman=5)
    own(board, 1, "shinano", spearman=1, bowman=1)
    board.provinces["shinano"].fort = 1
    st = declare(war_at(board, 0, "B"), 0, "echigo", "shinano")
    dice.rolls = [12, 1]
    st = submit(st, 0, {"act": "done"})
    assert G.prompts(st)[0].kind == "battle" and st.war.battle.fort_left == 3
    holders = [{"fort": 1}, {"spearman": 3}]
    assert not casualties.has_choice(holders, 2)
    assert not casualties.has_choice([{"spearman": 1, "gunner": 1}, {"daimyo": 1}], 2)
    assert casualties.has_choice([{"spearman": 1, "gunner": 1}, {"daimyo": 1}], 1)


def test_the_daimyo_falls_last_whatever_is_chosen():
    side = [{"fort": 1}, {"spearman": 1, "gunner": 1}, {"swordsman": 1, "daimyo": 1}]
    casualties.apply_losses(side, 5, {"spearman": 1, "gunner": 1, "swordsman": 1})
    assert side == [{"fort": 0}, {"spearman": 0, "gunner": 0}, {"swordsman": 0, "daimyo": 0}]
    side = [{"spearman": 2, "bowman": 1, "daimyo": 1}]
    casualties.apply_losses(side, 1, {"bowman": 1})
    assert side == [{"spearman": 2, "bowman": 0, "daimyo": 1}]


def test_ai_and_default_choices_are_legal_in_whole_matches():
    """Random and heuristic seats answer every casualties prompt of some matches legally (the
    engine would raise otherwise), and deadline defaults are legal too."""
    game = engine.get("samurai")
    policies = game.policies()
    asked = 0
    for seed, policy in ((3, "heuristic"), (4, "random"), (5, "default")):
        state = game.setup(4, game.options_model()(mode="quickstart", round_limit=2), seed)
        while game.result(state) is None:
            prompt = [p for p in game.prompts(state) if not p.answered][0]
            asked += prompt.kind == "casualties"
            if policy == "default":
                choice = prompt.default
            else:
                choice = engine.decide(game, policies[policy], state, prompt, engine.rng_for(seed, state.step, "t"))
            state = game.submit(state, prompt.seat, choice).state
    assert asked > 0
