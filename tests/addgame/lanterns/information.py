"""Step 6 (what a seat may know): Lantern Hunt's information state and a dealt world.

The one secret is where the other seats hid their lanterns this round. A seat knows *that* a
seat has hidden (its prompt is answered), not where, so another seat's place becomes the
canonical "somewhere" and a dealt world puts it back at random."""

from __future__ import annotations

import random

from engine.clone import clone
from engine.information import public_seed, shared
from tests.addgame.lanterns.content import places
from tests.addgame.lanterns.state import LanternState

SOMEWHERE = "somewhere"
"""The canonical value of a hiding place the seat may not know."""


def information(state: LanternState, seat: int) -> LanternState:
    """``state`` as ``seat`` may know it (sharing with ``state`` all it does not hide)."""
    hidden = [place if other == seat or place is None else SOMEWHERE for other, place in enumerate(state.hidden)]
    return shared(state, seed=public_seed(state.seed), hidden=hidden)


def determinize(info: LanternState, seat: int, rng: random.Random) -> LanternState:
    """A full state consistent with ``info``: every unknown hiding place dealt at random and
    fresh dice for the wind."""
    world = clone(info)
    world.seed = rng.getrandbits(63)
    table = sorted(places())
    world.hidden = [rng.choice(table) if place == SOMEWHERE else place for place in world.hidden]
    return world
