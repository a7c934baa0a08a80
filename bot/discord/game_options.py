"""`/game new`'s game options, generated from the games' options models.

A field of an options model that has a description is an option a host picks when opening a
match; fields without one are tuning left to tests and the command line. One command serves
every game, so games that share a field name share one Discord option: the same kind and
description, the widest bounds, every game's values. A field whose values differ between its
games is typed freely and autocompleted from the chosen game's values (the options model says
what is wrong with anything else); values shared by all its games are offered as fixed choices.

The commands are declared when this module is imported, from the games registered then; a bot's
own copy of them (`offer_games`, when its `/game` group is built) offers the games registered
when it starts, so a game registered at run time (`engine.register`) is offered with its options.
"""

from __future__ import annotations

import dataclasses
import inspect
import types
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Optional, cast, get_args, get_origin

import annotated_types
import discord
from discord import app_commands
from pydantic.fields import FieldInfo

import engine

MAX_DESCRIPTION = 100
"""Discord's limit on an option's description."""

Autocomplete = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]


@dataclass
class GameOption:
    """One `/game new` option and the games that have it."""

    name: str
    kind: type
    """int, float or str: the Discord option type."""
    description: str
    values: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Game key -> the values a choice option takes in that game (empty for numbers and text)."""
    defaults: dict[str, Any] = field(default_factory=dict)
    """Game key -> the option's default in that game; its keys are the games having the option."""
    titles: dict[str, str] = field(default_factory=dict)
    minimum: float | None = None
    maximum: float | None = None
    bounded_below: bool = True
    bounded_above: bool = True

    @property
    def games(self) -> list[str]:
        return list(self.defaults)

    def all_values(self) -> list[str]:
        return list(dict.fromkeys(value for values in self.values.values() for value in values))

    def fixed(self) -> bool:
        """Every game having it takes the same values: Discord can offer them as choices."""
        return bool(self.values) and len(set(self.values.values())) == 1

    def annotation(self) -> Any:
        low = self.minimum if self.bounded_below else None
        high = self.maximum if self.bounded_above else None
        if self.kind is str or (low is None and high is None):
            return Optional[self.kind]  # noqa: UP045 - discord.py reads typing.Optional
        bounds = (self.kind(low) if low is not None else None, self.kind(high) if high is not None else None)
        return Optional[app_commands.Range[self.kind, bounds[0], bounds[1]]]  # noqa: UP045

    def described(self) -> str:
        """The description Discord shows: an option of one game says which game, and a choice its default."""
        if len(self.defaults) > 1:
            return self.description
        key, default = next(iter(self.defaults.items()))
        said = f"{self.titles[key]}: {self.description}"
        return f"{said} (default {default})" if self.values else said


def _kind(key: str, name: str, info: FieldInfo) -> tuple[type, tuple[str, ...]]:
    """The Discord type of a field and, for a Literal, its values."""
    annotation = info.annotation
    args = [arg for arg in get_args(annotation) if arg is not type(None)]
    if args and get_origin(annotation) is not Literal and len(args) == 1:
        annotation = args[0]
    if get_origin(annotation) is Literal:
        values = get_args(annotation)
        if not all(isinstance(value, str) for value in values):
            raise TypeError(f"{key}.{name}: a host option's choices must be strings")
        return str, tuple(values)
    if annotation in (int, float, str):
        return cast(type, annotation), ()
    raise TypeError(f"{key}.{name}: a host option must be a number, text or a Literal of strings, not {annotation}")


def _bounds(info: FieldInfo) -> tuple[float | None, float | None]:
    low: float | None = None
    high: float | None = None
    for item in info.metadata:
        if isinstance(item, annotated_types.Ge):
            low = float(item.ge)  # type: ignore[arg-type]
        elif isinstance(item, annotated_types.Le):
            high = float(item.le)  # type: ignore[arg-type]
        elif isinstance(item, annotated_types.Gt | annotated_types.Lt):
            raise TypeError("a host option's bounds are inclusive (ge, le)")
    return low, high


def game_options(games: dict[str, engine.Game] | None = None) -> list[GameOption]:
    """The host options of every game, merged by name, in the order the games declare them."""
    found: dict[str, GameOption] = {}
    for key, game in (games if games is not None else engine.games()).items():
        for name, info in game.options_model().model_fields.items():
            if not info.description:
                continue
            kind, values = _kind(key, name, info)
            low, high = _bounds(info)
            option = found.setdefault(name, GameOption(name, kind, info.description, minimum=low, maximum=high))
            if option.kind is not kind or option.description != info.description:
                raise TypeError(f"{key}.{name} differs from the same option in {', '.join(option.games)}: "
                                "games sharing an option give it one type and one description")
            if values:
                option.values[key] = values
            option.defaults[key] = info.default
            option.titles[key] = game.title
            option.bounded_below &= low is not None
            option.bounded_above &= high is not None
            if low is not None:
                option.minimum = low if option.minimum is None else min(option.minimum, low)
            if high is not None:
                option.maximum = high if option.maximum is None else max(option.maximum, high)
    for option in found.values():
        if len(option.described()) > MAX_DESCRIPTION:
            raise ValueError(f"/game new {option.name}: {option.described()!r} is over {MAX_DESCRIPTION} characters")
    return list(found.values())


def _suggest(option: GameOption) -> Autocomplete:
    """Autocomplete for an option whose values depend on the game: the chosen game's values."""

    async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        values = option.values.get(game, ()) if game else option.all_values()
        return [app_commands.Choice(name=value, value=value) for value in values
                if current.lower() in value.lower()][:25]

    return suggest


GENERATED = "__warhost_game_options__"
"""Where a callback keeps its signature before `with_game_options` and the options it generated."""
DECORATIONS = ("__discord_app_commands_param_description__", "__discord_app_commands_param_choices__",
               "__discord_app_commands_param_autocomplete__")
"""Where discord.py's describe, choices and autocomplete decorators leave their work on a callback."""


def game_choices(games: dict[str, engine.Game]) -> list[app_commands.Choice[str]]:
    """The games a command offers, by title."""
    return [app_commands.Choice(name=game.title, value=key) for key, game in sorted(games.items())]


def with_game_options(callback: Callable[..., Any], games: dict[str, engine.Game] | None = None) -> Callable[..., Any]:
    """Give a command callback taking ``**options`` one keyword parameter per game option, with
    its type, bounds, description and choices, as discord.py reads them from the signature."""
    signature = inspect.signature(callback)
    fixed = [parameter for parameter in signature.parameters.values() if parameter.kind is not parameter.VAR_KEYWORD]
    options = game_options(games)
    setattr(callback, GENERATED, (signature, [option.name for option in options]))
    generated = [inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                   annotation=option.annotation()) for option in options]
    callback.__signature__ = signature.replace(parameters=[*fixed, *generated])  # type: ignore[attr-defined]
    app_commands.describe(**{option.name: option.described() for option in options})(callback)
    app_commands.choices(**{option.name: [app_commands.Choice(name=value, value=value) for value in option.all_values()]
                            for option in options if option.fixed()})(callback)
    suggestions: dict[str, Any] = {option.name: _suggest(option) for option in options
                                   if option.values and not option.fixed()}
    app_commands.autocomplete(**suggestions)(callback)
    return callback


def _regenerated(callback: Callable[..., Any], games: dict[str, engine.Game]) -> Callable[..., Any]:
    """A copy of a `with_game_options` callback whose game options and game choice are those of
    ``games`` (the original keeps the ones it was declared with)."""
    signature, generated = getattr(callback, GENERATED)
    fresh = types.FunctionType(callback.__code__, callback.__globals__, callback.__name__, callback.__defaults__,
                               callback.__closure__)
    fresh.__qualname__ = callback.__qualname__  # a method of its group: discord.py skips `self`
    fresh.__kwdefaults__ = callback.__kwdefaults__
    fresh.__signature__ = signature  # type: ignore[attr-defined]
    for name in DECORATIONS:
        kept = {key: value for key, value in getattr(callback, name, {}).items() if key not in generated}
        setattr(fresh, name, kept)
    with_game_options(fresh, games)
    getattr(fresh, DECORATIONS[1])["game"] = game_choices(games)
    return fresh


def offer_games(command: app_commands.Command[Any, ..., Any], games: dict[str, engine.Game]) -> None:
    """Make one of a group's own commands offer ``games``: the choices of its ``game`` parameter,
    and for `/game new` the options generated from their options models. The command is the
    group's copy (discord.py copies each command into the group it builds), so the commands of
    other groups, and of the module, are left as they were."""
    params = command._params  # discord.py keeps a command's parameters here (copied per group)
    callback = command.callback
    if hasattr(callback, GENERATED):
        fresh = _regenerated(callback, games)
        built = app_commands.Command(name=command.name, description=command.description, callback=fresh)._params
        from_games = {"game", *getattr(fresh, GENERATED)[1]}
        # A parameter that is no game option keeps the group's own (its autocomplete included).
        command._params = {name: param if name in from_games else params[name] for name, param in built.items()}
    elif "game" in params and params["game"].choices:
        choices = cast(list[app_commands.Choice[str | int | float]], game_choices(games))
        params["game"] = dataclasses.replace(params["game"], choices=choices)
