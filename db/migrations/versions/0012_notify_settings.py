"""How players want to hear of their turns (`/game notify`): their settings per match or per
server, and the reminders held back by their quiet hours.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 09:00:00.000000

"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # autogenerate renders sqlmodel.sql.sqltypes.AutoString
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notify_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("match_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("reminders", sa.Boolean(), nullable=True),
        sa.Column("quiet", sqlmodel.sql.sqltypes.AutoString(length=11), nullable=True),
        sa.Column("time_zone", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("announce", sqlmodel.sql.sqltypes.AutoString(length=8), nullable=True),
        sa.Column("heads_up", sa.Boolean(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", "match_id"),
    )
    op.create_table(
        "held_reminders",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("send_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("match_id", "user_id"),
    )
    op.create_index(op.f("ix_held_reminders_send_at"), "held_reminders", ["send_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_held_reminders_send_at"), table_name="held_reminders")
    op.drop_table("held_reminders")
    op.drop_table("notify_settings")
