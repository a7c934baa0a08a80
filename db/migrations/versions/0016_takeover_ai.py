"""The host chooses the AI that plays a seat it took over: the heuristic or the search.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06 18:00:00.000000

Existing matches keep the heuristic, the one AI that took over seats before.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("takeover_ai", sqlmodel.sql.sqltypes.AutoString(length=16),
                                   server_default="heuristic", nullable=False))


def downgrade() -> None:
    # Not a batch on matches: on SQLite a batch copies the table and drops the old one, which
    # the other tables' foreign keys to matches refuse once there is data. SQLite (3.35+) and
    # PostgreSQL both drop a column that no index or constraint uses in place.
    op.execute("ALTER TABLE matches DROP COLUMN takeover_ai")
