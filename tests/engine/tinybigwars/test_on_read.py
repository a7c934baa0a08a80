"""An all-AI driver's Tiny Big Wars prompts built on first read (engine/kit/on_read.py): the
heuristic lists a hero's activation and move options from the state as the prompts do, and
plays the very same match as with every prompt built at once."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from bot.simulate import simulate
from engine.kit.on_read import unbuilt
from engine.tinybigwars import TinyBigWars
from engine.tinybigwars.board import hero_card
from engine.tinybigwars.rules import activatable, move_targets
from engine.tinybigwars.state import TBWState


@pytest.mark.parametrize(("seats", "seed"), [(2, 3), (4, 5)])
def test_the_heuristic_chooses_the_same_with_prompts_built_on_read(seats: int, seed: int,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    lazy = simulate("tinybigwars", seats, seed, "heuristic")
    monkeypatch.setattr(TinyBigWars, "prompts_on_read", False)
    eager = simulate("tinybigwars", seats, seed, "heuristic")
    assert lazy["log"] == eager["log"]
    assert lazy["winner"] == eager["winner"]


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 0)])
def test_what_the_heuristic_lists_is_what_the_prompts_offer(seats: int, seed: int) -> None:
    """At every step of a match, from the seat's information state: the heroes it may
    activate, where its hero may move, whether it may train, how many minions may go along
    and how many coins it may spend are the prompt's options and bounds."""
    game = engine.get("tinybigwars")
    log = simulate("tinybigwars", seats, seed, "heuristic")["log"]
    working = engine.Working(game, game.setup(seats, engine.parse_options(game, None), seed), owned=True)
    kinds: Counter[str] = Counter()
    for seat, choice in log:
        prompt = next(p for p in game.prompts(working.state) if not p.answered)
        info = game.information(working.state, prompt.seat)
        assert isinstance(info, TBWState)
        kinds[prompt.kind] += 1
        if prompt.kind == "activate":
            assert [h.id for h in activatable(info, prompt.seat)] + ["pass"] == [o.value for o in prompt.options]
        elif prompt.kind == "action":
            hero = info.hero(info.turn.hero or "")
            moves = [o.choice["to"] for o in prompt.options if o.choice["action"] == "move"]
            assert moves == list(move_targets(info, hero.location or ""))
            values = {o.value for o in prompt.options}
            assert ("train_health" in values) == (hero.health < hero_card(hero).health)
            assert ("train_energy" in values) == (hero.energy < hero_card(hero).max_energy)
        elif prompt.kind == "escort":
            hero = info.hero(info.turn.hero or "")
            assert prompt.fields[0].max == info.loc(hero.location or "").minions[prompt.seat]
        elif prompt.kind == "recruit":
            assert prompt.fields[0].max == info.seats[prompt.seat].coins
        working.submit(seat, choice)
    assert kinds["activate"] and kinds["action"] and kinds["escort"]


def test_an_all_ai_driver_leaves_most_prompts_unbuilt() -> None:
    """What the driver's prompt saves: the heuristic builds the prompt of few decisions."""
    game = engine.get("tinybigwars")
    log = simulate("tinybigwars", 3, 4, "heuristic")["log"]
    working = engine.Working(game, game.setup(3, engine.parse_options(game, None), 4), owned=True)
    policy = game.policies()["heuristic"]
    left: Counter[bool] = Counter()
    for seat, choice in log:
        prompt = working.next_prompt()
        assert prompt is not None and prompt.seat == seat
        rng = engine.lazy_rng_for(4, working.state.step, f"ai:{seat}")
        assert engine.decide(game, policy, working.state, prompt, rng) == choice
        left[unbuilt(prompt)] += 1
        working.submit(seat, choice)
    assert left[True] > 10 * left[False]
