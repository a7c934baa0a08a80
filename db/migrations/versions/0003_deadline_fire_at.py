"""Deadlines know when they next need the tick (fire_at, indexed), so a tick reads only due rows.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 12:00:00.000000

"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from db.models import UTCDateTime  # reads and writes UTC alike on SQLite and PostgreSQL

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FRACTIONS = (("reminded_50", 0.5), ("reminded_90", 0.9))


def _aware(value: datetime | str | None) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def upgrade() -> None:
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fire_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_deadlines_fire_at"), ["fire_at"], unique=False)
    deadlines = sa.table("deadlines", sa.column("match_id", sa.Integer()), sa.column("started_at", UTCDateTime()),
                         sa.column("due_at", UTCDateTime()), sa.column("reminded_50", sa.Boolean()),
                         sa.column("reminded_90", sa.Boolean()), sa.column("fire_at", UTCDateTime()))
    connection = op.get_bind()
    for row in connection.execute(sa.select(deadlines)).mappings().all():
        started, due = _aware(row["started_at"]), _aware(row["due_at"])
        times = [started + (due - started) * fraction for flag, fraction in FRACTIONS
                 if started is not None and due is not None and not row[flag]]
        fire = min([*times, due]) if due is not None else None
        connection.execute(deadlines.update().where(deadlines.c.match_id == row["match_id"]).values(fire_at=fire))


def downgrade() -> None:
    with op.batch_alter_table("deadlines", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deadlines_fire_at"))
        batch_op.drop_column("fire_at")
