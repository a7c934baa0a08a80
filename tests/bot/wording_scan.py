"""What no text a player reads may hold: an option's key, a seat number, "Player N", an AI's policy
in parentheses, a noun in the wrong number, a pronoun that guesses, a label said twice, an engine
seat reference. `problems(text)` names each one found, with the line it is in."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from tests.fakediscord.models import iter_components

PLURALS = ("units", "hits", "moves", "attacks left", "spearmen", "swordsmen", "bowmen", "gunners", "points",
           "pts", "minions", "coins", "rounds", "cards", "choices", "games", "wins", "heroes", "actions",
           "provinces", "armies", "battles", "caravans", "matches", "players", "seats", "influence points",
           "rated matches", "garrison units",)
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an option's key", re.compile(r"\b[a-z]+_[a-z_]+\b")),
    ("a seat number", re.compile(r"\bseat \d")),
    ("a seat shown as Player N", re.compile(r"\bPlayer \d")),
    ("an AI's policy in parentheses", re.compile(r"\((?:heuristic|random)\)")),
    ("a noun in the wrong number", re.compile(r"(?<![\w/.-])1 (?:" + "|".join(PLURALS) + r")\b")),
    ("a guessed pronoun", re.compile(r"\bplaces its\b")),
    ("a label said twice", re.compile(r"\b(Defender card: ){2}")),
    ("an engine seat reference", re.compile(r"\[\[seat:")),
)
"""Each rule's name and what it finds."""
SKIP = re.compile(r"^\[(?:map saved|replay of every phase saved): ")
"""Lines naming a file the terminal table wrote (a path may hold anything)."""


def problems(text: str) -> list[str]:
    """Every rule ``text`` breaks, as "rule: the line"."""
    found = []
    for line in text.splitlines():
        if SKIP.match(line.strip()):
            continue
        for name, pattern in RULES:
            if pattern.search(line):
                found.append(f"{name}: {line.strip()}")
    return found


def message_problems(messages: Iterable[Any]) -> list[str]:
    """``problems`` of every version of every message of the fake Discord (posts, thread posts,
    DMs, ephemeral replies), their buttons' and menus' labels included."""
    found: set[str] = set()
    for message in messages:
        for version, text in zip(message.versions, message.texts, strict=False):
            labels = [str(part.get(key) or "") for part in iter_components(version["components"])
                      for key in ("label", "placeholder")]
            labels += [f"{option.get('label', '')} {option.get('description') or ''}"
                       for part in iter_components(version["components"]) for option in part.get("options") or []]
            found.update(problems("\n".join([text, *labels])))
    return sorted(found)
