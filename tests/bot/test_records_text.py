"""The texts of /game history, stats and leaderboard: names cannot ping or format, a page stays
under Discord's 2,000 characters, cooperative games say the team's result."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.discord import records
from bot.service.history import HistoryEntry, HistorySeat
from bot.service.ratings import GameStats, Standing

EVIL = "**@everyone** <@123456789012345678> `x`"


def entry(match_id: int, game: str = "tinybigwars", winners: tuple[int, ...] = (0,), replay: int | None = None,
          name: str = EVIL) -> HistoryEntry:
    seats = [HistorySeat(0, 5, name, 0 in winners), HistorySeat(1, None, "AI 1 (heuristic)", 1 in winners)]
    return HistoryEntry(match_id=match_id, game=game, guild_id=9, channel_id=8,
                        finished_at=datetime(2026, 3, 1, tzinfo=UTC), rounds=4, choices=61, reason="r", draw=False,
                        rated=False, seats=seats, replay_message_id=replay)


def test_history_escapes_names_and_links_the_replay() -> None:
    text = records.history_text([entry(3, replay=77), entry(2)], None)
    assert "@everyone" not in text.replace("@\u200beveryone", "") and "<@123456789012345678>" not in text
    assert "\\*\\*" in text
    assert "[replay](https://discord.com/channels/9/8/77)" in text
    assert "#2 Tiny Big Wars" in text and "<#8>" in text, "no replay posted: the channel instead"
    assert "4 rounds, 61 choices" in text and "<t:" in text


def test_cooperative_history_names_the_team() -> None:
    assert "the Defenders won" in records.history_text([entry(1, "defenders", winners=(0, 1))], None)
    assert "the Defenders lost" in records.history_text([entry(1, "defenders", winners=())], None)


def test_a_long_history_is_one_page() -> None:
    text = records.history_text([entry(n, name="n" * 100) for n in range(40)], None)
    assert len(text) <= 2000 and text.endswith("more.")


def test_stats_and_leaderboard_texts() -> None:
    stats = [GameStats("tinybigwars", "Tiny Big Wars", 3, 2, 3, 4.5, 27.0, 7.5, "Swift Crane", "hero"),
             GameStats("defenders", "Tiny Epic Defenders", 1, 1, 0, -0.0, 25.0, 8.3, "Far-Eye Vessa", "defender")]
    text = records.stats_text(EVIL, stats)
    assert "<@123456789012345678>" not in text and "3 games, 2 wins, rating 1180 (new players start at 1000; 3 rated matches)" in text
    assert "favourite hero: Swift Crane" in text and "cooperative: not rated" in text
    assert records.stats_text("carol", []) == "carol has no finished matches on this server yet."
    board = records.leaderboard_text({"tinybigwars": [Standing(1, 5, EVIL, 3, 2, 3, 4.5)], "samurai": []}, None)
    assert "<@123456789012345678>" not in board and "1. " in board and "Samurai" not in board
    assert records.leaderboard_text({"samurai": []}, "samurai") == (
        "Nobody has finished a Samurai Swords match on this server yet.")
