"""The statements of the store's hot paths (db/store.py), each built once: building one costs
more than running it."""

from __future__ import annotations

import functools
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import col

from db.kept_rows import DEADLINE_KEYS, MATCH_KEYS, SEAT_KEYS
from db.models import Choice, Deadline, Lease, Match, Seat
from db.turn_queries import claimable_prompt


@functools.cache
def match_rows_select() -> sa.Select[Any]:
    """The statement of `Store.match_rows`: the columns of the match, each seat and the deadline, in
    the order of the mapped attributes, then the id of the choice made by an interaction (NULL
    when none, or no interaction is asked) and the id of the prompt notice the seat of user
    ``claim_user`` may claim (NULL when none, or nobody is asked: see
    `TurnQueries.claim_prompt_message`), built once (building it costs more than running it)."""
    match, seat, deadline = (sa.inspect(model) for model in (Match, Seat, Deadline))
    answered = (sa.select(col(Choice.id))
                .where(col(Choice.match_id) == Match.id, col(Choice.interaction_id) == sa.bindparam("interaction_id"))
                .scalar_subquery())
    columns = [*(match.columns[key] for key in MATCH_KEYS), *(seat.columns[key] for key in SEAT_KEYS),
               *(deadline.columns[key] for key in DEADLINE_KEYS), answered, claimable_prompt()]
    return (
        sa.select(*columns)
        .select_from(Match)
        .outerjoin(Seat, col(Seat.match_id) == Match.id)
        .outerjoin(Deadline, col(Deadline.match_id) == Match.id)
        .where(col(Match.id) == sa.bindparam("match_id"))
        .order_by(col(Seat.seat_no))
    )


@functools.cache
def versioned_update() -> sa.Update:
    """`Store.bump`'s UPDATE; the columns it sets are the keys of its parameters."""
    return sa.update(Match).where(col(Match.id) == sa.bindparam("row_id"),
                                  col(Match.version) == sa.bindparam("old_version"))


@functools.cache
def side_checked_update() -> sa.Update:
    """`Store.bump`'s UPDATE on kept rows: the version and the count of other writes both as known."""
    return versioned_update().where(col(Match.side_version) == sa.bindparam("old_side"))


@functools.cache
def update_by_key(mapper: Any) -> sa.Update:
    """An UPDATE of one row of the mapper's table by its one-column key; the columns it sets are
    the keys of its parameters."""
    [key] = mapper.primary_key
    return sa.update(mapper.local_table).where(key == sa.bindparam("row_key"))


@functools.cache
def delete_by_key(mapper: Any) -> sa.Delete:
    """A DELETE of one row of the mapper's table by its one-column key."""
    [key] = mapper.primary_key
    return sa.delete(mapper.local_table).where(key == sa.bindparam("row_key"))


@functools.cache
def take_lease(dialect: str) -> sa.Insert:
    """`Store.acquire_lease`'s statement (parameters: name, holder, expires_at, now)."""
    insert = (sqlite_insert if dialect == "sqlite" else postgresql_insert)(Lease)
    expires = Lease.__table__.c.expires_at.type  # type: ignore[attr-defined]
    holder = sa.bindparam("holder", type_=sa.String())
    same_holder = col(Lease.holder) == insert.excluded.holder
    return insert.values(name=sa.bindparam("name", type_=sa.String()), holder=holder,
                         expires_at=sa.bindparam("expires_at", type_=expires), term=1).on_conflict_do_update(
        index_elements=[col(Lease.name)],
        set_={"holder": insert.excluded.holder, "expires_at": insert.excluded.expires_at,
              "term": sa.case((same_holder, col(Lease.term)), else_=col(Lease.term) + 1)},
        where=sa.or_(col(Lease.holder) == holder, col(Lease.expires_at) <= sa.bindparam("now", type_=expires)),
    ).returning(col(Lease.term))


@functools.cache
def lock_match_select() -> sa.Select[int | None]:
    return sa.select(col(Match.id)).where(col(Match.id) == sa.bindparam("match_id")).with_for_update()
