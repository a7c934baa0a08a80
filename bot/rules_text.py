"""Player-facing rule summaries for `/game rules`, kept as data (bot/rules/<game>.toml)."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

RULES_DIR = Path(__file__).with_name("rules")


@cache
def rule_topics(game: str) -> dict[str, str]:
    path = RULES_DIR / f"{game}.toml"
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
