"""How history and stats write a seat that changed hands (`/game replace`)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.discord import records
from bot.service.history import HistoryEntry, HistorySeat
from bot.service.replacements import SharedSeat, Stretch


def _stretches() -> list[Stretch]:
    return [Stretch(1, 11, "Alice", 0, 9, 1, 3), Stretch(1, 12, "Bob*", 9, None, 3, None)]


def test_history_names_both_players_of_a_seat_with_their_rounds() -> None:
    entry = HistoryEntry(match_id=4, game="tinybigwars", guild_id=1, channel_id=2, finished_at=datetime(2026, 1, 1, tzinfo=UTC),
                         rounds=7, choices=40, reason="over", draw=False, rated=True,
                         seats=[HistorySeat(0, 10, "Carol", True), HistorySeat(1, 12, "Bob*", False)],
                         replay_message_id=None)
    text = records.history_text([entry], None, {4: {1: _stretches()}})
    assert "seat 2: Alice (rounds 1-3), Bob\\* (rounds 3-7)" in text


def test_stats_list_the_seats_a_player_played_in_part() -> None:
    shared = [SharedSeat(4, "tinybigwars", 1, [Stretch(1, 11, "Alice", 0, 9, 1, 3), Stretch(1, 12, "Bob", 9, 40, 3, 3)])]
    text = records.stats_text("Alice", [], shared=shared)
    assert "has no finished match of their own" in text
    assert "Seats played in part:" in text and "#4 Tiny Big Wars, seat 2: Alice (rounds 1-3), Bob (round 3)" in text
    no_rounds = records.stretch_words(Stretch(0, 11, "Alice", 0, 12, None, None))
    assert no_rounds == "Alice (choices 1-12)"
