"""Hand-built Tiny Big Wars views in the documented shape (docs/design/tinybigwars-view.md).

The engine is written in parallel, so these stand in for `game.view(...)`: cities of 14,
16 and 18 locations at plausible coordinates, heroes, minions, infrastructure, a contested
location, a combat in progress and a finished match. Each builder returns a fresh dict.
"""

from __future__ import annotations

import copy
from typing import Any

# id, name, x, y, coin, influence, ability
_PLACES: list[tuple[str, str, float, float, int, int, str]] = [
    ("jade", "Jade Market", 0.02, 0.00, 2, 1, "Recruit 1 extra minion here"),
    ("iron", "Iron Gate", 0.35, 0.04, 1, 2, "Defenders roll +1 die"),
    ("crane", "Crane Temple", 0.66, 0.00, 0, 3, "Heroes here train twice"),
    ("docks", "Lotus Docks", 0.98, 0.05, 2, 1, "Move to any dock"),
    ("alley", "Tiger Alley", 0.15, 0.25, 1, 1, "Ambush: first hit is doubled"),
    ("bridge", "Moon Bridge", 0.50, 0.27, 1, 2, "Only one hero may cross per turn"),
    ("forge", "Ember Forge", 0.83, 0.24, 2, 0, "Buildings cost 1 less"),
    ("bazaar", "Silk Road Bazaar", 0.00, 0.50, 3, 0, "Coins here are never lost"),
    ("garden", "Willow Garden", 0.33, 0.52, 0, 2, "Recover 1 health when arriving"),
    ("pagoda", "Golden Pagoda", 0.67, 0.49, 1, 3, "Counts double at the victory check"),
    ("harbour", "Old Harbour", 1.00, 0.52, 2, 1, "Minions may sail to the docks"),
    ("shadow", "Shadow Quarter", 0.17, 0.76, 1, 1, "Enemy heroes lose 1 energy here"),
    ("theatre", "Monkey Theatre", 0.50, 0.74, 1, 2, "Swap two of your heroes"),
    ("lantern", "Lantern Street", 0.84, 0.77, 2, 1, "See the next event"),
    ("falls", "Mist Falls", 0.02, 1.00, 0, 2, "Hidden: cannot be attacked first"),
    ("library", "Scholar's Library", 0.35, 0.98, 1, 2, "Draw one technique"),
    ("night", "Night Market", 0.65, 1.00, 3, 0, "Recruit at night for half"),
    ("palace", "Palace of Heavenly Harmony", 0.98, 0.97, 1, 3, "The emperor watches"),
]

_ROADS_18 = [
    ("jade", "iron"), ("iron", "crane"), ("crane", "docks"),
    ("jade", "alley"), ("iron", "alley"), ("iron", "bridge"), ("crane", "bridge"), ("crane", "forge"), ("docks", "forge"),
    ("alley", "bridge"), ("bridge", "forge"),
    ("alley", "bazaar"), ("alley", "garden"), ("bridge", "garden"), ("bridge", "pagoda"), ("forge", "pagoda"),
    ("forge", "harbour"), ("bazaar", "garden"), ("garden", "pagoda"), ("pagoda", "harbour"),
    ("bazaar", "shadow"), ("garden", "shadow"), ("garden", "theatre"), ("pagoda", "theatre"), ("pagoda", "lantern"),
    ("harbour", "lantern"), ("shadow", "theatre"), ("theatre", "lantern"),
    ("shadow", "falls"), ("shadow", "library"), ("theatre", "library"), ("theatre", "night"), ("lantern", "night"),
    ("lantern", "palace"), ("falls", "library"), ("library", "night"), ("night", "palace"),
]

_HERO_CARDS: dict[str, tuple[str, int, int, int]] = {  # card: name, power, max health, max energy
    "ember": ("Ember Fist", 3, 5, 3),
    "crane": ("Silent Crane", 2, 4, 4),
    "monk": ("Iron Monk", 2, 6, 2),
    "storm": ("Storm Dancer", 3, 4, 3),
    "viper": ("Jade Viper", 4, 3, 3),
    "thunder": ("Thunder Kid", 2, 5, 3),
    "lotus": ("Lotus Blade", 3, 5, 2),
    "owl": ("Night Owl", 2, 4, 5),
}


def _city(count: int, map_id: str) -> tuple[list[dict[str, Any]], list[list[str]]]:
    """The first `count` places of the city, with the roads among them."""
    if count == 18:
        chosen = _PLACES
    elif count == 16:
        chosen = [p for p in _PLACES if p[0] not in ("palace", "docks")]
    else:  # 14: a smaller city for two players
        chosen = [p for p in _PLACES if p[0] not in ("palace", "docks", "falls", "harbour")]
    ids = {p[0] for p in chosen}
    locations = [
        {
            "id": pid, "name": name, "x": x, "y": y, "coin": coin, "influence": infl,
            "influence_total": infl, "coin_total": coin, "ability": ability,
            "infrastructure": None, "controller": None, "contested": False, "start_seat": None, "minions": [],
            "card": pid,
        }
        for pid, name, x, y, coin, infl, ability in chosen
    ]
    roads = [[a, b] for a, b in _ROADS_18 if a in ids and b in ids]
    if count == 16:
        roads += [["crane", "forge"], ["forge", "harbour"]]
    if count == 14:
        roads += [["forge", "lantern"], ["shadow", "library"], ["night", "lantern"]]
    seen: set[frozenset[str]] = set()
    unique = []
    for r in roads:
        if frozenset(r) not in seen:
            seen.add(frozenset(r))
            unique.append(r)
    return locations, unique


def _base(seats: int, map_id: str, count: int) -> dict[str, Any]:
    locations, roads = _city(count, map_id)
    return {
        "game": "tinybigwars",
        "round": 1,
        "round_limit": 15,
        "phase": "clan",
        "phase_label": "Round 1 - Clan Phase",
        "to_win": 10,
        "map": map_id,
        "seats": [
            {"seat": s, "influence": 0, "coins": 0, "locations": 0, "minions": 0, "heroes": 0, "activations": 0,
             "passed": False, "force_ready": True, "eliminated": False, "income": 0, "charters": []}
            for s in range(seats)
        ],
        "locations": locations,
        "roads": roads,
        "heroes": [],
        "combat": None,
        "active_seat": None,
        "waiting": [],
        "last_events": [],
        "result": None,
        "point_limit": 30,
        "prompts": [],
    }


def _loc(view: dict[str, Any], lid: str) -> dict[str, Any]:
    return next(lo for lo in view["locations"] if lo["id"] == lid)


def _hero(seat: int, card: str, location: str, health: int | None = None, energy: int = 0, **extra: Any) -> dict[str, Any]:
    name, power, max_health, max_energy = _HERO_CARDS[card]
    return {
        "id": f"h{seat}-{card}", "card": card, "name": name, "seat": seat, "location": location,
        "health": max_health if health is None else health, "max_health": max_health,
        "energy": energy, "max_energy": max_energy, "power": power, "activated": False, "defeated": False, "ability": "", **extra,
    }


def _occupy(view: dict[str, Any], lid: str, minions: list[tuple[int, int]], infra: str | None = None) -> None:
    """Put minions at a location and derive controller / contested like the engine would."""
    lo = _loc(view, lid)
    lo["minions"] = [[s, n] for s, n in minions if n]
    present = {s for s, n in minions if n} | {h["seat"] for h in view["heroes"] if h["location"] == lid and not h["defeated"]}
    lo["contested"] = len(present) > 1
    lo["controller"] = next(iter(present)) if len(present) == 1 else None
    if infra:
        lo["infrastructure"] = infra
        if infra == "dojo":
            lo["influence_total"] = lo["influence"] + 1
        if infra == "market":
            lo["coin_total"] = lo["coin"] + 1


def _tally(view: dict[str, Any]) -> None:
    """Fill the per-seat summary from the board, as the engine's public view does."""
    for seat in view["seats"]:
        s = seat["seat"]
        owned = [lo for lo in view["locations"] if lo["controller"] == s]
        seat["locations"] = len(owned)
        seat["influence"] = sum(lo["influence_total"] for lo in owned)
        seat["minions"] = sum(n for lo in view["locations"] for ss, n in lo["minions"] if ss == s)
        seat["heroes"] = sum(1 for h in view["heroes"] if h["seat"] == s and not h["defeated"])


def two_seat_start() -> dict[str, Any]:
    """Round 1 of a two-player game on the 14-location city: everyone at home."""
    v = _base(2, "city2", 14)
    _loc(v, "jade")["start_seat"] = 0
    _loc(v, "night")["start_seat"] = 1
    v["heroes"] = [_hero(0, "ember", "jade", energy=1), _hero(0, "crane", "jade", energy=1),
                   _hero(1, "monk", "night", energy=1), _hero(1, "viper", "night", energy=1)]
    _occupy(v, "jade", [(0, 4)])
    _occupy(v, "night", [(1, 4)])
    _tally(v)
    v["seats"][0]["coins"], v["seats"][1]["coins"] = 2, 3
    v["waiting"] = [0, 1]
    v["last_events"] = ["Round 1 begins.", "Every hero gains 1 energy."]
    return v


def three_seat_mid() -> dict[str, Any]:
    """Round 5 activation on the 16-location city: buildings, a contested location, a turn."""
    v = _base(3, "city3", 16)
    v.update(round=5, phase="activation", phase_label="Round 5 - Hero Activation", active_seat=1)
    _loc(v, "jade")["start_seat"] = 0
    _loc(v, "crane")["start_seat"] = 1
    _loc(v, "library")["start_seat"] = 2
    v["heroes"] = [
        _hero(0, "ember", "garden", health=3, energy=2, activated=True),
        _hero(0, "crane", "jade", energy=1),
        _hero(0, "storm", "bazaar", health=2, energy=0),
        _hero(1, "monk", "bridge", health=6, energy=1),
        _hero(1, "viper", "pagoda", health=1, energy=3, activated=True),
        _hero(2, "thunder", "theatre", health=4, energy=2),
        _hero(2, "lotus", "library", health=5, energy=1),
        _hero(2, "owl", "shadow", health=2, energy=4),
    ]
    _occupy(v, "jade", [(0, 3)], infra="market")
    _occupy(v, "garden", [(0, 2)], infra="dojo")
    _occupy(v, "bazaar", [(0, 1)])
    _occupy(v, "alley", [(0, 2)])
    _occupy(v, "crane", [(1, 4)], infra="dojo")
    _occupy(v, "bridge", [(1, 2)])
    _occupy(v, "pagoda", [(1, 1)], infra="watchtower")
    _occupy(v, "library", [(2, 3)], infra="market")
    _occupy(v, "theatre", [(2, 2), (1, 1)])  # contested: minions of two clans
    _occupy(v, "shadow", [(2, 1)])
    _occupy(v, "night", [(2, 2)])
    _tally(v)
    v["seats"][0].update(activations=1)
    v["seats"][1].update(activations=1)
    v["seats"][2].update(activations=2, passed=True)
    v["waiting"] = [1]
    v["last_events"] = [
        "Ember Fist moved to Willow Garden with 2 minions.",
        "Jade Viper trained: +1 energy.",
        "Player 3 passed.",
    ]
    return v


def four_seat_combat() -> dict[str, Any]:
    """Round 7 on the 18-location city with a combat in progress at Golden Pagoda."""
    v = _base(4, "city4", 18)
    v.update(round=7, phase="combat", phase_label="Round 7 - Combat at Golden Pagoda", active_seat=2)
    for lid, s in (("jade", 0), ("docks", 1), ("falls", 2), ("palace", 3)):
        _loc(v, lid)["start_seat"] = s
    v["heroes"] = [
        _hero(0, "ember", "jade", energy=2), _hero(0, "crane", "alley", health=2, energy=1, activated=True),
        _hero(1, "monk", "docks", energy=1), _hero(1, "viper", "forge", health=3, energy=2),
        _hero(2, "thunder", "pagoda", health=4, energy=3, activated=True), _hero(2, "lotus", "falls", energy=0),
        _hero(3, "storm", "pagoda", health=3, energy=2), _hero(3, "owl", "palace", health=4, energy=5),
        _hero(3, "monk", "night", health=1, energy=0, id="h3-monk2"),
        _hero(1, "crane", "x-removed", defeated=True, health=0),
    ]
    _occupy(v, "jade", [(0, 4)], infra="dojo")
    _occupy(v, "alley", [(0, 2)])
    _occupy(v, "iron", [(0, 1)])
    _occupy(v, "docks", [(1, 3)], infra="market")
    _occupy(v, "forge", [(1, 2)])
    _occupy(v, "crane", [(1, 1)])
    _occupy(v, "falls", [(2, 3)])
    _occupy(v, "shadow", [(2, 2)], infra="watchtower")
    _occupy(v, "pagoda", [(2, 3), (3, 2)])  # the combat
    _occupy(v, "palace", [(3, 2)], infra="dojo")
    _occupy(v, "night", [(3, 1)])
    _occupy(v, "lantern", [(3, 1), (1, 1)])  # contested, no heroes
    _occupy(v, "bridge", [(0, 1), (1, 2), (2, 1)])  # three clans in one place
    _tally(v)
    for s, c in enumerate((1, 0, 2, 4)):
        v["seats"][s]["coins"] = c
    v["seats"][1]["passed"] = True
    v["combat"] = {
        "location": "pagoda", "seats": [2, 3],
        "dice": [[2, [6, 5, 2, 1, 4, 3, 6]], [3, [1, 3, 5, 2, 2]]],
        "hits": [[2, 4], [3, 1]],
        "waiting": [3], "attacker": 2, "stage": "energy",
    }
    v["waiting"] = [3]
    v["last_events"] = [
        "Storm Dancer moved to Golden Pagoda with 2 minions.",
        "Combat at Golden Pagoda: P3 rolls 7 dice, P4 rolls 5 dice.",
        "P3 spent energy (sealed until P4 chooses).",
    ]
    return v


def three_seat_over() -> dict[str, Any]:
    """A finished three-player match: seat 2 reached 10 influence."""
    v = three_seat_mid()
    v.update(round=9, phase="over", phase_label="Round 9 - Victory Check", active_seat=None, waiting=[])
    for h in v["heroes"]:
        if h["id"] == "h1-viper":
            h.update(defeated=True, health=0, location=None)
        if h["id"] == "h1-monk":
            h["location"] = "crane"
    _occupy(v, "pagoda", [(2, 3)], infra="watchtower")
    _occupy(v, "theatre", [(2, 3)])
    _occupy(v, "bridge", [(2, 2)])
    _tally(v)
    v["result"] = {"winners": [2], "reason": "Player 3 controls 10 influence at the end of round 9.", "draw": False}
    v["last_events"] = ["Golden Pagoda falls to Player 3.", "Victory check: Player 3 has 10 influence."]
    return v


def force_building() -> dict[str, Any]:
    """Round 0: forces are being built in secret; nothing is on the board yet but minions."""
    v = _base(3, "city3", 16)
    v.update(round=0, phase="force", phase_label="Force Building (30 points)", waiting=[1, 2])
    for lid, s in (("jade", 0), ("crane", 1), ("library", 2)):
        _loc(v, lid)["start_seat"] = s
        _occupy(v, lid, [(s, 4)])
    _tally(v)
    v["seats"][0]["force_ready"] = True
    v["seats"][1]["force_ready"] = False
    v["seats"][2]["force_ready"] = False
    return v


def seat_view(public: dict[str, Any], seat: int, sealed: dict[str, Any] | None = None) -> dict[str, Any]:
    """The public view plus this seat's `you` block, as `game.view(state, seat)` returns."""
    v = copy.deepcopy(public)
    heroes = [h["card"] for h in v["heroes"] if h["seat"] == seat]
    v["you"] = {
        "seat": seat,
        "force": {"heroes": heroes or ["ember", "crane"], "minion_cards": ["street_gang", "temple_guards"],
                  "buildings": ["dojo"], "points": 30, "minion_card_names": [], "building_names": []},
        "sealed": sealed,
        "coins": v["seats"][seat]["coins"],
    }
    return v


ALL: dict[str, Any] = {
    "two_seat_start": two_seat_start,
    "three_seat_mid": three_seat_mid,
    "four_seat_combat": four_seat_combat,
    "three_seat_over": three_seat_over,
    "force_building": force_building,
}

NAMES_4 = ["Akira", "Benedetta", "Chidi", "Dagny"]
