"""The id of a stored row. SQLModel types a table's primary key ``int | None`` because a row made
in Python has none until it is flushed; every row the service reads, or has flushed, has one."""

from __future__ import annotations

from typing import Protocol


class Row(Protocol):
    """A table row with an integer primary key (Match, Notice, DeliveryBlock, Undo, ...)."""

    @property
    def id(self) -> int | None: ...


def row_id(row: Row) -> int:
    """The row's id; a row not flushed yet is a bug of the caller, said plainly."""
    if row.id is None:
        raise ValueError(f"this {type(row).__name__} row has no id yet: it was never flushed")
    return row.id
