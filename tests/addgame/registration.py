"""Step 7's registration for a game that is not shipped: `engine.register` with its renderer
and its rules topics, and `engine.unregister` to take it back, so no test after the one that
played it sees it (in `engine.games()`, `/game new`'s choices or the rules)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import engine
from tests.addgame import renderer
from tests.addgame.lanterns import GAME, LanternHunt

RULES = Path(__file__).with_name("rules.toml")


@contextmanager
def lanterns_registered() -> Iterator[LanternHunt]:
    """Lantern Hunt in this process's registry for the time of the block."""
    drawing: ModuleType = renderer
    engine.register(GAME, renderer=drawing, rules=RULES)
    try:
        yield GAME
    finally:
        engine.unregister(GAME.key)
