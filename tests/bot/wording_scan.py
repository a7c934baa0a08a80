"""What no text a player reads may hold: an option's key, a seat number, "Player N", an AI's policy
in parentheses, a noun in the wrong number, a pronoun that guesses, a label said twice, an engine
seat reference. `problems(text)` names each one found, with the line it is in."""

from __future__ import annotations

import re

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
