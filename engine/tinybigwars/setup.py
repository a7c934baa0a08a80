"""Setup: shuffle Location cards onto the city map for the player count, seats at start nodes."""

from __future__ import annotations

from engine.rng import rng_for
from engine.tinybigwars.content import content
from engine.tinybigwars.state import Location, Options, Seat, TBWState


def setup(seats: int, options: Options, seed: int) -> TBWState:
    """A match waiting for secret force building; forces are placed when all are revealed.
    The player count was checked against the game's `GameInfo` (engine/kit/game.py)."""
    c = content()
    city = c.maps[seats]
    deck = sorted(c.locations)
    rng_for(seed, 0, "setup").shuffle(deck)
    locations = [
        Location(
            id=node.id,
            card=card,
            x=node.x,
            y=node.y,
            start_seat=city.starts.index(node.id) if node.id in city.starts else None,
            minions=[0] * seats,
        )
        for node, card in zip(city.nodes, deck, strict=False)
    ]
    return TBWState(
        seed=seed,
        options=options,
        seats_n=seats,
        map=city.id,
        locations=locations,
        roads=[tuple(r) for r in city.roads],
        seats=[Seat(seat=i) for i in range(seats)],
        first_seat=rng_for(seed, 0, "first seat").randrange(seats),
    )
