"""Tiny Epic Defenders state: plain pydantic data that round-trips through JSON exactly.

Hidden things (the Turn Deck order, the Horde, the caravan pile, face-down bosses, the skill and
artifact decks) live here like everything else; only views.py decides what anyone may see.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.clone import trusted
from engine.contract import State
from engine.kit.events import store_field

Mode = Literal["single", "campaign"]
Difficulty = Literal["easy", "normal", "hard", "epic"]
DIRE_BY_DIFFICULTY = {"easy": 1, "normal": 2, "hard": 3, "epic": 4}
CAPITAL_BY_DIFFICULTY = {"easy": 12, "normal": 10, "hard": 8, "epic": 7}
"""The Capital City's Destruction Level per difficulty (U1 is open; measured in benchmarks/defenders_balance.py)."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")

    __setattr__ = store_field


class DefendersOptions(Model):
    """Match options. Defaults are the project's decisions (docs/rules/defenders.md, U1-U23);
    those with a description are offered to a host, the rest are tuning for tests and tools."""

    mode: Mode = Field(default="single", description="game mode or variant")
    difficulty: Difficulty = Field(default="normal", description="how hard the horde pushes")
    capital_destruction: int | None = Field(default=None, ge=2, le=20)
    """The Capital City falls when its Threat reaches this (U1); None = by difficulty."""
    outer_max: int = Field(default=3, ge=1, le=6)
    """An Outer Region attacked at this level and not defended is Destroyed."""
    epic_hp: int = Field(default=10, ge=1, le=40)
    general_hp: int = Field(default=8, ge=1, le=40)
    defend_cost_enemy: int = Field(default=1, ge=0, le=4)
    defend_cost_dire: int = Field(default=2, ge=0, le=4)
    ap: int = Field(default=3, ge=1, le=6)
    ap_destroyed: int = Field(default=4, ge=1, le=8)
    start_enemies: int = Field(default=2, ge=0, le=9)
    """Enemy cards in the first Turn Deck (U8)."""
    horde_enemies: int = Field(default=1, ge=0, le=6)
    """Enemy cards in the Horde beside the Dire Enemies (U9)."""
    round_limit: int = Field(default=30, ge=2, le=200, description="end the match after this many rounds")
    """A battle still undecided after this many rounds is lost (the horde outlasts the realm)."""
    defenders: list[str] | None = None
    """Defender keys in seat order (solo: two); None deals them at random."""


    @property
    def destruction(self) -> int:
        return self.capital_destruction or CAPITAL_BY_DIFFICULTY[self.difficulty]


class Defender(Model):
    idx: int
    seat: int
    key: str
    region: str = "capital"
    hp: int
    xp: int = 0
    skills: list[str] = Field(default_factory=list)
    skill_offer: list[str] = Field(default_factory=list)
    """Setup: the two skills dealt; empty once one is kept."""
    artifacts: list[str] = Field(default_factory=list)
    used: list[str] = Field(default_factory=list)
    """Abilities used this Turn ("turn:<source>") or this round ("round:<source>")."""
    shield: bool = False
    death_tokens: int = 0
    riding: bool = False
    in_tree: bool = False
    moved_free: bool = False
    """The swift passive was spent this Turn."""
    took_turn: bool = False
    """Spent AP on the current card (a Turn has begun: Capital healing, own-turn skills)."""


class Region(Model):
    key: str
    pos: int
    war: bool = False
    side: Literal["A", "B", "hostile", "friendly"] = "A"
    threat: int = 0
    destroyed: bool = False
    caravans: int = 0
    wards: int = 0
    storm: bool = False
    fleet_die: bool = False


class Boss(Model):
    key: str
    kind: Literal["general", "epic"]
    hp: int
    max_hp: int
    region: str
    revealed: bool = False
    armor_soaked: list[int] = Field(default_factory=list)
    """The armour passive: whose Turn has had its first damage ignored already. On a Defender
    card that is the active Defender; on an All Defenders card each Defender acting has a Turn
    of their own (U14), so each gets its first damage soaked."""


AttackKind = Literal["enemy", "dire", "boss", "deserter", "war"]


class Attack(Model):
    region: str
    source: str
    """The attacker's name (shown to players)."""
    kind: AttackKind
    dire: str | None = None
    """The Dire Enemy key, for its artifact and its on-hit effect."""
    declined: list[int] = Field(default_factory=list)


class Active(Model):
    card: Literal["defender", "all"]
    defender: int | None = None
    ap: int
    passed: list[int] = Field(default_factory=list)
    focus: dict[str, int] = Field(default_factory=dict)
    """Seat -> the Defender whose actions a crowded prompt lists first."""
    pick: dict[str, Any] | None = None
    """A targeted ability waiting for its target: {"seat", "d", "src"}."""
    react_passed: dict[str, list[str]] = Field(default_factory=dict)
    """Seat -> the react option values it said "Not now" to. The prompt stays open for the
    whole Turn, marked answered while its options are still these (docs/rules/defenders.md)."""


def new_attack(region: str, source: str, kind: AttackKind, dire: str | None = None) -> Attack:
    """An attack as ``Attack(...)`` builds it, without validating again what the rules built
    (a card drawn queues one or two a round)."""
    return trusted(Attack, {"region": region, "source": source, "kind": kind, "dire": dire, "declined": []})


def new_active(card: Literal["defender", "all"], defender: int | None, ap: int) -> Active:
    """An AP card in play as ``Active(...)`` builds it, without validating again."""
    return trusted(Active, {"card": card, "defender": defender, "ap": ap, "passed": [], "focus": {}, "pick": None,
                            "react_passed": {}})


class DefendersState(State):
    __setattr__ = store_field

    options: DefendersOptions
    seats: int
    phase: Literal["setup", "play", "rebuild", "over"] = "setup"
    battle: int = 1
    round: int = 0
    defenders: list[Defender]
    regions: dict[str, Region]
    ring: list[str]
    capital_threat: int = 0
    capital_caravans: int = 0
    turn_deck: list[str] = Field(default_factory=list)
    """Top of the deck is the END of the list. Cards: d:<idx>, all, e:<key>, x:<key>, soldier, deserter."""
    discard: list[str] = Field(default_factory=list)
    horde: list[str] = Field(default_factory=list)
    leftover_enemies: list[str] = Field(default_factory=list)
    leftover_dire: list[str] = Field(default_factory=list)
    current: str | None = None
    boss: Boss
    bosses_ahead: list[str] = Field(default_factory=list)
    """Campaign: the face-down bosses of the battles still to come."""
    feed: int = 0
    """HP fed to a boss not yet revealed."""
    caravan_pile: list[str] = Field(default_factory=list)
    skill_deck: list[str] = Field(default_factory=list)
    artifact_deck: list[str] = Field(default_factory=list)
    war_hostile: str | None = None
    war_friendly: list[str] = Field(default_factory=list)
    war_unused: list[str] = Field(default_factory=list)
    fleet_dice: int = 3
    storms: int = 3
    tree: int | None = None
    manticore: str = "mountains"
    soldiers: int = 5
    death_tokens: int = 6
    active: Active | None = None
    attacks: list[Attack] = Field(default_factory=list)
    artifact_offer: dict[str, Any] | None = None
    """A won artifact waiting for its slot: {"d": idx, "key": artifact}."""
    ready: list[int] = Field(default_factory=list)
    """Rebuild: seats that are done."""
    trade_offer: dict[str, Any] | None = None
    """Rebuild: an Artifact trade waiting for the partner's answer:
    {"d": giver, "key": artifact given, "to": partner, "for": artifact asked or None}."""
    hexed: bool = False
    log: list[str] = Field(default_factory=list)
    won: bool | None = None
    reason: str = ""

    def of_seat(self, seat: int) -> list[Defender]:
        return [d for d in self.defenders if d.seat == seat]
