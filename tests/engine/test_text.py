from __future__ import annotations

from engine.text import fill, seat_ref


def test_fill_uses_names_and_falls_back_to_player_numbers() -> None:
    text = f"{seat_ref(0)} attacks {seat_ref(2)}; {seat_ref(1)} watches"
    assert fill(text, ["Ana", "", "Bo"]) == "Ana attacks Bo; Player 2 watches"
    assert fill(text) == "Player 1 attacks Player 3; Player 2 watches"


def test_fill_leaves_other_brackets_alone() -> None:
    assert fill("[[seat:x]] and [seat:1]", ["Ana", "Bo"]) == "[[seat:x]] and [seat:1]"
