"""The game registry: the one list of shipped games, ``engine.get(key)`` and ``engine.games()``.

A shipped game is named once, in `SHIPPED`: its key is the package ``engine/<key>`` (whose
``GAME`` is the engine) and ``render/<key>`` (whose ``draw``/``draw_private`` are its renderer,
collected by ``render.RENDERERS`` for the keys listed here, since engine/ may not import render/).
`register` adds a game defined elsewhere (a test's or benchmark's stand-in) to this process only.
"""

from __future__ import annotations

import importlib
from typing import Any

from pydantic import ValidationError

from engine.contract import Game, IllegalChoice, State
from engine.validate import explain_invalid

SHIPPED: tuple[str, ...] = ("tinybigwars", "samurai", "defenders")
"""The games this bot ships, by key. The first is the one a front-end falls back to where
nothing names a game (the rules asked for outside any match, the terminal table's default)."""

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game not in `SHIPPED` (a stand-in) to this process's registry."""
    _GAMES[game.key] = game
    return game


def get(key: str) -> Game:
    if key not in _GAMES:
        if key not in SHIPPED:
            raise KeyError(f"unknown game {key!r}; known games: {', '.join(sorted(SHIPPED))}")
        game: Game = importlib.import_module(f"engine.{key}").GAME
        if game.key != key:
            raise ValueError(f"engine/{key} holds the game {game.key!r}: a package is named by its game's key")
        _GAMES[key] = game
    return _GAMES[key]


def games() -> dict[str, Game]:
    """Every shipped game, then any registered stand-in, by key."""
    for key in SHIPPED:
        get(key)
    return dict(_GAMES)


def default_key() -> str:
    """The game shown where nothing names one (see `SHIPPED`)."""
    return SHIPPED[0]


def parse_options(game: Game, options: dict[str, Any] | Any | None) -> Any:
    model = game.options_model()
    if isinstance(options, model):
        return options
    try:
        return model.model_validate(options or {})
    except ValidationError as exc:
        raise IllegalChoice(f"Bad options for {game.title}: {explain_invalid(exc, model)}") from exc


def replay(
    key: str,
    seats: int,
    options: dict[str, Any] | Any | None,
    seed: int,
    log: list[tuple[int, dict[str, Any]]],
) -> State:
    """Rebuild a state from the ordered choice log: same inputs, same state, bit for bit
    (one working copy, every step in place: engine/working.py)."""
    from engine.working import Working

    game = get(key)
    working = Working(game, game.setup(seats, parse_options(game, options), seed), owned=True)
    for seat, choice in log:
        working.submit(seat, choice)
    return working.state
