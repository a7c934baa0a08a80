"""Players control their own pace: clock deadlines ("every day at 21:00 Europe/Berlin, at least
12 h"), pauses that end by themselves, and what `/game stats` reads of a player's pace (who
answered each choice, and how long after the decision opened).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05 10:00:00.000000

"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("deadline_clock", sqlmodel.sql.sqltypes.AutoString(length=5), nullable=True))
        batch.add_column(sa.Column("deadline_zone", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))
        batch.add_column(sa.Column("deadline_min_hours", sa.Float(), nullable=True))
        batch.add_column(sa.Column("paused_until", sa.DateTime(timezone=True), nullable=True))
        batch.create_index(batch.f("ix_matches_paused_until"), ["paused_until"], unique=False)
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("prompt_opened_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("choices") as batch:
        batch.add_column(sa.Column("user_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("waited", sa.Float(), nullable=True))
        batch.create_index(batch.f("ix_choices_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("choices") as batch:
        batch.drop_index(batch.f("ix_choices_user_id"))
        batch.drop_column("waited")
        batch.drop_column("user_id")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("prompt_opened_at")
    # Not a batch on matches: on SQLite a batch copies the table and drops the old one, which
    # the other tables' foreign keys to matches refuse once there is data. SQLite (3.35+) and
    # PostgreSQL both drop a column that no index or constraint uses in place.
    op.drop_index(op.f("ix_matches_paused_until"), table_name="matches")
    for column in ("paused_until", "deadline_min_hours", "deadline_zone", "deadline_clock"):
        op.execute(f"ALTER TABLE matches DROP COLUMN {column}")
