"""Tiny Epic Defenders + The Dark War: the Defenders, Threat, attacks, the boss, a battle's end.

What a card or an answer does to the realm; the course of a battle (rounds, the Turn Deck's
cards) is in rounds.py, and the phase table in actions.py runs it between decisions.
Clause references (R: the Dark War rulebook, A/U: defenders-facts.md) are in
docs/rules/defenders.md.
"""

from __future__ import annotations

from functools import lru_cache

from engine import kit
from engine.defenders import board
from engine.defenders.board import CAPITAL
from engine.defenders.content import TERRAINS, content
from engine.defenders.names import caravans, region_name, who
from engine.defenders.state import Attack, Defender, DefendersState, new_attack
from engine.defenders.view_models import CAPITAL_FELL

XP_MAX = 8
XP_DEFEND = 1
XP_ESCORT = 2
XP_GENERAL = 3
CARAVANS = 6


Flow = kit.Flow[DefendersState]
"""One choice's pass over a Defenders state (engine/kit/flow.py); every Defenders event is
public, a co-operative game hides nothing."""


# ---------------------------------------------------------------------------- defenders


def max_hp(d: Defender) -> int:
    c = content()
    bonus = sum(c.artifact(a).ability.amount for a in d.artifacts if c.artifact(a).ability.effect == "max_hp")
    return max(1, c.defender(d.key).max_hp + bonus - d.death_tokens)


def passive(d: Defender, effect: str) -> int:
    """The summed amount of a passive effect from the Defender card and its artifacts."""
    return _passive(d.key, tuple(d.artifacts), effect)


@lru_cache(maxsize=4096)
def _passive(key: str, artifacts: tuple[str, ...], effect: str) -> int:
    """`passive` of a Defender card with these artifacts (the cards never change: asked for
    every move cost and every Defense, it is worked out once per combination)."""
    c = content()
    total = 0
    card = c.defender(key).ability
    if card.effect == effect:
        total += card.amount
    for a in artifacts:
        ab = c.artifact(a).ability
        if ab.effect == effect:
            total += ab.amount
    return total


def gain_xp(d: Defender, n: int) -> None:
    d.xp = min(XP_MAX, d.xp + n)


def hurt(f: Flow, d: Defender, n: int, why: str) -> None:
    if n <= 0 or d.hp <= 0:
        return
    d.hp = max(0, d.hp - n)
    f.emit("log", f"{who(d)} loses {n} HP ({why})" + (" and is Exhausted." if d.hp == 0 else "."))


def heal(d: Defender, n: int | None = None) -> int:
    top = max_hp(d)
    before = d.hp
    d.hp = top if n is None else min(top, d.hp + n)
    return d.hp - before


def draw_skill(f: Flow, d: Defender) -> None:
    if not f.state.skill_deck:
        f.emit("log", f"{who(d)} finds the Skill deck empty.")
        return
    key = f.state.skill_deck.pop()
    d.skills.append(key)
    f.emit("log", f"{who(d)} learns the skill {content().skill(key).name}.")


def level_up(f: Flow, d: Defender) -> None:
    d.xp -= XP_MAX
    heal(d)
    f.emit("log", f"{who(d)} levels up: back to full HP.")
    draw_skill(f, d)


# ---------------------------------------------------------------------------- threat


def ap_per_card(state: DefendersState) -> int:
    return state.options.ap_destroyed if any(r.destroyed for r in state.regions.values()) else state.options.ap


def capital_gains(f: Flow, n: int, why: str) -> None:
    state = f.state
    if state.phase == "over":
        return
    state.capital_threat += n
    f.emit("log", f"The Capital City gains {n} Threat ({why}): {state.capital_threat}/{state.options.destruction}.")
    if state.capital_threat >= state.options.destruction:
        finish(f, False, CAPITAL_FELL)


def gain_threat(f: Flow, key: str, n: int, why: str, trigger: bool = True) -> None:
    """Threat lands on an Outer Region: past its top it is Destroyed, then it spills into the Capital."""
    state = f.state
    for _ in range(n):
        if state.phase == "over":
            return
        r = state.regions[key]
        if r.destroyed:
            capital_gains(f, 1, f"{region_name(state, key)} lies in ruins; {why}")
        elif r.threat >= state.options.outer_max:
            r.destroyed = True
            f.emit("destroyed", f"{region_name(state, key)} is Destroyed ({why}). Every card now gives "
                  f"{state.options.ap_destroyed} AP.")
        else:
            r.threat += 1
            f.emit("log", f"{region_name(state, key)} gains 1 Threat ({why}): {r.threat}/{state.options.outer_max}.")
            if trigger and r.war and r.side == "hostile":
                hostile_trigger(f, key)


def hostile_trigger(f: Flow, key: str) -> None:
    """A Hostile War Region reacts when it gains Threat (docs/rules/defenders.md, War Regions)."""
    state = f.state
    name = content().war_region(key).hostile_name
    if key == "coast" and state.fleet_dice > 0:
        state.fleet_dice -= 1
        target = state.ring[f.rng.randrange(6)]
        state.regions[target].fleet_die = True
        f.emit("log", f"{name}: a fleet die lands on {region_name(state, target)}.")
        state.attacks.append(new_attack(target, name, "war"))
    elif key == "desert" and state.storms > 0:
        i = state.ring.index("desert")
        for step in range(6):
            target = state.ring[(i + step) % 6]
            if not state.regions[target].storm:
                state.storms -= 1
                state.regions[target].storm = True
                f.emit("log", f"{name}: a storm settles on {region_name(state, target)}; moving in or out costs 1 more AP.")
                break
    elif key == "mountains":
        others = [region for region in state.ring if region != "mountains" and not state.regions[region].destroyed]
        if others:
            target = board.most_threatened(state, others)
            state.manticore = target
            f.emit("log", f"{name}: the Manticore swoops on {region_name(state, target)}.")
            gain_threat(f, target, 1, "the Manticore", trigger=False)
    elif key == "plains" and state.soldiers > 0:
        state.soldiers -= 1
        state.turn_deck.insert(f.rng.randrange(len(state.turn_deck) + 1), "deserter")
        f.emit("log", f"{name}: a Deserter card is shuffled into the Turn Deck.")


# ---------------------------------------------------------------------------- attacks


def defend_cost(state: DefendersState, d: Defender, attack: Attack) -> int:
    o = state.options
    base = o.defend_cost_dire if attack.kind in ("dire", "boss") else o.defend_cost_enemy
    boss = state.boss
    if boss.revealed and content().boss(boss.key).passive == "frenzy" and boss.region == attack.region:
        base += 1
    if d.shield or (d.in_tree and tree_reaches(state, attack.region)):
        return 0
    return max(0, base - passive(d, "defend_discount"))


def tree_reaches(state: DefendersState, key: str) -> bool:
    return key == "forest" or key in board.adjacent(state, "forest")


def in_reach(state: DefendersState, d: Defender, attack: Attack) -> bool:
    """Standing in the attacked region, or reaching it (ranged from next door, the Great Tree)."""
    near = d.region == attack.region
    if not near and d.region != CAPITAL and passive(d, "ranged"):
        near = attack.region in board.adjacent(state, d.region)
    if not near and d.in_tree:
        near = tree_reaches(state, attack.region)
    return near


def can_defend(state: DefendersState, d: Defender, attack: Attack) -> bool:
    return d.hp > 0 and in_reach(state, d, attack) and d.hp >= defend_cost(state, d, attack)


def could_level_to_defend(state: DefendersState, d: Defender, attack: Attack) -> bool:
    """At 8 XP a Level Up (any time, R) restores full HP, which may pay for a defence the
    Defender cannot afford now: such a Defender is asked too."""
    return d.xp >= XP_MAX and in_reach(state, d, attack) and max_hp(d) >= defend_cost(state, d, attack)


def defenders_for(state: DefendersState, attack: Attack) -> list[Defender]:
    """The Defenders whose seats are asked about this attack (and have not declined it)."""
    return [d for d in state.defenders if d.seat not in attack.declined
            and (can_defend(state, d, attack) or could_level_to_defend(state, d, attack))]


def asked_to_defend(state: DefendersState, attack: Attack, seat: int) -> bool:
    """Whether `defenders_for` names a Defender of ``seat`` (the others are not looked at)."""
    return bool(seat_defenders_for(state, attack, seat))


def seat_defenders_for(state: DefendersState, attack: Attack, seat: int) -> list[Defender]:
    """The Defenders of ``seat`` that `defenders_for` names, in its order (the others are not
    looked at)."""
    if seat in attack.declined:
        return []
    return [d for d in state.defenders if d.seat == seat
            and (can_defend(state, d, attack) or could_level_to_defend(state, d, attack))]


def anyone_asked(state: DefendersState, attack: Attack) -> bool:
    """Whether `defenders_for` names anyone (looking no further than the first)."""
    declined = attack.declined
    return any(d.seat not in declined and (can_defend(state, d, attack) or could_level_to_defend(state, d, attack))
               for d in state.defenders)


def settle_attacks(f: Flow) -> bool:
    """Resolve queued attacks nobody can answer; True when one waits for a decision."""
    state = f.state
    while state.attacks and state.phase == "play":
        attack = state.attacks[0]
        region = state.regions[attack.region]
        if region.wards > 0:
            region.wards -= 1
            state.attacks.pop(0)
            f.emit("log", f"A ward turns {attack.source} away from {region_name(state, attack.region)}.")
            continue
        if anyone_asked(state, attack):
            return True
        state.attacks.pop(0)
        undefended(f, attack)
    return False


def undefended(f: Flow, attack: Attack) -> None:
    state = f.state
    f.emit("attack", f"Nobody defends {region_name(state, attack.region)} against {attack.source}.")
    gain_threat(f, attack.region, 1, attack.source, trigger=attack.kind != "war")
    if attack.dire and state.phase == "play":
        on_hit(f, attack)


def defended(f: Flow, attack: Attack, d: Defender) -> None:
    state = f.state
    cost = defend_cost(state, d, attack)
    state.attacks.pop(0)
    d.hp -= cost
    f.emit("defend", f"{who(d)} defends {region_name(state, attack.region)} against {attack.source}"
          + (f" for {cost} HP ({d.hp} left)." if cost else " without losing HP.")
          + (" Exhausted." if d.hp == 0 else ""))
    if attack.kind in ("enemy", "dire", "deserter"):
        gain_xp(d, XP_DEFEND)
    region = state.regions[attack.region]
    if attack.region == "ruins" and region.war and region.side == "hostile" and state.death_tokens > 0:
        state.death_tokens -= 1
        d.death_tokens += 1
        d.hp = min(d.hp, max_hp(d))
        f.emit("log", f"Death's Toll: {who(d)} takes a death token (maximum HP {max_hp(d)}).")
    if attack.kind == "dire":
        win_artifact(f, d)


def win_artifact(f: Flow, d: Defender) -> None:
    state = f.state
    if not state.artifact_deck:
        f.emit("log", "The Artifact deck is empty: no artifact this time.")
        return
    key = state.artifact_deck.pop()
    card = content().artifact(key)
    if slot_free(d, card.slot):
        d.artifacts.append(key)
        f.emit("artifact", f"{who(d)} gains the artifact {card.name}.")
        if card.ability.effect == "max_hp":
            heal(d, card.ability.amount)
    else:
        state.artifact_offer = {"d": d.idx, "key": key}
        f.emit("log", f"{who(d)} wins the artifact {card.name} but has no free {card.slot} slot.")


def slot_limit(slot: str) -> int:
    """A Defender carries 2 hand Artifacts and 1 on the back (A8)."""
    return 2 if slot == "hand" else 1


def slot_free(d: Defender, slot: str) -> bool:
    c = content()
    used = sum(1 for a in d.artifacts if c.artifact(a).slot == slot)
    return used < slot_limit(slot)


def on_hit(f: Flow, attack: Attack) -> None:
    state = f.state
    card = content().dire_card(attack.dire or "")
    r = attack.region
    if card.on_hit == "surge":
        gain_threat(f, r, card.amount, card.name)
    elif card.on_hit == "spread":
        for region in board.adjacent(state, r):
            if region != CAPITAL:
                gain_threat(f, region, card.amount, card.name)
    elif card.on_hit == "siege":
        capital_gains(f, card.amount, card.name)
    elif card.on_hit == "maul":
        for d in state.defenders:
            if d.region == r:
                hurt(f, d, card.amount, card.name)
    elif card.on_hit == "hex":
        state.hexed = True
        f.emit("log", f"{card.name}: no ability can be used until the round ends.")
    elif card.on_hit == "feed":
        if state.boss.revealed:
            state.boss.hp = min(state.boss.max_hp, state.boss.hp + card.amount)
            f.emit("log", f"{card.name} feeds the boss: {state.boss.hp}/{state.boss.max_hp} HP.")
        else:
            state.feed += card.amount
            f.emit("log", f"{card.name} feeds the boss still to come: {card.amount} more HP when it arrives.")
    elif card.on_hit == "panic":
        lost = state.regions[r].caravans
        if lost:
            state.regions[r].caravans = 0
            state.caravan_pile[:0] = [r] * lost
            f.emit("log", f"{card.name}: {caravans(lost)} in {region_name(state, r)} flee back to the pile.")


# ---------------------------------------------------------------------------- the boss


def turn_of(state: DefendersState, d: Defender) -> int:
    """Whose Turn an action of `d` belongs to: the active Defender's on a Defender card (even a
    skill used from another seat), `d`'s own on an All Defenders card."""
    act = state.active
    if act is not None and act.card == "defender" and act.defender is not None:
        return act.defender
    return d.idx


def damage_boss(f: Flow, d: Defender, n: int, why: str) -> None:
    """`d` deals `n` damage; armour ignores the first damage of every Defender Turn."""
    state = f.state
    boss = state.boss
    card = content().boss(boss.key)
    turn = turn_of(state, d)
    if card.passive == "armor" and turn not in boss.armor_soaked and n > 0:
        boss.armor_soaked.append(turn)
        n -= 1
        f.emit("log", f"{card.name}'s armour soaks the first damage of this Turn.")
    if n <= 0:
        return
    floor = boss_floor(state)
    before = boss.hp
    boss.hp = max(floor, boss.hp - n)
    f.emit("boss", f"{why}: {card.name} takes {before - boss.hp} damage ({boss.hp}/{boss.max_hp} HP).")
    if boss.hp == 1 and floor == 1 and before - n < 1:
        f.emit("log", f"{card.name} cannot fall while Caravans are still out: "
              f"{state.capital_caravans}/{CARAVANS} are home.")
    if boss.hp <= 0:
        boss_defeated(f)


def all_home(state: DefendersState) -> bool:
    """Every Caravan is in the Capital: only then can the boss lose its last HP (R: Caravans)."""
    return state.capital_caravans >= CARAVANS


def boss_floor(state: DefendersState) -> int:
    """The lowest HP the boss can be brought to now."""
    return 0 if all_home(state) else 1


def boss_defeated(f: Flow) -> None:
    state = f.state
    card = content().boss(state.boss.key)
    if state.boss.kind == "general":
        for d in state.defenders:
            gain_xp(d, XP_GENERAL)
        f.emit("victory", f"{card.name} is defeated! Every Defender gains {XP_GENERAL} XP.")
    else:
        f.emit("victory", f"{card.name} is defeated!")
    if state.options.mode == "single" or state.battle >= 3:
        finish(f, True, f"{card.name} was defeated with all {CARAVANS} Caravans home")
    else:
        rebuild(f)


def rebuild(f: Flow) -> None:
    """After a won battle (R: Rebuild, Regroup, Reconcile). The automatic parts happen now;
    spending XP on the Capital, levelling up and trading artifacts are the players' choices."""
    state = f.state
    state.phase = "rebuild"
    state.ready = []
    state.trade_offer = None
    state.active = None
    state.attacks = []
    state.current = None
    for d in state.defenders:
        d.death_tokens = 0
        d.shield = d.in_tree = d.riding = False
        d.used = []
        d.region = CAPITAL  # every battle is set up with the Defenders in the Capital (A3)
        heal(d)
    for r in state.regions.values():
        r.threat = 0
        r.destroyed = False
        r.caravans = 0
        r.wards = 0
        r.storm = r.fleet_die = False
    state.caravan_pile = list(TERRAINS)
    f.rng.shuffle(state.caravan_pile)
    state.capital_caravans = 0
    state.hexed = False
    f.emit("rebuild", f"Rebuild: the realm is restored and every Defender heals. The Capital City keeps its "
          f"{state.capital_threat} Threat; each 2 XP spent removes 1.", phase_end=True)


def reveal_boss(f: Flow) -> None:
    state = f.state
    boss = state.boss
    card = content().boss(boss.key)
    boss.revealed = True
    boss.max_hp = boss.hp = boss.max_hp + card.hp_bonus + state.feed
    state.feed = 0
    boss.region = card.region
    what = "General" if boss.kind == "general" else "Epic Foe"
    f.emit("boss_reveal", f"The Horde is spent: the {what} {card.name} takes the field in {region_name(state, boss.region)} "
          f"with {boss.hp} HP. {card.passive_text}")


def boss_round(f: Flow) -> None:
    """The boss's round effect, then its attack on its own region (U7)."""
    state = f.state
    boss = state.boss
    card = content().boss(boss.key)
    effect = card.round_effect
    if effect == "quake":
        for region in state.ring:
            gain_threat(f, region, 1, card.name)
    elif effect == "siege":
        capital_gains(f, 1, card.name)
    elif effect == "wither":
        for d in state.defenders:
            if d.region == boss.region:
                hurt(f, d, 1, card.name)
    elif effect == "regrow":
        before = boss.hp
        boss.hp = min(boss.max_hp, boss.hp + 2)
        if boss.hp > before:
            f.emit("log", f"{card.name} regains {boss.hp - before} HP ({boss.hp}/{boss.max_hp}).")
    elif effect == "hunt":
        target = board.most_threatened(state)
        state.attacks.append(new_attack(target, card.name, "boss"))
    elif effect == "stalk":
        nxt = [region for region in board.adjacent(state, boss.region) if region != CAPITAL]
        boss.region = board.most_threatened(state, nxt)
        f.emit("log", f"{card.name} moves to {region_name(state, boss.region)}.")
    if state.phase == "play":
        state.attacks.append(new_attack(boss.region, card.name, "boss"))


def finish(f: Flow, won: bool, reason: str) -> None:
    state = f.state
    if state.phase == "over":
        return
    state.phase = "over"
    state.won = won
    state.reason = reason
    state.active = None
    state.attacks = []
    state.artifact_offer = None
    f.emit("over", ("Victory: " if won else "Defeat: ") + reason + ".", phase_end=True)
