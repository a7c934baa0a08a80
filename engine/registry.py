"""The game registry: the one list of shipped games, ``engine.get(key)`` and ``engine.games()``.

A shipped game is named once, in `SHIPPED`: its key is the package ``engine/<key>`` (whose
``GAME`` is the engine) and ``render/<key>`` (whose ``draw``/``draw_private`` are its renderer,
collected by ``render.RENDERERS`` for the keys listed here, since engine/ may not import render/),
and its `/game rules` topics are ``bot/rules/<key>.toml``.

`register` adds a game defined elsewhere (a plug-in, a test's or benchmark's stand-in) to this
process only, with what the shipped layout would otherwise give it: its renderer (an object with
``draw(view, names)`` and ``draw_private(view, names)``, held here unread, since engine/ may not
import render/; ``render.draw`` looks it up) and its rules topics file. A front-end built after the
registration offers the game (`/game new` reads `games()` when the bot starts); `unregister` takes
it back.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.contract import Game, IllegalChoice, State
from engine.validate import explain_invalid

SHIPPED: tuple[str, ...] = ("tinybigwars", "samurai", "defenders")
"""The games this bot ships, by key. The first is the one a front-end falls back to where
nothing names a game (the rules asked for outside any match, the terminal table's default)."""

_GAMES: dict[str, Game] = {}


@dataclass(frozen=True)
class Extras:
    """What a game registered at run time brings besides its engine."""

    renderer: object | None = None
    """Its ``draw``/``draw_private`` (render.Renderer); None: it has no pictures (a test's stand-in)."""
    rules: Path | None = None
    """Its `/game rules` topics, a TOML file laid out as bot/rules/<key>.toml."""


_EXTRAS: dict[str, Extras] = {}


def register(game: Game, *, renderer: object | None = None, rules: Path | None = None) -> Game:
    """Add a game not in `SHIPPED` to this process's registry, with its renderer and its rules
    topics file (see the module's docstring); registering its key again replaces it."""
    if game.key in SHIPPED:
        raise ValueError(f"{game.key!r} is a shipped game: it is registered by its package")
    _GAMES[game.key] = game
    _EXTRAS[game.key] = Extras(renderer, rules)
    return game


def unregister(key: str) -> None:
    """Take back a game `register` added (a test's cleanup); a shipped game stays."""
    if key in SHIPPED:
        raise ValueError(f"{key!r} is a shipped game and cannot be taken out")
    _GAMES.pop(key, None)
    _EXTRAS.pop(key, None)


def extras(key: str) -> Extras:
    """The renderer and rules file `register` was given for ``key`` (none for a shipped game)."""
    return _EXTRAS.get(key, Extras())


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
