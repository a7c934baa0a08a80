"""Activated abilities: who may use which source now, its legal targets, and what it does.

A source is `hero` (the Defender card), `art:<key>`, `skill:<key>`, `region` (the side of the
Outer Region the Defender stands in), `capital` (War Council) or `war` (a friendly War Region).
Every effect of content.Effect is implemented here once (passives are read in rules.py).
"""

from __future__ import annotations

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


def ability_of(st: DefendersState, d: Defender, src: str) -> Ability | None:
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
    if src == "region":
        if d.region == CAPITAL:
            return None
        r = st.regions[d.region]
        if r.war or r.destroyed:
            return None
        reg = c.region(d.region)
        return (reg.a if r.side == "A" else reg.b).ability
    if src == "war":
        if d.region == CAPITAL:
            return None
        r = st.regions[d.region]
        if not r.war or r.side != "friendly" or r.destroyed:
            return None
        return war_action(d.region)
    return None


def sources(st: DefendersState, d: Defender) -> list[str]:
    place = ["capital"] if d.region == CAPITAL else ["region", "war"]
    return ["hero", *place] + [f"art:{a}" for a in d.artifacts] + [f"skill:{s}" for s in d.skills]


def usable(st: DefendersState, d: Defender, src: str, own_turn: bool, ap: int) -> Ability | None:
    """The ability if `d` may use it now (costs, limits, hexes, the boss's dread)."""
    ab = ability_of(st, d, src)
    if ab is None or st.hexed:
        return None
    boss = st.boss
    if boss.revealed and content().boss(boss.key).passive == "dread" and boss.region == d.region:
        return None
    if src.startswith("skill:") and ab.own_turn and not own_turn:
        return None
    if not own_turn and not src.startswith("skill:"):
        return None
    if ab.ap > ap or ab.xp > d.xp or (ab.hp and d.hp < ab.hp):
        return None
    if ab.limit != "none" and f"{ab.limit}:{src}" in d.used:
        return None
    if src == "war" and not war_ready(st, d):
        return None
    if not targets(st, d, src, ab):
        return None
    return ab


def war_ready(st: DefendersState, d: Defender) -> bool:
    key = d.region
    if key == "coast":
        return st.fleet_dice > 0
    if key == "desert":
        return st.storms > 0
    if key == "forest":
        return st.tree is None
    if key == "mountains":
        return st.manticore == "mountains" and not d.riding
    if key == "plains":
        return st.soldiers > 0
    if key == "ruins":
        return st.death_tokens > 0
    return False


def targets(st: DefendersState, d: Defender, src: str, ab: Ability) -> list[Target]:
    """Legal targets; [None] for an ability that needs none."""
    outer = st.ring
    if src == "war":
        if d.region in ("desert", "ruins"):
            return list(outer)
        return [None]
    e, scope = ab.effect, ab.scope
    if e == "heal":
        pool = [d] if scope == "self" else [x for x in st.defenders if x.region == d.region]
        return [x.idx for x in pool if x.hp < rules.max_hp(x)]
    if e in ("secure", "ward"):
        if scope == "here":
            regions = [] if d.region == CAPITAL else [d.region]
        elif scope == "adjacent":
            regions = [k for k in board.adjacent(st, d.region) if k != CAPITAL]
        else:
            regions = list(outer)
        if e == "secure":
            return [k for k in regions if st.regions[k].threat > 0 and not st.regions[k].destroyed]
        return list(regions)
    if e == "secure_adjacent_all":
        near = [k for k in board.adjacent(st, d.region) if k != CAPITAL]
        return [None] if any(st.regions[k].threat > 0 and not st.regions[k].destroyed for k in near) else []
    if e == "secure_capital":
        return [None] if st.capital_threat > 0 else []
    if e == "strike":
        boss = st.boss
        if not boss.revealed or boss.hp <= rules.boss_floor(st):
            return []
        return [None] if scope == "any" or boss.region == d.region else []
    if e == "dash":
        if scope == "adjacent":
            return list(board.adjacent(st, d.region))
        return [k for k in outer if k != d.region]
    if e == "rally":
        return [None] if st.active is not None else []
    if e == "scout":
        return [None] if st.turn_deck else []
    if e == "shield":
        return [] if d.shield else [None]
    if e == "summon":
        return [x.idx for x in st.defenders if x.idx != d.idx and x.region != d.region]
    if e == "haul":
        if d.region == CAPITAL or st.regions[d.region].caravans == 0:
            return []
        return list(board.adjacent(st, d.region))
    if e == "draw_skill":
        return [None] if st.skill_deck else []
    return []


def target_label(st: DefendersState, target: Target) -> str:
    if isinstance(target, int):
        return content().defender(st.defenders[target].key).name
    if isinstance(target, str):
        return region_name(st, target)
    return ""


def pay(f: Flow, d: Defender, src: str, ab: Ability) -> None:
    st = f.state
    if ab.ap and st.active is not None:
        st.active.ap -= ab.ap
    d.xp -= ab.xp
    if ab.hp:
        d.hp -= ab.hp
    if ab.limit != "none":
        d.used.append(f"{ab.limit}:{src}")


def apply(f: Flow, d: Defender, src: str, ab: Ability, target: Target) -> None:
    """Pay for and resolve one ability."""
    st = f.state
    pay(f, d, src, ab)
    if src == "war":
        war_effect(f, d, target)
        return
    name = f"{who(d)} uses {ab.name}"
    e = ab.effect
    if e == "heal":
        x = st.defenders[int(target)]  # type: ignore[arg-type]
        got = rules.heal(x, ab.amount)
        f.say(f"{name}: {who(x)} regains {got} HP.")
    elif e == "secure":
        r = st.regions[str(target)]
        before = r.threat
        r.threat = max(0, r.threat - ab.amount)
        f.say(f"{name}: {region_name(st, r.key)} loses {before - r.threat} Threat ({r.threat}).")
    elif e == "secure_adjacent_all":
        for k in board.adjacent(st, d.region):
            if k != CAPITAL and not st.regions[k].destroyed:
                st.regions[k].threat = max(0, st.regions[k].threat - ab.amount)
        f.say(f"{name}: the neighbouring regions are Secured.")
    elif e == "secure_capital":
        st.capital_threat = max(0, st.capital_threat - ab.amount)
        f.say(f"{name}: the Capital City's Threat falls to {st.capital_threat}.")
    elif e == "strike":
        rules.damage_boss(f, d, ab.amount, name)
    elif e == "dash":
        leave(st, d)
        d.region = str(target)
        f.say(f"{name}: moves to {region_name(st, d.region)}.")
    elif e == "rally":
        assert st.active is not None
        st.active.ap += ab.amount
        f.say(f"{name}: {ab.amount} more AP ({st.active.ap} left).")
    elif e == "ward":
        st.regions[str(target)].wards += 1
        f.say(f"{name}: {region_name(st, str(target))} is warded against its next attack this round.")
    elif e == "scout":
        scout(f, name, ab.amount)
    elif e == "shield":
        d.shield = True
        f.say(f"{name}: until the round ends {who(d)} defends without losing HP.")
    elif e == "summon":
        x = st.defenders[int(target)]  # type: ignore[arg-type]
        leave(st, x)
        x.region = d.region
        f.say(f"{name}: {who(x)} joins them in {region_name(st, d.region)}.")
    elif e == "haul":
        move_caravans(f, d, d.region, str(target), 1, escorted=False)
        f.say(f"{name}: a Caravan moves to {region_name(st, str(target))}.")
    elif e == "draw_skill":
        rules.draw_skill(f, d)


def scout(f: Flow, name: str, n: int) -> None:
    st = f.state
    top = st.turn_deck[-n:]
    bad = [c for c in top if c.startswith(("e:", "x:")) or c == "deserter"]
    keep = [c for c in top if c not in bad]
    st.turn_deck = bad + st.turn_deck[:-n] + keep if len(st.turn_deck) > n else bad + keep
    seen = ", ".join(card_name(c) for c in reversed(top)) or "nothing"
    f.say(f"{name}: the next cards were {seen}; {counted(len(bad), 'Enemy card')} moved to the bottom.")


def leave(st: DefendersState, d: Defender) -> None:
    if d.in_tree:
        d.in_tree = False
        st.tree = None


def move_caravans(f: Flow, d: Defender, frm: str, to: str, n: int, escorted: bool) -> None:
    st = f.state
    st.regions[frm].caravans -= n
    if to == CAPITAL:
        st.capital_caravans += n
        if escorted:
            rules.gain_xp(d, rules.XP_ESCORT * n)
        f.say(f"{caravans(n)} {'reaches' if n == 1 else 'reach'} the Capital City ({st.capital_caravans}/{rules.CARAVANS} home)"
              + (f"; {who(d)} gains {rules.XP_ESCORT * n} XP." if escorted else "."), kind="caravan")
        if rules.all_home(st):
            f.say("Every Caravan is home: the boss can now fall.", kind="caravan")
    else:
        st.regions[to].caravans += n


def war_effect(f: Flow, d: Defender, target: Target) -> None:
    st = f.state
    key = d.region
    name = content().war_region(key).friendly_name
    if key == "coast":
        st.fleet_dice -= 1
        hit = st.ring[f.rng.randrange(6)]
        r = st.regions[hit]
        r.fleet_die = True
        if r.threat > 0 and not r.destroyed:
            r.threat -= 1
            f.say(f"{who(d)} sends the {name}: the fleet die shows {region_name(st, hit)}, which loses 1 Threat.")
        else:
            f.say(f"{who(d)} sends the {name}: the fleet die shows {region_name(st, hit)}, already calm.")
    elif key in ("desert", "ruins"):
        if key == "desert":
            st.storms -= 1
        else:
            st.death_tokens -= 1
        st.regions[str(target)].wards += 1
        f.say(f"{who(d)} uses {name}: {region_name(st, str(target))} is warded against its next attack this round.")
    elif key == "forest":
        d.in_tree = True
        st.tree = d.idx
        f.say(f"{who(d)} climbs the Great Tree: they defend the Glen and its neighbours without losing HP.")
    elif key == "mountains":
        d.riding = True
        st.manticore = f"rider:{d.idx}"
        f.say(f"{who(d)} mounts the Manticore: until the round ends each move may fly anywhere for 1 AP.")
    elif key == "plains":
        st.soldiers -= 1
        st.turn_deck.insert(f.rng.randrange(len(st.turn_deck) + 1), "soldier")
        f.say(f"{who(d)} musters a Soldier card into the Turn Deck.")
