"""Replacements: a seat open for a new player (seats.open_since) and who played a seat that
changed hands from which step to which (seat_stretches).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03 10:00:00.000000

Existing matches keep every row: no seat is open, and no seat has changed hands.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # autogenerate renders sqlmodel.sql.sqltypes.AutoString
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seat_stretches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("from_step", sa.Integer(), nullable=False),
        sa.Column("to_step", sa.Integer(), nullable=True),
        sa.Column("from_round", sa.Integer(), nullable=True),
        sa.Column("to_round", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("seat_stretches", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_stretches_match_id"), ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_seat_stretches_user_id"), ["user_id"], unique=False)

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("open_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("open_since")

    with op.batch_alter_table("seat_stretches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_stretches_user_id"))
        batch_op.drop_index(batch_op.f("ix_seat_stretches_match_id"))

    op.drop_table("seat_stretches")
