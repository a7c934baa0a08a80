"""Undo with consent (the undos audit table, the retired-prompt mark) and time away (seat and match columns).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 15:00:00.000000

Existing matches keep every row: new columns are NULL or take their server default (a match
made before this revision hands away seats to the AI, the default mode).
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # autogenerate renders sqlmodel.sql.sqltypes.AutoString
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "undos",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("requested_by", sa.BigInteger(), nullable=False),
        sa.Column("from_step", sa.Integer(), nullable=False),
        sa.Column("to_step", sa.Integer(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("consent", JSON, nullable=False),
        sa.Column("agreed", JSON, nullable=False),
        sa.Column("refused_by", sa.Integer(), nullable=True),
        sa.Column("why", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("summary", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("undone", JSON, nullable=False),
        sa.Column("log_sha_before", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("log_sha_after", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("undos", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_undos_match_id"), ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_undos_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_undos_due_at"), ["due_at"], unique=False)

    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("away_mode", sqlmodel.sql.sqltypes.AutoString(length=8), server_default="ai",
                                      nullable=False))
        batch_op.add_column(sa.Column("undo_mark", sa.Integer(), nullable=True))

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("away_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("away_until")

    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("undo_mark")
        batch_op.drop_column("away_mode")

    with op.batch_alter_table("undos", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_undos_due_at"))
        batch_op.drop_index(batch_op.f("ix_undos_status"))
        batch_op.drop_index(batch_op.f("ix_undos_match_id"))

    op.drop_table("undos")
