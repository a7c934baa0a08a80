"""What stays of a finished match once it is over: its record (history), its seats (stats) and
each player's rating per server and game.

A record is written once, in the transaction that finishes the match, keyed on the match id:
a retried or replayed finish finds it and changes nothing, so ratings move exactly once.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from db.models import _big, _json, _when

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
"""A new player's rating: openskill's defaults (mu 25, sigma 25/3), also used by migration 0006."""


class MatchRecord(SQLModel, table=True):
    """A finished match as history remembers it."""

    __tablename__ = "match_records"
    __table_args__ = (sa.Index("ix_match_records_guild_finished", "guild_id", "finished_at"),)

    match_id: int = Field(foreign_key="matches.id", primary_key=True)
    guild_id: int | None = _big(nullable=True)
    game: str = Field(max_length=40)
    finished_at: datetime = _when()
    rounds: int | None = None
    """The round the public view showed at the end (None for matches finished before 0006)."""
    choices: int = 0
    reason: str = Field(default="", sa_type=sa.Text)
    """The result's reason, seat placeholders kept: names are filled in when it is shown."""
    draw: bool = False
    rated: bool = False
    """Whether the match moved ratings (two or more humans in a competitive game)."""


class RecordSeat(SQLModel, table=True):
    """One seat of a finished match: who played it, whether it won, what it played."""

    __tablename__ = "record_seats"
    __table_args__ = (
        sa.UniqueConstraint("match_id", "seat_no", name="uq_record_seats_match_seat"),
        sa.Index("ix_record_seats_user", "user_id", "match_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match_records.match_id", index=True)
    seat_no: int
    user_id: int | None = _big(nullable=True)
    """None for an AI seat (and a seat handed to the AI for good by a kick)."""
    name: str = Field(max_length=100)
    won: bool = False
    picks: list[str] = _json()
    """The heroes or defender the seat played, as its final public view names them."""
    mu_before: float | None = None
    mu_after: float | None = None


class Rating(SQLModel, table=True):
    """One player's standing in one game on one server."""

    __tablename__ = "ratings"
    __table_args__ = (sa.UniqueConstraint("guild_id", "game", "user_id", name="uq_ratings_player"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = _big(nullable=False)
    game: str = Field(max_length=40)
    user_id: int = _big(nullable=False)
    name: str = Field(max_length=100)
    """The player's seat name at their latest finished match (for the leaderboard)."""
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0
    wins: int = 0
    rated: int = 0
    """Matches that moved this rating (cooperative and one-human matches count games only)."""
    updated_at: datetime = _when()

    @property
    def ordinal(self) -> float:
        """The displayed rating, mu - 3 sigma: a conservative estimate that grows with certainty."""
        return self.mu - 3 * self.sigma


RECORD_TABLES = (MatchRecord, RecordSeat, Rating)
