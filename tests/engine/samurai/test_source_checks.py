"""The war's checks of one source (an attack source, a garrison to move, an army with somewhere
to go, how many units an army can gather) say what listing every one says, at every step of
real matches: an answer naming a source is taken or refused exactly as when the whole list
was built."""

from __future__ import annotations

import pytest

from bot.simulate import simulate
from engine.samurai import movement, setup_placement
from engine.samurai.board import garrison_size
from engine.samurai.state import SamuraiState


def assert_like_the_lists(state: SamuraiState) -> int:
    checked = 0
    for seat in range(state.seats):
        declares = set(movement.declare_sources(state, seat))
        assert movement.any_declare_source(state, seat) == bool(declares), (state.step, seat)
        garrisons = movement.garrison_sources(state, seat)
        assert movement.any_garrison_source(state, seat) == bool(garrisons), (state.step, seat)
        armies = state.players[seat].armies
        for army in armies:
            gathered = garrison_size(movement.gather_default(state, army)) if army.location and army.alive else 0
            assert movement.gather_count(state, army) == gathered, (state.step, seat, army.idx)
            for claim in (False, True):
                moves = movement.army_moves(state, seat, army, claim)
                assert movement.has_army_move(state, seat, army, claim) == bool(moves), (state.step, seat, army.idx)
        for pid in state.provinces:
            assert movement.is_garrison_source(state, seat, pid) == (pid in garrisons), (state.step, seat, pid)
            for army_idx in (None, *range(len(armies) + 1)):
                force = "garrison" if army_idx is None else "army"
                assert movement.is_declare_source(state, seat, pid, army_idx) == (
                    (pid, force, army_idx) in declares), (state.step, seat, pid, army_idx)
        checked += len(declares) + len(garrisons)
    return checked


@pytest.mark.parametrize(("seats", "seed", "policy"), [(3, 2, "heuristic"), (4, 3, "random")])
def test_one_source_is_checked_as_the_whole_list_says(seats: int, seed: int, policy: str) -> None:
    found = 0
    wars = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal found, wars
        assert isinstance(state, SamuraiState)
        if state.war is not None:
            wars += 1
            found += assert_like_the_lists(state)

    simulate("samurai", seats, seed, policy, options={"round_limit": 2}, on_step=on_step)
    assert wars > 30 and found > 100


@pytest.mark.parametrize(("seats", "seed", "policy", "mode"),
                         [(3, 2, "heuristic", "base"), (4, 3, "random", "lwtv")])
def test_one_spearman_spot_is_checked_as_the_whole_list_says(seats: int, seed: int, policy: str, mode: str) -> None:
    """The setup's spearman spots: a province named in the answer is taken or refused, and
    the placement goes on to the next stage, exactly as when every spot was listed."""
    checked = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal checked
        assert isinstance(state, SamuraiState)
        if state.phase != "placement":
            return
        for seat in range(state.seats):
            spots = setup_placement.spear_targets(state, seat)
            assert setup_placement.has_spear_target(state, seat) == bool(spots), (state.step, seat)
            for pid in state.provinces:
                assert setup_placement.is_spear_target(state, seat, pid) == (pid in spots), (state.step, seat, pid)
            checked += len(spots)

    simulate("samurai", seats, seed, policy, options={"mode": mode, "round_limit": 1}, on_step=on_step)
    assert checked > 100
