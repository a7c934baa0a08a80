"""An index on seats.away_until: the deadline tick asks for seats back from time away, and
without it that question walks every seat of every active match (4 seats a match at 10,000
matches: 40,000 rows a tick).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 21:10:00.000000

"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(op.f("ix_seats_away_until"), "seats", ["away_until"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_seats_away_until"), table_name="seats")
