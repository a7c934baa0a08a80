"""The snapshots a match keeps are pruned by the database as each new one is inserted.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04 01:00:00.000000

A snapshot is written every 25 choices, in the match transaction of the choice; it was followed
by a DELETE of the snapshots older than the one before it (the store keeps the newest two: the
newest for loading, the one before it for a prompt issued shortly before). That DELETE was one
more statement in every transaction that wrote a snapshot. A trigger after each inserted row
does the same delete inside the INSERT's own statement. A snapshot replaced at a step that
already has one (an upsert that updates) inserts nothing and prunes nothing, as before: the
older ones went when that step's snapshot was first inserted. Existing databases keep what they
have until their matches' next snapshot.

The number kept (two) is written here, frozen with this revision: keeping another number needs
a revision of its own (db/state_queries.py ``KEEP_SNAPSHOTS``).
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PRUNE = """DELETE FROM snapshots WHERE match_id = NEW.match_id AND seq < (
    SELECT min(kept.seq) FROM (
        SELECT seq FROM snapshots WHERE match_id = NEW.match_id AND seq < NEW.seq
        ORDER BY seq DESC LIMIT 1) AS kept)"""
"""The match's snapshots older than the newest one before the inserted one (none while it has
no older one: the minimum of nothing is NULL, and no seq is below NULL)."""


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"CREATE TRIGGER snapshots_keep_two AFTER INSERT ON snapshots BEGIN {_PRUNE}; END")
        return
    op.execute(f"""CREATE FUNCTION snapshots_keep_two() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    {_PRUNE};
    RETURN NULL;
END
$$""")
    op.execute("CREATE TRIGGER snapshots_keep_two AFTER INSERT ON snapshots "
               "FOR EACH ROW EXECUTE FUNCTION snapshots_keep_two()")


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS snapshots_keep_two" +
               ("" if op.get_bind().dialect.name == "sqlite" else " ON snapshots"))
    if op.get_bind().dialect.name != "sqlite":
        op.execute("DROP FUNCTION IF EXISTS snapshots_keep_two()")
