"""Where armies stand (state.army_index, derived and never stored) says what a scan of every
army says, at every step of real matches, in every seat's information state, and after an
army is moved, killed, made anew or a player's armies are replaced by hand (the replay
digests hold the stored states: the index is never in them)."""

from __future__ import annotations

import pytest

import engine
from engine.clone import clone
from engine.samurai import board
from engine.samurai import information as samurai_information
from engine.samurai.movement import army_spots
from engine.samurai.state import Army, Player, SamuraiState
from tests.engine.samurai.helpers import checked_match, heuristic_match_after


def scanned(state: SamuraiState) -> dict[str, tuple[int, Army]]:
    """The first living army found in each province, seat by seat and army by army."""
    found: dict[str, tuple[int, Army]] = {}
    for player in state.players:
        for army in player.armies:
            if army.alive and army.location is not None and army.location not in found:
                found[army.location] = (player.seat, army)
    return found


def assert_like_a_scan(state: SamuraiState) -> int:
    expected = scanned(state)
    for pid in state.provinces:
        found = board.army_at(state, pid)
        want = expected.get(pid)
        assert (found is None) == (want is None), (state.step, pid)
        if found is not None and want is not None:
            assert found[0] == want[0] and found[1] is want[1], (state.step, pid)
        assert (pid in army_spots(state)) == (pid in expected), (state.step, pid)
    assert dict(board.armies_by_spot(state)) == expected
    return len(expected)


@pytest.mark.parametrize(("seats", "seed", "policy", "mode"),
                         [(4, 2, "heuristic", "base"), (3, 5, "random", "quickstart"), (4, 1, "heuristic", "lwtv")])
def test_the_index_is_what_a_scan_of_every_army_says(seats: int, seed: int, policy: str, mode: str) -> None:
    game = engine.get("samurai")

    def check(state: SamuraiState) -> int:
        seen = assert_like_a_scan(state)
        if state.step % 7 == 0:
            for seat in range(state.seats):
                information = game.information(state, seat)
                assert isinstance(information, SamuraiState)
                assert_like_a_scan(information)
                assert_like_a_scan(state)
        return seen

    seen, moves = checked_match(seats, seed, policy, mode, check,
                                lambda state: {pid: seat for pid, (seat, _) in scanned(state).items()})
    assert seen > 1000 and moves > 20


def test_an_army_changed_by_hand_is_found_where_it_stands() -> None:
    state = heuristic_match_after(150)
    assert_like_a_scan(state)
    army = next(army for army in state.players[0].armies if army.alive and army.location)
    here = army.location
    assert here is not None
    empty = next(pid for pid in state.provinces if board.army_at(state, pid) is None)
    army.location = empty
    assert board.army_at(state, empty) == (0, army) and board.army_at(state, here) is None
    assert_like_a_scan(state)
    army.alive = False
    assert board.army_at(state, empty) is None
    assert_like_a_scan(state)
    state.players[1].armies[0] = Army(idx=0, location=here)
    assert board.army_at(state, here) == (1, state.players[1].armies[0])
    assert_like_a_scan(state)
    state.players[2].armies = [Army(idx=0, location=empty)]
    assert board.army_at(state, empty) == (2, state.players[2].armies[0])
    assert_like_a_scan(state)
    state.players[2] = Player(seat=2)
    assert board.army_at(state, empty) is None
    assert_like_a_scan(state)
    copy = clone(state)
    copy.players[1].armies[0].location = empty
    assert board.army_at(copy, empty) is not None and board.army_at(state, empty) is None
    assert_like_a_scan(copy)
    assert_like_a_scan(state)
    state.players = [Player(seat=0, armies=[Army(idx=0, location=here)])]
    assert board.army_at(state, here) == (0, state.players[0].armies[0])
    assert_like_a_scan(state)


def test_a_seat_s_kept_players_list_finds_armies_as_a_scan() -> None:
    """An information state gives its seat's last players list again while every player in it
    is the same object, and the army index kept for that list with it: where armies stand is
    still what a scan says at every step of a match, and after the seat's own army moved by
    hand (the same list, its index built again)."""
    game = engine.get("samurai")
    last: dict[int, object] = {}
    reused = 0

    def check(state: SamuraiState) -> int:
        nonlocal reused
        for seat in range(state.seats):
            information = game.information(state, seat)
            assert isinstance(information, SamuraiState)
            reused += information.players is last.get(seat)
            last[seat] = information.players
            assert_like_a_scan(information)
        return 1

    checked_match(4, 3, "heuristic", "base", check, lambda state: None)
    assert reused > 500

    state = heuristic_match_after(150)
    # the screened players' cache empties itself when full (the other tests of this process
    # fill it): emptied here, the two reads below cannot fall on either side of that
    samurai_information._PLAYERS.clear()
    samurai_information._KEPT_COPIES.clear()
    before = game.information(state, 0)
    assert isinstance(before, SamuraiState)
    assert_like_a_scan(before)
    army = next(army for army in state.players[0].armies if army.alive and army.location)
    empty = next(pid for pid in state.provinces if board.army_at(state, pid) is None)
    army.location = empty
    after = game.information(state, 0)
    assert isinstance(after, SamuraiState)
    assert after.players is before.players
    assert board.army_at(after, empty) == (0, army)
    assert_like_a_scan(after)
