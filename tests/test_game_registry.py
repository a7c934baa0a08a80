"""One registry of games: every game the engine ships has a renderer, and bot/ names no game,
so a new game is added by its own packages and one line in `engine.SHIPPED`, never by editing
the bot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
import render

ROOT = Path(__file__).resolve().parents[1]
CONTENT = ROOT / "bot" / "rules"
"""Game content kept as data (the `/game rules` topics): naming its game is its purpose."""


@pytest.mark.parametrize("key", sorted(engine.games()))
def test_every_game_has_its_engine_and_renderer_under_its_key(key: str) -> None:
    game = engine.get(key)
    assert game.key == key and key in engine.SHIPPED
    renderer = render.RENDERERS[key]
    assert callable(renderer.draw) and callable(renderer.draw_private)


def test_the_renderers_are_those_of_the_shipped_games() -> None:
    assert list(render.RENDERERS) == list(engine.SHIPPED)
    with pytest.raises(KeyError, match="known games: "):
        engine.get("chess")
    with pytest.raises(ValueError, match="no renderer for game 'chess'"):
        render.draw("chess", {})


def test_bot_names_no_game() -> None:
    # the shipped games only: stand-in games other tests register ("toy", "coop") are in
    # engine.games() too once such a test ran in this worker, and "coop" is in "cooperative"
    names = [name for game in map(engine.get, engine.SHIPPED) for name in (game.key, game.title)]
    pattern = re.compile("|".join(re.escape(name) for name in names), re.IGNORECASE)
    found = []
    for path in sorted((ROOT / "bot").rglob("*")):
        if not path.is_file() or CONTENT in path.parents or path.suffix not in (".py", ".html", ".js", ".css", ".md"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "bot/ names a game (read it from engine.games() instead):\n" + "\n".join(found)
