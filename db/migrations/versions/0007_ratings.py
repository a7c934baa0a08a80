"""History and ratings: match records, their seats, per-server per-game ratings.

Matches finished before this revision get a record (history lists them) and count in their
players' games and wins; they moved no rating (their rating stays at openskill's default).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 14:31:59.801456

"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # autogenerate renders sqlmodel.sql.sqltypes.AutoString
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
"""openskill's defaults at the time of writing (frozen here: a migration never changes)."""


def _json_type() -> Any:
    return sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("game", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("guild_id", "game", "user_id", name="uq_ratings_player"),
    )
    op.create_table(
        "match_records",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("game", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("choices", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("draw", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("match_id"),
    )
    with op.batch_alter_table("match_records", schema=None) as batch_op:
        batch_op.create_index("ix_match_records_guild_finished", ["guild_id", "finished_at"], unique=False)

    op.create_table(
        "record_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("picks", _json_type(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["match_records.match_id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "seat_no", name="uq_record_seats_match_seat"),
    )
    with op.batch_alter_table("record_seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_record_seats_match_id"), ["match_id"], unique=False)
        batch_op.create_index("ix_record_seats_user", ["user_id", "match_id"], unique=False)

    _backfill(op.get_bind())


def _backfill(conn: sa.Connection) -> None:
    """A record for every match finished before this revision, and its players' games and wins."""
    matches = sa.table("matches", sa.column("id"), sa.column("guild_id"), sa.column("game"), sa.column("status"),
                       sa.column("step"), sa.column("result", sa.JSON()), sa.column("updated_at"))
    seats = sa.table("seats", sa.column("match_id"), sa.column("seat_no"), sa.column("user_id"), sa.column("name"))
    records = sa.table("match_records", sa.column("match_id"), sa.column("guild_id"), sa.column("game"),
                       sa.column("finished_at"), sa.column("rounds"), sa.column("choices"), sa.column("reason"),
                       sa.column("draw"), sa.column("rated"))
    record_seats = sa.table("record_seats", sa.column("match_id"), sa.column("seat_no"), sa.column("user_id"),
                            sa.column("name"), sa.column("won"), sa.column("picks", sa.JSON()))
    ratings = sa.table("ratings", sa.column("guild_id"), sa.column("game"), sa.column("user_id"), sa.column("name"),
                       sa.column("mu"), sa.column("sigma"), sa.column("games"), sa.column("wins"),
                       sa.column("rated"), sa.column("updated_at"))
    finished = conn.execute(sa.select(matches).where(matches.c.status == "finished").order_by(matches.c.id)).all()
    standing: dict[tuple[int, str, int], dict[str, Any]] = {}
    for match in finished:
        result = match.result if isinstance(match.result, dict) else json.loads(match.result or "{}")
        winners = {int(w) for w in result.get("winners") or []}
        conn.execute(records.insert().values(
            match_id=match.id, guild_id=match.guild_id, game=match.game, finished_at=match.updated_at, rounds=None,
            choices=match.step, reason=str(result.get("reason") or ""), draw=bool(result.get("draw")), rated=False))
        for seat in conn.execute(sa.select(seats).where(seats.c.match_id == match.id)).all():
            won = seat.seat_no in winners
            conn.execute(record_seats.insert().values(match_id=match.id, seat_no=seat.seat_no, user_id=seat.user_id,
                                                      name=seat.name, won=won, picks=[]))
            if match.guild_id is None or seat.user_id is None:
                continue
            row = standing.setdefault((match.guild_id, match.game, seat.user_id), {"games": 0, "wins": 0})
            row.update(games=row["games"] + 1, wins=row["wins"] + int(won), name=seat.name, at=match.updated_at)
    for (guild_id, game, user_id), row in standing.items():
        conn.execute(ratings.insert().values(
            guild_id=guild_id, game=game, user_id=user_id, name=row["name"], mu=DEFAULT_MU, sigma=DEFAULT_SIGMA,
            games=row["games"], wins=row["wins"], rated=0, updated_at=row["at"]))


def downgrade() -> None:
    with op.batch_alter_table("record_seats", schema=None) as batch_op:
        batch_op.drop_index("ix_record_seats_user")
        batch_op.drop_index(batch_op.f("ix_record_seats_match_id"))

    op.drop_table("record_seats")
    with op.batch_alter_table("match_records", schema=None) as batch_op:
        batch_op.drop_index("ix_match_records_guild_finished")

    op.drop_table("match_records")
    op.drop_table("ratings")
