"""Who owes what, read without building prompts (each phase's ``owed``), says exactly what the
built prompts say, at every step of seeded matches in every mode: the same (seat, kind) in the
same order, and each declared answer model is the one the built prompt takes. An answer is
parsed and handled from ``owed`` alone, so a mismatch would take an answer as another kind."""

from __future__ import annotations

from typing import Any

import pytest

from bot.simulate import simulate
from engine.samurai.phases import PHASES
from engine.samurai.state import SamuraiState

MATCHES = [
    (4, 0, "heuristic", {"round_limit": 2}),
    (3, 5, "random", {"round_limit": 2}),
    (5, 2, "heuristic", {"mode": "quickstart", "round_limit": 2}),
    (5, 6, "random", {"mode": "lwtv", "round_limit": 2}),
    (4, 4, "heuristic", {"setup": "classic", "steps": "classic", "round_limit": 2}),
    (3, 1, "random", {"losses": "asked", "round_limit": 2}),
]


@pytest.mark.parametrize(("seats", "seed", "policy", "options"), MATCHES,
                         ids=[f"{m[0]}-{m[1]}-{m[2]}-{','.join(m[3])}" for m in MATCHES])
def test_owed_matches_the_built_prompts(seats: int, seed: int, policy: str, options: dict[str, Any]) -> None:
    kinds: set[str] = set()

    def on_step(state: object, _events: object) -> None:
        assert isinstance(state, SamuraiState)
        built = PHASES.prompts(state)
        assert PHASES.owed(state) == [(prompt.seat, prompt.kind) for prompt in built], (state.phase, state.step)
        for seat in range(state.seats):
            asked = PHASES.asked_of(state, seat)
            first = next((prompt for prompt in built if prompt.seat == seat), None)
            if first is None:
                assert asked is None
                continue
            assert asked is not None and asked.kind == first.kind
            assert asked.answer is first.answer, (state.phase, first.kind)
            kinds.add(f"{state.phase}:{first.kind}")

    simulate("samurai", seats, seed, policy, options=options, on_step=on_step)
    assert len(kinds) > 5
