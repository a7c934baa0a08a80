"""The two errors a game raises that are not a player's illegal choice.

`ContentError` was defined three times (once per content.py), so code catching one game's
did not catch another's. `WrongGame` replaces a mix of `IllegalChoice` (Tiny Big Wars) and
`TypeError` (Samurai Swords, Defenders) for a state handed to the wrong game: it subclasses
both, so every existing `except` keeps catching it.
"""

from __future__ import annotations

from engine.contract import IllegalChoice


class ContentError(ValueError):
    """A content file is malformed; the message names the file and the field."""


class WrongGame(IllegalChoice, TypeError):
    """A state that is not this game's state (another game's, or not a state at all)."""
