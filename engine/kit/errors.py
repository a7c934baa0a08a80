"""The two errors a game raises that are not a player's illegal choice.

One `ContentError` for every game, so code catching it catches any game's. `WrongGame` is a
state handed to the wrong game: it subclasses both `IllegalChoice` (a refusal a front-end
shows) and `TypeError` (a programming error), so either kind of `except` catches it.
"""

from __future__ import annotations

from engine.contract import IllegalChoice


class ContentError(ValueError):
    """A content file is malformed; the message names the file and the field."""


class WrongGame(IllegalChoice, TypeError):
    """A state that is not this game's state (another game's, or not a state at all)."""
