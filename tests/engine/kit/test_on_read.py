"""A driver's next prompt built on first read (engine/kit/on_read.py): the same prompt as the
one built at once, whatever reads it first, and never one of a later state."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

import engine
from bot.simulate import simulate
from engine.contract import Prompt
from engine.kit.game import KitGame
from engine.kit.on_read import forget, on_read, unbuilt
from engine.samurai import SamuraiGame
from engine.samurai.answers import Pick


def _menu() -> Prompt:
    return Prompt(seat=2, kind="menu", text="Pick one.", answer=Pick, default={"act": "done"})


@pytest.mark.parametrize("first_read", ["field", "dump", "json", "equality", "copy", "repr"])
def test_a_prompt_read_first_in_any_way_is_the_prompt_built_at_once(first_read: str) -> None:
    prompt = on_read(2, "menu", Pick, _menu)
    assert (prompt.seat, prompt.kind, prompt.answered, prompt.answer) == (2, "menu", False, Pick)
    assert unbuilt(prompt), "seat, kind, answered and the answer model build nothing"
    reads = {"field": lambda: prompt.text, "dump": prompt.model_dump, "json": prompt.model_dump_json,
             "equality": lambda: prompt == _menu(), "copy": lambda: copy.deepcopy(prompt), "repr": lambda: repr(prompt)}
    reads[first_read]()
    assert not unbuilt(prompt)
    assert type(prompt) is Prompt
    assert prompt == _menu() and _menu() == prompt
    assert prompt.model_dump() == _menu().model_dump()
    assert prompt.model_fields_set == _menu().model_fields_set


def test_a_prompt_built_for_another_decision_is_refused() -> None:
    prompt = on_read(1, "menu", Pick, _menu)
    with pytest.raises(RuntimeError, match="seat 2's menu"):
        _ = prompt.options


def test_a_prompt_forgotten_unread_cannot_be_built_from_a_changed_state() -> None:
    prompt = on_read(2, "menu", Pick, _menu)
    forget(prompt)
    with pytest.raises(RuntimeError, match="after its state changed"):
        _ = prompt.options
    read = on_read(2, "menu", Pick, _menu)
    assert read.default == {"act": "done"}
    forget(read)
    assert read.options == [], "a prompt read before the step keeps what it was"


@pytest.mark.parametrize("seed", [0, 1])
def test_the_heuristic_chooses_the_same_with_prompts_built_on_read(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Samurai's all-AI driver gets most prompts unbuilt; its heuristic plays the very same
    match as with every prompt built at once."""
    options = {"round_limit": 2, "losses": "asked"}
    lazy = simulate("samurai", 3, seed, "heuristic", options=options)
    monkeypatch.setattr(SamuraiGame, "prompts_on_read", False)
    eager = simulate("samurai", 3, seed, "heuristic", options=options)
    assert lazy["log"] == eager["log"]
    assert lazy["log_sha256"] == eager["log_sha256"]


def test_an_all_ai_driver_leaves_most_samurai_prompts_unbuilt() -> None:
    """What the driver's prompt saves: the heuristic reads the options of few decisions."""
    game = engine.get("samurai")
    assert isinstance(game, KitGame)
    options = {"round_limit": 2}
    log = simulate("samurai", 4, 0, "heuristic", options=options)["log"]
    working = engine.Working(game, game.setup(4, engine.parse_options(game, options), 0), owned=True)
    left: Counter[bool] = Counter()
    policy = game.policies()["heuristic"]
    for seat, choice in log:
        prompt = working.next_prompt()
        assert prompt is not None
        assert engine.decide(game, policy, working.state, prompt, engine.lazy_rng_for(0, working.state.step,
                                                                                      f"ai:{seat}")) == choice
        left[unbuilt(prompt)] += 1
        working.submit(seat, choice)
        if unbuilt(prompt):
            with pytest.raises(RuntimeError, match="after its state changed"):
                _ = prompt.options  # the step changed the state it was found in
    assert left[True] > 2 * left[False]
