"""The heuristic takes the units prompts' defaults and sizes up a choice of losses without
building those prompts (`war_prompts.units_answer`, `battle.owed_losses`): at every step of
seeded matches where one is open, what it works out from the seat's information state is
what the built prompt says (the default, and for losses the fields' maxima and how many
units fall), so the AI answers exactly as it did when it read the prompt."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import engine
from bot.simulate import simulate
from engine.samurai.battle import owed_losses
from engine.samurai.phases import PHASES
from engine.samurai.state import SamuraiState
from engine.samurai.war_prompts import units_answer

MATCHES = [
    (4, 0, "heuristic", {"round_limit": 3}),
    (4, 3, "random", {"round_limit": 3}),
    (4, 1, "random", {"losses": "asked", "round_limit": 5}),
    (4, 4, "heuristic", {"steps": "classic", "mode": "lwtv", "round_limit": 3}),
]
UNITS = ("gather", "garrison_force", "garrison_move")


@pytest.mark.parametrize(("seats", "seed", "policy", "options"), MATCHES,
                         ids=[f"{m[0]}-{m[1]}-{m[2]}-{','.join(m[3])}" for m in MATCHES])
def test_the_unbuilt_answers_are_the_built_prompts(seats: int, seed: int, policy: str,
                                                   options: dict[str, Any]) -> None:
    game = engine.get("samurai")
    seen: Counter[str] = Counter()

    def on_step(state: object, _events: object) -> None:
        assert isinstance(state, SamuraiState)
        for prompt in PHASES.prompts(state):
            if prompt.kind not in (*UNITS, "casualties"):
                continue
            view = game.information(state, prompt.seat)
            assert isinstance(view, SamuraiState) and view.war is not None
            if prompt.kind == "casualties":
                room, falling = owed_losses(view, prompt.seat)
                assert room == {field.name: field.max for field in prompt.fields}, state.step
                assert falling == sum(prompt.default.values()), state.step
            else:
                assert units_answer(view, view.war, prompt.seat, prompt.kind) == prompt.default, state.step
                assert list(units_answer(view, view.war, prompt.seat, prompt.kind)) == list(prompt.default)
            seen[prompt.kind] += 1

    simulate("samurai", seats, seed, policy, options=options, on_step=on_step)
    assert sum(seen.values()) > 20, seen
