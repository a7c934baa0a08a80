"""What a game declares about itself, read by the service and the front-ends.

Every game declares one frozen `GameInfo`, so a misspelt field fails when the game is
defined instead of silently reading a default; a field left out takes the default below.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameInfo:
    """The fixed facts of one game: its registry key, its name and who may play it."""

    key: str
    """The registry key (`engine.get(key)`), stored with every match: never renamed."""
    title: str
    seats: range
    """How many players a match takes, e.g. ``range(2, 5)`` for 2 to 4."""
    modes: tuple[str, ...] = ()
    """Named rule sets a match may pick (the `mode` option); empty = only one way to play."""
    cooperative: bool = False
    """All seats win or lose together (no rating changes between teammates)."""
    team: str = "the players"
    """How front-ends name the team of a cooperative game ("the Defenders won")."""
    face_down: tuple[str, ...] = ()
    """State fields holding cards face down: a choice that changes one drew a hidden card, so
    the service will not undo it (the card is seen)."""
    picks: tuple[str, str] | None = None
    """Where the public view names what each seat played (a list of {seat, name} entries) and
    what one is called, e.g. ("heroes", "hero"): the stats name a player's favourite."""

    def __post_init__(self) -> None:
        if not self.seats or self.seats.step != 1 or self.seats.start < 1:
            raise ValueError(f"{self.key}: seats must be a plain range of player counts, not {self.seats}")

    @property
    def fewest(self) -> int:
        return self.seats.start

    @property
    def most(self) -> int:
        return self.seats.stop - 1

    def check_seats(self, seats: int) -> None:
        """Refuse a player count the game is not made for, before any setup work."""
        if seats not in self.seats:
            raise ValueError(f"{self.title} takes {self.fewest} to {self.most} players, not {seats}")
