"""Combat: dice pools, the sealed energy spend, simultaneous damage, hero damage order.

Each function returns True when the fight is fully over, so the phase machine knows
whether to continue the activation or wait for prompts.
"""

from __future__ import annotations

import random

from engine.clone import trusted
from engine.contract import Event, IllegalChoice, NumberField, Prompt
from engine.kit import emit, opt
from engine.rng import roll_dice
from engine.text import seat_ref
from engine.tinybigwars.answers import DamageAnswer, EnergyAnswer
from engine.tinybigwars.board import hero_card, hero_name, loc_name, units
from engine.tinybigwars.state import LOG_FIELD, Combat, Energy, Hero, Location, TBWState
from engine.words import counted

MAX_OPTIONS = 25
_NO_SPEND = Energy()
"""The spend of a fighter that had no energy to spend (read only)."""


class Side:
    """One clan's heroes at a fight's location, read once: the sums the roll needs."""

    __slots__ = ("power", "energy", "abilities", "auto_hits")

    def __init__(self, heroes: list[Hero]) -> None:
        power = energy = auto_hits = 0
        abilities = set()
        for hero in heroes:
            card = hero_card(hero)
            power += card.power
            energy += hero.energy
            if card.ability is not None:
                abilities.add(card.ability)
                auto_hits += card.ability == "auto_hit"
        self.power, self.energy, self.abilities, self.auto_hits = power, energy, abilities, auto_hits


_SIDES: dict[tuple[tuple[str, int], ...], Side] = {}
"""A fight's `Side` by each hero's card and energy (all it reads; shared: read, never changed)."""
_MAX_SIDES = 10_000


def _side_of(heroes: list[Hero]) -> Side:
    key = tuple([(hero.card, hero.energy) for hero in heroes])
    found = _SIDES.get(key)
    if found is None:
        if len(_SIDES) >= _MAX_SIDES:
            _SIDES.clear()
        found = _SIDES[key] = Side(heroes)
    return found


def _pool(loc: Location, seat: int, attacker: int | None, side: Side) -> int:
    pool = side.power + loc.minions[seat]
    defending = attacker is not None and seat != attacker
    holding = defending or (attacker is None and loc.held_by == seat)
    if holding and loc.infrastructure == "watchtower":
        pool += 1
    if seat == attacker and "attack_die" in side.abilities:
        pool += 1
    if defending and "defend_die" in side.abilities:
        pool += 1
    return pool


def _score(side: Side, dice: list[int]) -> int:
    six = 3 if "six_three_hits" in side.abilities else 2
    return sum(1 if d == 5 else six if d == 6 else 0 for d in dice) + side.auto_hits


def dice_pool(state: TBWState, node: str, seat: int, attacker: int | None) -> int:
    """Hero power + 1 per minion + Watchtower (defenders) + hero dice abilities.

    In a refight (no attacker) the clan that held the location when it became contested
    is still its defender, so its Watchtower keeps adding a die; hero abilities that need
    a move in (Ember Fist, Jade Warden) do not apply.
    """
    return _pool(state.loc(node), seat, attacker, Side(state.heroes_at(node, seat)))


def score(state: TBWState, node: str, seat: int, dice: list[int]) -> int:
    """5 = 1 hit, 6 = 2 hits (3 with Tiger Claw), plus Storm Dancer's sure hit."""
    return _score(Side(state.heroes_at(node, seat)), dice)


def energy_of(state: TBWState, node: str, seat: int) -> int:
    return sum(h.energy for h in state.heroes_at(node, seat))


def start(state: TBWState, node: str, attacker: int | None, rng: random.Random, events: list[Event]) -> bool:
    """Roll every participant's pool; the fight waits for sealed energy spends if any."""
    seats = state.present(node)
    loc = state.loc(node)
    dice: list[list[int]] = []
    hits: list[int] = []
    needs: list[bool] = []
    for seat in seats:
        side = _side_of(state.heroes_at(node, seat))
        rolled = roll_dice(rng, 6, _pool(loc, seat, attacker, side))
        dice.append(rolled)
        hits.append(_score(side, rolled))
        needs.append(side.energy > 0)
    # built as validation would build it, from the lists just made (copied: the event keeps its own)
    state.combat = trusted(Combat, {
        "location": node, "seats": list(seats), "attacker": attacker, "dice": [list(d) for d in dice],
        "hits": list(hits), "spend": [None] * len(seats), "needs_spend": needs, "damage_left": [],
        "stage": "energy",
    })
    state.phase = "combat"
    rolls = "; ".join(f"{seat_ref(s)} rolls {' '.join(map(str, d)) or '-'} = {counted(h, 'hit')}" for s, d, h in zip(seats, dice, hits, strict=True))
    emit(
        state,
        LOG_FIELD,
        events,
        "combat_roll",
        f"Fight at {loc_name(state, node)}: {rolls}",
        data={"location": node, "seats": seats, "dice": dice, "hits": hits, "attacker": attacker},
    )
    if not any(needs):
        return resolve(state, events)
    return False


def submit_energy(state: TBWState, seat: int, attack: int, guard: int, events: list[Event]) -> bool:
    combat = state.combat
    assert combat is not None
    i = combat.seats.index(seat)
    have = energy_of(state, combat.location, seat)
    if attack < 0 or guard < 0:
        raise IllegalChoice("Energy spends cannot be negative.")
    if attack + guard > have:
        raise IllegalChoice(f"You spend {attack + guard} energy but your heroes here have only {have}.")
    revising = combat.spend[i] is not None
    combat.spend[i] = Energy(attack=attack, guard=guard)
    emit(state, LOG_FIELD, events, "energy_sealed", f"You sealed {attack} attack and {guard} guard energy.", seats=[seat])
    emit(state, LOG_FIELD, events, "energy_ready", f"{seat_ref(seat)} {'revised' if revising else 'sealed'} an energy spend.")
    if all(sp is not None or not need for sp, need in zip(combat.spend, combat.needs_spend, strict=True)):
        return resolve(state, events)
    return False


def _drain_energy(heroes: list[Hero], amount: int) -> None:
    """Spent energy comes from the heroes holding the most energy first."""
    for _ in range(amount):
        hero = max(heroes, key=lambda h: h.energy)
        hero.energy -= 1


def split_hits(state: TBWState, combat: Combat, shooter: int, total: int) -> dict[int, int]:
    """One opponent takes all; several share evenly, the remainder to the largest ones."""
    node = combat.location
    return _split({seat: units(state, node, seat) for seat in combat.seats if seat != shooter}, total)


def _split(foe_units: dict[int, int], total: int) -> dict[int, int]:
    """``total`` hits over the foes (seat -> its units there), by `split_hits`' rule."""
    if len(foe_units) == 1:  # one foe takes all (most fights have two sides)
        return dict.fromkeys(foe_units, total)
    foes = sorted(foe_units, key=lambda s: (-foe_units[s], s))
    out = {s: total // len(foes) for s in foes}
    for s in foes[: total % len(foes)]:
        out[s] += 1
    return out


def absorb(hero: Hero, hits: int) -> int:
    """Apply up to ``hits`` to one hero; return how many hits it absorbed."""
    used = 0
    if hits > 0 and hero_card(hero).ability == "ignore_first_hit" and not hero.shield_used:
        hero.shield_used = True
        used = 1
    take = min(hits - used, hero.health)
    hero.health -= take
    return used + take


def capacity(hero: Hero) -> int:
    shield = 1 if hero_card(hero).ability == "ignore_first_hit" and not hero.shield_used else 0
    return hero.health + shield


def resolve(state: TBWState, events: list[Event]) -> bool:
    """Reveal spends, deal all damage at once: minions first, heroes after."""
    combat = state.combat
    assert combat is not None
    node = combat.location
    seats = combat.seats
    loc = state.loc(node)
    minions = loc.minions
    spends = [sp or _NO_SPEND for sp in combat.spend]
    # who fights here does not change before `finish`: spends drain energy, hits lower health
    here = state.heroes_at(node)
    heroes = {seat: [h for h in here if h.seat == seat] for seat in seats}
    for seat, sp in zip(seats, spends, strict=True):
        _drain_energy(heroes[seat], sp.attack + sp.guard)
    sizes = {seat: minions[seat] + len(heroes[seat]) for seat in seats}
    incoming = dict.fromkeys(seats, 0)
    for seat, hits, sp in zip(seats, combat.hits, spends, strict=True):
        foes = {foe: size for foe, size in sizes.items() if foe != seat}
        for foe, n in _split(foes, hits + sp.attack).items():
            incoming[foe] += n
    lines = []
    combat.damage_left = []
    for seat, sp in zip(seats, spends, strict=True):
        net = max(0, incoming[seat] - sp.guard)
        killed = min(net, minions[seat])
        minions[seat] -= killed
        rest = net - killed
        side = heroes[seat]
        if rest and len(side) > 1 and rest < sum(capacity(h) for h in side):
            combat.damage_left.append(rest)
        else:
            for h in side:
                rest -= absorb(h, rest)
            combat.damage_left.append(0)
        lines.append(
            f"{seat_ref(seat)} spends {sp.attack} attack/{sp.guard} guard, takes {counted(net, 'hit')} "
            f"({counted(killed, 'minion')} lost{f', {net - killed} on heroes' if net > killed else ''})"
        )
    emit(
        state,
        LOG_FIELD,
        events,
        "combat_damage",
        f"Fight at {loc_name(state, node)}: " + "; ".join(lines),
        data={
            "location": node,
            "spend": [[s, sp.attack, sp.guard] for s, sp in zip(combat.seats, spends, strict=True)],
            "incoming": [[s, incoming[s]] for s in combat.seats],
        },
    )
    if any(combat.damage_left):
        combat.stage = "damage"
        return False
    return finish(state, events)


def submit_damage(state: TBWState, seat: int, hero_id: str, events: list[Event]) -> bool:
    """The owner picks which hero takes the remaining hits next."""
    combat = state.combat
    assert combat is not None
    i = combat.seats.index(seat)
    heroes = {h.id: h for h in state.heroes_at(combat.location, seat)}
    if hero_id not in heroes:
        raise IllegalChoice("That hero is not one of yours in this fight.")
    hero = heroes[hero_id]
    if hero.health <= 0:
        raise IllegalChoice(f"{hero_card(hero).name} is already down; pick a hero still standing.")
    took = absorb(hero, combat.damage_left[i])
    rest = combat.damage_left[i] - took
    emit(state, LOG_FIELD, events, "hero_damage", f"{hero_name(hero)} takes {counted(took, 'hit')} (health {hero.health} left).")
    others = [h for h in state.heroes_at(combat.location, seat) if h.health > 0 and h.id != hero_id]
    if rest and (len(others) <= 1 or rest >= sum(capacity(h) for h in others)):
        for h in others:
            rest -= absorb(h, rest)
        rest = 0
    combat.damage_left[i] = rest
    if any(combat.damage_left):
        return False
    return finish(state, events)


def finish(state: TBWState, events: list[Event]) -> bool:
    """Remove defeated heroes, let Willow Mender heal, reset per-fight shields."""
    combat = state.combat
    assert combat is not None
    node = combat.location
    standing = []
    for h in state.heroes_at(node):
        if h.health <= 0:
            h.defeated = True
            h.location = None
            emit(state, LOG_FIELD, events, "hero_defeated", f"{hero_name(h)} is defeated.", data={"hero": h.id})
        else:
            standing.append(h)
    for seat in combat.seats:
        here = [h for h in standing if h.seat == seat]
        if any(hero_card(h).ability == "mend_after_fight" for h in here):
            for h in here:
                h.health = min(hero_card(h).health, h.health + 1)
            emit(state, LOG_FIELD, events, "ability", f"Willow Mender heals {seat_ref(seat)}'s heroes at {loc_name(state, node)}.")
    for h in state.heroes:
        if h.shield_used:
            h.shield_used = False
    left = state.present(node)
    if len(left) <= 1:
        state.loc(node).held_by = None
    outcome = f"{seat_ref(left[0])} holds it" if len(left) == 1 else "nobody holds it" if not left else "it stays contested"
    emit(state, LOG_FIELD, events, "combat_end", f"Fight at {loc_name(state, node)} is over: {outcome}.", data={"location": node})
    state.combat = None
    state.phase = "activation"
    return True


# ----------------------------------------------------------------------------- prompts


def energy_prompt(s: TBWState, seat: int) -> Prompt:
    cb = s.combat
    assert cb is not None
    i = cb.seats.index(seat)
    have = energy_of(s, cb.location, seat)
    rolled = "; ".join(f"{seat_ref(other)} rolled {counted(hits, 'hit')}" for other, hits in zip(cb.seats, cb.hits, strict=True)
                       if other != seat)
    return Prompt(
        seat=seat,
        kind="energy",
        text=(f"Fight at {loc_name(s, cb.location)}: you rolled {counted(cb.hits[i], 'hit')}; {rolled}. "
              f"Spend up to {have} energy in secret (attack adds a hit, guard cancels one)."),
        answer=EnergyAnswer,
        input="numbers",
        fields=[
            NumberField(name="attack", label="Energy for extra hits", min=0, max=have),
            NumberField(name="guard", label="Energy to cancel hits", min=0, max=have),
        ],
        secret=True,
        answered=cb.spend[i] is not None,
        default={"attack": 0, "guard": 0},
    )


def damage_prompt(s: TBWState, seat: int) -> Prompt:
    cb = s.combat
    assert cb is not None
    left = cb.damage_left[cb.seats.index(seat)]
    heroes = [h for h in s.heroes_at(cb.location, seat) if h.health > 0]
    opts = [
        opt(h.id, f"{hero_card(h).name} (health {h.health})", {"hero": h.id})
        for h in heroes
    ][:MAX_OPTIONS]
    return Prompt(
        seat=seat,
        kind="damage_order",
        text=f"Your heroes at {loc_name(s, cb.location)} take {counted(left, 'hit')}: which hero takes them first?",
        answer=DamageAnswer,
        options=opts,
        default=opts[0].choice,
    )
