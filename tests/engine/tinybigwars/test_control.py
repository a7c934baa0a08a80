"""Who controls what (board.controlled, one pass over the map) is what the presence of units
says: a location where that seat alone has minions or heroes, at every step of real matches."""

from __future__ import annotations

import pytest

from bot.simulate import simulate
from engine.tinybigwars import board
from engine.tinybigwars.state import TBWState


@pytest.mark.parametrize(("seats", "seed", "policy"), [(2, 0, "heuristic"), (3, 1, "random"), (4, 2, "heuristic")])
def test_controlled_is_where_a_seat_alone_has_units(seats: int, seed: int, policy: str) -> None:
    held = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal held
        assert isinstance(state, TBWState)
        presence = state.presence()
        for seat in range(state.seats_n):
            found = board.controlled(state, seat)
            assert found == [node for node, present in presence.items() if present == [seat]], (state.step, seat)
            held += len(found)

    simulate("tinybigwars", seats, seed, policy, on_step=on_step)
    assert held > 100
