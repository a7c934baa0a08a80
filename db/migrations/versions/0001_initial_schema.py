"""Initial schema: matches, seats, choice log, snapshots, deadlines, outbox, leases.

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-29 14:03:12.438236

"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # autogenerate renders sqlmodel.sql.sqltypes.AutoString
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column("holder", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("open_channel", sa.BigInteger(), nullable=True),
        sa.Column("game", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column(
            "options",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("step", sa.Integer(), server_default="0", nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("max_seats", sa.Integer(), nullable=False),
        sa.Column("deadline_hours", sa.Float(), server_default="24", nullable=False),
        sa.Column(
            "result",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("open_channel"),
    )
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_matches_channel_id"), ["channel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_matches_status"), ["status"], unique=False)

    op.create_table(
        "choices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=60), nullable=False),
        sa.Column("by", sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column(
            "payload",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "public",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "outcome",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("interaction_id", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "interaction_id", name="uq_choices_match_interaction"),
        sa.UniqueConstraint("match_id", "seq", name="uq_choices_match_seq"),
    )
    with op.batch_alter_table("choices", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_choices_match_id"), ["match_id"], unique=False)

    op.create_table(
        "deadlines",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reminded_50", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("reminded_90", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
        ),
        sa.PrimaryKeyConstraint("match_id"),
    )
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deadlines_due_at"), ["due_at"], unique=False)

    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column(
            "payload",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivery_ref", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "key", name="uq_notices_match_key"),
    )
    with op.batch_alter_table("notices", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_notices_delivered_at"), ["delivered_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_notices_match_id"), ["match_id"], unique=False)

    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat_no", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("ai_policy", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=True),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("dm_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("missed", sa.Integer(), server_default="0", nullable=False),
        sa.Column("ai_takeover", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("prompt_version", sa.Integer(), nullable=True),
        sa.Column("prompt_key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "seat_no", name="uq_seats_match_seat"),
    )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seats_match_id"), ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_seats_user_id"), ["user_id"], unique=False)

    op.create_table(
        "snapshots",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column(
            "state",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
        ),
        sa.PrimaryKeyConstraint("match_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seats_user_id"))
        batch_op.drop_index(batch_op.f("ix_seats_match_id"))

    op.drop_table("seats")
    with op.batch_alter_table("notices", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_notices_match_id"))
        batch_op.drop_index(batch_op.f("ix_notices_delivered_at"))

    op.drop_table("notices")
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deadlines_due_at"))

    op.drop_table("deadlines")
    with op.batch_alter_table("choices", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_choices_match_id"))

    op.drop_table("choices")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_matches_status"))
        batch_op.drop_index(batch_op.f("ix_matches_channel_id"))

    op.drop_table("matches")
    op.drop_table("leases")
