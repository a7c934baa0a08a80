"""Activated abilities: who may use which source now, its legal targets, and what it does.

A source is `hero` (the Defender card), `art:<key>`, `skill:<key>`, `region` (the side of the
Outer Region the Defender stands in), `capital` (War Council) or `war` (a friendly War Region).
Every effect of content.Effect is implemented here once (passives are read in rules.py).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from engine.defenders import board, rules
from engine.defenders.board import CAPITAL
from engine.defenders.content import Ability, content
from engine.defenders.names import caravans, card_name, region_name, who
from engine.defenders.rules import Flow
from engine.defenders.state import Defender, DefendersState
from engine.words import counted

Target = str | int | None

WAR_ACTIONS: dict[str, Ability] = {}


def war_action(terrain: str) -> Ability:
    """The friendly War Region actions as abilities (their texts live in cards.toml)."""
    if not WAR_ACTIONS:
        c = content()
        spec = {
            "coast": ("secure", "any", "turn"),
            "desert": ("ward", "any", "none"),
            "forest": ("shield", "self", "none"),
            "mountains": ("dash", "self", "none"),
            "plains": ("secure", "any", "turn"),
            "ruins": ("ward", "any", "none"),
        }
        for w in c.war_regions:
            effect, scope, limit = spec[w.terrain]
            WAR_ACTIONS[w.terrain] = Ability(name=w.friendly_name, text=w.friendly_text[:160], effect=effect,
                                             scope=scope, ap=1, limit=limit)
    return WAR_ACTIONS[terrain]


def ability_of(state: DefendersState, d: Defender, src: str) -> Ability | None:
    c = content()
    if src == "hero":
        ab = c.defender(d.key).ability
        return None if ab.passive else ab
    if src.startswith("art:"):
        key = src[4:]
        if key not in d.artifacts:
            return None
        ab = c.artifact(key).ability
        return None if ab.passive else ab
    if src.startswith("skill:"):
        key = src[6:]
        return c.skill(key).ability if key in d.skills else None
    if src == "capital":
        return c.capital.ability if d.region == CAPITAL else None
    if src in ("region", "war"):
        if d.region == CAPITAL:
            return None
        r = state.regions[d.region]
        return _place_ability(src, d.region, r.war, r.side, r.destroyed)
    return None


def _place_ability(src: str, here: str, war: bool, side: str, destroyed: bool) -> Ability | None:
    """`ability_of` the ``region`` or ``war`` source of an Outer Region ``here`` (its War side,
    its face and whether it is destroyed: all it depends on)."""
    if src == "region":
        if war or destroyed:
            return None
        reg = content().region(here)
        return (reg.a if side == "A" else reg.b).ability
    if not war or side != "friendly" or destroyed:
        return None
    return war_action(here)


def sources(state: DefendersState, d: Defender) -> list[str]:
    place = ["capital"] if d.region == CAPITAL else ["region", "war"]
    return ["hero", *place] + [f"art:{a}" for a in d.artifacts] + [f"skill:{s}" for s in d.skills]


def usable(state: DefendersState, d: Defender, src: str, own_turn: bool, ap: int) -> Ability | None:
    """The ability if `d` may use it now (costs, limits, hexes, the boss's dread)."""
    if state.hexed or dreaded(state, d):
        return None
    ab = ability_of(state, d, src)
    if ab is None:
        return None
    return ab if _ready(state, d, _entry(src, ab), own_turn, ap) else None


def dreaded(state: DefendersState, d: Defender) -> bool:
    """The revealed boss's dread stands in `d`'s place: no ability may be used there."""
    boss = state.boss
    return boss.revealed and boss.region == d.region and content().boss(boss.key).passive == "dread"


Entry = tuple[str, Ability, str | None]
"""A source, its ability and the mark its use leaves in `Defender.used` (None: no limit)."""


def _entry(src: str, ab: Ability) -> Entry:
    return src, ab, None if ab.limit == "none" else f"{ab.limit}:{src}"


@functools.lru_cache(maxsize=4096)
def _card_entries(key: str, artifacts: tuple[str, ...],
                  skills: tuple[str, ...]) -> tuple[tuple[Entry, ...], tuple[Entry, ...], tuple[Entry, ...]]:
    """The entries of the sources a Defender carries (its card, its artifacts, its skills), in
    `sources` order, those whose `ability_of` is None left out: they depend on the cards alone
    (never on the place), so they are worked out once per Defender, artifacts and skills."""
    c = content()
    hero = c.defender(key).ability
    heroes = () if hero.passive else (_entry("hero", hero),)
    held = tuple(_entry(f"art:{a}", c.artifact(a).ability) for a in artifacts if not c.artifact(a).ability.passive)
    learnt = tuple(_entry(f"skill:{s}", c.skill(s).ability) for s in skills)
    return heroes, held, learnt


@functools.lru_cache(maxsize=4096)
def _turn_entries(key: str, artifacts: tuple[str, ...], skills: tuple[str, ...], here: str, war: bool, side: str,
                  destroyed: bool) -> tuple[Entry, ...]:
    """The entries of every source a Defender with these cards may use on its own Turn, in
    `sources` order, standing ``here`` (an Outer Region with that War side, face and ruin, or
    the Capital), those whose `ability_of` is None left out: worked out once per combination."""
    heroes, held, learnt = _card_entries(key, artifacts, skills)
    if here == CAPITAL:
        place: tuple[Entry, ...] = (_entry("capital", content().capital.ability),)
    else:
        place = tuple(_entry(src, ab) for src in ("region", "war")
                      if (ab := _place_ability(src, here, war, side, destroyed)) is not None)
    return (*heroes, *place, *held, *learnt)


def usable_sources(state: DefendersState, d: Defender, own_turn: bool, ap: int,
                   only_src: object = None) -> Iterator[tuple[str, Ability]]:
    """Each source of `d` (in `sources` order) whose ability `usable` gives, with it; with
    ``only_src``, that source alone. The checks shared by every source (hexes, dread) are made
    once, and off their own Turn only skills are looked at (nothing else may be used then)."""
    if state.hexed or dreaded(state, d):
        return
    if not own_turn:
        entries = _card_entries(d.key, tuple(d.artifacts), tuple(d.skills))[2]
    elif d.region == CAPITAL:
        entries = _turn_entries(d.key, tuple(d.artifacts), tuple(d.skills), CAPITAL, False, "A", False)
    else:
        r = state.regions[d.region]
        entries = _turn_entries(d.key, tuple(d.artifacts), tuple(d.skills), d.region, r.war, r.side, r.destroyed)
    for entry in entries:
        if only_src is not None and entry[0] != only_src:
            continue
        if _ready(state, d, entry, own_turn, ap):
            yield entry[0], entry[1]


def _ready(state: DefendersState, d: Defender, entry: Entry, own_turn: bool, ap: int) -> bool:
    """`usable` past the hexes and dread: the ability's own conditions."""
    src, ab, mark = entry
    if src.startswith("skill:"):
        if ab.own_turn and not own_turn:
            return False
    elif not own_turn:
        return False
    if ab.ap > ap or ab.xp > d.xp or (ab.hp and d.hp < ab.hp):
        return False
    if mark is not None and mark in d.used:
        return False
    if src == "war" and not war_ready(state, d):
        return False
    return bool(targets(state, d, src, ab))


def war_ready(state: DefendersState, d: Defender) -> bool:
    key = d.region
    if key == "coast":
        return state.fleet_dice > 0
    if key == "desert":
        return state.storms > 0
    if key == "forest":
        return state.tree is None
    if key == "mountains":
        return state.manticore == "mountains" and not d.riding
    if key == "plains":
        return state.soldiers > 0
    if key == "ruins":
        return state.death_tokens > 0
    return False


def targets(state: DefendersState, d: Defender, src: str, ab: Ability) -> list[Target]:
    """Legal targets; [None] for an ability that needs none."""
    outer = state.ring
    if src == "war":
        if d.region in ("desert", "ruins"):
            return list(outer)
        return [None]
    e, scope = ab.effect, ab.scope
    if e == "heal":
        pool = [d] if scope == "self" else [other for other in state.defenders if other.region == d.region]
        return [other.idx for other in pool if other.hp < rules.max_hp(other)]
    if e in ("secure", "ward"):
        if scope == "here":
            regions = [] if d.region == CAPITAL else [d.region]
        elif scope == "adjacent":
            regions = [region for region in board.adjacent(state, d.region) if region != CAPITAL]
        else:
            regions = list(outer)
        if e == "secure":
            return [region for region in regions if state.regions[region].threat > 0 and not state.regions[region].destroyed]
        return list(regions)
    if e == "secure_adjacent_all":
        near = [region for region in board.adjacent(state, d.region) if region != CAPITAL]
        return [None] if any(state.regions[region].threat > 0 and not state.regions[region].destroyed for region in near) else []
    if e == "secure_capital":
        return [None] if state.capital_threat > 0 else []
    if e == "strike":
        boss = state.boss
        if not boss.revealed or boss.hp <= rules.boss_floor(state):
            return []
        return [None] if scope == "any" or boss.region == d.region else []
    if e == "dash":
        if scope == "adjacent":
            return list(board.adjacent(state, d.region))
        return [region for region in outer if region != d.region]
    if e == "rally":
        return [None] if state.active is not None else []
    if e == "scout":
        return [None] if state.turn_deck else []
    if e == "shield":
        return [] if d.shield else [None]
    if e == "summon":
        return [other.idx for other in state.defenders if other.idx != d.idx and other.region != d.region]
    if e == "haul":
        if d.region == CAPITAL or state.regions[d.region].caravans == 0:
            return []
        return list(board.adjacent(state, d.region))
    if e == "draw_skill":
        return [None] if state.skill_deck else []
    return []


def target_label(state: DefendersState, target: Target) -> str:
    if isinstance(target, int):
        return content().defender(state.defenders[target].key).name
    if isinstance(target, str):
        return region_name(state, target)
    return ""


def pay(f: Flow, d: Defender, src: str, ab: Ability) -> None:
    state = f.state
    if ab.ap and state.active is not None:
        state.active.ap -= ab.ap
    d.xp -= ab.xp
    if ab.hp:
        d.hp -= ab.hp
    if ab.limit != "none":
        d.used.append(f"{ab.limit}:{src}")


def apply(f: Flow, d: Defender, src: str, ab: Ability, target: Target) -> None:
    """Pay for and resolve one ability."""
    state = f.state
    pay(f, d, src, ab)
    if src == "war":
        war_effect(f, d, target)
        return
    name = f"{who(d)} uses {ab.name}"
    e = ab.effect
    if e == "heal":
        ally = state.defenders[int(target)]  # type: ignore[arg-type]
        got = rules.heal(ally, ab.amount)
        f.emit("log", f"{name}: {who(ally)} regains {got} HP.")
    elif e == "secure":
        r = state.regions[str(target)]
        before = r.threat
        r.threat = max(0, r.threat - ab.amount)
        f.emit("log", f"{name}: {region_name(state, r.key)} loses {before - r.threat} Threat ({r.threat}).")
    elif e == "secure_adjacent_all":
        for region in board.adjacent(state, d.region):
            if region != CAPITAL and not state.regions[region].destroyed:
                state.regions[region].threat = max(0, state.regions[region].threat - ab.amount)
        f.emit("log", f"{name}: the neighbouring regions are Secured.")
    elif e == "secure_capital":
        state.capital_threat = max(0, state.capital_threat - ab.amount)
        f.emit("log", f"{name}: the Capital City's Threat falls to {state.capital_threat}.")
    elif e == "strike":
        rules.damage_boss(f, d, ab.amount, name)
    elif e == "dash":
        leave(state, d)
        d.region = str(target)
        f.emit("log", f"{name}: moves to {region_name(state, d.region)}.")
    elif e == "rally":
        assert state.active is not None
        state.active.ap += ab.amount
        f.emit("log", f"{name}: {ab.amount} more AP ({state.active.ap} left).")
    elif e == "ward":
        state.regions[str(target)].wards += 1
        f.emit("log", f"{name}: {region_name(state, str(target))} is warded against its next attack this round.")
    elif e == "scout":
        scout(f, name, ab.amount)
    elif e == "shield":
        d.shield = True
        f.emit("log", f"{name}: until the round ends {who(d)} defends without losing HP.")
    elif e == "summon":
        ally = state.defenders[int(target)]  # type: ignore[arg-type]
        leave(state, ally)
        ally.region = d.region
        f.emit("log", f"{name}: {who(ally)} joins them in {region_name(state, d.region)}.")
    elif e == "haul":
        move_caravans(f, d, d.region, str(target), 1, escorted=False)
        f.emit("log", f"{name}: a Caravan moves to {region_name(state, str(target))}.")
    elif e == "draw_skill":
        rules.draw_skill(f, d)


def scout(f: Flow, name: str, n: int) -> None:
    state = f.state
    top = state.turn_deck[-n:]
    bad = [c for c in top if c.startswith(("e:", "x:")) or c == "deserter"]
    keep = [c for c in top if c not in bad]
    state.turn_deck = bad + state.turn_deck[:-n] + keep if len(state.turn_deck) > n else bad + keep
    seen = ", ".join(card_name(c) for c in reversed(top)) or "nothing"
    f.emit("log", f"{name}: the next cards were {seen}; {counted(len(bad), 'Enemy card')} moved to the bottom.")


def leave(state: DefendersState, d: Defender) -> None:
    if d.in_tree:
        d.in_tree = False
        state.tree = None


def move_caravans(f: Flow, d: Defender, frm: str, to: str, n: int, escorted: bool) -> None:
    state = f.state
    state.regions[frm].caravans -= n
    if to == CAPITAL:
        state.capital_caravans += n
        if escorted:
            rules.gain_xp(d, rules.XP_ESCORT * n)
        f.emit("caravan", f"{caravans(n)} {'reaches' if n == 1 else 'reach'} the Capital City ({state.capital_caravans}/{rules.CARAVANS} home)"
              + (f"; {who(d)} gains {rules.XP_ESCORT * n} XP." if escorted else "."))
        if rules.all_home(state):
            f.emit("caravan", "Every Caravan is home: the boss can now fall.")
    else:
        state.regions[to].caravans += n


def war_effect(f: Flow, d: Defender, target: Target) -> None:
    state = f.state
    key = d.region
    name = content().war_region(key).friendly_name
    if key == "coast":
        state.fleet_dice -= 1
        hit = state.ring[f.rng.randrange(6)]
        r = state.regions[hit]
        r.fleet_die = True
        if r.threat > 0 and not r.destroyed:
            r.threat -= 1
            f.emit("log", f"{who(d)} sends the {name}: the fleet die shows {region_name(state, hit)}, which loses 1 Threat.")
        else:
            f.emit("log", f"{who(d)} sends the {name}: the fleet die shows {region_name(state, hit)}, already calm.")
    elif key in ("desert", "ruins"):
        if key == "desert":
            state.storms -= 1
        else:
            state.death_tokens -= 1
        state.regions[str(target)].wards += 1
        f.emit("log", f"{who(d)} uses {name}: {region_name(state, str(target))} is warded against its next attack this round.")
    elif key == "forest":
        d.in_tree = True
        state.tree = d.idx
        f.emit("log", f"{who(d)} climbs the Great Tree: they defend the Glen and its neighbours without losing HP.")
    elif key == "mountains":
        d.riding = True
        state.manticore = f"rider:{d.idx}"
        f.emit("log", f"{who(d)} mounts the Manticore: until the round ends each move may fly anywhere for 1 AP.")
    elif key == "plains":
        state.soldiers -= 1
        state.turn_deck.insert(f.rng.randrange(len(state.turn_deck) + 1), "soldier")
        f.emit("log", f"{who(d)} musters a Soldier card into the Turn Deck.")
