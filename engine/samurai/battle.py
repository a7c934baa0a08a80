"""A battle in Phase C: the sides, each step's dice and losses, the attacker's call-off, and
what happens to the province and the forces when it ends."""

from __future__ import annotations

import random

from engine.clone import trusted
from engine.contract import Event, Prompt
from engine.kit.events import emit
from engine.samurai.answers import UnitCounts
from engine.samurai.board import (
    BEST_FIRST,
    army_at,
    army_province,
    army_regulars,
    garrison_size,
    player_of,
    province_name,
    vacate_if_empty,
    who,
)
from engine.samurai.casualties import (
    apply_losses,
    check_losses,
    default_losses,
    has_choice,
    loss_default,
    loss_prompt,
    loss_room,
    losses_text,
    ordered_losses,
)
from engine.samurai.combat import roll_side, side_size
from engine.samurai.content import REGULAR, content
from engine.samurai.elimination import destroy_army
from engine.samurai.garrison_forces import add_force, default_force, take_force
from engine.samurai.movement import attack_targets, garrison_attackers, leave_garrison
from engine.samurai.state import Army, Battle, Declaration, PendingLosses, SamuraiState, Stage, no_units
from engine.samurai.victory import check_win
from engine.words import counted


def battle_sides(state: SamuraiState, battle: Battle) -> tuple[list[dict[str, int]], list[dict[str, int]]]:
    gforce = battle.gforce
    attackers: list[dict[str, int]] = [dict(gforce[source]) for source in sorted(gforce)] if gforce else []
    if battle.army is not None:
        army = state.players[battle.attacker].armies[battle.army]
        if army.alive:
            attackers.append({**army.units, "ronin": army.ronin, "daimyo": 0 if army.assassinated else 1})
        else:
            attackers.append({})
    else:
        attackers.append({})
    target = battle.target
    prov = state.provinces[target]
    defenders: list[dict[str, int]] = [{"fort": battle.fort_left}, {**prov.garrison, "ronin": prov.ronin}]
    found = army_at(state, target)
    if found and found[0] != battle.attacker:
        army = found[1]
        defenders.append({**army.units, "ronin": army.ronin, "daimyo": 0 if army.assassinated else 1})
    return attackers, defenders


def write_back(state: SamuraiState, events: list[Event], battle: Battle, attackers: list[dict[str, int]],
               defenders: list[dict[str, int]]) -> None:
    """Store the survivors; dead regulars go back to their owner's tray, ronin to the pool
    (added up and stored before anything else reads the pool)."""
    gforce = battle.gforce
    srcs = sorted(gforce)
    tray = state.players[battle.attacker].tray
    pool = 0
    for source, units in zip(srcs, attackers, strict=False):
        sent = gforce[source]
        get = units.get
        survivors = {kind: get(kind, 0) for kind in REGULAR}
        for kind in REGULAR:
            tray[kind] += sent[kind] - survivors[kind]
        ronin = get("ronin", 0)
        pool += sent.get("ronin", 0) - ronin
        if garrison_size(survivors) == 0:  # ronin do not fight on their own: they leave
            pool += ronin
            ronin = 0
        survivors["ronin"] = ronin
        gforce[source] = survivors
    if battle.army is not None:
        army = state.players[battle.attacker].armies[battle.army]
        if army.alive:
            pool = _pour(state, pool)
            _store_army(state, events, battle.attacker, army, attackers[len(srcs)], battle.defender)
    fort_left = defenders[0]["fort"]
    if battle.fort_left != fort_left:
        battle.fort_left = fort_left
    prov = state.provinces[battle.target]
    get = defenders[1].get
    garrison = {kind: get(kind, 0) for kind in REGULAR}
    ronin = get("ronin", 0)
    if prov.owner is not None:
        tray = state.players[prov.owner].tray
        held = prov.garrison
        for kind in REGULAR:
            tray[kind] += held[kind] - garrison[kind]
    pool += prov.ronin - ronin
    prov.garrison = garrison
    if prov.ronin != ronin:
        prov.ronin = ronin
    if len(defenders) > 2:
        found = army_at(state, battle.target)
        if found:
            pool = _pour(state, pool)
            _store_army(state, events, found[0], found[1], defenders[2], battle.attacker)
    if prov.ronin and garrison_size(prov.garrison) == 0 and army_at(state, battle.target) is None:
        pool += prov.ronin  # lone ronin do not fight on: they leave
        prov.ronin = 0
    _pour(state, pool)


def _pour(state: SamuraiState, ronin: int) -> int:
    """Put ``ronin`` back in the pool; 0 (what is left to pour)."""
    if ronin:
        state.ronin_pool += ronin
    return 0


def side_text(holders: list[dict[str, int]]) -> str:
    """An attacking side's size as the battle line says it: its units, and the ronin among them
    (a garrison's option counts its regular units and the ronin who go along apart)."""
    ronin = sum(holder.get("ronin", 0) for holder in holders)
    return counted(side_size(holders), "unit") + (f" ({ronin} of them ronin)" if ronin else "")


def _store_army(state: SamuraiState, events: list[Event], seat: int, army: Army, holder: dict[str, int],
                foe: int | None) -> None:
    tray = state.players[seat].tray
    units = army.units
    get = holder.get
    for kind in REGULAR:
        left = get(kind, 0)
        tray[kind] += units[kind] - left
        units[kind] = left
    ronin = get("ronin", 0)
    if army.ronin != ronin:
        state.ronin_pool += army.ronin - ronin
        army.ronin = ronin
    dead_daimyo = not army.assassinated and get("daimyo", 0) == 0
    if dead_daimyo or (army.assassinated and army_regulars(army) == 0 and army.ronin == 0):
        destroy_army(state, events, seat, army, foe)


def start_battle(state: SamuraiState, events: list[Event], rng: random.Random, seat: int, target: str,
                 decls: list[Declaration], chained: bool = False) -> None:
    war = state.war
    assert war is not None
    prov = state.provinces[target]
    if prov.owner == seat:
        emit(state, "log", events, "info",
             f"{who(seat)} already took {province_name(target)} this turn (an army attacking again), "
             "so the attack declared there is called off.")
        return
    defender = prov.owner
    army_idx: int | None = None
    army_source: str | None = None
    gforce: dict[str, dict[str, int]] = {}
    naval = False
    for declaration in decls:
        if declaration.force == "army":
            assert declaration.army is not None  # an army's declaration always names the army
            army = player_of(state, seat).armies[declaration.army]
            if not army.alive or army.assassinated or army.location != declaration.source:
                continue
            army_idx = army.idx
            army_source = declaration.source
            army.attacks_used += 1
            if army.ronin:
                army.ronin_revealed = True
            naval = naval or content().is_sea(declaration.source, target)
        else:
            source = state.provinces[declaration.source]
            if source.owner != seat or garrison_attackers(state, declaration.source) <= 0:
                continue
            wanted = declaration.units if declaration.units is not None \
                else default_force(state, declaration.source, declaration.count)
            most = garrison_attackers(state, declaration.source)
            if garrison_size(wanted) > most:
                wanted = default_force(state, declaration.source, most)
            units = take_force(state, declaration.source, wanted)
            if garrison_size(units) == 0:
                continue
            gforce[declaration.source] = units
            naval = naval or content().is_sea(declaration.source, target)
    if army_idx is None and not gforce:
        emit(state, "log", events, "info", f"The attack on {province_name(target)} cannot go ahead.")
        return
    fort_left = fort_value = 0
    if prov.fort and (prov.owner is not None or prov.neutral):
        spec = content().units.fortifications["fortress" if prov.fort == 2 else "castle"]
        fort_left, fort_value = spec.defenders, spec.defender_value
    battle = trusted(Battle, {"target": target, "attacker": seat, "defender": defender, "naval": naval,
                              "army": army_idx, "army_source": army_source, "gforce": gforce,
                              "fort_left": fort_left, "fort_value": fort_value, "rounds": 0, "fight_on": False,
                              "chained": chained, "stage": "naval" if naval else "ranged", "pending": None})
    if prov.ronin:
        prov.ronin_revealed = True
    found = army_at(state, target)
    if found and found[1].ronin:
        found[1].ronin_revealed = True
    war.battle = battle
    attackers, defenders = battle_sides(state, battle)
    emit(state, "log", events, "battle",
         f"{_attacker_text(seat, target, decls, chained)} ({who(prov.owner) if not prov.neutral else 'neutral'})"
         f"{' by sea' if naval else ''} with {side_text(attackers)} against {side_size(defenders)}.",
         data={"target": target, "attacker": seat, "defender": prov.owner, "naval": naval,
               "attack": [holder for holder in attackers if holder], "defence": [holder for holder in defenders if holder]})
    if side_size(defenders) == 0:
        finish_battle(state, events, "won")
        return
    run_rounds(state, events, rng)


def _attacker_text(seat: int, target: str, decls: list[Declaration], chained: bool) -> str:
    """Who attacks where. An army pressing on after a win says so: its attack was not among
    the targets its house declared, so a bare "attacks" line would read as a broken promise."""
    first = decls[0] if decls else None
    if chained and first is not None and first.army is not None:
        return (f"{who(seat)}'s army {first.army + 1} presses on from {province_name(first.source)} "
                f"and attacks {province_name(target)}")
    return f"{who(seat)} attacks {province_name(target)}"


NEXT_STAGE: dict[Stage, Stage] = {"naval": "ranged", "ranged": "melee", "melee": "decide"}


def run_rounds(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """Fight combat steps until one side is gone, an owner must choose losses, or a round is
    over and the attacker must decide whether to go on."""
    war = state.war
    assert war is not None and war.battle is not None
    battle = war.battle
    while True:
        if battle.pending is not None:
            return
        attackers, defenders = battle_sides(state, battle)
        if side_size(attackers) == 0 or side_size(defenders) == 0:
            break
        if battle.stage == "decide":
            if not battle.fight_on:
                return
            battle.stage = "ranged"
        step = battle.stage
        battle.stage = NEXT_STAGE[step]
        if step == "ranged":
            battle.rounds += 1
        roll_step(state, events, battle, step, rng, (attackers, defenders))
        if state.phase == "over" or war.battle is None:
            return
    if side_size(defenders) == 0 and side_size(attackers) > 0:
        finish_battle(state, events, "won")
    elif side_size(attackers) == 0 and side_size(defenders) == 0:
        finish_battle(state, events, "wiped")
    else:
        finish_battle(state, events, "lost")


Sides = tuple[list[dict[str, int]], list[dict[str, int]]]
"""A battle's `battle_sides` (attacking holders, defending holders)."""


def roll_step(state: SamuraiState, events: list[Event], battle: Battle, step: str,
              rng: random.Random, sides: Sides | None = None) -> None:
    """Roll one step for both sides at once (a naval landing: the defenders only) and show
    the dice; the losses wait for the owners that have a choice, the others are taken now.
    ``sides``: the battle's `battle_sides` as they stand, when the caller has them."""
    attackers, defenders = battle_sides(state, battle) if sides is None else sides
    if step == "naval":
        ddice, dhits = roll_side(defenders, None, 0, rng, with_fort=False)
        adice: list[list[int]] = []
        ahits = 0
        emit(state, "log", events, "dice",
             f"Naval landing at {province_name(battle.target)}: the defenders strike first, {counted(dhits, 'hit')}.",
             data={"step": "naval", "defence_dice": ddice, "defence_hits": dhits})
    else:
        adice, ahits = roll_side(attackers, step, battle.fort_value, rng)
        ddice, dhits = roll_side(defenders, step, battle.fort_value, rng)
        if adice or ddice:
            emit(state, "log", events, "dice",
                 f"{province_name(battle.target)} round {battle.rounds} {step}: attacker hits {ahits}, "
                 f"defender hits {dhits}.",
                 data={"step": step, "round": battle.rounds, "attack_dice": adice, "attack_hits": ahits,
                       "defence_dice": ddice, "defence_hits": dhits})
    hits = {"attack": dhits, "defence": ahits}
    owed: dict[str, int] = {}
    chosen: dict[str, dict[str, int]] = {}
    if has_choice(attackers, dhits):
        owed["attack"] = battle.attacker
    if battle.defender is not None and has_choice(defenders, ahits):
        order = player_of(state, battle.defender).losses_order
        if order:  # the defender's standing order answers for him: nobody waits
            chosen["defence"] = ordered_losses(defenders, ahits, order)
        else:
            owed["defence"] = battle.defender
    if owed:
        battle.pending = trusted(PendingLosses, {"step": step, "hits": hits, "owed": owed, "chosen": chosen})
    else:  # nobody is asked: the step resolves now, as `take_losses` would resolve it pending
        _resolve_losses(state, events, battle, hits, owed, chosen, (attackers, defenders))


def take_losses(state: SamuraiState, events: list[Event], sides: Sides | None = None) -> None:
    """Every owed choice is in: both sides lose their units at once and the survivors are
    stored (the default order for a side whose owner had no choice). ``sides``: the battle's
    `battle_sides` as they stand, when the caller has them (taken over: the losses change them)."""
    war = state.war
    assert war is not None and war.battle is not None and war.battle.pending is not None
    battle = war.battle
    pending = battle.pending
    assert pending is not None  # take_losses runs once every owed choice of the pending step is in
    battle.pending = None
    _resolve_losses(state, events, battle, pending.hits, pending.owed, pending.chosen,
                    battle_sides(state, battle) if sides is None else sides)


def _resolve_losses(state: SamuraiState, events: list[Event], battle: Battle, hits: dict[str, int],
                    owed: dict[str, int], chosen: dict[str, dict[str, int]], sides: Sides) -> None:
    """`take_losses` of a step whose hits, owed and chosen losses are given (the battle holds
    no pending step by now); ``sides`` are taken over: the losses change them."""
    attackers, defenders = sides
    lines = []
    for side, holders, seat in (("attack", attackers, battle.attacker),
                                ("defence", defenders, battle.defender)):
        hit = hits[side]
        if hit <= 0:
            continue
        losses = chosen.get(side) or default_losses(holders, hit)
        apply_losses(holders, hit, losses)
        if seat is not None and any(losses.values()):
            lines.append(f"{who(seat)} loses {losses_text(losses)}")
    if lines and (owed or chosen):
        emit(state, "log", events, "losses", "; ".join(lines) + ".", data={"chosen": sorted(set(owed) | set(chosen))})
    write_back(state, events, battle, attackers, defenders)


def choose_losses(state: SamuraiState, events: list[Event], seat: int, answer: UnitCounts,
                  rng: random.Random) -> None:
    """One owner's sealed choice of losses; the step resolves when every owed choice is in."""
    war = state.war
    assert war is not None and war.battle is not None
    battle = war.battle
    pending = battle.pending
    assert pending is not None  # a choice of losses is asked only while a step waits for it
    side = next(side for side, owner in pending.owed.items() if owner == seat)
    attackers, defenders = battle_sides(state, battle)
    holders = attackers if side == "attack" else defenders
    pending.chosen[side] = check_losses(holders, pending.hits[side], answer)
    if all(side in pending.chosen for side in pending.owed):
        take_losses(state, events)
        if state.phase != "over" and war.battle is not None:
            run_rounds(state, events, rng)


def owed_losses(state: SamuraiState, seat: int) -> tuple[dict[str, int], int]:
    """The choice of losses ``seat`` owes, as its prompt (`loss_prompts`) would ask it, worked
    out without building the prompt: the most of each kind it may choose (the fields) and how
    many units fall (the default's total). The seat's first side owed, as the phase table asks."""
    war = state.war
    assert war is not None and war.battle is not None and war.battle.pending is not None
    battle = war.battle
    pending = battle.pending
    assert pending is not None  # asked for only while a step waits for choices of losses
    side = next(side for side, owner in sorted(pending.owed.items()) if owner == seat)
    attackers, defenders = battle_sides(state, battle)
    holders = attackers if side == "attack" else defenders
    hits = pending.hits[side]
    return loss_room(holders, hits), sum(loss_default(holders, hits, pending.chosen.get(side)).values())


def loss_prompts(state: SamuraiState) -> list[Prompt]:
    """The owed choices of losses of the pending step, attacker first."""
    war = state.war
    assert war is not None and war.battle is not None
    battle = war.battle
    pending = battle.pending
    assert pending is not None  # asked for only while a step waits for choices of losses
    attackers, defenders = battle_sides(state, battle)
    return [loss_prompt(battle, side, seat, attackers if side == "attack" else defenders)
            for side, seat in sorted(pending.owed.items())]


FORT_STANDS = {1: " (its castle stands)", 2: " (its fortress stands)"}
"""What the line of a won battle adds for the fortification the winner takes over."""


def finish_battle(state: SamuraiState, events: list[Event], outcome: str) -> None:
    war = state.war
    assert war is not None and war.battle is not None
    battle = war.battle
    war.battle = None
    seat = battle.attacker
    prov = state.provinces[battle.target]
    army = player_of(state, seat).armies[battle.army] if battle.army is not None else None
    if outcome == "won":
        prov.owner = seat
        prov.neutral = False
        limits = content().units.limits.garrison
        for source, units in sorted(battle.gforce.items()):
            moving = no_units()
            room = limits - garrison_size(prov.garrison)  # what the garrison holds and `moving` so far leave
            for kind in BEST_FIRST:
                moving[kind] = min(units[kind], room)
                room -= moving[kind]
            staying = {kind: units[kind] - moving[kind] for kind in REGULAR}
            ronin = units.get("ronin", 0)
            add_force(state, battle.target, {**moving, "ronin": ronin if garrison_size(moving) else 0})
            add_force(state, source, {**staying, "ronin": 0 if garrison_size(moving) else ronin})
        if army is not None and army.alive:
            left = army_province(army)
            leave_garrison(state, army)
            army.location = battle.target
            army.won = True
            vacate_if_empty(state, left)
        fort = FORT_STANDS.get(prov.fort, "")
        emit(state, "log", events, "battle_end",
             f"{who(seat)} takes {province_name(battle.target)}{fort}.",
             data={"target": battle.target, "outcome": "won", "attacker": seat})
        vacate_if_empty(state, battle.target)
        check_win(state, events)
    elif outcome == "wiped":
        for source in battle.gforce:
            vacate_if_empty(state, source)
        prov.owner = None
        prov.neutral = False
        prov.garrison = no_units()
        emit(state, "log", events, "battle_end",
             f"Both sides fall at {province_name(battle.target)}: it is left unoccupied.",
             data={"target": battle.target, "outcome": "wiped", "attacker": seat})
    else:
        for source, units in battle.gforce.items():
            add_force(state, source, units)
            if state.provinces[source].owner is None and garrison_size(units):
                state.provinces[source].owner = seat
        text = f"The attack on {province_name(battle.target)} {'is called off' if outcome == 'calloff' else 'fails'}."
        emit(state, "log", events, "battle_end",
             text, data={"target": battle.target, "outcome": outcome, "attacker": seat})
        for source in battle.gforce:
            vacate_if_empty(state, source)
    if state.phase == "over":
        return
    if (army is not None and army.alive and not army.assassinated and army.attacks_used < army.level
            and not player_of(state, seat).eliminated and army.location
            and attack_targets(state, seat, army.location)):
        war.chain_army = army.idx


def launch(state: SamuraiState, events: list[Event], rng: random.Random, seat: int, target: str) -> None:
    war = state.war
    assert war is not None
    decls = [declaration for declaration in war.declarations if declaration.target == target]
    war.declarations = [declaration for declaration in war.declarations if declaration.target != target]
    start_battle(state, events, rng, seat, target, decls)
