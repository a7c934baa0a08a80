"""Tiny Epic Defenders content: every card as validated data (engine/defenders/data/*.toml).

All names and texts are the project's own. Abilities are built from a small vocabulary of
effects (EFFECTS below, implemented once each in effects.py) with parameters, so a card is
data and every card's ability is exercised by the same tested code. A malformed file raises
ContentError naming the file and the field.
"""

from __future__ import annotations

from collections import Counter
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from engine.kit.content import data_folder, parse, read_toml
from engine.kit.errors import ContentError

DATA = data_folder(__file__)
TERRAINS = ("forest", "ruins", "mountains", "plains", "coast", "desert")

Effect = Literal[
    # activated (a Defender, an artifact, a skill or a region side)
    "heal", "secure", "secure_adjacent_all", "secure_capital", "strike", "dash", "rally",
    "ward", "scout", "shield", "summon", "haul", "draw_skill",
    # passive (a Defender or an artifact)
    "defend_discount", "ranged", "fight_bonus", "secure_bonus", "swift", "max_hp",
]
PASSIVE = {"defend_discount", "ranged", "fight_bonus", "secure_bonus", "swift", "max_hp"}
Scope = Literal["self", "here", "adjacent", "any", "all_here"]

OnHit = Literal["surge", "spread", "siege", "maul", "hex", "feed", "panic"]
RoundEffect = Literal["quake", "siege", "wither", "regrow", "hunt", "stalk"]
BossPassive = Literal["thorns", "fog", "armor", "dread", "frenzy", "tough"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ability(Model):
    name: str = Field(min_length=1, max_length=40)
    text: str = Field(min_length=1, max_length=160)
    effect: Effect
    amount: int = Field(default=1, ge=1, le=4)
    scope: Scope = "self"
    ap: int = Field(default=0, ge=0, le=3)
    xp: int = Field(default=0, ge=0, le=4)
    hp: int = Field(default=0, ge=0, le=2)
    limit: Literal["turn", "round", "none"] = "turn"
    """How often: once per Turn (regions, Defenders), once per round (artifacts), or freely."""
    own_turn: bool = True
    """Skills: False = usable during any Defender's turn."""

    @property
    def passive(self) -> bool:
        return self.effect in PASSIVE


class DefenderCard(Model):
    key: str
    name: str = Field(max_length=30)
    max_hp: int = Field(ge=3, le=6)
    ability: Ability
    expansion: bool = False


class ArtifactCard(Model):
    key: str
    name: str = Field(max_length=30)
    slot: Literal["hand", "back"]
    ability: Ability
    expansion: bool = False


class SkillCard(Model):
    key: str
    name: str = Field(max_length=30)
    ability: Ability


class EnemyCard(Model):
    key: str
    name: str = Field(max_length=30)
    regions: list[str] = Field(min_length=2, max_length=2)


class DireCard(Model):
    key: str
    name: str = Field(max_length=30)
    region: str
    on_hit: OnHit
    amount: int = Field(default=1, ge=1, le=3)
    text: str = Field(max_length=160)
    expansion: bool = False


class BossCard(Model):
    key: str
    name: str = Field(max_length=30)
    region: str
    hp_bonus: int = Field(default=0, ge=0, le=4)
    round_effect: RoundEffect
    round_text: str = Field(max_length=160)
    passive: BossPassive
    passive_text: str = Field(max_length=160)
    expansion: bool = False


class RegionSide(Model):
    ability: Ability


class OuterRegion(Model):
    key: str
    name: str = Field(max_length=30)
    terrain: str
    a: RegionSide
    b: RegionSide


class WarRegion(Model):
    key: str
    name: str = Field(max_length=30)
    terrain: str
    component: str
    hostile_name: str = Field(max_length=40)
    hostile_text: str = Field(max_length=200)
    friendly_name: str = Field(max_length=40)
    friendly_text: str = Field(max_length=200)


class Capital(Model):
    name: str
    rest_text: str
    ability: Ability


class Content(Model):
    capital: Capital
    regions: list[OuterRegion]
    war_regions: list[WarRegion]
    defenders: list[DefenderCard]
    artifacts: list[ArtifactCard]
    skills: list[SkillCard]
    enemies: list[EnemyCard]
    dire: list[DireCard]
    epic_foes: list[BossCard]
    generals: list[BossCard]

    # Cards by key, worked out once (content is frozen, read once): rules and the heuristic
    # look cards up tens of times a choice.

    @cached_property
    def _defenders(self) -> dict[str, DefenderCard]:
        return _index(self.defenders)

    @cached_property
    def _artifacts(self) -> dict[str, ArtifactCard]:
        return _index(self.artifacts)

    @cached_property
    def _skills(self) -> dict[str, SkillCard]:
        return _index(self.skills)

    @cached_property
    def _enemies(self) -> dict[str, EnemyCard]:
        return _index(self.enemies)

    @cached_property
    def _dire(self) -> dict[str, DireCard]:
        return _index(self.dire)

    @cached_property
    def _bosses(self) -> dict[str, BossCard]:
        """Generals first: a key naming both would be the general's, as before."""
        return {**_index(self.epic_foes), **_index(self.generals)}

    @cached_property
    def _regions(self) -> dict[str, OuterRegion]:
        return {region.terrain: region for region in reversed(self.regions)}

    @cached_property
    def _war_regions(self) -> dict[str, WarRegion]:
        return {region.terrain: region for region in reversed(self.war_regions)}

    def defender(self, key: str) -> DefenderCard:
        return self._defenders[key]

    def artifact(self, key: str) -> ArtifactCard:
        return self._artifacts[key]

    def skill(self, key: str) -> SkillCard:
        return self._skills[key]

    def enemy(self, key: str) -> EnemyCard:
        return self._enemies[key]

    def dire_card(self, key: str) -> DireCard:
        return self._dire[key]

    def boss(self, key: str) -> BossCard:
        return self._bosses[key]

    def region(self, terrain: str) -> OuterRegion:
        return self._regions[terrain]

    def war_region(self, terrain: str) -> WarRegion:
        return self._war_regions[terrain]


class Keyed(Protocol):
    """A card looked up by its key."""

    @property
    def key(self) -> str: ...


KeyedT = TypeVar("KeyedT", bound=Keyed)

_INDEXES: dict[int, tuple[list[Any], dict[str, Any]]] = {}
"""id(card list) -> (that list, its cards by key): rules look cards up tens of times a choice."""


def _index(cards: list[KeyedT]) -> dict[str, KeyedT]:
    """``cards`` by key, worked out once per card list (content is frozen, read once; the list
    is kept beside its index so that a recycled id is never mistaken for it)."""
    found = _INDEXES.get(id(cards))
    if found is not None and found[0] is cards:
        return found[1]
    index = {card.key: card for card in cards}
    _INDEXES[id(cards)] = (cards, index)
    return index


# The expansion's component counts (rulebook: 6 Generals, 6 Epic Foe cards, 6 Dire Enemy cards,
# 4 Artifacts, 5 player cards, 12 Skills, 6 War Regions) on top of the base game's 10 Defenders,
# 10 Artifacts, 9 Enemies, 6 Dire Enemies and 6 Epic Foes.
COUNTS = {
    "defenders": 15, "artifacts": 14, "skills": 12, "enemies": 9, "dire": 12,
    "epic_foes": 12, "generals": 6, "regions": 6, "war_regions": 6,
}
EXPANSION_COUNTS = {"defenders": 5, "artifacts": 4, "dire": 6, "epic_foes": 6}
COMPONENTS = {"coast": "fleet dice", "desert": "storm tokens", "forest": "Great Tree",
              "mountains": "Manticore", "plains": "soldier cards", "ruins": "death tokens"}


def check(data: Content, name: str) -> None:
    def fail(field: str, msg: str) -> ContentError:
        return ContentError(f"{name}: field '{field}': {msg}")

    for group, want in COUNTS.items():
        have = len(getattr(data, group))
        if have != want:
            raise fail(group, f"needs {want} cards, has {have}")
    for group, want in EXPANSION_COUNTS.items():
        have = sum(c.expansion for c in getattr(data, group))
        if have != want:
            raise fail(group, f"needs {want} Dark War cards, has {have}")
    keys = Counter(c.key for pile in COUNTS for c in getattr(data, pile) if pile not in ("regions", "war_regions"))
    dup = sorted(key for key, n in keys.items() if n > 1)
    if dup:
        raise fail("key", f"duplicate keys {dup}")
    names = Counter(c.name for pile in COUNTS for c in getattr(data, pile))
    dup = sorted(key for key, n in names.items() if n > 1)
    if dup:
        raise fail("name", f"duplicate names {dup}")
    for group in ("regions", "war_regions"):
        terr = sorted(r.terrain for r in getattr(data, group))
        if terr != sorted(TERRAINS):
            raise fail(f"{group}.terrain", f"needs each of {TERRAINS} once, has {terr}")
        for r in getattr(data, group):
            if r.key != r.terrain:
                raise fail(f"{group}.key", f"{r.key!r} must equal its terrain")
    for w in data.war_regions:
        if w.component != COMPONENTS[w.terrain]:
            raise fail("war_regions.component", f"{w.terrain} holds the {COMPONENTS[w.terrain]}")
    seen: Counter[str] = Counter()
    for n, e in enumerate(data.enemies):
        for r in e.regions:
            if r not in TERRAINS:
                raise fail(f"enemies.{n}.regions", f"unknown region {r!r}")
            seen[r] += 1
        if e.regions[0] == e.regions[1]:
            raise fail(f"enemies.{n}.regions", "an Enemy attacks two different regions")
    if any(seen[t] != 3 for t in TERRAINS):
        raise fail("enemies.regions", f"each region must be attacked by exactly 3 Enemies: {dict(seen)}")
    for group in ("dire", "epic_foes", "generals"):
        for n, c in enumerate(getattr(data, group)):
            if c.region not in TERRAINS:
                raise fail(f"{group}.{n}.region", f"unknown region {c.region!r}")
    for n, s in enumerate(data.skills):
        if s.ability.passive or s.ability.xp < 1 or s.ability.ap:
            raise fail(f"skills.{n}.ability", "a skill is an activated ability paid with 1 to 4 XP")
    for n, a in enumerate(data.artifacts):
        if a.ability.xp:
            raise fail(f"artifacts.{n}.ability", "artifacts are not paid with XP")
    for n, r in enumerate(data.regions):
        for side in (r.a, r.b):
            if side.ability.passive:
                raise fail(f"regions.{n}", "a region ability is activated")


def load(path: Path | None = None) -> Content:
    path = path or DATA / "cards.toml"
    data = parse(Content, read_toml(path), path)
    check(data, path.name)
    return data


@cache
def content() -> Content:
    return load()
