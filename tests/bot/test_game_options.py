"""`/game new`'s game options come from the games' options models: a described field is an
option with its type, bounds, choices and description; games sharing a field share one option."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Literal

import discord
import pytest
from discord import app_commands
from pydantic import BaseModel, Field

import engine
from bot.discord.commands import GameCommands
from bot.discord.game_options import game_options


class Castles(BaseModel):
    rounds: int = Field(default=8, ge=2, le=20, description="end the match after this many rounds")
    weather: Literal["dry", "wet"] = Field(default="dry", description="how muddy the fields are")
    mode: Literal["siege", "raid"] = Field(default="siege", description="game mode or variant")
    towers: int = 4


class Ships(BaseModel):
    rounds: int = Field(default=5, ge=1, le=12, description="end the match after this many rounds")
    mode: Literal["convoy"] = Field(default="convoy", description="game mode or variant")


def _games(*models: type[BaseModel]) -> dict[str, engine.Game]:
    return {model.__name__.lower(): SimpleNamespace(title=model.__name__, options_model=lambda model=model: model)
            for model in models}  # type: ignore[misc]


def test_described_fields_become_options_merged_by_name() -> None:
    options = {option.name: option for option in game_options(_games(Castles, Ships))}
    assert list(options) == ["rounds", "weather", "mode"], "an undescribed field is tuning, not offered"
    rounds = options["rounds"]
    assert (rounds.kind, rounds.minimum, rounds.maximum) == (int, 1, 20), "the widest bounds of both games"
    assert rounds.described() == "end the match after this many rounds"
    weather = options["weather"]
    assert weather.fixed() and weather.all_values() == ["dry", "wet"]
    assert weather.described() == "Castles: how muddy the fields are (default dry)"
    mode = options["mode"]
    assert not mode.fixed() and mode.values == {"castles": ("siege", "raid"), "ships": ("convoy",)}


def test_games_sharing_an_option_must_agree_on_it() -> None:
    class Other(BaseModel):
        rounds: float = Field(default=5.0, description="end the match after this many rounds")

    with pytest.raises(TypeError, match="other.rounds differs from the same option in castles"):
        game_options(_games(Castles, Other))


def test_an_overlong_description_is_refused() -> None:
    class Wordy(BaseModel):
        fog: Literal["on", "off"] = Field(default="off", description="x" * 90)

    with pytest.raises(ValueError, match="over 100 characters"):
        game_options(_games(Wordy))


def test_game_new_offers_every_shipped_games_options_within_discords_limits() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    command = GameCommands(None).to_dict(tree)  # type: ignore[arg-type]
    new = {option["name"]: option for option in next(o for o in command["options"] if o["name"] == "new")["options"]}
    assert len(new) <= 25, f"/game new has {len(new)} options; Discord allows 25"
    for key, game in engine.games().items():
        for name, field in game.options_model().model_fields.items():
            if field.description:
                assert field.description in new[name]["description"], (key, name)
    assert [choice["value"] for choice in new["difficulty"]["choices"]] == ["easy", "normal", "hard", "epic"]
    assert new["difficulty"]["description"] == "Tiny Epic Defenders: how hard the horde pushes (default normal)"
    assert (new["point_limit"]["min_value"], new["point_limit"]["max_value"]) == (10, 200)
    assert new["mode"].get("autocomplete") and "choices" not in new["mode"], "each game has its own modes"
