"""Delivery blocks: parked notices (a reason column), the targets that refuse them, a per-match queue index.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 10:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes  # autogenerate renders sqlmodel.sql.sqltypes.AutoString
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "delivery_blocks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("target_kind", sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column("target_id", sa.BigInteger(), nullable=False),
        sa.Column("code", sa.Integer(), server_default="0", nullable=False),
        sa.Column("reason", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_probe_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("probes", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "target_kind", "target_id", name="uq_delivery_blocks_target"),
    )
    with op.batch_alter_table("delivery_blocks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_delivery_blocks_match_id"), ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_delivery_blocks_next_probe_at"), ["next_probe_at"], unique=False)

    with op.batch_alter_table("notices", schema=None) as batch_op:
        batch_op.add_column(sa.Column("parked_reason", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True))
        batch_op.create_index("ix_notices_match_pending", ["match_id", "delivered_at", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("notices", schema=None) as batch_op:
        batch_op.drop_index("ix_notices_match_pending")
        batch_op.drop_column("parked_reason")

    with op.batch_alter_table("delivery_blocks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_delivery_blocks_next_probe_at"))
        batch_op.drop_index(batch_op.f("ix_delivery_blocks_match_id"))

    op.drop_table("delivery_blocks")
