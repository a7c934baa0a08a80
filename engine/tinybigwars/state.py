"""Tiny Big Wars state: plain pydantic data that round-trips through JSON exactly.

Sealed (secret) answers live here too, in fields the views never copy out for other seats.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.contract import State
from engine.kit.events import store_field

Phase = Literal["force", "clan", "activation", "combat", "over"]

LOG_FIELD = "last_events"
"""The state's public log, as `engine.kit.emit` and `Flow.emit` name it (engine/kit/events.py)."""


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")

    __setattr__ = store_field


class Options(_M):
    """Match options chosen at creation (those with a description are offered to a host)."""

    point_limit: int = Field(default=30, ge=10, le=200,
                             description="clan force points, 20 starter, 30 standard, 40+ large")
    round_limit: int = Field(default=15, ge=1, le=100, description="end the match after this many rounds")
    to_win: int = Field(default=10, ge=1, le=100)


class Force(_M):
    """A clan's force: card ids picked at force building."""

    heroes: list[str] = Field(default_factory=list)
    minion_cards: list[str] = Field(default_factory=list)
    buildings: list[str] = Field(default_factory=list)
    points: int = 0


_HERO_MOVES = [0]
"""Bumped whenever any hero's location, seat or defeat is set: a hero index (`hero_index`)
built before is then built again."""
_PLACING_FIELDS = frozenset({"location", "seat", "defeated"})


def _set_hero_field(model: BaseModel, name: str, value: object) -> None:
    store_field(model, name, value)
    if name in _PLACING_FIELDS:
        _HERO_MOVES[0] += 1


class Hero(_M):
    __setattr__ = _set_hero_field

    id: str
    card: str
    seat: int
    location: str | None
    health: int
    energy: int = 0
    activated: bool = False
    defeated: bool = False
    shield_used: bool = False
    """Iron Monk: the first hit of the current fight was ignored."""


CARD_DEALS = [0]
"""Bumped whenever a location's card is set (setup deals them; tests deal them by hand): a
card lookup built before (engine/tinybigwars/board.py `loc_card`) is then built again."""


def _set_location_field(model: BaseModel, name: str, value: object) -> None:
    store_field(model, name, value)
    if name == "card":
        CARD_DEALS[0] += 1


class Location(_M):
    __setattr__ = _set_location_field

    id: str
    """Node id of the city map."""
    card: str
    """Location card dealt onto this node."""
    x: float
    y: float
    infrastructure: Literal["dojo", "market", "watchtower"] | None = None
    start_seat: int | None = None
    minions: list[int]
    """Minion count per seat."""
    held_by: int | None = None
    """While contested: the clan that held it when the fight began; it still defends here
    (its Watchtower die counts) in the refight at the end of the Hero Activation Phase."""


class Seat(_M):
    seat: int
    force: Force | None = None
    """Sealed until every force is in; afterwards the revealed force."""
    coins: int = 0
    activations: int = 0
    passed: bool = False
    clan_done: bool = False
    pending: Literal["recruit", "build"] | None = None
    """Clan Phase sub-prompt the seat opened."""
    pending_location: str | None = None
    eliminated: bool = False
    charters: list[Literal["dojo", "market", "watchtower"]] = Field(default_factory=list)
    """Infrastructure from the clan's Building card not placed yet (free, at any Clan Phase)."""


class Energy(_M):
    attack: int = 0
    guard: int = 0


class Combat(_M):
    """A fight in progress: dice are public once rolled, energy spends are sealed."""

    location: str
    seats: list[int]
    attacker: int | None
    """The seat whose move started the fight (None for the end-of-activation fights)."""
    dice: list[list[int]]
    """Rolled dice per participant, in ``seats`` order."""
    hits: list[int]
    """Hits from the roll (and sure hits) per participant, in ``seats`` order."""
    spend: list[Energy | None]
    """Sealed energy spends per participant; None = not chosen yet."""
    needs_spend: list[bool]
    damage_left: list[int] = Field(default_factory=list)
    """Hero damage still to place per participant once the spends are revealed."""
    stage: Literal["energy", "damage"] = "energy"


class Turn(_M):
    """The Hero Activation Phase cursor."""

    order: list[int] = Field(default_factory=list)
    index: int = 0
    hero: str | None = None
    """The hero being activated."""
    actions: int = 0
    free_move_used: bool = False
    move_to: str | None = None
    """Destination chosen, waiting for the escort count."""


_LAST_PLACES: list[tuple[list[Location], int, dict[str, Location]] | None] = [None]
"""The locations list looked up last, its length and its locations by id: a match keeps the
same list and the same Location objects all along (the rules change a location's fields,
never swap one location for another), so the dict stays right for as long as that list
object is the state's with the same length. One is kept, as for `hero_index`."""


_LAST_HERO_IDS: list[tuple[list[Hero], int, dict[str, Hero]] | None] = [None]
"""The heroes list looked up last, its length and its heroes by id: the rules only append
heroes to the list and never swap one for another (as for `HeroIndex`), and a hero's id never
changes."""


class TBWState(State):
    __setattr__ = store_field

    options: Options = Field(default_factory=Options)
    seats_n: int = 2
    map: str = "city2"
    round: int = 0
    phase: Phase = "force"
    locations: list[Location] = Field(default_factory=list)
    roads: list[tuple[str, str]] = Field(default_factory=list)
    seats: list[Seat] = Field(default_factory=list)
    heroes: list[Hero] = Field(default_factory=list)
    turn: Turn = Field(default_factory=Turn)
    combat: Combat | None = None
    end_fights: list[str] = Field(default_factory=list)
    """Locations still to fight at the end of the Hero Activation Phase."""
    after_combat: Literal["activation", "end_fights"] = "activation"
    last_events: list[str] = Field(default_factory=list)
    first_seat: int = 0
    """Drawn at setup: the seat that opens round 1 when influence is tied (the order rotates from it)."""
    winners: list[int] | None = None
    reason: str = ""
    draw: bool = False

    def loc(self, node: str) -> Location:
        """The location ``node`` (rules look locations up tens of times a choice)."""
        return places(self)[node]

    def hero(self, hero_id: str) -> Hero:
        """The hero ``hero_id`` (the first of that id, as a scan finds it)."""
        heroes = self.heroes
        last = _LAST_HERO_IDS[0]
        if last is None or last[0] is not heroes or last[1] != len(heroes):
            by_id: dict[str, Hero] = {}
            for h in heroes:
                by_id.setdefault(h.id, h)
            last = _LAST_HERO_IDS[0] = (heroes, len(heroes), by_id)
        found = last[2].get(hero_id)
        if found is None:
            raise KeyError(hero_id)
        return found

    def heroes_at(self, node: str, seat: int | None = None) -> list[Hero]:
        """The heroes standing at ``node`` (of ``seat`` only, when given), in ``heroes`` order."""
        here = hero_index(self).heroes.get(node)
        if here is None:
            return []
        return list(here) if seat is None else [h for h in here if h.seat == seat]

    def hero_clans(self, node: str) -> int:
        """How many clans have a hero standing at ``node``."""
        return len(hero_index(self).seats.get(node, ()))

    def live_heroes(self, seat: int) -> list[Hero]:
        return [h for h in self.heroes if h.seat == seat and not h.defeated]

    def present(self, node: str) -> list[int]:
        """Seats with any unit at ``node``."""
        minions = self.loc(node).minions
        with_heroes = hero_index(self).seats.get(node)
        if with_heroes is None:
            return [s for s in range(self.seats_n) if minions[s] > 0]
        return [s for s in range(self.seats_n) if minions[s] > 0 or s in with_heroes]

    def foes_at(self, node: str, seat: int) -> bool:
        """Whether a seat other than ``seat`` has any unit at ``node`` (`present` without its list)."""
        minions = self.loc(node).minions
        with_heroes = hero_index(self).seats.get(node, ())
        for other in range(self.seats_n):
            if other != seat and (minions[other] > 0 or other in with_heroes):
                return True
        return False

    def presence(self) -> dict[str, list[int]]:
        """Seats with units, for every location in one pass (cheaper than ``present`` per node)."""
        with_heroes = hero_index(self).seats
        seats = range(self.seats_n)
        out: dict[str, list[int]] = {}
        for loc in self.locations:
            # plain loops, not a comprehension per location (a function call each in 3.11)
            minions = loc.minions
            heroes = with_heroes.get(loc.id)
            here: list[int] = []
            if heroes is None:
                for seat in seats:
                    if minions[seat] > 0:
                        here.append(seat)
            else:
                for seat in seats:
                    if minions[seat] > 0 or seat in heroes:
                        here.append(seat)
            out[loc.id] = here
        return out

    def controller(self, node: str) -> int | None:
        """The only seat with units here; None when neutral or contested (`present` read
        without building its list: rules ask it several times a choice)."""
        minions = self.loc(node).minions
        with_heroes = hero_index(self).seats.get(node, ())
        found = None
        for seat in range(self.seats_n):
            if minions[seat] > 0 or seat in with_heroes:
                if found is not None:
                    return None
                found = seat
        return found

    def neighbours(self, node: str) -> list[str]:
        """Adjacent locations, in the order of ``locations``."""
        return list(topology(self).neighbours(node))


def places(state: TBWState) -> dict[str, Location]:
    """The locations of ``state`` by id (read it, never change it)."""
    locations = state.locations
    last = _LAST_PLACES[0]
    if last is None or last[0] is not locations or last[1] != len(locations):
        last = _LAST_PLACES[0] = (locations, len(locations), {loc.id: loc for loc in locations})
    return last[2]


class HeroIndex:
    """Where the heroes of one ``heroes`` list stand: derived from it, never stored (the state
    and its JSON are unchanged). Valid while that list object is the state's, has the same
    length and no hero has been placed, moved or defeated since (`_HERO_MOVES`): the rules only
    ever append heroes to the list or set these fields, never swap one hero for another in
    place. Rules ask who stands at a location tens of times a choice and would otherwise scan
    every hero."""

    __slots__ = ("source", "length", "moves", "heroes", "seats")

    def __init__(self, source: list[Hero]) -> None:
        self.source = source
        self.length = len(source)
        self.moves = _HERO_MOVES[0]
        self.heroes: dict[str, list[Hero]] = {}
        self.seats: dict[str, set[int]] = {}
        for hero in source:
            location = hero.location
            if location is not None and not hero.defeated:
                self.heroes.setdefault(location, []).append(hero)
                self.seats.setdefault(location, set()).add(hero.seat)


_LAST_HERO_INDEX: list[HeroIndex | None] = [None]
"""The index built last. One is kept, not one per state: a choice asks of one state many times
in a row, and a driver that copies the state every choice would otherwise keep every copy's
heroes alive."""


def hero_index(state: TBWState) -> HeroIndex:
    """The heroes of ``state`` by location (read it, never change it)."""
    source = state.heroes
    found = _LAST_HERO_INDEX[0]
    if found is None or found.source is not source or found.moves != _HERO_MOVES[0] or found.length != len(source):
        found = _LAST_HERO_INDEX[0] = HeroIndex(source)
    return found


class Topology:
    """A city's road graph: roads never change during a match, so it is worked out once per
    distinct map and shared by every state of every match on it."""

    def __init__(self, locations: tuple[str, ...], roads: tuple[tuple[str, str], ...]) -> None:
        self.locations = locations
        self.roads = roads
        self._neighbours: dict[str, tuple[str, ...]] = {}
        self._rings: dict[str, tuple[frozenset[str], frozenset[str]]] = {}

    def neighbours(self, node: str) -> tuple[str, ...]:
        found = self._neighbours.get(node)
        if found is None:
            out = {b for a, b in self.roads if a == node} | {a for a, b in self.roads if b == node}
            found = self._neighbours[node] = tuple(loc for loc in self.locations if loc in out)
        return found

    def rings(self, node: str) -> tuple[frozenset[str], frozenset[str]]:
        """The nodes one move from ``node`` and those exactly two moves away."""
        found = self._rings.get(node)
        if found is None:
            near = set(self.neighbours(node))
            far = {neighbour for n in near for neighbour in self.neighbours(n)} - near - {node}
            found = self._rings[node] = (frozenset(near), frozenset(far))
        return found


_TOPOLOGIES: dict[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], Topology] = {}
_MAX_TOPOLOGIES = 64
"""Shipped maps are few; tests build more. Past the bound the cache starts afresh."""


_LAST_TOPOLOGY: list[tuple[list[Location], list[tuple[str, str]], int, int, Topology] | None] = [None]
"""The graph found last, with the locations and roads lists it was found for and their lengths:
a match keeps the same two lists all along (an information state shares them), and the rules
never change them, so asking again of the same lists (same lengths) skips building the key."""


def topology(state: TBWState) -> Topology:
    """The road graph of ``state``'s city (looked up by its locations and roads)."""
    locations, roads = state.locations, state.roads
    last = _LAST_TOPOLOGY[0]
    if (last is not None and last[0] is locations and last[1] is roads and last[2] == len(locations)
            and last[3] == len(roads)):
        return last[4]
    key = (tuple(loc.id for loc in locations), tuple(roads))
    found = _TOPOLOGIES.get(key)
    if found is None:
        if len(_TOPOLOGIES) >= _MAX_TOPOLOGIES:
            _TOPOLOGIES.clear()
        found = _TOPOLOGIES[key] = Topology(*key)
    _LAST_TOPOLOGY[0] = (locations, roads, len(locations), len(roads), found)
    return found
