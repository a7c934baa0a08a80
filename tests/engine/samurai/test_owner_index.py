"""The provinces by owner (state.owner_index, derived and never stored) say what a scan of every
province says, at every step of real matches and after an owner is set, a province made anew
or the provinces replaced by hand (the replay digests hold the stored states: the index is
never in them)."""

from __future__ import annotations

import pytest

import engine
from engine.clone import clone
from engine.samurai import board
from engine.samurai.state import Prov, SamuraiState
from tests.engine.samurai.helpers import checked_match, heuristic_match_after


def scanned(state: SamuraiState, seat: int | None) -> list[str]:
    return [pid for pid, province in state.provinces.items() if province.owner == seat]


def assert_like_a_scan(state: SamuraiState) -> int:
    held = 0
    for seat in range(state.seats):
        assert board.owned(state, seat) == scanned(state, seat), (state.step, seat)
        assert board.held_count(state, seat) == len(scanned(state, seat)), (state.step, seat)
        held += len(scanned(state, seat))
    assert board.held_count(state, None) == len(scanned(state, None)), state.step
    incomes = board.incomes(state)
    assert incomes == {seat: board.income(state, seat) for seat in range(state.seats)}, state.step
    assert all(income == max(3, len(scanned(state, seat)) // 3) + (
        state.options.mode == "lwtv" and state.provinces["settsu"].owner == seat) for seat, income in incomes.items())
    return held


@pytest.mark.parametrize(("seats", "seed", "policy", "mode"),
                         [(3, 2, "heuristic", "base"), (4, 5, "random", "base"), (4, 1, "heuristic", "lwtv")])
def test_the_index_is_what_a_scan_of_every_province_says(seats: int, seed: int, policy: str, mode: str) -> None:
    seen, owners_changed = checked_match(seats, seed, policy, mode, assert_like_a_scan,
                                         lambda state: [scanned(state, seat) for seat in range(state.seats)])
    assert seen > 1000 and owners_changed > 20


def test_a_province_changed_by_hand_is_found_under_its_new_owner() -> None:
    state = heuristic_match_after(120)
    assert_like_a_scan(state)
    pid, province = next((pid, province) for pid, province in state.provinces.items() if province.owner == 0)
    province.owner = 1
    assert pid in board.owned(state, 1) and pid not in board.owned(state, 0)
    assert_like_a_scan(state)
    state.provinces[pid] = Prov(owner=2)
    assert pid in board.owned(state, 2) and pid not in board.owned(state, 1)
    assert_like_a_scan(state)
    del state.provinces[pid]
    assert pid not in board.owned(state, 2)
    assert_like_a_scan(state)
    state.provinces = {pid: Prov(owner=0)}
    assert board.owned(state, 0) == [pid] and board.owned(state, 1) == []
    copy = clone(state)
    copy.provinces[pid].owner = None
    assert board.owned(copy, 0) == [] and board.owned(state, 0) == [pid]
    board.owned(state, 0).append("forged")
    assert board.owned(state, 0) == [pid]


def test_a_province_shared_by_two_states_is_moved_in_both_indexes() -> None:
    """An information state shares the provinces it does not hide: an owner set on a shared
    province changes what both states' indexes say, and a third dict's index evicts none wrongly."""
    game = engine.get("samurai")
    state = game.setup(3, engine.parse_options(game, None), 2)
    assert isinstance(state, SamuraiState)
    seen = state.model_copy(update={"provinces": dict(state.provinces)})
    third = state.model_copy(update={"provinces": dict(state.provinces)})
    assert board.owned(state, 0) == board.owned(seen, 0) == scanned(state, 0)
    pid = scanned(state, 0)[0]
    state.provinces[pid].owner = 1
    assert pid in board.owned(state, 1) and pid in board.owned(seen, 1) and pid not in board.owned(seen, 0)
    assert_like_a_scan(state)
    assert_like_a_scan(seen)
    seen.provinces[pid] = Prov(owner=2)
    assert pid in board.owned(seen, 2) and pid in board.owned(state, 1) and pid in board.owned(third, 1)
    third.provinces[pid].owner = 0
    for each in (state, seen, third):
        assert_like_a_scan(each)
    assert pid in board.owned(state, 0) and pid in board.owned(seen, 2)
