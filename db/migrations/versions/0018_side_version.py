"""Every write to a match's rows outside its match transaction is counted on the match row.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04 07:30:00.000000

The match transaction bumps ``matches.version`` and checks, by the bump's WHERE, that nobody
else did meanwhile. Other writes to the match's rows do not bump it: a seat's DM channel, the
status board's message, a deadline's reminder marks, a lobby's seat. ``matches.side_version``
counts them: triggers add one to it for every row of ``seats`` or ``deadlines`` inserted,
updated or deleted, and for every UPDATE of ``matches`` that changes neither ``version`` nor
``side_version`` itself. The match transaction's bump sets it to 0; the seats and deadline it
writes after the bump count up from there, by a number it knows (the rows its statements
changed). So a process that committed a match transaction knows the match's rows as they are
while (version, side_version) are still what it left, and the bump of its next transaction
checks both: the match transaction may then skip its first read (bot/service/transaction.py).

The counting is in the database so that no writer can forget it: a write of any column, from
any process, through the ORM or Core, counts.

On SQLite only. PostgreSQL's match transactions read their rows, locking the match row first
(db/store.py ``lock_match_rows``), so nothing there needs the count; and a trigger there would
take the match row's lock after a seat's (a seat written outside, then the match counted),
the other order from a match transaction's (the match, then its seats): the two would deadlock.
The column is there on both (the models are one), always 0 on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COUNT = "UPDATE matches SET side_version = side_version + 1 WHERE id = {row}.match_id"
_TABLES = ("seats", "deadlines")
_EVENTS = {"INSERT": "NEW", "UPDATE": "NEW", "DELETE": "OLD"}


def upgrade() -> None:
    op.add_column("matches", sa.Column("side_version", sa.Integer(), nullable=False, server_default="0"))
    if op.get_bind().dialect.name == "sqlite":
        for table in _TABLES:
            for event, row in _EVENTS.items():
                op.execute(f"CREATE TRIGGER {table}_{event.lower()}_side AFTER {event} ON {table} "
                           f"BEGIN {_COUNT.format(row=row)}; END")
        op.execute("CREATE TRIGGER matches_update_side AFTER UPDATE ON matches "
                   "WHEN NEW.version = OLD.version AND NEW.side_version = OLD.side_version "
                   "BEGIN UPDATE matches SET side_version = side_version + 1 WHERE id = NEW.id; END")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for table in _TABLES:
            for event in _EVENTS:
                op.execute(f"DROP TRIGGER IF EXISTS {table}_{event.lower()}_side")
        op.execute("DROP TRIGGER IF EXISTS matches_update_side")
    # in place (SQLite 3.35+ drops a plain column itself): a batch copy of the table would trip
    # the foreign keys of the seats and choices pointing at it
    op.execute("ALTER TABLE matches DROP COLUMN side_version")
