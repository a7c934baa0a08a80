"""A game names the phase a state is in without building its view (``engine.phase_label``), and
that name is exactly the one its views show: the service heads a change's posts with it, so a
label that drifted from the view would title a phase post with the wrong phase."""

from __future__ import annotations

import pytest

import engine
from tests.games import KEYS, table_of

MODES = {"samurai": ("base", "quickstart", "lwtv"), "defenders": ("single", "campaign")}


def _labels(key: str, mode: str | None, seed: int = 5, limit: int = 400) -> list[tuple[str, str, str]]:
    """(cheap label, public view's label, a seat view's label) at each step of a heuristic match."""
    game = engine.get(key)
    options = game.options_model()(**({"mode": mode} if mode else {}))
    state = game.setup(table_of(key), options, seed)
    policy = game.policies()["heuristic"]
    seen = []
    for step in range(limit):
        seen.append((engine.phase_label(game, state), str(game.view(state, None)["phase_label"]),
                     str(game.view(state, step % table_of(key))["phase_label"])))
        if game.result(state) is not None:
            break
        prompt = next(p for p in game.prompts(state) if not p.answered)
        choice = engine.decide(game, policy, state, prompt, engine.rng_for(seed, step, "label"))
        state = game.submit(state, prompt.seat, choice).state
    return seen


@pytest.mark.parametrize(("key", "mode"), [(key, mode) for key in KEYS for mode in MODES.get(key, (None,))])
def test_the_phase_label_is_the_one_the_views_show(key: str, mode: str | None) -> None:
    seen = _labels(key, mode)
    assert len({public for _cheap, public, _seat in seen}) >= 3, "the match passes through several phases"
    for cheap, public, seat in seen:
        assert cheap == public == seat


def test_a_game_without_its_own_label_is_named_from_its_public_view() -> None:
    class ViewOnly:
        def view(self, state: engine.State, seat: int | None) -> dict[str, object]:
            return {"phase_label": "Round 4 - Parley" if seat is None else "a seat's"}

    assert not isinstance(ViewOnly(), engine.LabelsPhases)
    assert engine.phase_label(ViewOnly(), engine.State()) == "Round 4 - Parley"  # type: ignore[arg-type]
