"""A levy in the sealed muster is parsed without building its prompt: the answer it makes, or
the refusal, is word for word the one the built prompt gives, for the levies played in real
matches and for forged ones."""

from __future__ import annotations

from typing import Any

import engine
from bot.simulate import simulate
from engine.contract import IllegalChoice
from engine.kit.phases import Asked
from engine.samurai import GAME
from engine.samurai.muster import muster_stage
from engine.samurai.state import SamuraiState

FORGED: list[Any] = [{"spearman": "two"}, {"spearman": 1, "archer": 1}, {"gunner": -1}, {"bowman": 1.5},
                     {"spearman": True}, {}, {"swordsman": 99}]


def outcome(state: SamuraiState, seat: int, asked: Asked, choice: Any) -> str:
    try:
        return repr(GAME.parse(state, seat, asked, choice))
    except IllegalChoice as refusal:
        return f"refused: {refusal}"


def test_a_muster_levy_is_parsed_as_its_prompt_parses_it() -> None:
    game = engine.get("samurai")
    played = simulate("samurai", 4, 2, "heuristic", options={"round_limit": 3})
    state = game.setup(4, engine.parse_options(game, {"round_limit": 3}), 2)
    assert isinstance(state, SamuraiState)
    levies = 0
    for seat, choice in played["log"]:
        if state.phase == "muster" and muster_stage(state, seat) == "levy":
            built = GAME.phases.prompt_of(state, seat)
            assert built is not None and built.kind == "levy"
            for each in [choice, *FORGED]:
                lazy = GAME.phases.asked_of(state, seat)
                assert lazy is not None and lazy.kind == "levy" and not lazy.built
                assert outcome(state, seat, lazy, each) == outcome(state, seat, Asked.of(built), each)
                assert not lazy.built
            levies += 1
        state = game.submit(state, seat, choice).state
        assert isinstance(state, SamuraiState)
    assert levies >= 8
