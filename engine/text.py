"""Seat references in event texts. The engine does not know players' names, so it writes
``seat_ref(n)``; every front-end fills in names (or "Player n+1") before showing a text."""

from __future__ import annotations

import re
from collections.abc import Sequence

_REF = re.compile(r"\[\[seat:(\d+)\]\]")


def seat_ref(seat: int) -> str:
    return f"[[seat:{seat}]]"


def seat_label(seat: int, names: Sequence[str] | None = None) -> str:
    if names is not None and 0 <= seat < len(names) and names[seat].strip():
        return names[seat]
    return f"Player {seat + 1}"


def fill(text: str, names: Sequence[str] | None = None) -> str:
    """Replace every seat reference with that seat's name (a text without one is returned as it
    is, without a pass of the pattern: most texts have none)."""
    if "[[seat:" not in text:
        return text
    return _REF.sub(lambda m: seat_label(int(m.group(1)), names), text)
