"""Hand-built Tiny Epic Defenders views in the documented shape (docs/design/defenders-view.md).

The engine is written in parallel, so these stand in for `game.view(...)`: an early round
with nothing revealed, a battle in full swing (4 Defenders, damage, a destroyed region,
Dark War components, the boss held at 1 HP), the third battle of a campaign (a rider on the
Manticore, a Defender in the Great Tree) and a lost match. Each builder returns a fresh dict.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

View = dict[str, Any]

NAMES = ["Aiko", "Бранимир", "Zoë", "محمد"]
ODD_NAMES = ["李小龍 🐉 the Unyielding Warden of the North", "", "O\u0301scar\u200b\u202e", "Ελένη-Ναυσικά Παπαδοπούλου"]

# pos, key, name, terrain
_RING = [
    (0, "forest", "Whisperwood", "Forest"),
    (1, "ruins", "Sunken Halls", "Ruins"),
    (2, "mountains", "Frostpeak Crags", "Mountains"),
    (3, "plains", "Goldenreach", "Plains"),
    (4, "coast", "Saltmere Shore", "Coast"),
    (5, "desert", "Ashen Dunes", "Desert"),
]
_ABILITIES = {
    "forest": ("Canopy Watch", "1 AP: look at the top card of the Turn Deck."),
    "ruins": ("Relic Hunt", "2 AP: draw an artifact, keep it if a slot is free."),
    "mountains": ("High Ground", "1 AP: remove 1 threat from an adjacent region."),
    "plains": ("Open Road", "Move to any region for 1 AP."),
    "coast": ("Tidal Ferry", "1 AP: move a caravan one region closer to home."),
    "desert": ("Mirage", "2 AP: cancel the next attack on this region."),
}
_WAR_ABILITIES = {
    "forest": ("Great Tree", "A Defender may hide in the Tree: it cannot be damaged."),
    "mountains": ("Manticore Lair", "3 AP: tame the Manticore and ride it."),
    "plains": ("Soldier Camp", "1 AP: take a soldier card."),
    "coast": ("Enemy Fleet", "At the end of the round, roll the fleet dice."),
    "desert": ("Sandstorms", "Storms move one region clockwise each round."),
    "ruins": ("Cursed Crypt", "Each Defender here loses 1 HP at round end."),
}


def _ring(sides: dict[str, str] | None = None, war: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    sides = sides or {}
    out = []
    for pos, key, name, terrain in _RING:
        is_war = key in war
        side = sides.get(key, "hostile" if is_war else "A")
        ability, ability_text = (_WAR_ABILITIES if is_war else _ABILITIES)[key]
        adjacent = [_RING[(pos - 1) % 6][1], _RING[(pos + 1) % 6][1]]
        if pos in (0, 3):
            adjacent.append("capital")
        out.append({
            "pos": pos, "key": key, "name": name, "terrain": terrain, "side": side, "war": is_war,
            "ability": ability, "ability_text": ability_text, "threat": 0, "max_threat": 3, "destroyed": False,
            "caravans": 0, "ward": False, "storm": False, "fleet_die": False, "adjacent": adjacent,
        })
    return out


_DEFENDERS = [
    ("ember_warden", "Ember Warden", 4, "Rally", "Once per round: another Defender here gains 1 AP."),
    ("tidecaller", "Tidecaller", 5, "Undertow", "Move an enemy attack to an adjacent region."),
    ("stone_sentinel", "Stone Sentinel", 6, "Bulwark", "Take 1 damage instead of a Defender here."),
    ("wind_archer", "Wind Archer", 3, "Far Shot", "Attack a boss up to two regions away."),
]

ARTIFACTS = [
    {"key": "sunblade", "name": "Sunblade", "slot": "hand", "text": "+1 damage when you attack the boss."},
    {"key": "aegis", "name": "Aegis of Dawn", "slot": "back", "text": "Prevent the first damage you take each round."},
    {"key": "lantern", "name": "Lantern of Ys", "slot": "hand", "text": "Remove 1 threat in your region for free."},
    {"key": "wings", "name": "Feathered Cloak", "slot": "back", "text": "Move two regions for 1 AP."},
]

SKILLS = [
    {"key": "cleave", "name": "Cleave", "cost": 2, "text": "Remove 1 threat here and in an adjacent region.",
     "own_turn": True},
    {"key": "heal", "name": "Mend", "cost": 1, "text": "A Defender in your region regains 2 HP.", "own_turn": False},
    {"key": "rally_cry", "name": "Rallying Cry", "cost": 3, "text": "Every Defender gains 1 AP this turn.",
     "own_turn": True},
    {"key": "guard", "name": "Stalwart Guard", "cost": 1,
     "text": "Cancel 1 damage to the capital. Use it on any card, even when it is not your turn.",
     "own_turn": False},
]


def _defender(idx: int, seat: int, region: str, **kw: Any) -> dict[str, Any]:
    key, name, hp, ability, ability_text = _DEFENDERS[idx]
    d = {
        "idx": idx, "seat": seat, "key": key, "name": name, "region": region, "hp": hp, "max_hp": hp,
        "xp": 0, "xp_max": 8, "exhausted": False, "death_tokens": 0, "in_tree": False, "riding": False,
        "shield": False, "ability": ability, "ability_text": ability_text, "artifacts": [], "skills": [],
    }
    d.update(kw)
    return d


def _war(**kw: Any) -> dict[str, Any]:
    w = {"fleet_dice": 3, "storms": 3, "tree": None, "manticore": "mountains", "soldiers": 5, "deserters": 0,
         "death_tokens": 6}
    w.update(kw)
    return w


def _base(**kw: Any) -> View:
    v: View = {
        "game": "defenders", "mode": "single", "difficulty": "normal", "battle": 1, "battles": 1, "round": 1,
        "phase": "turn", "phase_label": "", "capital": {"name": "Aldmere", "threat": 0, "destruction": 7, "caravans": 0},
        "ring": _ring(), "war": _war(), "defenders": [], "boss": {"kind": "general", "revealed": False},
        "deck": {"turn": 8, "discard": 0, "horde": 6, "round_cards": 8, "current": None},
        "caravans": {"pile": 6, "home": 0, "total": 6, "on_map": {}},
        "active": None, "attack": None, "prompts": [], "log": [], "result": None,
    }
    v.update(kw)
    return v


def _region(v: View, key: str) -> dict[str, Any]:
    return next(r for r in v["ring"] if r["key"] == key)


def early() -> View:
    """Battle 1, round 1: two Defenders, no threat yet, the boss still face down."""
    v = _base(phase_label="Battle 1 - Round 1 - Defender card: [[seat:0]]")
    v["defenders"] = [
        _defender(0, 0, "capital", skills=[SKILLS[0]]),
        _defender(1, 1, "capital", skills=[SKILLS[1]]),
    ]
    _region(v, "coast")["threat"] = 1
    v["deck"] = {"turn": 7, "discard": 0, "horde": 6, "round_cards": 8,
                 "current": {"kind": "defender", "name": "Ember Warden", "regions": []}}
    v["active"] = {"card": "defender", "defender": 0, "ap": 3, "passed": []}
    v["prompts"] = [{"seat": 0, "kind": "turn", "secret": False, "answered": False, "shared": False, "optional": False}]
    v["log"] = ["Battle 1 begins: defend Aldmere!", "[[seat:0]] chose Cleave.", "[[seat:1]] chose Mend.",
                "Round 1: the Turn Deck is shuffled (8 cards)."]
    return v


def mid_battle() -> View:
    """Round 5 of a hard battle: damage everywhere, Plains destroyed, caravans, storms and a fleet die."""
    v = _base(difficulty="hard", round=5, phase="defend",
              phase_label="Battle 1 - Round 5 - Enemy card: Bog Raiders attack the coast")
    v["ring"] = _ring({"forest": "B", "ruins": "A", "mountains": "B", "coast": "hostile", "desert": "friendly"},
                      war=("coast", "desert"))
    threats = {"forest": 2, "ruins": 1, "mountains": 3, "plains": 3, "coast": 2, "desert": 0}
    for r in v["ring"]:
        r["threat"] = threats[r["key"]]
    _region(v, "plains")["destroyed"] = True
    _region(v, "forest")["ward"] = True
    _region(v, "forest")["caravans"] = 1
    _region(v, "coast")["caravans"] = 2
    _region(v, "coast")["fleet_die"] = True
    _region(v, "desert")["storm"] = True
    _region(v, "ruins")["caravans"] = 1
    v["capital"] = {"name": "Aldmere", "threat": 4, "destruction": 7, "caravans": 2}
    v["war"] = _war(fleet_dice=2, storms=2, soldiers=3, deserters=1, death_tokens=4)
    v["defenders"] = [
        _defender(0, 0, "coast", hp=2, xp=5, artifacts=[ARTIFACTS[0], ARTIFACTS[1]], skills=[SKILLS[0], SKILLS[2]]),
        _defender(1, 1, "mountains", hp=5, xp=3, exhausted=True, artifacts=[ARTIFACTS[2]], skills=[SKILLS[1]]),
        _defender(2, 2, "coast", hp=1, xp=8, shield=True, death_tokens=1,
                  artifacts=[ARTIFACTS[0], ARTIFACTS[1], ARTIFACTS[3]], skills=SKILLS[:4]),
        _defender(3, 3, "capital", hp=3, xp=0, skills=[SKILLS[3]]),
    ]
    v["boss"] = {"kind": "general", "revealed": True, "key": "bog_queen", "name": "Mirelda, the Bog Queen",
                 "hp": 1, "max_hp": 8, "region": "mountains",
                 "text": "Each round, 1 threat is added to her region.", "held": True}
    v["deck"] = {"turn": 3, "discard": 4, "horde": 2, "round_cards": 9,
                 "current": {"kind": "enemy", "name": "Bog Raiders", "regions": ["coast", "desert"]}}
    v["caravans"] = {"pile": 0, "home": 2, "total": 6, "on_map": {"forest": 1, "coast": 2, "ruins": 1}}
    v["attack"] = {"region": "coast", "source": "Bog Raiders", "dire": False, "cost": 1, "declined": [0]}
    v["prompts"] = [
        {"seat": 2, "kind": "defend", "secret": False, "answered": False, "shared": True, "optional": True},
        {"seat": 0, "kind": "defend", "secret": False, "answered": True, "shared": True, "optional": True},
    ]
    v["log"] = [
        "[[seat:2]] moved Wind Archer to Saltmere Shore.",
        "[[seat:1]] attacked Mirelda, the Bog Queen: 2 damage.",
        "Mirelda is held at 1 HP until every caravan is home.",
        "Dire card: Goldenreach is destroyed!",
        "A storm drifts into Ashen Dunes.",
        "[[seat:3]] escorted a caravan home (2/6).",
        "Bog Raiders attack Saltmere Shore.",
        "[[seat:0]] declines to defend.",
    ]
    return v


def campaign_final() -> View:
    """Campaign battle 3/3, epic: a rider on the Manticore, a Defender hiding in the Great Tree."""
    v = _base(mode="campaign", difficulty="epic", battle=3, battles=3, round=3, phase="all",
              phase_label="Battle 3 of 3 - Round 3 - All Defenders card")
    v["ring"] = _ring({"forest": "friendly", "ruins": "B", "mountains": "hostile", "plains": "friendly",
                       "coast": "A", "desert": "B"}, war=("forest", "mountains", "plains"))
    for key, t in {"forest": 1, "ruins": 2, "mountains": 2, "plains": 0, "coast": 1, "desert": 3}.items():
        _region(v, key)["threat"] = t
    _region(v, "mountains")["max_threat"] = 4
    _region(v, "ruins")["destroyed"] = True
    _region(v, "desert")["caravans"] = 1
    v["capital"] = {"name": "Ōkami-jō", "threat": 2, "destruction": 6, "caravans": 3}
    v["war"] = _war(fleet_dice=3, storms=3, tree=1, manticore=2, soldiers=2, deserters=2, death_tokens=3)
    v["defenders"] = [
        _defender(0, 0, "plains", hp=4, xp=6, artifacts=[ARTIFACTS[2], ARTIFACTS[1]], skills=[SKILLS[0], SKILLS[3]]),
        _defender(1, 0, "forest", hp=2, xp=4, in_tree=True, artifacts=[ARTIFACTS[3]], skills=[SKILLS[1]]),
        _defender(2, 1, "desert", hp=6, xp=7, riding=True, artifacts=[ARTIFACTS[0]],
                  skills=[SKILLS[2], SKILLS[1], SKILLS[0]]),
    ]
    v["boss"] = {"kind": "epic", "revealed": True, "key": "void_wyrm", "name": "Vörðr the Void Wyrm",
                 "hp": 9, "max_hp": 12, "region": "desert", "text": "Attacks on its region cost 1 more.", "held": False}
    v["deck"] = {"turn": 5, "discard": 2, "horde": 3, "round_cards": 8,
                 "current": {"kind": "all", "name": "All Defenders", "regions": []}}
    v["caravans"] = {"pile": 2, "home": 3, "total": 6, "on_map": {"desert": 1}}
    v["active"] = {"card": "all", "defender": None, "ap": 2, "passed": [1]}
    v["prompts"] = [{"seat": 0, "kind": "turn", "secret": False, "answered": False, "shared": True, "optional": False}]
    v["log"] = [
        "Battle 3 of 3: Vörðr the Void Wyrm awaits.",
        "[[seat:1]] tamed the Manticore!",
        "[[seat:0]]'s Tidecaller hides in the Great Tree.",
        "Sunken Halls is destroyed.",
        "All Defenders: 2 AP each.",
        "[[seat:1]] passed.",
    ]
    return v


def lost() -> View:
    """A finished match: the capital fell."""
    v = mid_battle()
    v["phase"] = "over"
    v["round"] = 7
    v["phase_label"] = "Battle 1 - Defeat"
    v["capital"]["threat"] = 7
    for r in v["ring"]:
        r["threat"] = r["max_threat"]
    _region(v, "coast")["destroyed"] = True
    _region(v, "mountains")["destroyed"] = True
    v["defenders"][0]["hp"] = 0
    v["defenders"][2]["hp"] = 0
    v["defenders"][2]["death_tokens"] = 2
    v["active"] = None
    v["attack"] = None
    v["prompts"] = []
    v["deck"]["current"] = None
    v["log"] = v["log"][-4:] + ["Aldmere's threat reached 7.", "The capital has fallen."]
    v["result"] = {"won": False, "reason": "Aldmere fell: its threat reached the destruction level (7)."}
    return v


ALL: dict[str, Callable[[], View]] = {
    "early": early,
    "mid_battle": mid_battle,
    "campaign_final": campaign_final,
    "lost": lost,
}


def seat_view(view: View, seat: int) -> View:
    """The seat view: the public dict plus `you` (the seat and the Defenders it controls)."""
    v = copy.deepcopy(view)
    v["you"] = {"seat": seat, "defenders": [d["idx"] for d in v["defenders"] if d["seat"] == seat]}
    return v


def names(view: View) -> list[str]:
    """Display names for the seats of a view."""
    seats = {int(d["seat"]) for d in view["defenders"]}
    return NAMES[: max(seats, default=0) + 1]
