"""Every class of illegal choice raises IllegalChoice and leaves the state untouched."""

from __future__ import annotations

from typing import Any

import pytest

from engine.contract import IllegalChoice
from engine.tinybigwars.state import TBWState
from tests.engine.tinybigwars.helpers import G, activation, blank, hero, new, put_card, sub


def refused(state: TBWState, seat: Any, choice: Any, match: str | None = None) -> None:
    before = state.model_dump()
    with pytest.raises(IllegalChoice, match=match):
        G.submit(state, seat, choice)
    assert state.model_dump() == before


def moving() -> TBWState:
    s = activation(blank(["crane"], ["tiger"]), [0, 1])
    for node, card in zip(["w", "nw", "c", "e"], ["gate", "academy", "counting", "hall"], strict=True):
        put_card(s, node, card)
    return sub(s, 0, {"hero": "h0-crane"})


def fighting() -> TBWState:
    s = activation(blank(["crane"], ["tiger"]), [0, 1])
    for node, card in zip(["w", "c", "e"], ["gate", "counting", "hall"], strict=True):
        put_card(s, node, card)
    s.loc("c").minions[1] = 2
    hero(s, 0, "crane").energy = 1
    s = sub(s, 0, {"hero": "h0-crane"})
    s = sub(s, 0, {"action": "move", "to": "c"})
    assert s.phase == "combat"
    return s


@pytest.mark.parametrize("seat", [5, -1, "0", None, True, 1.0])
def test_wrong_seat(seat: Any) -> None:
    refused(new(2), seat, {"picks": ["crane"]}, "no seat")


def test_not_your_prompt() -> None:
    refused(moving(), 1, {"action": "end"}, "no decision to make")


def test_non_adjacent_move() -> None:
    refused(moving(), 0, {"action": "move", "to": "e"}, "is not adjacent to")
    refused(moving(), 0, {"action": "move", "to": "atlantis"}, "Name a location")


def test_force_over_the_point_limit() -> None:
    refused(new(2), 0, {"picks": ["tiger", "ember", "storm", "goldhand", "alley"]}, "limit is 30")


def test_coins_you_do_not_have() -> None:
    s = blank(["crane"], ["tiger"])
    put_card(s, "w", "gate")
    s.phase, s.seats[0].coins, s.seats[0].clan_done = "clan", 1, False
    refused(s, 0, {"action": "build", "location": "w"}, "2 coins")
    s2 = sub(s, 0, {"action": "recruit", "location": "w"})
    refused(s2, 0, {"count": 2}, "you have 1")
    refused(s2, 0, {"count": 0})


def test_energy_you_do_not_have() -> None:
    refused(fighting(), 0, {"attack": 1, "guard": 1}, "only 1")
    refused(fighting(), 0, {"attack": -1, "guard": 0}, "negative")


def test_minions_you_do_not_have() -> None:
    s = moving()
    s.loc("w").minions[0] = 2
    s = sub(s, 0, {"action": "move", "to": "nw"})
    refused(s, 0, {"minions": 3}, "between 0 and 2")
    refused(s, 0, {"minions": -1})


def test_unknown_field() -> None:
    refused(new(2), 0, {"picks": ["crane"], "bribe": 3}, "unknown field 'bribe'")
    refused(moving(), 0, {"action": "end", "extra": 1}, "unknown field")


@pytest.mark.parametrize(
    "choice",
    [None, [], "crane", 7, 3.5, {"picks": "crane"}, {"picks": [1, 2]}, {"picks": None}, {}, {"picks": [["x"]]}],
)
def test_malformed_force_payloads(choice: Any) -> None:
    refused(new(2), 0, choice)


@pytest.mark.parametrize(
    "choice",
    [{"action": "fly"}, {"action": 3}, {"action": "move"}, {"action": "move", "to": 4}, {"action": "train_energy", "to": "c"}, {"hero": "h0-crane"}],
)
def test_malformed_action_payloads(choice: Any) -> None:
    refused(moving(), 0, choice)


@pytest.mark.parametrize("choice", [{"attack": "lots", "guard": 0}, {"attack": 0}, {"attack": [], "guard": {}}])
def test_malformed_energy_payloads(choice: Any) -> None:
    refused(fighting(), 0, choice)


def test_activating_someone_elses_or_a_defeated_hero() -> None:
    s = activation(blank(["crane", "sage"], ["tiger"]), [0, 1])
    refused(s, 0, {"hero": "h1-tiger"}, "not one of yours")
    hero(s, 0, "sage").defeated = True
    refused(s, 0, {"hero": "h0-sage"}, "defeated")


def test_nothing_is_accepted_once_the_match_is_over() -> None:
    s = blank(["crane"], ["tiger"])
    s.phase, s.winners = "over", [0]
    refused(s, 0, {"action": "done"}, "over")


def test_submit_never_mutates_its_input_state() -> None:
    s = moving()
    before = s.model_dump()
    G.submit(s, 0, {"action": "train_energy"})
    assert s.model_dump() == before
