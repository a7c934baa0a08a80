"""The seat's turn DM as a view of the match: the ``prompt`` sender, the ``last_to_choose``
nudge, and bringing a seat's turn DM and its reminders up to date after a drain.

A seat's turn DM is rendered from the match as it stands (turn_dm.py) while holding the seat's
turn (seat_turns.py): a prompt edits the seat's previous turn DM in place when it follows from it,
else it is a new DM and the previous one takes its final form. A player who asked for no DMs
(`/game notify`) gets no turn DM; a turn DM in their quiet hours arrives silently."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord import clicked_dms, refused, table_links, turn_dm
from bot.discord.error_codes import UNKNOWN_MESSAGE
from bot.discord.mentions import NOBODY
from bot.discord.refusals import final_code
from bot.discord.seat_turns import SeatTurns, Shown, lost
from bot.discord.sending import SUPERSEDED, inert, seat_of, user_of
from bot.service import drawing
from bot.service.notify import THREAD
from bot.service.turn_views import SeatTurn

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractAsyncContextManager
    from datetime import datetime

    from bot.discord.wiring import Messenger
    from bot.service import Notice
    from bot.service.notify import NotifyPrefs
    from bot.service.outbox import MarksWrite

WRITES = 3
"""Times a turn DM is written at most from one reconciling (the first, then again while its fence was lost)."""

log = logging.getLogger(__name__)

NO_DMS = "no-dms"
"""The ref of a DM notice not sent: its player asked for no DMs (`/game notify`)."""


class TurnDmService(Protocol):
    """The service calls the turn DMs make: the player's notification settings, the seat's turn
    (read under the seat's fence) and whether a newer prompt of the seat waits."""

    @property
    def clock(self) -> Callable[[], datetime]: ...

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs: ...

    async def newer_prompt(self, match_id: int, seat: int, notice_id: int) -> bool: ...

    def seat_fence(self, match_id: int, seat_no: int) -> AbstractAsyncContextManager[object]: ...

    def seats_fence(self, match_id: int, seats: list[int]) -> AbstractAsyncContextManager[object]: ...

    async def seat_turn(self, match_id: int, seat_no: int, before_id: int | None = None,
                        marks: MarksWrite | None = None) -> SeatTurn | None: ...

    async def seat_turns(self, match_id: int, marks: MarksWrite | None = None) -> dict[int, SeatTurn]: ...


class TurnDms(Protocol):
    """What the turn DMs use of the delivery: the messenger (for the seat's table link), the
    service, the seat turns, the lease check and the DM steps (dm_delivery.py)."""

    @property
    def bot(self) -> Messenger: ...

    @property
    def svc(self) -> TurnDmService: ...

    @property
    def turns(self) -> SeatTurns: ...

    async def ensure_lease(self) -> None: ...

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None: ...

    async def dms_closed(self, match_id: int, seat: int) -> bool: ...

    def unread(self, match_id: int, notice_id: int) -> bool: ...

    async def dm_channel_for(self, match_id: int, seat: int | None,
                             user_id: int) -> discord.PartialMessageable | discord.DMChannel: ...

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs: ...

    async def read_seat_turn(self, match_id: int, seat: int, before_id: int | None = None) -> SeatTurn | None: ...

    async def read_seat_turns(self, match_id: int) -> dict[int, SeatTurn]: ...


async def dm_prompt(delivery: TurnDms, notice: Notice) -> str | None:
    """A decision in the seat's DMs, rendered from the match as it stands (turn_dm.py). The
    seat's next decision of the same sequence (its own answer led to it, its sealed step was
    revealed into it, or it replaces one not answered yet) edits its turn DM in place, saying
    how the previous decision ended: one DM per turn, not one per click. Otherwise a new DM
    notifies, and the previous turn DM takes its final form. A prompt the seat no longer owes
    by the time it would go out is not sent (it answered elsewhere, the game moved on, the
    match ended), unless the AI answered it: then it comes in its final form, saying what
    the AI chose for the seat. A write made while the seat's fence was lost (another process
    may have written the DM meanwhile) is followed by a reconciling that writes it again."""
    seat = seat_of(notice)
    prefs = await delivery.notify_prefs(notice.match_id, user_of(notice))
    if prefs.announce == THREAD:
        return NO_DMS  # the turn notice mentions them in the thread
    quiet = prefs.quiet_until(delivery.svc.clock()) is not None  # it arrives, but buzzes nobody
    async with delivery.turns.hold(notice.match_id, seat, delivery.svc.seat_fence) as fence:  # one writer at a time: seat_turns.py
        ref = await _prompt_held(delivery, notice, seat, quiet)
    if lost(fence):
        await reconcile_seat(delivery, notice.match_id, seat, again=True)
    return ref


async def _prompt_held(delivery: TurnDms, notice: Notice, seat: int, quiet: bool) -> str | None:
    """`dm_prompt`'s read and write, made holding the seat's turn. A prompt whose decision the
    seat's own click answered and closed on its DM before it went (seat_turns.py ``closed``) is
    not read: the seat no longer owes it and its player chose, so the read would find it
    superseded, and the click's answer wrote the DM (its delivered mark keeps the DM the click
    claimed)."""
    if delivery.turns.take_closed(notice.id):
        return SUPERSEDED
    payload = notice.payload
    previous = await delivery.read_seat_turn(notice.match_id, seat, before_id=notice.id)
    if previous is None:
        return "skipped"
    form = next_form(previous, notice.id, payload)
    if form is None:
        return SUPERSEDED
    turn, head, rendered = form
    assert turn.subject is not None
    before = previous.subject
    in_place = bool(payload.get("in_place")) and before is not None
    files: list[discord.File] = []
    newer = previous.newer_prompt(notice.id)  # as read with the turn
    if turn_dm.asked(turn).secret and payload.get("view"):
        png = await drawing.draw_private(str(payload.get("game")), payload["view"], turn.names)
        files.append(discord.File(io.BytesIO(png), "you.png"))
        await delivery.ensure_lease()
        if in_place and not newer:  # the drawing took a while: a newer prompt may have come
            newer = await delivery.svc.newer_prompt(notice.match_id, seat, notice.id)
    if in_place and before is not None and before.dm is not None:
        if newer:
            return str(before.dm)  # the newer prompt edits this same message: never show an older one
        if not files and _shows(delivery, before.dm, rendered):
            edited: str | None = str(before.dm)  # the click's reply showed it already (dm_replies.py)
        else:
            edited = await _edit_dm(delivery, notice, before.dm, _linked(delivery, turn, rendered), rendered.view, files)
        if edited is not None:
            if edited.isdigit():
                turn_dm.remember(delivery.turns.shown, int(edited), rendered, head, [])
                await _close_superseded_reminders(delivery, previous, turn.subject.version)
            return edited
    ref = await delivery.send_dm(notice, _linked(delivery, turn, rendered), view=rendered.view, files=files, silent=quiet)
    if ref is not None and ref.isdigit():
        turn_dm.remember(delivery.turns.shown, int(ref), rendered, head, [])
        if before is not None and before.dm is not None and before.dm != int(ref):
            await _finalize(delivery, previous, until=turn.subject.version)
        await _close_superseded_reminders(delivery, previous, turn.subject.version)
    return ref

def next_form(previous: SeatTurn, notice_id: int, payload: dict[str, Any],
              ) -> tuple[SeatTurn, list[str], turn_dm.Rendered] | None:
    """What the seat's turn DM shows for a prompt notice (its turn, the lines above its prompt,
    the render), from the seat's turn before it; None when the seat no longer owes it and the
    AI did not answer it (a prompt the AI answered before it went out still comes, saying what
    the AI chose). Delivery writes it, and so may the reply to the click that led to it."""
    turn = previous.about(notice_id, payload)
    late = None if turn.live else turn_dm.its_choice(turn)
    if turn.subject is None or not (turn.live or (late is not None and late.by != "player")):
        return None
    head = [inert(line) for line in payload.get("news") or []]
    if payload.get("in_place") and previous.subject is not None and turn_dm.its_choice(
            previous, until=turn.subject.version) is not None:
        head += turn_dm.outcome(previous, until=turn.subject.version)
    return turn, head, turn_dm.render(turn, head)


def _shows(delivery: TurnDms, ref: int, rendered: turn_dm.Rendered) -> bool:
    """Whether this process last wrote the DM as ``rendered`` (an edit would change nothing)."""
    shown = delivery.turns.shown.get(ref)
    return shown is not None and not shown.final and shown.digest == rendered.digest


async def last_to_choose(delivery: TurnDms, notice: Notice) -> str:
    """The one seat still choosing is told that everyone waits for it, on its open prompt: its
    turn DM rendered as the match stands when this goes out (a seat that has chosen since,
    or whose step moved on, is not told, and its DM is not re-opened)."""
    return await reconcile_seat(delivery, notice.match_id, seat_of(notice)) or "skipped"

async def reconcile_seat(delivery: TurnDms, match_id: int, seat: int, again: bool = False) -> str | None:
    """Edit the seat's turn DM if what it shows is no longer what the match says; its ref.
    ``again``: a write made without the fence held throughout came before, so what this process
    remembers the DM shows may be wrong: it is written from this read whatever it remembers.
    Written again while this write's own fence is lost (at most WRITES times)."""
    ref: str | None = None
    for _ in range(WRITES):
        async with delivery.turns.hold(match_id, seat, delivery.svc.seat_fence) as fence:
            turn = await delivery.read_seat_turn(match_id, seat)
            if turn is not None and again:
                _forget(delivery, turn)
            ref = None if turn is None else await _bring_up_to_date(delivery, turn)
        if not lost(fence):
            return ref
        again = True
    return ref


def _forget(delivery: TurnDms, turn: SeatTurn) -> None:
    """Forget what the seat's turn DM was last written as: the next write renders it in full."""
    if turn.subject is not None and turn.subject.dm is not None:
        delivery.turns.shown.pop(turn.subject.dm, None)

async def reconcile_seats(delivery: TurnDms, match_id: int, held: list[int]) -> list[int]:
    """Bring every seat's turn DM of the match up to date from one read of all seats' turns,
    made holding the seats ``held`` (those known to be players'), so their DMs are written from
    it. A seat not held whose DM that read finds out of date is brought up to date on its own
    (``reconcile_seat``: read again under its hold), so no write shows an older match than
    another writer did. Returns the seats players hold now (the ones to hold next time)."""
    async with delivery.turns.hold_seats(match_id, held, delivery.svc.seats_fence) as fence:
        turns = await delivery.read_seat_turns(match_id)
        for seat, turn in sorted(turns.items()):
            if seat in held and _out_of_date(delivery, turn) and not _next_prompt_comes(delivery, turn):
                await delivery.ensure_lease()  # paused past the lease meanwhile: the holder writes them
                await _bring_up_to_date(delivery, turn)
    if lost(fence):  # another process may have written the held seats' DMs meanwhile
        for seat in sorted(set(held) & set(turns)):
            await delivery.ensure_lease()
            await reconcile_seat(delivery, match_id, seat, again=True)
    for seat, turn in sorted(turns.items()):
        if seat not in held and _out_of_date(delivery, turn) and not _next_prompt_comes(delivery, turn):
            await delivery.ensure_lease()
            await reconcile_seat(delivery, match_id, seat)
    return sorted(turns)

async def _bring_up_to_date(delivery: TurnDms, turn: SeatTurn) -> str | None:
    """Write the seat's turn DM (and close the reminders of its ended turn) when it shows other
    than ``turn``, read under the seat's hold; its ref."""
    if turn.subject is None or turn.subject.dm is None:
        return None
    ref = turn.subject.dm
    if await delivery.dms_closed(turn.match_id, turn.seat):
        return str(ref)
    shown = delivery.turns.shown.get(ref)
    rendered = _rendered(turn, shown)
    if rendered is not None:
        await _write_turn(delivery, turn, ref, rendered, shown)
    if not turn.live:
        await _close_reminders(delivery, turn)
    return str(ref)

def _rendered(turn: SeatTurn, shown: Shown | None) -> turn_dm.Rendered | None:
    """What the turn DM should show now, when that is not what it shows (None: it is right)."""
    if shown is not None and shown.final:
        return None
    rendered = turn_dm.render(turn, shown.head if shown else [], shown.notes if shown else [])
    # A DM this process never wrote (it restarted) shows its prompt as delivered.
    assumed = shown.digest if shown is not None else turn_dm.as_delivered(turn).digest
    return None if rendered.digest == assumed else rendered

def _next_prompt_comes(delivery: TurnDms, turn: SeatTurn) -> bool:
    """Whether the seat's next prompt was written after delivery last read the queue: its
    delivery writes this turn DM anyway (edited in place into the next decision, saying how this
    one ended, or closed beside a new DM), so bringing it up to date now would be a second edit
    of the same message moments apart. The worker reads that prompt next, and brings the DMs up
    to date again after it went (it may not go: then this DM is written then)."""
    return (turn.subject is not None and turn.newest_prompt is not None
            and turn.newer_prompt(turn.subject.notice_id) and delivery.unread(turn.match_id, turn.newest_prompt))


def _out_of_date(delivery: TurnDms, turn: SeatTurn) -> bool:
    """Whether the seat's turn DM, or a reminder of its ended turn, shows other than ``turn``."""
    if turn.subject is None or turn.subject.dm is None:
        return False
    if _rendered(turn, delivery.turns.shown.get(turn.subject.dm)) is not None:
        return True
    if turn.live or turn_dm.reminder_text(turn) is None:
        return False
    return any(not (delivery.turns.shown.get(ref) or Shown()).final for ref in turn.reminders)

async def _finalize(delivery: TurnDms, previous: SeatTurn, until: int | None) -> None:
    """A new turn DM supersedes the seat's previous one: that one takes its final form (what
    was chosen, how it ended, no components), so only the newest DM asks. Best effort."""
    before = previous.subject
    if before is None or before.dm is None:
        return
    shown = delivery.turns.shown.get(before.dm)
    if shown is not None and shown.final:
        return
    ended = turn_dm.ended(previous, until)
    rendered = turn_dm.render(ended, shown.head if shown else [], shown.notes if shown else [], final=True)
    await _write_turn(delivery, ended, before.dm, rendered, shown)

async def _close_superseded_reminders(delivery: TurnDms, previous: SeatTurn, until: int | None) -> None:
    """A newer decision asks now: the reminders sent for the previous one said it still waited,
    and they now say how it ended (the reconciling after a drain sees only the newest turn's).
    Best effort."""
    if previous.subject is None or previous.live:
        return
    try:
        await _close_reminders(delivery, turn_dm.ended(previous, until))
    except discord.HTTPException as exc:
        log.info("could not take back the reminders of match %s seat %s: %s", previous.match_id, previous.seat, exc)

def _linked(delivery: TurnDms, turn: SeatTurn, rendered: turn_dm.Rendered) -> str:
    """The turn DM's text with the seat's private table link under it (when the web table is on)."""
    return table_links.with_seat_link(delivery.bot, rendered.content, turn.match_id, turn.seat, turn.user_id)

async def _write_turn(delivery: TurnDms, turn: SeatTurn, ref: int, rendered: turn_dm.Rendered, shown: Shown | None) -> None:
    try:
        dm = await delivery.dm_channel_for(turn.match_id, turn.seat, turn.user_id)
        await clicked_dms.edit(delivery.turns.clicks, dm, ref, content=_linked(delivery, turn, rendered),
                               view=rendered.view, allowed_mentions=NOBODY)
    except discord.HTTPException as exc:
        log.info("could not bring turn DM %s of match %s up to date: %s", ref, turn.match_id, exc)
        return
    turn_dm.remember(delivery.turns.shown, ref, rendered, shown.head if shown else [], shown.notes if shown else [])

async def _close_reminders(delivery: TurnDms, turn: SeatTurn) -> None:
    """Reminders of a decision the AI took (or the match ended) say so, not "still waits"."""
    text = turn_dm.reminder_text(turn)
    todo = [ref for ref in turn.reminders if not (delivery.turns.shown.get(ref) or Shown()).final]
    if text is None or not todo:
        return
    dm = await delivery.dm_channel_for(turn.match_id, turn.seat, turn.user_id)
    for ref in todo:
        try:
            await dm.get_partial_message(ref).edit(content=text, allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            log.info("could not take back reminder DM %s of match %s: %s", ref, turn.match_id, exc)
        delivery.turns.shown[ref] = Shown(final=True)

async def _edit_dm(delivery: TurnDms, notice: Notice, ref: int, content: str, view: discord.ui.View | None,
                   files: list[discord.File] | None) -> str | None:
    """Edit the seat's prompt DM in place (``files`` None keeps its attachments); None when
    it is gone (a new DM follows)."""
    if await delivery.dms_closed(notice.match_id, seat_of(notice)):
        return "dms-closed"
    dm = await delivery.dm_channel_for(notice.match_id, notice.seat, user_of(notice))
    extra: dict[str, Any] = {} if files is None else {"attachments": files}
    try:
        await clicked_dms.edit(delivery.turns.clicks, dm, ref, content=content, view=view,
                               allowed_mentions=NOBODY, **extra)
    except discord.HTTPException as exc:
        if exc.code != UNKNOWN_MESSAGE and (not refused.is_refusal(exc) or final_code(exc) is not None):
            raise
        if exc.code != UNKNOWN_MESSAGE:
            log.info("Discord refused the edit of prompt DM %s (%s); a new DM follows", ref, exc)
        return None
    return str(ref)
