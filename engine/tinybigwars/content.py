"""Tiny Big Wars content: cards and city maps read from data/*.toml and validated at load.

Content is data so designers can tune it without touching rules; a malformed file fails
loudly at import with the file and field named, never mid-match.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.kit.content import data_folder, parse, read_toml
from engine.kit.errors import ContentError

DATA_DIR = data_folder(__file__)

HeroAbility = Literal[
    "attack_die",
    "ignore_first_hit",
    "three_actions",
    "train_heal_extra",
    "auto_hit",
    "defend_die",
    "rally",
    "free_first_move",
    "six_three_hits",
    "mend_after_fight",
    "clan_coin",
    "double_energy",
]
LocationAbility = Literal[
    "train_health_2",
    "train_energy_2",
    "train_both",
    "recruit_double",
    "build_discount",
    "clan_energy",
    "hero_coin",
    "hero_influence",
    "clan_heal",
    "free_minion",
    "extra_action",
    "free_move_in",
    "free_move_out",
    "rest_end",
    "recruit_no_hero",
]
Infrastructure = Literal["dojo", "market", "watchtower"]


class _Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,19}$")
    name: str = Field(min_length=1, max_length=40)


class HeroCard(_Card):
    power: int = Field(ge=0, le=8)
    health: int = Field(ge=1, le=12)
    max_energy: int = Field(ge=0, le=8)
    cost: int = Field(ge=1, le=40)
    miniatures: int = Field(ge=1, le=3)
    ability: HeroAbility
    text: str = Field(min_length=1, max_length=100)


class MinionCard(_Card):
    cost: int = Field(ge=1, le=40)
    count: int = Field(ge=1, le=20)


class BuildingCard(_Card):
    cost: int = Field(ge=1, le=40)
    miniatures: int = Field(ge=1, le=3)
    infrastructure: Infrastructure
    text: str = Field(min_length=1, max_length=100)


class LocationCard(_Card):
    coin: int = Field(ge=0, le=5)
    influence: int = Field(ge=0, le=5)
    ability: LocationAbility
    text: str = Field(min_length=1, max_length=100)


class MapNode(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9]{0,9}$")
    x: float = Field(ge=0, le=1)
    y: float = Field(ge=0, le=1)


class CityMap(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    players: int = Field(ge=2, le=4)
    starts: list[str]
    roads: list[tuple[str, str]]
    nodes: list[MapNode]

    def neighbours(self, node: str) -> list[str]:
        out = [b for a, b in self.roads if a == node] + [a for a, b in self.roads if b == node]
        order = [n.id for n in self.nodes]
        return sorted(set(out), key=order.index)


class Content(BaseModel):
    model_config = ConfigDict(frozen=True)

    heroes: dict[str, HeroCard]
    minions: dict[str, MinionCard]
    buildings: dict[str, BuildingCard]
    locations: dict[str, LocationCard]
    maps: dict[int, CityMap]

    def card_name(self, card: str) -> str:
        for table in (self.heroes, self.minions, self.buildings, self.locations):
            if card in table:
                return table[card].name
        return card


def _cards(path: Path, table: str, model: type[BaseModel]) -> dict:
    raw = read_toml(path).get(table)
    if not isinstance(raw, list) or not raw:
        raise ContentError(f"{path.name}: needs at least one [[{table}]] entry")
    out: dict = {}
    for i, entry in enumerate(raw):
        card = parse(model, entry, path, entry=f"{table}[{i}]")
        if card.id in out:  # type: ignore[attr-defined]
            raise ContentError(f"{path.name}: {table}[{i}].id: duplicate id {card.id!r}")  # type: ignore[attr-defined]
        out[card.id] = card  # type: ignore[attr-defined]
    return out


def _check_map(path: Path, i: int, city: CityMap, n_locations: int) -> None:
    where = f"{path.name}: map[{i}]"
    ids = [n.id for n in city.nodes]
    if len(set(ids)) != len(ids):
        raise ContentError(f"{where}.nodes: duplicate node id")
    if len(ids) > n_locations:
        raise ContentError(f"{where}.nodes: {len(ids)} nodes but only {n_locations} location cards")
    if len(city.starts) != city.players or len(set(city.starts)) != city.players:
        raise ContentError(f"{where}.starts: needs {city.players} distinct start nodes")
    for s in city.starts:
        if s not in ids:
            raise ContentError(f"{where}.starts: unknown node {s!r}")
    for a, b in city.roads:
        if a not in ids or b not in ids or a == b:
            raise ContentError(f"{where}.roads: bad road {a!r}-{b!r}")
    seen, todo = {ids[0]}, [ids[0]]
    while todo:
        for nxt in city.neighbours(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    if len(seen) != len(ids):
        raise ContentError(f"{where}.roads: the city is not connected")
    for node in ids:
        if len(city.neighbours(node)) > 20:
            raise ContentError(f"{where}.roads: node {node!r} has too many roads for one prompt")


def load_content(data_dir: Path | str = DATA_DIR) -> Content:
    """Read and validate every content file of ``data_dir``."""
    d = Path(data_dir)
    heroes = _cards(d / "heroes.toml", "hero", HeroCard)
    minions = _cards(d / "minions.toml", "minion", MinionCard)
    buildings = _cards(d / "buildings.toml", "building", BuildingCard)
    locations = _cards(d / "locations.toml", "location", LocationCard)
    ids = [*heroes, *minions, *buildings]
    if len(set(ids)) != len(ids):
        raise ContentError("heroes.toml/minions.toml/buildings.toml: card ids must be unique across files")
    if len(ids) > 25:
        raise ContentError("heroes.toml/minions.toml/buildings.toml: more than 25 force cards do not fit one prompt")
    maps_path = d / "maps.toml"
    maps = _cards(maps_path, "map", CityMap)
    by_players: dict[int, CityMap] = {}
    for i, city in enumerate(maps.values()):
        _check_map(maps_path, i, city, len(locations))
        by_players[city.players] = city
    for players in (2, 3, 4):
        if players not in by_players:
            raise ContentError(f"{maps_path.name}: no map for {players} players")
    return Content(heroes=heroes, minions=minions, buildings=buildings, locations=locations, maps=by_players)


@cache
def content() -> Content:
    """The shipped content, loaded once."""
    return load_content()
