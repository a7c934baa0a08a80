"""What a process keeps of a match's rows as its last match transaction committed them
(``KeptRows``): its next transaction may start from them instead of reading them, its bump
checking that the database's ``version`` and ``side_version`` (migration 0018) are still those."""

from __future__ import annotations

import copy
import functools
import operator
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm.attributes import instance_state

from db.models import Deadline, Match, Seat

MATCH_KEYS = tuple(column.key for column in sa.inspect(Match).column_attrs)
SEAT_KEYS = tuple(column.key for column in sa.inspect(Seat).column_attrs)
DEADLINE_KEYS = tuple(column.key for column in sa.inspect(Deadline).column_attrs)
SIDE_TABLES = frozenset({"seats", "deadlines"})
"""The tables whose rows' writes the database counts in ``matches.side_version`` (migration 0018)."""
KEPT_INTERACTIONS = 16
"""The interactions a match's kept rows remember having answered (see `KeptRows`)."""


@dataclass(frozen=True)
class KeptRows:
    """A match's rows as a transaction of this process committed them, with the
    ``side_version`` it left: its next transaction may start from them instead of reading them
    (``held``), its bump checking that version and side_version are still these (any other
    write since, from any process, changed one of them: the bump then fails and the transaction
    runs again on rows read). ``interactions``: the latest interactions whose choices these
    rows' transactions logged (a second delivery of one is answered from the log, by a read)."""

    version: int
    side: int
    match: tuple[Any, ...]
    seats: tuple[tuple[Any, ...], ...]
    deadline: tuple[Any, ...] | None
    interactions: tuple[str, ...] = ()
    prompts: tuple[tuple[int, int, str], ...] = ()
    """(seat, prompt version, notice key) of the prompt notice these rows' transactions wrote for
    a seat's open prompt: a click on it claims nothing once it is seen taken (`prompt_taken`)."""
    rows: list[list[Any]] = field(default_factory=list, compare=False, repr=False)
    """The committed rows themselves ([match, *seats, deadline or None]), handed out once by
    ``held`` instead of new ones when nothing else holds them (see ``_unshared``)."""

    def held(self) -> tuple[Match, list[Seat], Deadline | None]:
        """The rows holding these values, as a read on a connection makes them (outside any
        session): the committed rows themselves once, when nothing else holds them and they are
        as written (each new row cost more than a statement); else new ones (JSON values copied:
        a transaction may change its rows' in place)."""
        if self.rows:
            rows = self.rows.pop()
            if len(rows) == len(self.seats) + 2 and _unshared(rows) and all(
                    _as_written(row) for row in rows if row is not None):
                return rows[0], rows[1:-1], rows[-1]
        match = _loaded(Match, MATCH_KEYS, [copy.deepcopy(v) if isinstance(v, dict | list) else v for v in self.match])
        seats = [_loaded(Seat, SEAT_KEYS, values) for values in self.seats]
        deadline = None if self.deadline is None else _loaded(Deadline, DEADLINE_KEYS, self.deadline)
        return match, seats, deadline


def kept_rows(match: Match, seats: Sequence[Seat], deadline: Deadline | None, side: int,
              interactions: tuple[str, ...], prompts: dict[int, tuple[int, str]] | None = None) -> KeptRows | None:
    """`KeptRows` of these rows as they stand (all written: no pending change), or None when a
    row lacks a column's value (one not loaded: it is read again instead)."""
    try:
        return KeptRows(match.version, side, _MATCH_VALUES(match.__dict__),
                        tuple([_SEAT_VALUES(seat.__dict__) for seat in seats]),
                        None if deadline is None else _DEADLINE_VALUES(deadline.__dict__),
                        interactions[-KEPT_INTERACTIONS:],
                        tuple((seat.seat_no, *prompts[seat.seat_no]) for seat in seats
                              if prompts and seat.seat_no in prompts and prompts[seat.seat_no][0] == seat.prompt_version),
                        [[match, *seats, deadline]])
    except KeyError:
        return None


_MATCH_VALUES = operator.itemgetter(*MATCH_KEYS)
_SEAT_VALUES = operator.itemgetter(*SEAT_KEYS)
_DEADLINE_VALUES = operator.itemgetter(*DEADLINE_KEYS)
"""A row's column values, in its table's key order, read from its ``__dict__`` at once
(KeyError for a column not loaded, as a lookup of each)."""


def _counts(rows: list[Any]) -> list[int]:
    """CPython's count of references to each of these rows, made the same way for each."""
    return [sys.getrefcount(row) for row in rows]


_ALONE = _counts([object()])[0]
"""The count `_counts` finds of an object nothing but its list holds (the list's reference, the
loop's and the call's)."""


def _unshared(rows: list[Any]) -> bool:
    """Whether nothing but ``rows`` holds each of these rows (None aside): no one kept one of the
    committed rows (a step's result, a transaction not yet freed), so the next transaction may
    change them as its own. A row held elsewhere makes this False: new rows are made then."""
    return all(count <= _ALONE for row, count in zip(rows, _counts(rows), strict=True) if row is not None)


def _as_written(row: Any) -> bool:
    """Whether a row is as its transaction's writes left it: a loaded row in no session, with
    no change pending, nothing expired and not deleted (else new rows are made from the values)."""
    state = instance_state(row)
    return (state.key is not None and state.session_id is None and not state.modified and not state.committed_state
            and not state.expired_attributes and not state._deleted)


def _loaded(model: Any, keys: Sequence[str], values: Sequence[Any]) -> Any:
    """A row of ``model`` holding these values as loaded ones, in no session (see `_attached`)."""
    mapper, positions = loading(model, tuple(keys))
    row = mapper.class_manager.new_instance()
    row.__dict__.update(zip(keys, values, strict=True))
    instance_state(row).key = mapper.identity_key_from_primary_key([values[at] for at in positions])
    return row



@functools.cache
def loading(model: Any, keys: tuple[str, ...]) -> tuple[Any, tuple[int, ...]]:
    """The model's mapper and where its primary key columns are among ``keys``."""
    mapper = sa.inspect(model)
    return mapper, tuple(keys.index(mapper.get_property_by_column(column).key) for column in mapper.primary_key)
