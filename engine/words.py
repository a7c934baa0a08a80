"""Counted nouns for texts players read: "1 minion", "3 minions", never "1 minions"."""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the noun in the form its number takes."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"
