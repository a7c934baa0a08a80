"""Asking players: what an undo's consent (undo.py) and a vote to end a match (votes.py) share.

Both ask some seats of a running match to agree, each in their DMs, with one line to the
table; one refusal ends the request, the last agreement carries it out, and a request nobody
finished answering in time expires. The request's row remembers whom it asked, who agreed,
who refused and how it ended. Only what each asks for, and the words it uses, differ: the
rules of asking live here once, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.service.errors import Conflict, NoMatch, NotAllowed, StalePrompt
from bot.service.match_transaction import MatchTransaction
from bot.service.notices import Payload, TimeoutNotice
from db.models import Match, Seat

PENDING, REFUSED, EXPIRED, VOID = "pending", "refused", "expired", "void"
"""A request's status: still asking, refused by someone, out of time, or voided by the match moving on."""
ANSWERED = "answered"
"""Why a seat can no longer answer: it did itself (its click's reply is its DM's last word)."""
GONE = "it is gone"
"""Why a seat can no longer answer a request that is not (or no longer) the match's."""
RUNNING = ("active", "paused")
"""The match statuses in which a request can still be answered."""


class AskedRow(Protocol):
    """A stored request that asks seats to agree (an ``Undo`` or a ``MatchVote`` row)."""

    match_id: int
    status: str
    agreed: list[int]
    refused_by: int | None
    due_at: datetime
    decided_at: datetime | None


@dataclass(frozen=True)
class AnswerRefusals:
    """What an answer that cannot count is told, in the words of one kind of request."""

    gone: str
    """The request is not the match's."""
    not_yours: str
    """The seat was not asked."""
    closed: str
    """The request is over; ``{why}`` is replaced by how it ended."""
    already: str
    """The seat agreed before."""


def names_of(seats: list[Seat], seat_numbers: list[int]) -> list[str]:
    """The names of those seats, in the order given (seats that no longer exist left out)."""
    by_seat = {s.seat_no: s.name for s in seats}
    return [by_seat[n] for n in seat_numbers if n in by_seat]


def join_names(names: list[str]) -> str:
    """"alice", "alice and bob", "alice, bob and carol"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def still_to_answer(row: AskedRow, asked: list[int]) -> list[int]:
    """The asked seats that have not agreed yet (none once the request is over)."""
    return [n for n in asked if n not in row.agreed] if row.status == PENDING else []


def ask(ctx: MatchTransaction, asked: list[int], table_line: str, kind: str, payload: Payload) -> None:
    """Tell the table who is asked (``table_line``) and send each asked player the question in
    their DMs: a ``kind`` notice with ``payload``, which holds the buttons' request."""
    ctx.notice("timeout", TimeoutNotice(user_ids=[], text=table_line))
    for seat in ctx.seats:
        if seat.seat_no in asked and seat.user_id is not None:
            ctx.notice(kind, payload, user_id=seat.user_id, seat=seat.seat_no)
    ctx.changed = True


def decide(row: AskedRow, status: str, now: datetime) -> None:
    """The request ended (``status``) at ``now``, without a word to the table."""
    row.status = status
    row.decided_at = now


def close(ctx: MatchTransaction, row: AskedRow, status: str, table_line: str) -> None:
    """The request ended without being carried out (``status``): the table is told once."""
    decide(row, status, ctx.now)
    ctx.changed = True
    ctx.notice("timeout", TimeoutNotice(user_ids=[], text=table_line))


def answering_seat(ctx: MatchTransaction, row: AskedRow | None, user_id: int, asked: list[int],
                   said: Callable[[str], str], refusals: AnswerRefusals) -> Seat:
    """The seat whose answer to ``row`` counts now, or the refusal that says why it cannot."""
    if row is None or row.match_id != ctx.match_id:
        raise NoMatch(refusals.gone)
    seat = ctx.seat_of(user_id)
    if seat.seat_no not in asked:
        raise NotAllowed(refusals.not_yours)
    if row.status != PENDING:
        raise StalePrompt(refusals.closed.format(why=said(row.status)))
    if seat.seat_no in row.agreed:
        raise Conflict(refusals.already)
    return seat


def refuse(row: AskedRow, seat: Seat) -> None:
    """Note who refused (the request is then closed by its own words: see ``close``)."""
    row.refused_by = seat.seat_no


def agree(ctx: MatchTransaction, row: AskedRow, seat: Seat, asked: list[int]) -> bool:
    """Note the seat's agreement; True when every asked seat has agreed."""
    row.agreed = sorted({*row.agreed, seat.seat_no})
    ctx.changed = True
    return set(row.agreed) >= set(asked)


def why_closed(row: AskedRow | None, match: Match | None, match_id: int, seat: int, now: datetime,
               said: Callable[[str], str], moved_on: Callable[[Match], str | None]) -> str | None:
    """Why ``seat`` can no longer answer the request (None: it still can; ANSWERED: it did).
    ``moved_on`` says whether the match changed so that the request no longer stands."""
    if row is None or match is None or row.match_id != match_id:
        return GONE
    if seat in row.agreed or row.refused_by == seat:
        return ANSWERED
    if row.status != PENDING:
        return said(row.status)
    changed = moved_on(match)
    if changed is not None:
        return changed
    if now >= row.due_at:
        return said(EXPIRED)
    return None


async def expire_all(mutate: Callable[[int, Callable[[MatchTransaction], Awaitable[int]]], Awaitable[int]],
                     due: list[tuple[int, int]],
                     expire: Callable[[MatchTransaction, int], Awaitable[int]]) -> int:
    """Run ``expire`` on each due request (match id, request id), each in its match's own
    transaction (``mutate``); how many it ended."""

    def expiry(request_id: int) -> Callable[[MatchTransaction], Awaitable[int]]:
        async def run(ctx: MatchTransaction) -> int:
            return await expire(ctx, request_id)

        return run

    done = 0
    for match_id, request_id in due:
        done += await mutate(match_id, expiry(request_id))
    return done
