"""The cheap check of whether a seat can act on the AP card (card_options.idle_on_card) says what
the full option lists say: a seat it calls idle would be shown only End, Pass or focus
switches, and one it calls able would be shown an action."""

from __future__ import annotations

import pytest

from bot.simulate import simulate
from engine.defenders import card_options
from engine.defenders.state import DefendersState


@pytest.mark.parametrize(("seats", "seed", "policy", "options"), [
    (2, 1, "heuristic", {}), (1, 0, "random", {}), (3, 3, "random", {}), (4, 2, "heuristic", {"mode": "campaign"}),
])
def test_idle_check_agrees_with_the_option_lists(seats: int, seed: int, policy: str, options: dict[str, str]) -> None:
    checked = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal checked
        assert isinstance(state, DefendersState)
        if state.phase != "play" or state.active is None:
            return
        for seat in range(state.seats):
            full = not card_options.has_action(card_options.seat_card_options(state, seat))
            assert card_options.idle_on_card(state, seat) == full, (state.step, seat)
            checked += 1

    simulate("defenders", seats, seed, policy, options=options, on_step=on_step)
    assert checked > 20
