"""The status board's read beside the match rows: the newest log line and whether the match has
blocked targets, undos done or a vote, in one statement (the rows of each are read only when
there are some: most boards have none)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from db.models import Choice, DeliveryBlock, MatchVote, Undo
from db.prepared import Reader, begun, prepared, run


@dataclass(frozen=True)
class BoardExtras:
    """What the board reads of the match beside its rows."""

    newest: tuple[int, list[str]] | None
    """(seq, public lines) of the newest choice in the log (None: no choice yet)."""
    blocked: bool
    """The match has a blocked target."""
    undone: bool
    """The match has an undo done (its line stands in the log)."""
    voted: bool
    """The match has had a vote."""


@functools.cache
def board_columns() -> tuple[Any, ...]:
    """`board_extras`' questions as columns (parameters match_id and done), for a statement that
    asks them beside the match rows (``Store.match_rows_and``)."""
    return tuple(_board_extras().selected_columns)


def extras_of(values: tuple[Any, ...]) -> BoardExtras:
    """The `BoardExtras` from the values of `board_columns`."""
    seq, public, blocked, undone, voted = values
    newest = None if seq is None else (int(seq), list(public or []))
    return BoardExtras(newest, bool(blocked), bool(undone), bool(voted))


@functools.cache
def _board_extras() -> sa.Select[Any]:
    """`board_extras`' statement, built once: scalar subqueries on one row."""
    choices = Choice.__table__  # type: ignore[attr-defined]
    match_id: sa.BindParameter[int] = sa.bindparam("match_id")
    newest = sa.select(sa.func.max(choices.c.seq)).where(choices.c.match_id == match_id).scalar_subquery()
    public = (sa.select(choices.c.public).where(choices.c.match_id == match_id, choices.c.seq == newest)
              .limit(1).scalar_subquery())
    blocks = DeliveryBlock.__table__  # type: ignore[attr-defined]
    undos = Undo.__table__  # type: ignore[attr-defined]
    votes = MatchVote.__table__  # type: ignore[attr-defined]
    return sa.select(
        newest.label("seq"), sa.type_coerce(public, choices.c.public.type).label("public"),
        sa.exists().where(blocks.c.match_id == match_id).label("blocked"),
        sa.exists().where(undos.c.match_id == match_id, undos.c.status == sa.bindparam("done")).label("undone"),
        sa.exists().where(votes.c.match_id == match_id).label("voted"))


async def board_extras(session: Reader, match_id: int, done: str) -> BoardExtras:
    """The board's `BoardExtras` (``done``: the status of an undo carried out), one statement."""
    connection = await begun(session)
    [row] = (await run(connection, prepared(_board_extras, connection.dialect, _board_extras),
                       {"match_id": match_id, "done": done})).rows
    return extras_of(tuple(row))
