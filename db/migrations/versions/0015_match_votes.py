"""Players end matches themselves: votes to draw or abandon (match_votes) and concessions.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03 12:00:00.000000

New tables only: existing matches have no vote and no concession.
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # autogenerate renders sqlmodel.sql.sqltypes.AutoString
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "match_votes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("proposed_by", sa.BigInteger(), nullable=False),
        sa.Column("proposer", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("voters", JSON, nullable=False),
        sa.Column("agreed", JSON, nullable=False),
        sa.Column("refused_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("match_votes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_votes_match_id"), ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_match_votes_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_match_votes_due_at"), ["due_at"], unique=False)

    op.create_table(
        "concessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("conceded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "seat_no", name="uq_concessions_match_seat"),
    )
    with op.batch_alter_table("concessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_concessions_match_id"), ["match_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("concessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_concessions_match_id"))
    op.drop_table("concessions")

    with op.batch_alter_table("match_votes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_votes_due_at"))
        batch_op.drop_index(batch_op.f("ix_match_votes_status"))
        batch_op.drop_index(batch_op.f("ix_match_votes_match_id"))
    op.drop_table("match_votes")
