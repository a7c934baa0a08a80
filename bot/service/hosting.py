"""Who holds host powers. They belong to the host's human seat: when the host gives that seat
up (kicked, or leaving the lobby) they pass to the next human seat in seat order, announced in
the channel, so a removed host cannot pause, kick or abort a match that goes on without them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.service.errors import BadChoice
from bot.service.notices import HostNotice
from bot.service.wording import CHAT, Wording
from db.models import Seat

if TYPE_CHECKING:
    from bot.service.match_transaction import MatchTransaction

NO_HOST = 0
"""The stored host id when no human seat is left: only members with Manage Server act then.
Discord ids are positive, so no user is ever this one."""
HOST_POWERS = "start, kick, extend, pause, resume and abort"


def no_host_refusal(wording: Wording = CHAT) -> str:
    """The refusal of host powers once nobody is the host."""
    return f"No player is the host any more, so only {wording.manager} can do that."


NO_HOST_REFUSAL = no_host_refusal()


def need_real_host(host_id: int) -> None:
    """A new match's host must be somebody: the no-host id would leave it to managers from the start."""
    if host_id == NO_HOST:
        raise BadChoice(f"A match needs a host, and user id {NO_HOST} is nobody; nothing was created.")


def is_human(seat: Seat) -> bool:
    """A seat a person holds (an AI takeover after missed deadlines still belongs to them)."""
    return seat.user_id is not None and seat.ai_policy is None


def successor(seats: list[Seat], departing: Seat) -> Seat | None:
    """The next human seat after ``departing`` in seat order, wrapping round; None if there is none.

    Seats numbered from ``departing``'s own number on come after it: a dropped lobby seat's
    followers have moved down into its number."""
    humans = sorted((s for s in seats if s is not departing and is_human(s)), key=lambda s: s.seat_no)
    later = [s for s in humans if s.seat_no >= departing.seat_no]
    return next(iter(later or humans), None)


def may_act(host_id: int, user_id: int, is_manager: bool) -> bool:
    """Whether the user may use host powers: the host, or a manager of the match's server."""
    return is_manager or (host_id != NO_HOST and user_id == host_id)


def refusal(host_id: int, seats: list[Seat], wording: Wording = CHAT) -> str:
    """The refusal for anyone else, naming the current host so a former host knows who took over."""
    if host_id == NO_HOST:
        return no_host_refusal(wording)
    host = next((s for s in seats if s.user_id == host_id), None)
    if host is None:  # a host who plays no seat (an all-AI match)
        return f"Only the host or {wording.manager} can do that."
    return f"Only the host (now {host.name}) or {wording.manager} can do that."


def hand_over(ctx: MatchTransaction, former: str, heir: Seat | None, wording: Wording = CHAT) -> None:
    """Give host powers to ``heir`` (None: to nobody, managers only) and say so in the channel
    with a "host" notice that pings the heir."""
    if heir is None:
        heir_id = NO_HOST
    elif heir.user_id is None:
        raise ValueError(f"seat {heir.seat_no} has no player: only a human seat (see successor) holds host powers")
    else:
        heir_id = heir.user_id
    ctx.match.host_id = ctx.values["host_id"] = heir_id
    ctx.changed = True
    if heir is None:
        ctx.notice("host", HostNotice(user_ids=[], text=f"{former} held the last human seat, so nobody is the host "
                                      f"now: only {wording.managers} can {HOST_POWERS} this match."))
    else:
        ctx.notice("host", HostNotice(user_ids=[heir_id],
                                      text=f"{heir.name} is now the host, in place of {former} ({HOST_POWERS})."))


def lobby_seat_dropped(ctx: MatchTransaction, seat: Seat, close_lobby: Callable[[], None]) -> str:
    """After a lobby seat was removed: if it was the host's, pass host powers on, or close the
    lobby when no human is left in it. Returns what to add to the lobby's line."""
    if seat.user_id != ctx.match.host_id:
        return ""
    heir = successor(ctx.seats, seat)
    if heir is None:
        close_lobby()
        return " The lobby is closed."
    hand_over(ctx, seat.name, heir)
    return f" {heir.name} is now the host."
