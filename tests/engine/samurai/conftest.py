"""Fixtures of the Samurai Swords rule tests: a board at the first plan with every opponent's
army away from the action, copied fresh per test, and scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from engine.samurai.state import SamuraiState

from .helpers import Dice, advance_to, blank, kit_flow, new, opponents_elsewhere


@pytest.fixture(scope="module")
def board_options() -> dict[str, Any]:
    """The options of the module's board: a module testing a variant overrides this fixture."""
    return {"mode": "base"}


@pytest.fixture(scope="module")
def base_board(board_options: dict[str, Any]) -> SamuraiState:
    """Three seats at the first plan, each seat's second army in a far province; built once per
    module (setup is the slow part) and copied by `board`."""
    st = blank(advance_to(new(seats=3, seed=5, **board_options), "plan"))
    opponents_elsewhere(st)
    return st


@pytest.fixture
def board(base_board: SamuraiState) -> SamuraiState:
    return base_board.model_copy(deep=True)


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Dice:
    """Every die of the test comes from `dice.rolls` (12, a miss, once they run out)."""
    script = Dice()
    monkeypatch.setattr(kit_flow, "rng_for", lambda *a, **k: script)
    return script
