"""Step 10's rule tests for Lantern Hunt, and the registration's promise: registered for a
while, then gone without a trace."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

import engine
import render
from bot.discord.commands import GameCommands
from bot.rules_text import rule_topics
from engine.kit import ContentError
from tests.addgame.lanterns import GAME, LanternHunt
from tests.addgame.lanterns.content import read_places
from tests.addgame.lanterns.state import LanternState
from tests.addgame.registration import lanterns_registered


def _play(game: LanternHunt, seed: int, policy: str) -> tuple[LanternState, list[dict[str, Any]]]:
    state = game.own(game.setup(3, game.options({"round_limit": 3, "wind": "gusty"}), seed))
    views = []
    while game.result(state) is None:
        prompt = next(prompt for prompt in game.prompts(state) if not prompt.answered)
        choice = engine.decide(game, game.policies()[policy], state, prompt, random.Random(seed * 1000 + state.step))
        state = game.own(game.submit(state, prompt.seat, choice).state)
        views.append(game.view(state, None))
    return state, views


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_every_seed_ends_replays_and_the_public_view_never_says_where_a_lantern_is(policy: str) -> None:
    for seed in range(20):
        state, views = _play(GAME, seed, policy)
        assert _play(GAME, seed, policy)[0] == state
        assert GAME.result(state) is not None and state.round == 3
        for view in views:
            assert "you" not in view
            assert all(set(seat) == {"seat", "score", "hidden", "searched"} for seat in view["seats"])


def test_a_sealed_hiding_place_may_be_changed_until_all_are_in_then_seeking_goes_in_turn() -> None:
    state = GAME.setup(2, GAME.options(None), 1)
    state = GAME.submit(state, 0, {"place": "well"}).state
    assert [p.answered for p in GAME.prompts(state)] == [True, False]
    state = GAME.submit(state, 0, {"place": "mill"}).state
    assert GAME.view(state, 0)["you"]["hidden"] == "mill" and GAME.view(state, 1)["you"]["hidden"] is None
    assert "mill" not in str(GAME.view(state, None)["seats"]) and "you" not in GAME.view(state, None)
    with pytest.raises(engine.IllegalChoice, match="no place called 'moon'"):
        GAME.submit(state, 1, {"place": "moon"})
    step = GAME.submit(state, 1, {"place": "well"})
    assert [(p.seat, p.kind) for p in GAME.prompts(step.state)] == [(0, "seek")]
    assert any(event.phase_end for event in step.events)
    with pytest.raises(engine.IllegalChoice):
        GAME.submit(step.state, 1, {"place": "well"})  # not bob's turn
    state = GAME.submit(step.state, 0, {"place": "well"}).state
    last = GAME.submit(state, 1, {"place": "mill"})  # the reckoning runs on its own: round 2 asks again
    assert last.state.round == 2 and last.state.score == [1, 2]
    assert [(p.seat, p.kind) for p in GAME.prompts(last.state)] == [(0, "hide"), (1, "hide")]


def test_a_malformed_content_file_names_the_file_and_the_entry(tmp_path: Path) -> None:
    bad = tmp_path / "places.toml"
    bad.write_text('[[place]]\nid = "well"\nname = "Well"\nglow = 9\n')
    with pytest.raises(ContentError, match=r"places.toml: place\[0\].glow"):
        read_places(bad)


def _offered() -> list[str]:
    """The games a /game new built now offers."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    new = next(option for option in GameCommands(None).to_dict(tree)["options"]  # type: ignore[arg-type]
               if option["name"] == "new")
    return [choice["value"] for choice in new["options"][0]["choices"]]


def test_registered_for_a_while_with_its_renderer_and_rules_then_gone() -> None:
    assert "lanterns" not in engine.games()
    with lanterns_registered():
        assert engine.get("lanterns") is GAME
        assert "lanterns" in _offered()
        assert render.draw("lanterns", GAME.view(GAME.setup(2, GAME.options(None), 1), None))[:4] == b"\x89PNG"
        assert set(rule_topics("lanterns")) == {"Hiding", "Searching", "Winning"}
    assert "lanterns" not in engine.games() and rule_topics("lanterns") == {}
    assert "lanterns" not in _offered() and set(engine.SHIPPED) <= set(_offered())
    with pytest.raises(ValueError, match="no renderer for game 'lanterns'"):
        render.draw("lanterns", {})
    with pytest.raises(ValueError, match="shipped game"):
        engine.register(engine.get("samurai"))
