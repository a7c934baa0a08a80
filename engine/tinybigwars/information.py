"""What a Tiny Big Wars seat may know (engine/information.py): the whole board is open; only
sealed answers are hidden, a force behind its screen until all are in and an energy spend
until every fighter has chosen. Another seat's sealed answer becomes a placeholder that still
says "chosen" (the table sees who is ready), never what."""

from __future__ import annotations

import random

from engine.clone import clone
from engine.information import public_seed, shared
from engine.tinybigwars.state import Energy, Force, TBWState


def information(state: TBWState, seat: int) -> TBWState:
    """``state`` as ``seat`` may know it (sharing with ``state`` all it does not hide)."""
    changes: dict[str, object] = {"seed": public_seed(state.seed)}
    if state.phase == "force" and any(other.seat != seat and other.force is not None for other in state.seats):
        changes["seats"] = [shared(other, force=Force()) if other.seat != seat and other.force is not None else other
                            for other in state.seats]
    combat = state.combat
    if combat is not None and combat.stage == "energy":
        changes["combat"] = shared(combat, spend=[
            Energy() if fighter != seat and spend is not None else spend
            for fighter, spend in zip(combat.seats, combat.spend, strict=True)])
    return shared(state, **changes)


def determinize(info: TBWState, seat: int, rng: random.Random) -> TBWState:
    """A full state consistent with ``info``: every hidden sealed answer dealt at random
    (a random legal force, a random split of the energy at hand) and fresh dice."""
    from engine.tinybigwars import combat as fights
    from engine.tinybigwars.ai import random_force
    from engine.tinybigwars.forces import force_of

    world = clone(info)
    world.seed = rng.getrandbits(63)
    if world.phase == "force":
        for other in world.seats:
            if other.seat != seat and other.force is not None:
                other.force = force_of(random_force(world.options.point_limit, rng), world.options.point_limit)
    fight = world.combat
    if fight is not None and fight.stage == "energy":
        for index, fighter in enumerate(fight.seats):
            if fighter != seat and fight.spend[index] is not None:
                have = fights.energy_of(world, fight.location, fighter)
                attack = rng.randint(0, have)
                fight.spend[index] = Energy(attack=attack, guard=rng.randint(0, have - attack))
    return world
