"""AI seats get names a player can read: "AI 1 (heuristic)" becomes "AI Ayame" in the seats of
stored matches and in the seats of finished matches' records, so history, texts and maps of
existing matches read like new ones. The names are those of `bot.service.wording.AI_NAMES`,
written out here: a migration must not change when that list does.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 05:00:00.000000

"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAMES = ("AI Ayame", "AI Bruno", "AI Chiyo", "AI Dario", "AI Edda", "AI Fumio", "AI Greta", "AI Hiro")
OLD = re.compile(r"AI (\d+) \((heuristic|random)\)")


def _new_name(number: int) -> str:
    if 1 <= number <= len(NAMES):
        return NAMES[number - 1]
    return f"{NAMES[(number - 1) % len(NAMES)]} {(number - 1) // len(NAMES) + 1}"


def _rename(table: str, ai_seat: str, forward: bool) -> None:
    """Rename the AI seats of ``table`` (``ai_seat``: the SQL that picks them)."""
    bind = op.get_bind()
    rows = bind.execute(sa.text(f"SELECT id, name FROM {table} WHERE {ai_seat}")).all()
    for row_id, name in rows:
        if forward:
            old = OLD.fullmatch(name)
            renamed = _new_name(int(old.group(1))) if old else None
        else:
            number = next((n for n in range(1, 65) if _new_name(n) == name), None)
            renamed = f"AI {number} (heuristic)" if number is not None else None
        if renamed is not None:
            bind.execute(sa.text(f"UPDATE {table} SET name = :name WHERE id = :id"), {"name": renamed, "id": row_id})


def upgrade() -> None:
    _rename("seats", "ai_policy IS NOT NULL", forward=True)
    _rename("record_seats", "user_id IS NULL", forward=True)


def downgrade() -> None:
    _rename("seats", "ai_policy IS NOT NULL", forward=False)
    _rename("record_seats", "user_id IS NULL", forward=False)
