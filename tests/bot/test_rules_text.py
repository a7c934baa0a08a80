from __future__ import annotations

import pytest

from bot import rules_text


def test_tinybigwars_topics_cover_the_core_rules() -> None:
    topics = rules_text.rule_topics("tinybigwars")
    assert {"Goal", "Force building", "Clan phase", "Hero activation", "Combat", "Locations"} <= set(topics)
    assert all(len(text) < 1900 for text in topics.values())


def test_unknown_game_has_no_topics() -> None:
    assert rules_text.rule_topics("nosuchgame") == {}


def test_malformed_topic_file_names_the_file(tmp_path, monkeypatch) -> None:
    (tmp_path / "broken.toml").write_text('[[topic]]\nname = "Only a name"\n')
    monkeypatch.setattr(rules_text, "RULES_DIR", tmp_path)
    rules_text.rule_topics.cache_clear()
    with pytest.raises(ValueError, match="broken.toml: topic #1"):
        rules_text.rule_topics("broken")
    rules_text.rule_topics.cache_clear()


def test_defenders_topics_cover_the_game() -> None:
    topics = rules_text.rule_topics("defenders")
    want = {"Overview", "Turn", "All Defenders card", "Defend", "Caravans", "XP and skills", "Artifacts",
            "War regions", "Bosses", "Campaign", "Difficulty", "Winning and losing"}
    assert want <= set(topics)
    assert all(20 < len(text) < 1900 for text in topics.values())
    assert "easy" in topics["Difficulty"] and "epic" in topics["Difficulty"]
    assert len(topics) <= 25  # the autocomplete shows at most 25
