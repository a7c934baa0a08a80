"""A fencing token per lease term: ``leases.term`` grows whenever the lease passes to another
holder, and the delivered mark of a notice is written only while its writer's term is current,
so a process that was paused past its lease cannot mark what its successor delivers.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 04:45:00.000000

"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("leases") as batch:
        batch.add_column(sa.Column("term", sa.BigInteger(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("leases") as batch:
        batch.drop_column("term")
