"""Player-facing rule summaries for `/game rules`, kept as data: bot/rules/<game>.toml for a
shipped game, the file `engine.register` was given for a game registered at run time."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

import engine

RULES_DIR = Path(__file__).with_name("rules")


def rules_file(game: str) -> Path:
    """Where ``game``'s topics are kept."""
    return engine.extras(game).rules or RULES_DIR / f"{game}.toml"


def rule_topics(game: str) -> dict[str, str]:
    """Topic name -> its text; none for a game without a rules file."""
    return topics_in(rules_file(game))


@cache
def topics_in(path: Path) -> dict[str, str]:
    """The topics of one rules file (read once: a file does not change while the bot runs)."""
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    topics = data.get("topic", [])
    out: dict[str, str] = {}
    for i, topic in enumerate(topics):
        if not isinstance(topic, dict) or not isinstance(topic.get("name"), str) or not isinstance(topic.get("text"), str):
            raise ValueError(f"{path}: topic #{i + 1} needs a string 'name' and 'text'")
        out[topic["name"]] = topic["text"].strip()
    return out
