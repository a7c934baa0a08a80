"""Samurai Swords content: the map, the unit table and the LWTV event deck, validated at load.

Content is data (engine/samurai/data/*), never hard-coded in the rules. A malformed file
raises ContentError naming the file and the field, so a map edit fails loudly at import.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.kit.content import data_folder, parse, read_json, read_toml
from engine.kit.errors import ContentError

DATA = data_folder(__file__)


class Province(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    region: str
    lat: float
    lon: float
    geo_x: float
    geo_y: float
    x: float
    y: float
    coastal: bool
    land: list[str]
    sea: list[str]


class MapData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    canvas: list[int]
    projection: str
    regions: list[str]
    provinces: list[Province]

    @property
    def ids(self) -> list[str]:
        return [p.id for p in self.provinces]

    def by_id(self) -> dict[str, Province]:
        return {p.id: p for p in self.provinces}


class UnitSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    value: int = Field(ge=1, le=12)
    step: Literal["ranged", "melee"]
    slot: Literal["samurai", "ashigaru", "leader", "none"]
    cost: int = Field(ge=0)
    supply: int = Field(ge=0)
    casualty_rank: int


class FortSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    defenders: int = Field(ge=0)
    defender_value: int = Field(ge=1, le=12)
    supply: int = Field(ge=0)


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    garrison: int
    army_samurai: int
    army_ashigaru: int
    max_level: int
    setup_spearmen_per_province: int


class UnitTable(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    units: dict[str, UnitSpec]
    fortifications: dict[str, FortSpec]
    limits: Limits


class EventCard(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    title: str = Field(max_length=60)
    text: str = Field(max_length=200)
    kind: Literal["immediate", "objective"]
    effect: Literal["koku", "spearmen", "castle", "experience", "storm", "desertion"] | None = None
    condition: Literal["province", "region", "fortifications", "armies", "provinces"] | None = None
    amount: int = 0
    region: str | None = None
    province: str | None = None
    vp: int = 0
    penalty: int = 0


class EventDeck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    cards: list[EventCard]


REGULAR = ("spearman", "gunner", "swordsman", "bowman")
"""Unit kinds that can be levied and stand in garrisons and armies (besides the daimyo)."""


def check_map(data: MapData, path: Path) -> None:
    """Every reference known, every border listed from both sides, one connected graph."""
    ids = data.ids
    if len(ids) != len(set(ids)):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise ContentError(f"{path.name}: field 'provinces.id': duplicate ids {dup}")
    known = set(ids)
    by_id = data.by_id()
    for n, prov in enumerate(data.provinces):
        if prov.region not in data.regions:
            raise ContentError(f"{path.name}: field 'provinces.{n}.region': unknown region {prov.region!r}")
        for kind in ("land", "sea"):
            for other in getattr(prov, kind):
                if other not in known:
                    raise ContentError(f"{path.name}: field 'provinces.{n}.{kind}': unknown province {other!r}")
                if other == prov.id:
                    raise ContentError(f"{path.name}: field 'provinces.{n}.{kind}': {prov.id} borders itself")
                if prov.id not in getattr(by_id[other], kind):
                    raise ContentError(
                        f"{path.name}: field 'provinces.{n}.{kind}': {prov.id} lists {other} "
                        f"but {other} does not list {prov.id}"
                    )
    seen = {ids[0]}
    queue = deque([ids[0]])
    while queue:
        cur = by_id[queue.popleft()]
        for other in (*cur.land, *cur.sea):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    if len(seen) != len(ids):
        cut = sorted(known - seen)[:5]
        raise ContentError(f"{path.name}: field 'provinces': the map is not connected (unreachable: {cut})")


def load_map(path: Path | None = None) -> MapData:
    path = path or DATA / "map.json"
    data = parse(MapData, read_json(path), path)
    check_map(data, path)
    return data


def load_units(path: Path | None = None) -> UnitTable:
    path = path or DATA / "units.toml"
    return parse(UnitTable, read_toml(path), path)


def load_events(path: Path | None = None, provinces: set[str] | None = None,
                regions: set[str] | None = None) -> EventDeck:
    path = path or DATA / "events.toml"
    deck = parse(EventDeck, read_toml(path), path)
    ids = [c.id for c in deck.cards]
    if len(ids) != len(set(ids)):
        raise ContentError(f"{path.name}: field 'cards.id': duplicate card ids")
    for n, card in enumerate(deck.cards):
        if card.kind == "immediate" and card.effect is None:
            raise ContentError(f"{path.name}: field 'cards.{n}.effect': an immediate card needs an effect")
        if card.kind == "objective" and card.condition is None:
            raise ContentError(f"{path.name}: field 'cards.{n}.condition': an objective card needs a condition")
        if provinces is not None and card.province is not None and card.province not in provinces:
            raise ContentError(f"{path.name}: field 'cards.{n}.province': unknown province {card.province!r}")
        if regions is not None and card.region is not None and card.region not in regions:
            raise ContentError(f"{path.name}: field 'cards.{n}.region': unknown region {card.region!r}")
        if card.condition in ("province",) and card.province is None:
            raise ContentError(f"{path.name}: field 'cards.{n}.province': this condition needs a province")
        if (card.condition == "region" or card.effect == "storm") and card.region is None:
            raise ContentError(f"{path.name}: field 'cards.{n}.region': this card needs a region")
    return deck


class Content:
    """Everything static a match needs, with the derived adjacency tables."""

    def __init__(self) -> None:
        self.map = load_map()
        self.units = load_units()
        self.provinces = self.map.by_id()
        self.events = load_events(regions=set(self.map.regions), provinces=set(self.provinces))
        self.cards = {c.id: c for c in self.events.cards}
        self.land = {p.id: tuple(p.land) for p in self.map.provinces}
        self.sea = {p.id: tuple(p.sea) for p in self.map.provinces}
        self.adj = {p.id: tuple(sorted({*p.land, *p.sea})) for p in self.map.provinces}
        self.region_of = {p.id: p.region for p in self.map.provinces}
        self.order = {pid: n for n, pid in enumerate(self.map.ids)}
        self.names = {p.id: p.name for p in self.map.provinces}
        self.sea_only = {a: frozenset(b for b in lanes if b not in self.land[a]) for a, lanes in self.sea.items()}
        """Per province, the neighbours an attack from it reaches only by sea (`is_sea`), for a
        caller asking of many targets from one source."""

    def name(self, pid: str) -> str:
        return self.names[pid]

    def is_sea(self, a: str, b: str) -> bool:
        """An attack is naval when the two provinces share only a sea lane."""
        return b in self.sea_only[a]


@cache
def content() -> Content:
    return Content()
