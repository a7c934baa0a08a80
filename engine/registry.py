"""Game registry: ``engine.get(key)`` and ``engine.games()``."""

from __future__ import annotations

import importlib
from typing import Any

from pydantic import ValidationError

from engine.contract import Game, IllegalChoice, State
from engine.validate import explain_invalid

_KNOWN = {"tinybigwars": "engine.tinybigwars", "samurai": "engine.samurai", "defenders": "engine.defenders"}
_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.key] = game
    return game


def get(key: str) -> Game:
    if key not in _GAMES:
        module = _KNOWN.get(key)
        if module is None:
            raise KeyError(f"unknown game {key!r}; known games: {', '.join(sorted(_KNOWN))}")
        importlib.import_module(module)
    return _GAMES[key]


def games() -> dict[str, Game]:
    for key in _KNOWN:
        get(key)
    return dict(_GAMES)


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
