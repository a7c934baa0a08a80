"""A battle in Phase C: the sides, each step's dice and losses, the attacker's call-off, and
what happens to the province and the forces when it ends."""

from __future__ import annotations

import random

from engine.contract import Event, Prompt
from engine.samurai.answers import UnitCounts
from engine.samurai.board import (
    BEST_FIRST,
    army_at,
    army_regulars,
    emit,
    gsize,
    player,
    pname,
    vacate_if_empty,
    who,
)
from engine.samurai.casualties import (
    apply_losses,
    check_losses,
    default_losses,
    has_choice,
    loss_prompt,
    losses_text,
)
from engine.samurai.combat import roll_side, side_size
from engine.samurai.content import REGULAR, content
from engine.samurai.elimination import destroy_army
from engine.samurai.garrison_forces import add_force, default_force, take_force
from engine.samurai.movement import attack_targets, garrison_attackers, leave_garrison
from engine.samurai.state import Army, Battle, Declaration, PendingLosses, SamuraiState, no_units
from engine.samurai.victory import check_win


def battle_sides(st: SamuraiState, b: Battle) -> tuple[list[dict[str, int]], list[dict[str, int]]]:
    atk: list[dict[str, int]] = [dict(units) for _, units in sorted(b.gforce.items())]
    if b.army is not None:
        a = player(st, b.attacker).armies[b.army]
        if a.alive:
            atk.append({**a.units, "ronin": a.ronin, "daimyo": 0 if a.assassinated else 1})
        else:
            atk.append({})
    else:
        atk.append({})
    prov = st.provinces[b.target]
    dfd: list[dict[str, int]] = [{"fort": b.fort_left}, {**prov.garrison, "ronin": prov.ronin}]
    found = army_at(st, b.target)
    if found and found[0] != b.attacker:
        a = found[1]
        dfd.append({**a.units, "ronin": a.ronin, "daimyo": 0 if a.assassinated else 1})
    return atk, dfd


def write_back(st: SamuraiState, ev: list[Event], b: Battle, atk: list[dict[str, int]],
               dfd: list[dict[str, int]]) -> None:
    """Store the survivors; dead regulars go back to their owner's tray, ronin to the pool."""
    srcs = sorted(b.gforce)
    for src, units in zip(srcs, atk, strict=False):
        lost = {k: b.gforce[src][k] - units.get(k, 0) for k in REGULAR}
        for k, n in lost.items():
            player(st, b.attacker).tray[k] += n
        survivors = {k: units.get(k, 0) for k in REGULAR}
        ronin = units.get("ronin", 0)
        st.ronin_pool += b.gforce[src].get("ronin", 0) - ronin
        if gsize(survivors) == 0:  # ronin do not fight on their own: they leave
            st.ronin_pool += ronin
            ronin = 0
        b.gforce[src] = {**survivors, "ronin": ronin}
    if b.army is not None:
        a = player(st, b.attacker).armies[b.army]
        if a.alive:
            _store_army(st, ev, b.attacker, a, atk[len(srcs)], b.defender)
    b.fort_left = dfd[0]["fort"]
    prov = st.provinces[b.target]
    g = dfd[1]
    if prov.owner is not None:
        for k in REGULAR:
            player(st, prov.owner).tray[k] += prov.garrison[k] - g.get(k, 0)
    st.ronin_pool += prov.ronin - g.get("ronin", 0)
    prov.garrison = {k: g.get(k, 0) for k in REGULAR}
    prov.ronin = g.get("ronin", 0)
    if len(dfd) > 2:
        found = army_at(st, b.target)
        if found:
            _store_army(st, ev, found[0], found[1], dfd[2], b.attacker)
    if prov.ronin and gsize(prov.garrison) == 0 and army_at(st, b.target) is None:
        st.ronin_pool += prov.ronin  # lone ronin do not fight on: they leave
        prov.ronin = 0


def _store_army(st: SamuraiState, ev: list[Event], seat: int, a: Army, h: dict[str, int], foe: int | None) -> None:
    pl = player(st, seat)
    for k in REGULAR:
        pl.tray[k] += a.units[k] - h.get(k, 0)
        a.units[k] = h.get(k, 0)
    st.ronin_pool += a.ronin - h.get("ronin", 0)
    a.ronin = h.get("ronin", 0)
    dead_daimyo = not a.assassinated and h.get("daimyo", 0) == 0
    if dead_daimyo or (a.assassinated and army_regulars(a) == 0 and a.ronin == 0):
        destroy_army(st, ev, seat, a, foe)


def start_battle(st: SamuraiState, ev: list[Event], rng: random.Random, seat: int, target: str,
                 decls: list[Declaration], chained: bool = False) -> None:
    w = st.war
    assert w is not None
    prov = st.provinces[target]
    if prov.owner == seat:
        emit(st, ev, f"{pname(target)} is already {who(seat)}'s: the attack there is dropped.")
        return
    b = Battle(target=target, attacker=seat, defender=prov.owner, naval=False, chained=chained)
    naval = False
    for d in decls:
        if d.force == "army":
            a = player(st, seat).armies[d.army]
            if not a.alive or a.assassinated or a.location != d.source:
                continue
            b.army = a.idx
            b.army_source = d.source
            a.attacks_used += 1
            if a.ronin:
                a.ronin_revealed = True
            naval = naval or content().is_sea(d.source, target)
        else:
            src = st.provinces[d.source]
            if src.owner != seat or garrison_attackers(st, d.source) <= 0:
                continue
            wanted = d.units if d.units is not None else default_force(st, d.source, d.count)
            most = garrison_attackers(st, d.source)
            if gsize(wanted) > most:
                wanted = default_force(st, d.source, most)
            units = take_force(st, d.source, wanted)
            if gsize(units) == 0:
                continue
            b.gforce[d.source] = units
            naval = naval or content().is_sea(d.source, target)
    if b.army is None and not b.gforce:
        emit(st, ev, f"The attack on {pname(target)} cannot go ahead.")
        return
    b.naval = naval
    if prov.fort and (prov.owner is not None or prov.neutral):
        spec = content().units.fortifications["fortress" if prov.fort == 2 else "castle"]
        b.fort_left, b.fort_value = spec.defenders, spec.defender_value
    if prov.ronin:
        prov.ronin_revealed = True
    found = army_at(st, target)
    if found and found[1].ronin:
        found[1].ronin_revealed = True
    w.battle = b
    atk, dfd = battle_sides(st, b)
    emit(st, ev, f"{who(seat)} attacks {pname(target)} ({who(prov.owner) if not prov.neutral else 'neutral'})"
         f"{' by sea' if naval else ''} with {side_size(atk)} units against {side_size(dfd)}.", kind="battle",
         data={"target": target, "attacker": seat, "defender": prov.owner, "naval": naval,
               "attack": [h for h in atk if h], "defence": [h for h in dfd if h]})
    if side_size(dfd) == 0:
        finish_battle(st, ev, "won")
        return
    b.stage = "naval" if naval else "ranged"
    run_rounds(st, ev, rng)


NEXT_STAGE = {"naval": "ranged", "ranged": "melee", "melee": "decide"}


def run_rounds(st: SamuraiState, ev: list[Event], rng: random.Random) -> None:
    """Fight combat steps until one side is gone, an owner must choose losses, or a round is
    over and the attacker must decide whether to go on."""
    w = st.war
    assert w is not None and w.battle is not None
    b = w.battle
    while True:
        if b.pending is not None:
            return
        atk, dfd = battle_sides(st, b)
        if side_size(atk) == 0 or side_size(dfd) == 0:
            break
        if b.stage == "decide":
            if not b.fight_on:
                return
            b.stage = "ranged"
        step = b.stage
        b.stage = NEXT_STAGE[step]
        if step == "ranged":
            b.rounds += 1
        roll_step(st, ev, b, step, rng)
        if st.phase == "over" or w.battle is None:
            return
    atk, dfd = battle_sides(st, b)
    if side_size(dfd) == 0 and side_size(atk) > 0:
        finish_battle(st, ev, "won")
    elif side_size(atk) == 0 and side_size(dfd) == 0:
        finish_battle(st, ev, "wiped")
    else:
        finish_battle(st, ev, "lost")


def roll_step(st: SamuraiState, ev: list[Event], b: Battle, step: str, rng: random.Random) -> None:
    """Roll one step for both sides at once (a naval landing: the defenders only) and show
    the dice; the losses wait for the owners that have a choice, the others are taken now."""
    atk, dfd = battle_sides(st, b)
    if step == "naval":
        ddice, dhits = roll_side(dfd, None, 0, rng, with_fort=False)
        adice, ahits = [], 0
        emit(st, ev, f"Naval landing at {pname(b.target)}: the defenders strike first, {dhits} hits.",
             kind="dice", data={"step": "naval", "defence_dice": ddice, "defence_hits": dhits})
    else:
        adice, ahits = roll_side(atk, step, b.fort_value, rng)
        ddice, dhits = roll_side(dfd, step, b.fort_value, rng)
        if adice or ddice:
            emit(st, ev, f"{pname(b.target)} round {b.rounds} {step}: attacker hits {ahits}, "
                 f"defender hits {dhits}.", kind="dice",
                 data={"step": step, "round": b.rounds, "attack_dice": adice, "attack_hits": ahits,
                       "defence_dice": ddice, "defence_hits": dhits})
    pending = PendingLosses(step=step, hits={"attack": dhits, "defence": ahits})
    if has_choice(atk, dhits):
        pending.owed["attack"] = b.attacker
    if b.defender is not None and has_choice(dfd, ahits):
        pending.owed["defence"] = b.defender
    b.pending = pending
    if not pending.owed:
        take_losses(st, ev)


def take_losses(st: SamuraiState, ev: list[Event]) -> None:
    """Every owed choice is in: both sides lose their units at once and the survivors are
    stored (the default order for a side whose owner had no choice)."""
    w = st.war
    assert w is not None and w.battle is not None and w.battle.pending is not None
    b = w.battle
    pending = b.pending
    atk, dfd = battle_sides(st, b)
    lines = []
    for side, holders, seat in (("attack", atk, b.attacker), ("defence", dfd, b.defender)):
        hits = pending.hits[side]
        if hits <= 0:
            continue
        losses = pending.chosen.get(side) or default_losses(holders, hits)
        apply_losses(holders, hits, losses)
        if seat is not None and any(losses.values()):
            lines.append(f"{who(seat)} loses {losses_text(losses)}")
    b.pending = None
    if lines and pending.owed:
        emit(st, ev, "; ".join(lines) + ".", kind="losses", data={"chosen": sorted(pending.owed)})
    write_back(st, ev, b, atk, dfd)


def choose_losses(st: SamuraiState, ev: list[Event], seat: int, ans: UnitCounts, rng: random.Random) -> None:
    """One owner's sealed choice of losses; the step resolves when every owed choice is in."""
    w = st.war
    assert w is not None and w.battle is not None and w.battle.pending is not None
    b = w.battle
    pending = b.pending
    side = next(side for side, owner in pending.owed.items() if owner == seat)
    atk, dfd = battle_sides(st, b)
    holders = atk if side == "attack" else dfd
    pending.chosen[side] = check_losses(holders, pending.hits[side], ans)
    if all(side in pending.chosen for side in pending.owed):
        take_losses(st, ev)
        if st.phase != "over" and w.battle is not None:
            run_rounds(st, ev, rng)


def loss_prompts(st: SamuraiState) -> list[Prompt]:
    """The owed choices of losses of the pending step, attacker first."""
    w = st.war
    assert w is not None and w.battle is not None and w.battle.pending is not None
    b = w.battle
    atk, dfd = battle_sides(st, b)
    return [loss_prompt(b, side, seat, atk if side == "attack" else dfd)
            for side, seat in sorted(b.pending.owed.items())]


def finish_battle(st: SamuraiState, ev: list[Event], outcome: str) -> None:
    w = st.war
    assert w is not None and w.battle is not None
    b = w.battle
    w.battle = None
    seat = b.attacker
    prov = st.provinces[b.target]
    army = player(st, seat).armies[b.army] if b.army is not None else None
    if outcome == "won":
        prov.owner = seat
        prov.neutral = False
        lim = content().units.limits.garrison
        for src, units in sorted(b.gforce.items()):
            moving = no_units()
            for k in BEST_FIRST:
                moving[k] = min(units[k], lim - gsize(prov.garrison) - gsize(moving))
            staying = {k: units[k] - moving[k] for k in REGULAR}
            ronin = units.get("ronin", 0)
            add_force(st, b.target, {**moving, "ronin": ronin if gsize(moving) else 0})
            add_force(st, src, {**staying, "ronin": 0 if gsize(moving) else ronin})
        if army is not None and army.alive:
            src = army.location
            assert src is not None
            leave_garrison(st, army)
            army.location = b.target
            army.won = True
            vacate_if_empty(st, src)
        fort = {1: " (its castle stands)", 2: " (its fortress stands)"}.get(prov.fort, "")
        emit(st, ev, f"{who(seat)} takes {pname(b.target)}{fort}.", kind="battle_end",
             data={"target": b.target, "outcome": "won", "attacker": seat})
        vacate_if_empty(st, b.target)
        check_win(st, ev)
    elif outcome == "wiped":
        for src in b.gforce:
            vacate_if_empty(st, src)
        prov.owner = None
        prov.neutral = False
        prov.garrison = no_units()
        emit(st, ev, f"Both sides fall at {pname(b.target)}: it is left unoccupied.", kind="battle_end",
             data={"target": b.target, "outcome": "wiped", "attacker": seat})
    else:
        for src, units in b.gforce.items():
            add_force(st, src, units)
            if st.provinces[src].owner is None and gsize(units):
                st.provinces[src].owner = seat
        text = f"The attack on {pname(b.target)} {'is called off' if outcome == 'calloff' else 'fails'}."
        emit(st, ev, text, kind="battle_end", data={"target": b.target, "outcome": outcome, "attacker": seat})
        for src in b.gforce:
            vacate_if_empty(st, src)
    if st.phase == "over":
        return
    if (army is not None and army.alive and not army.assassinated and army.attacks_used < army.level
            and not player(st, seat).eliminated and army.location
            and attack_targets(st, seat, army.location)):
        w.chain_army = army.idx


def launch(st: SamuraiState, ev: list[Event], rng: random.Random, seat: int, target: str) -> None:
    w = st.war
    assert w is not None
    decls = [d for d in w.declarations if d.target == target]
    w.declarations = [d for d in w.declarations if d.target != target]
    start_battle(st, ev, rng, seat, target, decls)
