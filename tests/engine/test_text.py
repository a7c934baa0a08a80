from __future__ import annotations

from engine.text import fill, seat_ref


def test_fill_uses_names_and_falls_back_to_player_numbers() -> None:
    text = f"{seat_ref(0)} attacks {seat_ref(2)}; {seat_ref(1)} watches"
    assert fill(text, ["Ana", "", "Bo"]) == "Ana attacks Bo; Player 2 watches"
    assert fill(text) == "Player 1 attacks Player 3; Player 2 watches"


def test_fill_leaves_other_brackets_alone() -> None:
    assert fill("[[seat:x]] and [seat:1]", ["Ana", "Bo"]) == "[[seat:x]] and [seat:1]"


def _event_texts(key: str, options: dict) -> list[str]:
    from bot.simulate import simulate

    texts: list[str] = []
    simulate(key, 3, 4, "random", options=options, on_step=lambda _s, events: texts.extend(e.text for e in events))
    return texts


def test_event_texts_name_seats_only_through_references() -> None:
    """Players see names, not 0-based seat numbers: every seat mention must be a reference."""
    import re

    raw = re.compile(r"\b[Ss]eat \d")
    for key, options in (("tinybigwars", {"round_limit": 4}), ("samurai", {"round_limit": 2})):
        texts = _event_texts(key, options)
        assert any("[[seat:" in t for t in texts), key
        bad = [t for t in texts if raw.search(t)]
        assert not bad, f"{key}: {bad[:3]}"
