"""The heuristic's weakest foe and army guess are kept from a seat's last decision while all
they read is as it was (`ai._foes_kept`): at every step of real matches, for every seat, the
kept answer is the one worked out afresh from that seat's information state, and it is kept
often enough to matter; a state that is not an information state is never answered from
what was kept."""

from __future__ import annotations

import pytest

from bot.simulate import simulate
from engine.clone import clone
from engine.samurai import ai, information
from engine.samurai.content import content
from engine.samurai.state import SamuraiState
from tests.engine.samurai.helpers import heuristic_match_after


@pytest.mark.parametrize(("seats", "seed", "options"), [
    (4, 2, {"round_limit": 3}), (3, 1, {"mode": "lwtv", "round_limit": 3}), (5, 0, {"round_limit": 2}),
])
def test_kept_foes_are_the_foes_worked_out_afresh(seats: int, seed: int, options: dict[str, object]) -> None:
    kept = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal kept
        assert isinstance(state, SamuraiState)
        for seat in range(state.seats):
            view = information.information(state, seat)
            before = ai._FOES_KEPT.get(seat)
            found = ai._foes_kept(view, seat)
            kept += before is not None and found is before[-1]
            assert found == (ai.weakest_foe(view, seat), ai.army_guess(view, seat)), (state.step, seat)

    simulate("samurai", seats, seed, "heuristic", options=options, on_step=on_step)
    assert kept > 100


def test_an_own_army_filled_or_a_copied_world_is_worked_out_afresh() -> None:
    state = simulate("samurai", 4, 3, "heuristic", options={"round_limit": 1})["state"]
    assert isinstance(state, SamuraiState)
    view = information.information(state, 0)
    first = ai._foes_kept(view, 0)
    assert ai._foes_kept(information.information(state, 0), 0) is first
    army = next(army for army in state.players[0].armies if army.alive)
    army.units["spearman"] += 5
    again = ai._foes_kept(information.information(state, 0), 0)
    assert again is not first
    assert again == (ai.weakest_foe(view, 0), ai.army_guess(view, 0))
    world = clone(information.information(state, 0))
    assert ai._foes_kept(world, 0) is not ai._foes_kept(world, 0), "a copy's players may be changed: never kept"


def counted_frontier(state: SamuraiState, seat: int, pid: str) -> int:
    return sum(1 for neighbour in content().adj[pid] if state.provinces[neighbour].owner != seat)


def test_a_kept_frontier_is_the_one_counted_afresh() -> None:
    """`ai.frontier` is kept in the owner index while no owner changes: at every step of a
    match it is what counting the neighbours says, and a province taken by hand changes it."""
    asked = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal asked
        assert isinstance(state, SamuraiState)
        for seat in range(state.seats):
            for pid in list(state.provinces)[::5]:
                assert ai.frontier(state, seat, pid) == counted_frontier(state, seat, pid), (state.step, seat, pid)
                asked += 1

    simulate("samurai", 4, 1, "heuristic", options={"round_limit": 2}, on_step=on_step)
    assert asked > 1000
    state = heuristic_match_after(150)
    pid = next(pid for pid, province in state.provinces.items() if province.owner == 0)
    neighbour = next(each for each in content().adj[pid] if state.provinces[each].owner != 0)
    before = ai.frontier(state, 0, pid)
    state.provinces[neighbour].owner = 0
    assert ai.frontier(state, 0, pid) == before - 1 == counted_frontier(state, 0, pid)
