"""The search AI: a legal answer from a seat's information state within its CPU budget, in
every game; the budget read from WARHOST_SEARCH_MS when the policy is made."""

from __future__ import annotations

import random

import pytest

import engine
from engine.search import BUDGET_VARIABLE, DEFAULT_BUDGET_MS, SearchPolicy, budget_ms
from tests.engine.test_honest_ai import mid_match_states

GAMES = [("tinybigwars", 2, {}), ("samurai", 4, {}), ("defenders", 2, {"difficulty": "hard"})]


@pytest.mark.parametrize(("key", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_search_answers_legally_within_its_budget(key: str, seats: int, options: dict[str, object],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # 100 ms: a Tiny Big Wars rollout from the opening costs ~20 CPU ms quiet and more on a busy
    # machine (caches shared), and a cut rollout counts for nothing: at 20 ms a loaded run saw none
    monkeypatch.setenv(BUDGET_VARIABLE, "100")
    game = engine.get(key)
    search = game.policies()["search"]
    assert isinstance(search, SearchPolicy) and search.budget == 100
    searched = 0
    for state in list(mid_match_states(game, seats, options, seed=11, steps=120))[:6]:
        before = state.model_dump_json()
        for prompt in [p for p in game.prompts(state) if not p.answered][:2]:
            choice = engine.decide(game, search, state, prompt, random.Random(state.step))
            game.submit(state, prompt.seat, choice)  # raises IllegalChoice if it were not legal
            decision = search.last
            searched += decision.searched and decision.rollouts > 0
            # CPU time, not wall time: the budget plus at most one rules step and the proposals.
            # The margin is wide: a garbage collection of a test worker's heap, or a busy VM's
            # accounting, once put 432 ms on one Samurai rollout step; a search that ignored its
            # budget would run for seconds.
            assert decision.cpu_ms < 100 + 1500, f"{key}: {decision}"
        assert state.model_dump_json() == before, "the search changed the true state"
    assert searched >= 2, f"{key}: the search never compared candidates by rollouts"


def test_a_round_bound_search_depends_on_its_inputs_only() -> None:
    game = engine.get("tinybigwars")
    search = game.policies()["search"].bounded(rounds=3, depth=20)
    state = next(s for s in mid_match_states(game, 2, {}, seed=4, steps=200) if s.phase != "force")
    prompt = [p for p in game.prompts(state) if not p.answered][0]
    first = engine.decide(game, search, state, prompt, random.Random(9))
    assert engine.decide(game, search, state, prompt, random.Random(9)) == first
    assert search.last.rounds <= 3


def test_the_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BUDGET_VARIABLE, raising=False)
    assert budget_ms() == DEFAULT_BUDGET_MS == 1000
    monkeypatch.setenv(BUDGET_VARIABLE, "250")
    assert engine.get("samurai").policies()["search"].budget == 250
    for bad in ("soon", "0", "-5", "1e9"):
        monkeypatch.setenv(BUDGET_VARIABLE, bad)
        with pytest.raises(ValueError, match="WARHOST_SEARCH_MS must be a number of CPU milliseconds"):
            budget_ms()


def test_a_decision_may_be_given_a_smaller_budget_than_the_environment_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's thinking queue shrinks a decision's budget while many wait (bot/service/think_queue.py)."""
    from engine.samurai.search import rollout_reach

    monkeypatch.setenv(BUDGET_VARIABLE, "1000")
    search = engine.get("samurai").policies()["search"]
    smaller = search.with_budget(100)
    assert (smaller.budget, search.budget) == (100, 1000)  # the policy it came from keeps its own
    assert (smaller.reach, search.reach) == (rollout_reach(100), rollout_reach(1000))  # its rollouts' reach follows
    assert smaller.reach < search.reach
    plain = engine.get("tinybigwars").policies()["search"]
    assert plain.with_budget(150).reach == plain.reach
    with pytest.raises(ValueError, match="above 0"):
        plain.with_budget(0)
