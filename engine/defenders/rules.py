"""Tiny Epic Defenders + The Dark War: the round flow, attacks, the boss and the battles.

`advance` runs everything that needs no decision (drawing cards, resolving attacks nobody can
defend, round changes) until a decision is owed. Decisions are answered through `actions.py`.
Clause references (R: the Dark War rulebook, A/U: defenders-facts.md) are in
docs/rules/defenders.md.
"""

from __future__ import annotations

from engine import kit
from engine.defenders import board
from engine.defenders.board import CAPITAL
from engine.defenders.content import content
from engine.defenders.names import caravans, region_name, who
from engine.defenders.state import Active, Attack, Defender, DefendersState
from engine.words import counted

XP_MAX = 8
XP_DEFEND = 1
XP_ESCORT = 2
XP_GENERAL = 3
CARAVANS = 6


class Flow(kit.Flow[DefendersState]):
    """One resolution pass: the state, its events and the step's RNG (engine/kit/flow.py).

    Every Defenders event is public (a co-operative game hides nothing), so `say` is the
    short form used throughout: text first, data as keywords.
    """

    log_field = "log"

    def say(self, text: str, kind: str = "log", phase_end: bool = False, **data: object) -> None:
        self.emit(kind, text, data=dict(data), phase_end=phase_end)


# ---------------------------------------------------------------------------- defenders


def max_hp(d: Defender) -> int:
    c = content()
    bonus = sum(c.artifact(a).ability.amount for a in d.artifacts if c.artifact(a).ability.effect == "max_hp")
    return max(1, c.defender(d.key).max_hp + bonus - d.death_tokens)


def passive(d: Defender, effect: str) -> int:
    """The summed amount of a passive effect from the Defender card and its artifacts."""
    c = content()
    total = 0
    card = c.defender(d.key).ability
    if card.effect == effect:
        total += card.amount
    for a in d.artifacts:
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
    f.say(f"{who(d)} loses {n} HP ({why})" + (" and is Exhausted." if d.hp == 0 else "."))


def heal(d: Defender, n: int | None = None) -> int:
    top = max_hp(d)
    before = d.hp
    d.hp = top if n is None else min(top, d.hp + n)
    return d.hp - before


def draw_skill(f: Flow, d: Defender) -> None:
    if not f.state.skill_deck:
        f.say(f"{who(d)} finds the Skill deck empty.")
        return
    key = f.state.skill_deck.pop()
    d.skills.append(key)
    f.say(f"{who(d)} learns the skill {content().skill(key).name}.")


def level_up(f: Flow, d: Defender) -> None:
    d.xp -= XP_MAX
    heal(d)
    f.say(f"{who(d)} levels up: back to full HP.")
    draw_skill(f, d)


# ---------------------------------------------------------------------------- threat


def ap_per_card(st: DefendersState) -> int:
    return st.options.ap_destroyed if any(r.destroyed for r in st.regions.values()) else st.options.ap


def capital_gains(f: Flow, n: int, why: str) -> None:
    st = f.state
    if st.phase == "over":
        return
    st.capital_threat += n
    f.say(f"The Capital City gains {n} Threat ({why}): {st.capital_threat}/{st.options.destruction}.")
    if st.capital_threat >= st.options.destruction:
        finish(f, False, "the Capital City fell")


def gain_threat(f: Flow, key: str, n: int, why: str, trigger: bool = True) -> None:
    """Threat lands on an Outer Region: past its top it is Destroyed, then it spills into the Capital."""
    st = f.state
    for _ in range(n):
        if st.phase == "over":
            return
        r = st.regions[key]
        if r.destroyed:
            capital_gains(f, 1, f"{region_name(st, key)} lies in ruins; {why}")
        elif r.threat >= st.options.outer_max:
            r.destroyed = True
            f.say(f"{region_name(st, key)} is Destroyed ({why}). Every card now gives "
                  f"{st.options.ap_destroyed} AP.", kind="destroyed")
        else:
            r.threat += 1
            f.say(f"{region_name(st, key)} gains 1 Threat ({why}): {r.threat}/{st.options.outer_max}.")
            if trigger and r.war and r.side == "hostile":
                hostile_trigger(f, key)


def hostile_trigger(f: Flow, key: str) -> None:
    """A Hostile War Region reacts when it gains Threat (docs/rules/defenders.md, War Regions)."""
    st = f.state
    name = content().war_region(key).hostile_name
    if key == "coast" and st.fleet_dice > 0:
        st.fleet_dice -= 1
        target = st.ring[f.rng.randrange(6)]
        st.regions[target].fleet_die = True
        f.say(f"{name}: a fleet die lands on {region_name(st, target)}.")
        st.attacks.append(Attack(region=target, source=name, kind="war"))
    elif key == "desert" and st.storms > 0:
        i = st.ring.index("desert")
        for k in range(6):
            target = st.ring[(i + k) % 6]
            if not st.regions[target].storm:
                st.storms -= 1
                st.regions[target].storm = True
                f.say(f"{name}: a storm settles on {region_name(st, target)}; moving in or out costs 1 more AP.")
                break
    elif key == "mountains":
        others = [k for k in st.ring if k != "mountains" and not st.regions[k].destroyed]
        if others:
            target = board.most_threatened(st, others)
            st.manticore = target
            f.say(f"{name}: the Manticore swoops on {region_name(st, target)}.")
            gain_threat(f, target, 1, "the Manticore", trigger=False)
    elif key == "plains" and st.soldiers > 0:
        st.soldiers -= 1
        st.turn_deck.insert(f.rng.randrange(len(st.turn_deck) + 1), "deserter")
        f.say(f"{name}: a Deserter card is shuffled into the Turn Deck.")


# ---------------------------------------------------------------------------- attacks


def defend_cost(st: DefendersState, d: Defender, attack: Attack) -> int:
    o = st.options
    base = o.defend_cost_dire if attack.kind in ("dire", "boss") else o.defend_cost_enemy
    boss = st.boss
    if boss.revealed and content().boss(boss.key).passive == "frenzy" and boss.region == attack.region:
        base += 1
    if d.shield or (d.in_tree and tree_reaches(st, attack.region)):
        return 0
    return max(0, base - passive(d, "defend_discount"))


def tree_reaches(st: DefendersState, key: str) -> bool:
    return key == "forest" or key in board.adjacent(st, "forest")


def in_reach(st: DefendersState, d: Defender, attack: Attack) -> bool:
    """Standing in the attacked region, or reaching it (ranged from next door, the Great Tree)."""
    near = d.region == attack.region
    if not near and passive(d, "ranged") and d.region != CAPITAL:
        near = attack.region in board.adjacent(st, d.region)
    if not near and d.in_tree:
        near = tree_reaches(st, attack.region)
    return near


def can_defend(st: DefendersState, d: Defender, attack: Attack) -> bool:
    return d.hp > 0 and in_reach(st, d, attack) and d.hp >= defend_cost(st, d, attack)


def could_level_to_defend(st: DefendersState, d: Defender, attack: Attack) -> bool:
    """At 8 XP a Level Up (any time, R) restores full HP, which may pay for a defence the
    Defender cannot afford now: such a Defender is asked too."""
    return d.xp >= XP_MAX and in_reach(st, d, attack) and max_hp(d) >= defend_cost(st, d, attack)


def defenders_for(st: DefendersState, attack: Attack) -> list[Defender]:
    """The Defenders whose seats are asked about this attack (and have not declined it)."""
    return [d for d in st.defenders if d.seat not in attack.declined
            and (can_defend(st, d, attack) or could_level_to_defend(st, d, attack))]


def settle_attacks(f: Flow) -> bool:
    """Resolve queued attacks nobody can answer; True when one waits for a decision."""
    st = f.state
    while st.attacks and st.phase == "play":
        attack = st.attacks[0]
        region = st.regions[attack.region]
        if region.wards > 0:
            region.wards -= 1
            st.attacks.pop(0)
            f.say(f"A ward turns {attack.source} away from {region_name(st, attack.region)}.")
            continue
        if defenders_for(st, attack):
            return True
        st.attacks.pop(0)
        undefended(f, attack)
    return False


def undefended(f: Flow, attack: Attack) -> None:
    st = f.state
    f.say(f"Nobody defends {region_name(st, attack.region)} against {attack.source}.", kind="attack")
    gain_threat(f, attack.region, 1, attack.source, trigger=attack.kind != "war")
    if attack.dire and st.phase == "play":
        on_hit(f, attack)


def defended(f: Flow, attack: Attack, d: Defender) -> None:
    st = f.state
    cost = defend_cost(st, d, attack)
    st.attacks.pop(0)
    d.hp -= cost
    f.say(f"{who(d)} defends {region_name(st, attack.region)} against {attack.source}"
          + (f" for {cost} HP ({d.hp} left)." if cost else " without losing HP.")
          + (" Exhausted." if d.hp == 0 else ""), kind="defend")
    if attack.kind in ("enemy", "dire", "deserter"):
        gain_xp(d, XP_DEFEND)
    region = st.regions[attack.region]
    if attack.region == "ruins" and region.war and region.side == "hostile" and st.death_tokens > 0:
        st.death_tokens -= 1
        d.death_tokens += 1
        d.hp = min(d.hp, max_hp(d))
        f.say(f"Death's Toll: {who(d)} takes a death token (maximum HP {max_hp(d)}).")
    if attack.kind == "dire":
        win_artifact(f, d)


def win_artifact(f: Flow, d: Defender) -> None:
    st = f.state
    if not st.artifact_deck:
        f.say("The Artifact deck is empty: no artifact this time.")
        return
    key = st.artifact_deck.pop()
    card = content().artifact(key)
    if slot_free(d, card.slot):
        d.artifacts.append(key)
        f.say(f"{who(d)} gains the artifact {card.name}.", kind="artifact")
        if card.ability.effect == "max_hp":
            heal(d, card.ability.amount)
    else:
        st.artifact_offer = {"d": d.idx, "key": key}
        f.say(f"{who(d)} wins the artifact {card.name} but has no free {card.slot} slot.")


def slot_limit(slot: str) -> int:
    """A Defender carries 2 hand Artifacts and 1 on the back (A8)."""
    return 2 if slot == "hand" else 1


def slot_free(d: Defender, slot: str) -> bool:
    c = content()
    used = sum(1 for a in d.artifacts if c.artifact(a).slot == slot)
    return used < slot_limit(slot)


def on_hit(f: Flow, attack: Attack) -> None:
    st = f.state
    card = content().dire_card(attack.dire or "")
    r = attack.region
    if card.on_hit == "surge":
        gain_threat(f, r, card.amount, card.name)
    elif card.on_hit == "spread":
        for k in board.adjacent(st, r):
            if k != CAPITAL:
                gain_threat(f, k, card.amount, card.name)
    elif card.on_hit == "siege":
        capital_gains(f, card.amount, card.name)
    elif card.on_hit == "maul":
        for d in st.defenders:
            if d.region == r:
                hurt(f, d, card.amount, card.name)
    elif card.on_hit == "hex":
        st.hexed = True
        f.say(f"{card.name}: no ability can be used until the round ends.")
    elif card.on_hit == "feed":
        if st.boss.revealed:
            st.boss.hp = min(st.boss.max_hp, st.boss.hp + card.amount)
            f.say(f"{card.name} feeds the boss: {st.boss.hp}/{st.boss.max_hp} HP.")
        else:
            st.feed += card.amount
            f.say(f"{card.name} feeds the boss still to come: {card.amount} more HP when it arrives.")
    elif card.on_hit == "panic":
        lost = st.regions[r].caravans
        if lost:
            st.regions[r].caravans = 0
            st.caravan_pile[:0] = [r] * lost
            f.say(f"{card.name}: {caravans(lost)} in {region_name(st, r)} flee back to the pile.")


# ---------------------------------------------------------------------------- the boss


def turn_of(st: DefendersState, d: Defender) -> int:
    """Whose Turn an action of `d` belongs to: the active Defender's on a Defender card (even a
    skill used from another seat), `d`'s own on an All Defenders card."""
    act = st.active
    if act is not None and act.card == "defender" and act.defender is not None:
        return act.defender
    return d.idx


def damage_boss(f: Flow, d: Defender, n: int, why: str) -> None:
    """`d` deals `n` damage; armour ignores the first damage of every Defender Turn."""
    st = f.state
    boss = st.boss
    card = content().boss(boss.key)
    turn = turn_of(st, d)
    if card.passive == "armor" and turn not in boss.armor_soaked and n > 0:
        boss.armor_soaked.append(turn)
        n -= 1
        f.say(f"{card.name}'s armour soaks the first damage of this Turn.")
    if n <= 0:
        return
    floor = boss_floor(st)
    before = boss.hp
    boss.hp = max(floor, boss.hp - n)
    f.say(f"{why}: {card.name} takes {before - boss.hp} damage ({boss.hp}/{boss.max_hp} HP).", kind="boss")
    if boss.hp == 1 and floor == 1 and before - n < 1:
        f.say(f"{card.name} cannot fall while Caravans are still out: "
              f"{st.capital_caravans}/{CARAVANS} are home.")
    if boss.hp <= 0:
        boss_defeated(f)


def all_home(st: DefendersState) -> bool:
    """Every Caravan is in the Capital: only then can the boss lose its last HP (R: Caravans)."""
    return st.capital_caravans >= CARAVANS


def boss_floor(st: DefendersState) -> int:
    """The lowest HP the boss can be brought to now."""
    return 0 if all_home(st) else 1


def boss_defeated(f: Flow) -> None:
    st = f.state
    card = content().boss(st.boss.key)
    if st.boss.kind == "general":
        for d in st.defenders:
            gain_xp(d, XP_GENERAL)
        f.say(f"{card.name} is defeated! Every Defender gains {XP_GENERAL} XP.", kind="victory")
    else:
        f.say(f"{card.name} is defeated!", kind="victory")
    if st.options.mode == "single" or st.battle >= 3:
        finish(f, True, f"{card.name} was defeated with all {CARAVANS} Caravans home")
    else:
        from engine.defenders.campaign import rebuild  # campaign.py builds on this module

        rebuild(f)


def reveal_boss(f: Flow) -> None:
    st = f.state
    boss = st.boss
    card = content().boss(boss.key)
    boss.revealed = True
    boss.max_hp = boss.hp = boss.max_hp + card.hp_bonus + st.feed
    st.feed = 0
    boss.region = card.region
    what = "General" if boss.kind == "general" else "Epic Foe"
    f.say(f"The Horde is spent: the {what} {card.name} takes the field in {region_name(st, boss.region)} "
          f"with {boss.hp} HP. {card.passive_text}", kind="boss_reveal")


def boss_round(f: Flow) -> None:
    """The boss's round effect, then its attack on its own region (U7)."""
    st = f.state
    boss = st.boss
    card = content().boss(boss.key)
    effect = card.round_effect
    if effect == "quake":
        for k in st.ring:
            gain_threat(f, k, 1, card.name)
    elif effect == "siege":
        capital_gains(f, 1, card.name)
    elif effect == "wither":
        for d in st.defenders:
            if d.region == boss.region:
                hurt(f, d, 1, card.name)
    elif effect == "regrow":
        before = boss.hp
        boss.hp = min(boss.max_hp, boss.hp + 2)
        if boss.hp > before:
            f.say(f"{card.name} regains {boss.hp - before} HP ({boss.hp}/{boss.max_hp}).")
    elif effect == "hunt":
        target = board.most_threatened(st)
        st.attacks.append(Attack(region=target, source=card.name, kind="boss"))
    elif effect == "stalk":
        nxt = [k for k in board.adjacent(st, boss.region) if k != CAPITAL]
        boss.region = board.most_threatened(st, nxt)
        f.say(f"{card.name} moves to {region_name(st, boss.region)}.")
    if st.phase == "play":
        st.attacks.append(Attack(region=boss.region, source=card.name, kind="boss"))


# ---------------------------------------------------------------------------- rounds and battles


def round_start(f: Flow) -> None:
    st = f.state
    st.round += 1
    f.say(f"Battle {st.battle}, round {st.round} begins ({len(st.turn_deck)} cards in the Turn Deck, "
          f"{len(st.horde)} in the Horde).", kind="round", phase_end=True)
    if st.caravan_pile:
        key = st.caravan_pile.pop()
        st.regions[key].caravans += 1
        f.say(f"A Caravan arrives in {region_name(st, key)} and waits for an escort.", kind="caravan")
    if st.boss.revealed:
        boss_round(f)


def round_end(f: Flow) -> None:
    st = f.state
    st.hexed = False
    st.boss.armor_soaked = []
    for d in st.defenders:
        d.shield = False
        d.in_tree = False
        d.riding = False
        d.used = [u for u in d.used if not u.startswith("round:")]
    st.tree = None
    st.manticore = "mountains" if not (st.regions["mountains"].war and st.regions["mountains"].side == "hostile") \
        else st.manticore
    for r in st.regions.values():
        r.wards = 0
        r.fleet_die = False
    if not (st.regions["coast"].war and st.regions["coast"].side == "hostile"):
        st.fleet_dice = 3
    if not (st.regions["desert"].war and st.regions["desert"].side == "hostile"):
        st.storms = 3
    if st.regions["plains"].threat == 0 and "deserter" in st.discard + st.turn_deck:
        gone = st.discard.count("deserter") + st.turn_deck.count("deserter")
        st.discard = [c for c in st.discard if c != "deserter"]
        st.turn_deck = [c for c in st.turn_deck if c != "deserter"]
        st.soldiers += gone
        f.say(f"The Field is calm again: the Turn Deck loses {counted(gone, 'Deserter card')}.")
    if st.round >= st.options.round_limit:
        finish(f, False, f"the horde outlasted the realm ({st.options.round_limit} rounds)")
        return
    st.turn_deck = st.discard + st.turn_deck
    st.discard = []
    if st.horde:
        st.turn_deck.append(st.horde.pop())
        f.say("A card from the Horde joins the Turn Deck.")
    elif not st.boss.revealed:
        reveal_boss(f)
    f.rng.shuffle(st.turn_deck)


def draw_card(f: Flow) -> None:
    st = f.state
    card = st.turn_deck.pop()
    st.current = card
    c = content()
    if card.startswith("d:"):
        d = st.defenders[int(card[2:])]
        f.say(f"Defender card: {who(d)} takes a Turn with {ap_per_card(st)} AP.", kind="card", phase_end=True)
        start_card(f, "defender", d)
    elif card == "all":
        f.say(f"All Defenders card: {ap_per_card(st)} AP for any Defenders to share, first come first served.",
              kind="card", phase_end=True)
        start_card(f, "all", None)
    elif card.startswith("e:"):
        e = c.enemy(card[2:])
        names = " and ".join(region_name(st, r) for r in e.regions)
        f.say(f"Enemy card: {e.name} attack {names}.", kind="card")
        for r in e.regions:
            st.attacks.append(Attack(region=r, source=e.name, kind="enemy"))
    elif card.startswith("x:"):
        x = c.dire_card(card[2:])
        f.say(f"Dire Enemy: {x.name} attacks {region_name(st, x.region)}. {x.text}", kind="card")
        st.attacks.append(Attack(region=x.region, source=x.name, kind="dire", dire=x.key))
    elif card == "soldier":
        target = board.most_threatened(st)
        st.soldiers += 1
        region = st.regions[target]
        if region.threat > 0 and not region.destroyed:
            region.threat -= 1
            f.say(f"Soldier card: the muster Secures 1 Threat in {region_name(st, target)}.", kind="card")
        else:
            f.say("Soldier card: all is quiet; the soldier returns to the Field.", kind="card")
    elif card == "deserter":
        f.say("Deserter card: deserters raid the Field.", kind="card")
        st.attacks.append(Attack(region="plains", source="Deserters", kind="deserter"))


def start_card(f: Flow, kind: str, d: Defender | None) -> None:
    st = f.state
    st.active = Active(card=kind, defender=d.idx if d else None, ap=ap_per_card(st))
    st.boss.armor_soaked = []
    for x in st.defenders:
        x.took_turn = False
        x.moved_free = False
        x.used = [u for u in x.used if not u.startswith("turn:")]
    if d is not None:
        begin_turn(f, d)


def begin_turn(f: Flow, d: Defender) -> None:
    """A Defender's Turn begins: the Capital heals them (A6, U14)."""
    d.took_turn = True
    if d.region == CAPITAL and d.hp < max_hp(d):
        healed = heal(d)
        f.say(f"{who(d)} rests in the Capital City: {healed} HP restored.")


def end_card(f: Flow) -> None:
    st = f.state
    if st.current is not None and st.current not in ("soldier",):
        st.discard.append(st.current)
    st.current = None
    st.active = None
    for d in st.defenders:
        d.took_turn = False


def advance(f: Flow) -> None:
    """Run the game until a decision is owed or it ends."""
    st = f.state
    for _ in range(10_000):
        if st.phase != "play" or st.artifact_offer is not None:
            return
        if st.attacks:
            if settle_attacks(f):
                return
            continue
        if st.active is not None:
            return
        if st.current is not None:
            end_card(f)
        if not st.turn_deck:
            round_end(f)
            if st.phase != "play":
                return
            round_start(f)
            continue
        draw_card(f)
    raise RuntimeError("the Defenders flow did not settle")


def start_battle(f: Flow) -> None:
    st = f.state
    st.phase = "play"
    st.round = 0
    f.rng.shuffle(st.turn_deck)
    what = "General" if st.boss.kind == "general" else "Epic Foe"
    f.say(f"Battle {st.battle} of {3 if st.options.mode == 'campaign' else 1} begins: a hidden {what} "
          f"waits under a Horde of {len(st.horde)} cards.", kind="battle")
    round_start(f)


def finish(f: Flow, won: bool, reason: str) -> None:
    st = f.state
    if st.phase == "over":
        return
    st.phase = "over"
    st.won = won
    st.reason = reason
    st.active = None
    st.attacks = []
    st.artifact_offer = None
    f.say(("Victory: " if won else "Defeat: ") + reason + ".", kind="over", phase_end=True)
