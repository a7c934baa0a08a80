"""Samurai Swords state: plain pydantic data that round-trips through JSON exactly.

Secret things (sealed plans, levy and ronin drafts, army compositions, hidden ronin) live
here like everything else; only views.py decides who may see them.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.contract import State

Mode = Literal["base", "quickstart", "lwtv"]


Stage = Literal["naval", "ranged", "melee", "decide"]
"""A battle's next combat step ("decide": a round is over, the attacker may call off)."""


def _field_setter(cls: type[BaseModel]) -> Callable[[BaseModel, str, object], None]:
    """The ``__setattr__`` of a Samurai model class: a field is set as pydantic sets it for these
    models (no assignment validation, not frozen: store it and mark it set), without pydantic's
    per-call dispatch; the rules set fields several times a choice. A field that places armies
    (`_PLACING`: an army's place or life, a player's armies, the state's players) also makes the
    army indexes stale. Anything else goes through pydantic. The field names are read once per
    class (``__pydantic_fields__`` goes through pydantic's metaclass and costs more than a set).

    This is the class's own ``__setattr__``, so the kit's `engine.kit.events.set_field` cannot
    serve: it hands a class with its own ``__setattr__`` back to that ``__setattr__``."""
    fields = frozenset(cls.model_fields)
    placing = _PLACING.get(cls.__name__, frozenset())
    moves = _ARMY_MOVES

    def set_field(model: BaseModel, name: str, value: object) -> None:
        if name in fields:
            model.__dict__[name] = value
            model.__pydantic_fields_set__.add(name)
            if name in placing:
                moves[0] += 1
        else:
            BaseModel.__setattr__(model, name, value)

    return set_field


_PLACING = {"Army": frozenset(("location", "alive")), "Player": frozenset(("armies",)),
            "SamuraiState": frozenset(("players",))}
"""Per model class, the fields whose new value may change where armies stand."""
_ARMY_MOVES = [0]
"""Bumped whenever an army's place or life is set, an army or a player is made or a player's
armies are set: an army index (`army_index`) built before is then built again."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Each model class sets its fields through its own `_field_setter`, unless it declares
        a setter of its own (a province keeps the owner indexes)."""
        super().__pydantic_init_subclass__(**kwargs)
        if "__setattr__" not in cls.__dict__:
            cls.__setattr__ = _field_setter(cls)  # type: ignore[method-assign, assignment]


EDITION_1_KEYS = frozenset({"mode", "round_limit", "levy_costs", "provinces_to_win", "setup", "steps"})
"""Every option a match stored before editions existed holds (the store keeps the full dump)."""


class SamuraiOptions(Model):
    """Match options. Costs and supplies default to the project's decisions (rules/README.md);
    those with a description are offered to a host, the rest are tuning for tests and tools."""

    @model_validator(mode="before")
    @classmethod
    def legacy_edition(cls, data: Any) -> Any:
        """A stored dump of every option but the edition was written before editions
        existed: edition 1. A new match's options name a few options, never all of them."""
        if isinstance(data, dict) and "edition" not in data and data.keys() >= EDITION_1_KEYS:
            return {**data, "edition": 1}
        return data

    mode: Mode = Field(default="base", description="game mode or variant")
    round_limit: int | None = Field(default=None, ge=1, description="end the match after this many rounds")
    """Stop after this many rounds: most provinces wins (LWTV: most VP)."""
    levy_costs: dict[str, int] = Field(
        default_factory=lambda: {"spearman": 1, "gunner": 2, "swordsman": 2, "bowman": 3}
    )
    provinces_to_win: int = Field(default=35, ge=1, le=68)
    setup: Literal["simultaneous", "classic"] = Field(
        default="simultaneous", description="sealed placements at once, or in turns")
    """How setup placements are made: all players at once, sealed (claims first in Quick Start
    and LWTV), or the rulebook's turns in sword order."""
    steps: Literal["combined", "classic"] = Field(
        default="combined", description="swords and muster sealed together, or one by one")
    """How Actions 2-6 wait for the players: sealed sword wishes and one sealed muster (build,
    levy, placement, ronin) per player, or the player aid's separate steps."""
    edition: int = Field(default=2, ge=1, le=2)
    """The edition of the project's rules a match was started under: 2 holds the LWTV hand
    limit at every moment and keeps standing losses orders (issue 28); 1 checked the hand
    limit only when an objective card was drawn and asked every defender. Options stored
    before the edition existed read as 1 (see `legacy_edition`), so a stored match replays
    under the rules it was played with."""
    losses: Literal["standing", "asked"] = Field(
        default="standing", description="losses by standing orders, or asked each battle")
    """How a defender's losses are chosen: by the standing order each player keeps in his
    sealed muster (the game does not wait for him in another player's battle), or asked in the
    battle after each combat step. "standing" needs the combined steps (the muster holds the
    order); with steps="classic" losses are asked."""


def no_units() -> dict[str, int]:
    return {"spearman": 0, "gunner": 0, "swordsman": 0, "bowman": 0}


class Plan(Model):
    """The five planning bins. Build holds 0 or 2."""

    swords: int = 0
    build: int = 0
    levy: int = 0
    ronin: int = 0
    ninja: int = 0

    def total(self) -> int:
        return self.swords + self.build + self.levy + self.ronin + self.ninja


class Army(Model):
    def model_post_init(self, context: Any, /) -> None:
        """An army made anew may change where armies stand."""
        _ARMY_MOVES[0] += 1

    idx: int
    alive: bool = True
    location: str | None = None
    level: int = 1
    units: dict[str, int] = Field(default_factory=no_units)
    ronin: int = 0
    ronin_revealed: bool = False
    assassinated: bool = False
    moves_left: int = 0
    attacks_used: int = 0
    won: bool = False


class Player(Model):
    def model_post_init(self, context: Any, /) -> None:
        """A player made anew may change where armies stand."""
        _ARMY_MOVES[0] += 1

    seat: int
    koku: int = 0
    plan: Plan | None = None
    """The locked plan of this round (public once every plan is in)."""
    draft: dict[str, Any] = Field(default_factory=dict)
    """This seat's open secret choice (sealed plan, levy draft, army screen draft...)."""
    tray: dict[str, int] = Field(default_factory=dict)
    armies: list[Army] = Field(default_factory=list)
    eliminated: bool = False
    armies_destroyed: int = 0
    """Enemy armies this player eliminated (an LWTV victory point each)."""
    hand: list[str] = Field(default_factory=list)
    sword: int | None = None
    levied: dict[str, int] = Field(default_factory=no_units)
    ronin_hired: int = 0
    losses_order: list[str] = Field(default_factory=list)
    """The standing order in which this player's units fall when he defends (every kind of
    casualties.LOSS_KINDS once); empty: he is asked in each battle."""




_OWNER_SETS = [0]
"""Bumped whenever a province's owner is set or a province is made: an owner index
(`owner_index`) built before is then built again."""
_RONIN_SETS = [0]
"""Bumped whenever a province's ronin change: `holds_ronin` answers again."""


def _set_prov_field(model: BaseModel, name: str, value: object) -> None:
    """Setting a field as pydantic does for these models (no assignment validation, not
    frozen: store it and mark it set) in one call; a new owner is also put into the owner
    indexes kept (`_OWNER_INDEXES`), or they are built again."""
    if name not in _PROV_FIELDS:
        BaseModel.__setattr__(model, name, value)
        return
    values = model.__dict__
    old = values.get(name)
    values[name] = value
    model.__pydantic_fields_set__.add(name)
    if name == "owner" and old != value:
        current = _OWNER_SETS[0]
        kept = [index for index in _OWNER_INDEXES if index.sets == current and index.move(model, old, value)]
        _OWNER_SETS[0] = current + 1
        for index in kept:
            index.sets = current + 1
    elif name == "ronin" and old != value:
        _RONIN_SETS[0] += 1


class Prov(Model):
    __setattr__ = _set_prov_field

    def model_post_init(self, context: Any, /) -> None:
        """A province made anew (setup puts some in place of others) may change the owners."""
        _OWNER_SETS[0] += 1

    owner: int | None = None
    garrison: dict[str, int] = Field(default_factory=no_units)
    ronin: int = 0
    ronin_revealed: bool = False
    fort: int = 0
    """0 none, 1 castle, 2 fortress."""
    neutral: bool = False
    """LWTV: an unowned fortress held by neutral ronin."""


_PROV_FIELDS = frozenset(Prov.model_fields)


class Task(Model):
    """One sequential decision owed by one seat (setup placements, swords, builds)."""

    seat: int
    task: Literal["spear", "claim", "deploy", "sword", "build"]


class Declaration(Model):
    source: str
    force: Literal["army", "garrison"]
    army: int | None = None
    target: str
    count: int | None = None
    """Garrison attacks: how many units go (None = all that may)."""
    units: dict[str, int] | None = None
    """Garrison attacks: the units that go by kind, ronin included (None = the default force)."""


class PendingLosses(Model):
    """A combat step whose dice are rolled and whose losses wait for their owners' choices.

    Both sides roll at once and then both remove losses, so the step stays half resolved
    until every owner with a real choice has answered (sealed, like the other simultaneous
    choices)."""

    step: Literal["naval", "ranged", "melee"]
    hits: dict[str, int] = Field(default_factory=dict)
    """Hits each side takes: "attack" (the attacker's units) and "defence"."""
    owed: dict[str, int] = Field(default_factory=dict)
    """Side -> the seat that chooses that side's losses."""
    chosen: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Side -> losses by kind, once its owner has chosen (sealed until all owed are in)."""


class Battle(Model):
    target: str
    attacker: int
    defender: int | None
    naval: bool
    army: int | None = None
    """The attacker's army index taking part, if any."""
    army_source: str | None = None
    gforce: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Garrison units attacking, by the province they came from."""
    fort_left: int = 0
    fort_value: int = 0
    rounds: int = 0
    fight_on: bool = False
    chained: bool = False
    stage: Stage = "ranged"
    """The next combat step; "decide" = a round is over and the attacker may call off."""
    pending: PendingLosses | None = None


class Interrupt(Model):
    """A decision that must be taken before the phase machine continues."""

    seat: int
    kind: Literal["ninja", "counter", "rebuild", "discard"]
    data: dict[str, Any] = Field(default_factory=dict)


class War(Model):
    order_pos: int = 0
    sub: Literal["A", "B", "C", "D"] = "A"
    ninja_passed: int | None = None
    """The turn (order position) in which the ninja's holder passed on his standing offer."""
    sel: dict[str, Any] = Field(default_factory=dict)
    """A half-made selection (which army or garrison is moving or attacking)."""
    declarations: list[Declaration] = Field(default_factory=list)
    battle: Battle | None = None
    chain_army: int | None = None
    d_moved: list[str] = Field(default_factory=list)
    """Phase D: provinces whose garrison moved out or received units."""
    d_garrisons: bool = False
    """Phase D: garrison moves have started, so armies may no longer move."""


class SamuraiState(State):

    options: SamuraiOptions = Field(default_factory=SamuraiOptions)
    seats: int = 3
    round: int = 0
    phase: str = "setup"
    players: list[Player] = Field(default_factory=list)
    provinces: dict[str, Prov] = Field(default_factory=dict)
    order: list[int] = Field(default_factory=list)
    """Turn order, sword 1 first."""
    queue: list[Task] = Field(default_factory=list)
    interrupts: list[Interrupt] = Field(default_factory=list)
    nav: dict[str, str] = Field(default_factory=dict)
    """Per seat (str key) the region a long province list is narrowed to."""
    castles: int = 10
    bases: int = 5
    ronin_pool: int = 26
    ninja: int | None = None
    """Seat holding the ninja, if any."""
    ninja_fresh: bool = False
    """True from hiring until the next Plan ends (the spy can act then)."""
    sword_bidders: list[int] = Field(default_factory=list)
    war: War | None = None
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    end_round: int | None = None
    """LWTV: the last round, set once the first player is eliminated."""
    winners: list[int] | None = None
    reason: str = ""
    scores: dict[str, int] = Field(default_factory=dict)
    log: list[str] = Field(default_factory=list)
    """The latest public event lines (for the view header)."""


SamuraiState.__setattr__ = _field_setter(SamuraiState)  # type: ignore[method-assign, assignment]


class OwnerIndex:
    """The provinces of one ``provinces`` dict by owner, in the dict's order: derived from it,
    never stored (the state and its JSON are unchanged). Valid while that dict object is the
    state's, has the same length and no province's owner has been set and no province made
    since (`_OWNER_SETS`): the rules set owners or put new provinces in, never move one
    province object to another key. Rules and the heuristic ask which provinces a house holds
    many times a choice and would otherwise scan all 68."""

    __slots__ = ("source", "length", "sets", "owned", "place", "pid_of", "frontiers")

    def __init__(self, source: dict[str, Prov]) -> None:
        self.sets = _OWNER_SETS[0]  # read first: a set made while scanning builds the index again
        self.source = source
        self.length = len(source)
        owned: dict[int | None, list[str]] = {}
        for pid, province in source.items():
            held = owned.get(province.owner)
            if held is None:
                owned[province.owner] = [pid]
            else:
                held.append(pid)
        self.owned = owned
        self.place: dict[str, int] | None = None
        self.pid_of: dict[int, str] | None = None
        """Each province's place in the dict and key by object, made on the first `move` (a
        driver copying the state every choice builds many indexes that never move one)."""
        self.frontiers: dict[tuple[int, str], int] = {}
        """(seat, province) -> how many of its neighbours are not that seat's, as the
        heuristic counts them (`ai.frontier`); emptied when an owner moves."""

    def move(self, province: BaseModel, old: Any, new: Any) -> bool:
        """``province``'s owner is now ``new`` (it was ``old``): if it is one of this index's
        provinces, move it to ``new``'s, keeping the dict's order. False when the index cannot
        tell (its dict changed size: it is then built again)."""
        if len(self.source) != self.length:
            return False
        if self.pid_of is None or self.place is None:
            self.pid_of = {id(each): pid for pid, each in self.source.items()}
            self.place = {pid: place for place, pid in enumerate(self.source)}
        pid = self.pid_of.get(id(province))
        if pid is None or self.source.get(pid) is not province:
            return True  # another dict's province: this index is unchanged
        self.owned[old].remove(pid)
        self.frontiers = {}
        bisect.insort(self.owned.setdefault(new, []), pid, key=self.place.__getitem__)
        return True


_OWNER_INDEXES: list[OwnerIndex] = []
"""The indexes built last, the newest first. Two are kept, not one per state: a choice asks of
one state many times in a row, an AI's information state (a dict of its own when it hides a
ronin) sits between two choices, and a driver that copies the state every choice would
otherwise keep every copy's provinces alive."""
_KEPT_INDEXES = 2


def owner_index(state: SamuraiState) -> OwnerIndex:
    """The provinces of ``state`` by owner (read it, never change it)."""
    source = state.provinces
    sets = _OWNER_SETS[0]
    for found in _OWNER_INDEXES:
        if found.source is source and found.sets == sets and found.length == len(source):
            return found
    found = OwnerIndex(source)
    _OWNER_INDEXES[:] = [found, *(index for index in _OWNER_INDEXES if index.source is not source)][:_KEPT_INDEXES]
    return found


_RONIN_SEEN: list[Any] = [None, -1, -1, -1, False]
"""`holds_ronin`'s last answer: the provinces dict, `_OWNER_SETS`, `_RONIN_SETS`, its length
and whether any province held ronin."""


def holds_ronin(state: SamuraiState) -> bool:
    """Whether any province of ``state`` holds ronin (every AI decision's information state
    asks, to hide other seats' ronin). The answer is kept for the last provinces dict asked
    about while no province's ronin has changed and no province was made since (as with the
    owner index, the rules never move one province object to another key)."""
    provinces = state.provinces
    seen = _RONIN_SEEN
    owners, ronin = _OWNER_SETS[0], _RONIN_SETS[0]
    if seen[0] is provinces and seen[1] == owners and seen[2] == ronin and seen[3] == len(provinces):
        return bool(seen[4])
    answer = any(province.ronin for province in provinces.values())
    seen[:] = [provinces, owners, ronin, len(provinces), answer]
    return answer


class ArmyIndex:
    """Where the living armies of one ``players`` list stand: province -> (seat, army), the
    first found in seat and army order (as a scan finds it). Derived, never stored. Valid while
    that list is the state's, has the same length and no army's place or life has been set and
    no army or player made since (`_ARMY_MOVES`): the rules move armies by setting their
    location, never by putting one army object in place of another. Rules, prompts and the
    heuristic ask where armies stand many times a choice and would otherwise scan them all."""

    __slots__ = ("players", "length", "moves", "spots")

    def __init__(self, players: list[Player]) -> None:
        self.moves = _ARMY_MOVES[0]
        self.players = players
        self.length = len(players)
        spots: dict[str, tuple[int, Army]] = {}
        for player in players:
            for army in player.armies:
                location = army.location
                if location is not None and army.alive and location not in spots:
                    spots[location] = (player.seat, army)
        self.spots = spots


_ARMY_INDEXES: dict[int, ArmyIndex] = {}
"""The army indexes built last, by the id of their ``players`` list (each holds its list, so the
id stays its own). A true state and the AIs' information states take turns: an information
state keeps the players list of its seat's last one while every player in it is the same
(engine/samurai/information.py), so its index serves that seat's next decision too while no
army moved. Stale ones (an army moved since) are dropped when a new one is kept."""
_KEPT_ARMY_INDEXES = 8
"""At most this many kept: the true state and every seat's information state, with room to
spare (a driver copying the state every choice would otherwise keep every copy alive)."""


def army_index(state: SamuraiState) -> dict[str, tuple[int, Army]]:
    """Province -> (seat, living army standing there) of ``state`` (read it, never change it)."""
    players = state.players
    moves = _ARMY_MOVES[0]
    found = _ARMY_INDEXES.get(id(players))
    if found is not None and found.players is players and found.moves == moves and found.length == len(players):
        return found.spots
    found = ArmyIndex(players)
    kept = _ARMY_INDEXES
    if len(kept) >= _KEPT_ARMY_INDEXES:
        for key in [key for key, index in kept.items() if index.moves != moves]:
            del kept[key]
        if len(kept) >= _KEPT_ARMY_INDEXES:
            del kept[next(iter(kept))]
    kept[id(players)] = found
    return found.spots
