"""The shared road graph answers exactly what the state's own roads say, for any city."""

from __future__ import annotations

from engine.tinybigwars.state import TBWState, topology
from tests.engine.tinybigwars.helpers import new


def by_roads(state: TBWState, node: str) -> list[str]:
    """Neighbours straight from the roads, in the order of the locations."""
    out = {b for a, b in state.roads if a == node} | {a for a, b in state.roads if b == node}
    return [loc.id for loc in state.locations if loc.id in out]


def test_neighbours_follow_the_roads_of_every_shipped_city() -> None:
    for seats in (2, 3, 4):
        state = new(seats)
        for loc in state.locations:
            assert state.neighbours(loc.id) == by_roads(state, loc.id)
        assert state.neighbours("nowhere") == []


def test_a_city_with_other_roads_gets_its_own_graph() -> None:
    state = new(2)
    first, second = state.locations[0].id, state.locations[1].id
    changed = state.model_copy(deep=True)
    changed.roads = [road for road in changed.roads if first not in road] + [(first, second)]
    assert changed.neighbours(first) == [second] == by_roads(changed, first)
    assert state.neighbours(first) == by_roads(state, first) != [second]
    assert topology(state) is topology(new(2)) and topology(changed) is not topology(state)


def test_rings_are_one_and_exactly_two_moves_away() -> None:
    state = new(3)
    for loc in state.locations:
        near, far = topology(state).rings(loc.id)
        assert near == set(by_roads(state, loc.id))
        assert far == {x for n in near for x in by_roads(state, n)} - near - {loc.id}


def test_the_graph_found_last_is_found_again_only_for_the_same_roads() -> None:
    """`topology` answers again from the lists it saw last; a new roads list of the same
    length, a road added in place or a location added in place is a new graph."""
    state = new(2)
    first, second = state.locations[0].id, state.locations[1].id
    before = topology(state)
    assert topology(state) is before
    kept = [road for road in state.roads if first not in road and second not in road]
    swapped = kept + [(first, second)] * (len(state.roads) - len(kept))
    state.roads = swapped
    assert len(state.roads) == len(before.roads) and topology(state) is not before
    assert state.neighbours(first) == [second] == by_roads(state, first)
    state.roads.append((first, state.locations[2].id))
    assert state.neighbours(first) == by_roads(state, first) == [second, state.locations[2].id]
    extra = state.locations[2].model_copy(update={"id": "annex"})
    state.locations.append(extra)
    state.roads.append(("annex", first))
    assert state.neighbours("annex") == [first] == by_roads(state, "annex")
    state.locations.append(state.locations[3].model_copy(update={"id": "outpost"}))
    assert "outpost" in topology(state).locations
