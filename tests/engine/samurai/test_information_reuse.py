"""An information state reuses what it built before (an army's screened copy while the army is
unchanged, whether any province holds ronin while no ronin moved): at every step of real
matches, for every seat, it is the very state one built from nothing says, and the reuse does
happen (else the test would prove nothing)."""

from __future__ import annotations

import pytest

from bot.simulate import simulate
from engine.samurai import information
from engine.samurai import state as samurai_state
from engine.samurai.state import Army, Player, Prov, SamuraiState
from tests.engine.samurai.helpers import heuristic_match_after


def fresh_information(state: SamuraiState, seat: int) -> SamuraiState:
    """``information`` with nothing kept from before."""
    information._SCREENED.clear()
    information._PLAYERS.clear()
    information._LISTS.clear()
    samurai_state._RONIN_SEEN[0] = None
    return information.information(state, seat)


def fields_set(view: SamuraiState) -> list[object]:
    return [sorted(model.model_fields_set) for model in
            [view, *view.players, *(army for player in view.players for army in player.armies)]]


@pytest.mark.parametrize(("seats", "seed", "mode"), [(4, 3, "base"), (4, 1, "lwtv"), (3, 2, "quickstart")])
def test_a_reused_information_state_is_the_one_built_afresh(seats: int, seed: int, mode: str) -> None:
    reused = 0
    last: dict[int, set[int]] = {}

    def on_step(state: object, _events: object) -> None:
        nonlocal reused
        assert isinstance(state, SamuraiState)
        for seat in range(state.seats):
            kept = information.information(state, seat)
            screened = {id(army) for player in kept.players if player.seat != seat
                        for army, original in zip(player.armies, state.players[player.seat].armies, strict=True)
                        if army is not original}
            reused += len(screened & last.get(seat, set()))
            last[seat] = screened
            fresh = fresh_information(state, seat)
            assert kept.model_dump_json() == fresh.model_dump_json(), (state.step, seat)
            assert fields_set(kept) == fields_set(fresh), (state.step, seat)
            information.information(state, seat)  # kept again for the next step

    simulate("samurai", seats, seed, "heuristic", options={"mode": mode, "round_limit": 3}, on_step=on_step)
    assert reused > 100


def test_a_player_changed_in_any_way_is_hidden_anew() -> None:
    """A player behind the screen is given again only while nothing of it changed: a field
    set (even to the value it held, unset until then: the fields set grows), its tray or an
    army's units changed in place, an army added or changed."""
    state = heuristic_match_after(150)
    player = state.players[1]
    army = next(army for army in player.armies if army.alive and army.location)
    player_unset = next(name for name in Player.model_fields if name not in player.model_fields_set)
    army_unset = next(name for name in Army.model_fields if name not in army.model_fields_set)

    def hidden() -> object:
        return information.information(state, 0).players[1]

    def is_fresh() -> bool:
        kept = information.information(state, 0)
        fresh = fresh_information(state, 0)
        return kept.model_dump_json() == fresh.model_dump_json() and fields_set(kept) == fields_set(fresh)

    first = hidden()
    assert hidden() is first, "nothing changed: the same screened player"
    changes = [lambda: setattr(player, "koku", player.koku + 1),
               lambda: player.tray.update(spearman=player.tray["spearman"] + 1),
               lambda: army.units.update(bowman=army.units["bowman"] + 1),
               lambda: setattr(army, "moves_left", army.moves_left + 1),
               lambda: setattr(player, player_unset, getattr(player, player_unset)),
               lambda: setattr(army, army_unset, getattr(army, army_unset)),
               lambda: player.armies.append(Army(idx=len(player.armies), location=None))]
    for change in changes:
        before = hidden()
        change()
        after = hidden()
        assert after is not before
        assert is_fresh()
    assert hidden().tray["bowman"] == player.tray["bowman"] + sum(army.units["bowman"] for army in player.armies)


def test_an_army_or_ronin_changed_by_hand_is_hidden_anew() -> None:
    state = heuristic_match_after(150)
    army = next(army for army in state.players[1].armies if army.alive and army.location)
    before = information.information(state, 0)
    assert information.information(state, 0).players[1].armies[army.idx] is before.players[1].armies[army.idx]
    army.moves_left += 3
    army.ronin = 2
    after = information.information(state, 0)
    assert after.players[1].armies[army.idx].moves_left == army.moves_left
    assert after.players[1].armies[army.idx].ronin == 0
    army.ronin_revealed = True
    assert information.information(state, 0).players[1].armies[army.idx].ronin == 2
    state.players[1].armies[army.idx] = Army(idx=army.idx, location=army.location, ronin=1)
    assert information.information(state, 0).players[1].armies[army.idx].ronin == 0
    pid = next(pid for pid, province in state.provinces.items() if province.owner == 1)
    for province in state.provinces.values():
        province.ronin = 0
    assert not samurai_state.holds_ronin(state)
    assert information.information(state, 0).provinces is state.provinces
    state.provinces[pid].ronin = 3
    assert samurai_state.holds_ronin(state)
    assert information.information(state, 0).provinces[pid].ronin == 0
    state.provinces[pid] = Prov(owner=1)
    assert not samurai_state.holds_ronin(state)
    state.provinces[pid] = Prov(owner=1, ronin=1)
    assert samurai_state.holds_ronin(state)
