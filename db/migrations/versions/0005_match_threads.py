"""A match runs in a thread of the channel where it was opened: each match remembers that
channel (its lobby message lives there) and whether it opens a thread of its own.

Existing matches ran in their channel: their lobby channel is that channel, and no thread.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-09 12:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lobby_channel_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("opens_thread", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.create_index(batch_op.f("ix_matches_lobby_channel_id"), ["lobby_channel_id"], unique=False)
    op.execute("UPDATE matches SET lobby_channel_id = channel_id")


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_matches_lobby_channel_id"))
        batch_op.drop_column("opens_thread")
        batch_op.drop_column("lobby_channel_id")
