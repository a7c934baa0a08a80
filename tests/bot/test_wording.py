"""The shared words: counted nouns, names listed, who won (a tie reads as shared), AI names (old
stored ones too), one rating number, options in words, refusals as sentences, and the game texts
the issue found contradicting their game."""

from __future__ import annotations

import engine
from bot.discord import records
from bot.service.announce import result_text
from bot.service.ratings import GameStats, Standing
from bot.service.wording import (
    ai_name,
    counted,
    listed,
    option_words,
    rating_points,
    seat_name,
    sentence,
    verdict,
)
from engine.contract import Result
from engine.defenders.view_models import CAPITAL_FELL, ResultView
from engine.tinybigwars.content import content as tbw_content
from render.defenders.panel import result_headline
from tests.bot.wording_scan import problems


def test_the_scanner_finds_what_the_issue_found() -> None:
    for bad in ("(round_limit)", "round_limit 6", "the AI plays seat 0", "Player 2", "AI 1 (heuristic) won",
                "1 units", "1 hits", "(1 spearmen)", "1 moves", "bob places its Building card",
                "Defender card: Defender card: Tide Seer Maro", "[[seat:1]] passes"):
        assert problems(bad), bad
    assert problems("Army 1 takes 1 garrison unit; 2 units; 1 AP left; round 1 begins") == []


def test_counted_listed_and_sentence() -> None:
    assert (counted(1, "unit"), counted(3, "unit"), counted(1, "spearman", "spearmen")) == ("1 unit", "3 units", "1 spearman")
    assert (listed([]), listed(["a"]), listed(["a", "b"]), listed(["a", "b", "c"])) == ("", "a", "a and b", "a, b and c")
    assert sentence("the garrison of Omi is full (5 units)") == "The garrison of Omi is full (5 units)."
    assert sentence("Done.") == "Done."


def test_a_tie_reads_as_shared_and_a_draw_names_who_drew() -> None:
    names = ["alice", "bob", "carol"]
    assert verdict(names, [2], False) == "carol won"
    assert verdict(names, [1, 2], False) == "a shared win for bob and carol"
    assert verdict(names, [0, 1], True) == "a draw between alice and bob"
    assert verdict(names, [], False) == "nobody won"
    samurai = engine.get("samurai")
    text = result_text(samurai, Result(winners=[1, 2], reason="most provinces"), ["alice", "carol", "AI Ayame"])
    assert text == "**The match is over: a shared win for carol and AI Ayame** (most provinces)."


def test_ai_seats_have_names_and_old_stored_names_read_as_them() -> None:
    assert [ai_name(n) for n in (1, 2, 3)] == ["AI Ayame", "AI Bruno", "AI Chiyo"]
    assert ai_name(9) == "AI Ayame 2"
    assert seat_name("AI 2 (heuristic)") == "AI Bruno" and seat_name("AI 1 (random)") == "AI Ayame"
    assert seat_name("alice") == "alice"


def test_a_rating_is_one_number_with_its_meaning() -> None:
    assert rating_points(0.0) == 1000 and rating_points(-2.5) == 900 and rating_points(4.5) == 1180
    stats = [GameStats("tinybigwars", "Tiny Big Wars", 3, 2, 1, -0.8, 24.0, 8.3, None, "hero")]
    text = records.stats_text("alice", stats)
    assert "rating 968 (new players start at 1000; 1 rated match)" in text
    board = records.leaderboard_text({"tinybigwars": [Standing(1, 5, "AI 1 (heuristic)", 3, 2, 3, -0.8)]}, None)
    assert "by rating (new players start at 1000)" in board and "rating 968" in board
    for said in (text, board):
        assert "mu" not in said.split() and "sigma" not in said and "-" not in said.replace(" - ", ""), said
        assert problems(said) == [], said


def test_options_in_words() -> None:
    assert option_words("round_limit", 6) == "at most 6 rounds"
    assert option_words("point_limit", 40) == "40 force points"
    assert option_words("some_new_option", "x") == "some new option x"


def test_the_building_card_says_what_the_engine_does() -> None:
    for building in tbw_content().buildings.values():
        assert "start node" not in building.text and "where you control a location with a hero" in building.text


def test_the_defenders_banner_says_the_true_reason() -> None:
    assert result_headline("Aldmere", ResultView(won=False, reason=CAPITAL_FELL)) == "Defeat: Aldmere fell"
    limit = ResultView(won=False, reason="the horde still stood after the 2-round limit")
    assert result_headline("Aldmere", limit) == "Defeat"
    assert result_headline("Aldmere", ResultView(won=True, reason="x")) == "Victory! Aldmere stands"
