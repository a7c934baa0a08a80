"""A location looked up by id (state.loc, from the derived `places` index, never stored) is
the asking state's own Location object, whichever state asked last: copies, a state read back
from JSON, a location added to the list."""

from __future__ import annotations

import engine
from engine.clone import clone
from engine.tinybigwars.state import Location, TBWState


def started(seats: int = 3, seed: int = 2) -> TBWState:
    game = engine.get("tinybigwars")
    state = game.setup(seats, engine.parse_options(game, None), seed)
    assert isinstance(state, TBWState)
    return state


def test_each_state_finds_its_own_locations_when_states_take_turns() -> None:
    first = started()
    second = clone(first)
    read_back = TBWState.model_validate_json(first.model_dump_json())
    for _ in range(2):
        for state in (first, second, read_back, first):
            for location in state.locations:
                assert state.loc(location.id) is location
    second.loc(second.locations[0].id).minions[0] += 5
    assert first.loc(first.locations[0].id).minions[0] == second.locations[0].minions[0] - 5


def test_a_location_added_to_the_list_is_found() -> None:
    state = started()
    node = state.locations[0].id
    assert state.loc(node) is state.locations[0]
    added = Location(id="added", card=state.locations[0].card, x=0.0, y=0.0, minions=[0] * state.seats_n)
    state.locations.append(added)
    assert state.loc("added") is added
