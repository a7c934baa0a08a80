"""The delivery's direct messages: the seat's DM channel (stored once, never asked again), DMs
closed to the bot (then its notices go to the channel), and the turn DM as a view of the match.

A seat's turn DM is rendered from the match as it stands (turn_dm.py) while holding the seat's
turn (seat_turns.py): a prompt edits the seat's previous turn DM in place when it follows from it,
else it is a new DM and the previous one takes its final form; after every drain each seat's turn
DM, reminders and undo consent DMs are brought up to date (``reconcile``). A player who asked for
no DMs (`/game notify`) gets no turn DM and no private lines (their turns are mentioned in the
thread and `/game act` shows their view); a turn DM in their quiet hours arrives silently."""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord import refused, table_links, turn_dm
from bot.discord.error_codes import DMS_CLOSED, UNKNOWN_MESSAGE
from bot.discord.mentions import NOBODY, ROUTINE, only
from bot.discord.refusals import final_code
from bot.discord.seat_turns import SeatTurns, Shown
from bot.discord.sending import SUPERSEDED, LeaseLost, channel_of, clip, inert, nonce_of, seat_of, user_of
from bot.discord.undo_ui import closed_consent_text
from bot.discord.vote_ui import VoteDmService, close_votes
from bot.service import drawing
from bot.service.notify import THREAD
from bot.service.turn_views import SeatTurn
from bot.service.undo import ANSWERED

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractAsyncContextManager
    from datetime import datetime

    from bot.discord.wiring import Outbound
    from bot.service import MatchInfo, Notice
    from bot.service.notify import NotifyPrefs

log = logging.getLogger(__name__)

NO_DMS = "no-dms"
"""The ref of a DM notice not sent: its player asked for no DMs (`/game notify`)."""
DM_CHANNELS_KEPT = 100_000
"""Users whose DM channel (and seats whose closed DMs) are kept in memory: a dict slot each."""


class DmService(VoteDmService, Protocol):
    """The service calls the DMs make: the seat's DM channel, its closed DMs, its notification
    settings, its turn (read under the seat's fence) and whether its consent and vote DMs still ask."""

    @property
    def clock(self) -> Callable[[], datetime]: ...

    async def get_match(self, match_id: int) -> MatchInfo: ...

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs: ...

    async def dm_channel(self, match_id: int, seat: int, user_id: int) -> int | None: ...

    async def remember_dm_channel(self, match_id: int, seat: int, user_id: int, dm_channel_id: int) -> None: ...

    async def dms_closed(self, match_id: int, seat: int) -> bool: ...

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool: ...

    async def newer_prompt(self, match_id: int, seat: int, notice_id: int) -> bool: ...

    def seat_fence(self, match_id: int, seat_no: int) -> AbstractAsyncContextManager[None]: ...

    async def seat_turn(self, match_id: int, seat_no: int, before_id: int | None = None) -> SeatTurn | None: ...

    async def undo_closed(self, match_id: int, undo_id: int, seat: int) -> str | None: ...


class DirectMessages:
    """The DM half of ``Delivery`` (delivery.py), which sets these up in its ``__init__``."""

    bot: Outbound
    gate: asyncio.Semaphore
    turns: SeatTurns
    consents: dict[int, dict[int, Notice]]
    votes: dict[int, dict[int, Notice]]
    dm_channels: dict[int, int]
    closed_dms: dict[tuple[int, int], bool]

    @property
    def svc(self) -> DmService:
        return self.bot.svc

    async def ensure_lease(self) -> None:
        """Raise LeaseLost unless this process still holds the delivery lease: asked again after
        slow work (a drawing), since a process paused meanwhile must send nothing."""
        if not await self.bot.holds_lease("deliver"):
            raise LeaseLost

    async def dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None:
        """Send to the seat's DMs; if they are closed, say so in the channel once."""
        user_id = user_of(notice)
        seat = notice.seat
        if seat is not None and await self.dms_closed(notice.match_id, seat):
            return "dms-closed"
        try:
            dm = await self._dm_channel(notice)
            msg = await dm.send(content, nonce=nonce_of(notice), allowed_mentions=NOBODY, **kwargs)
            return str(msg.id)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED or seat is None:
                raise
            if await self.mark_dms_closed(notice.match_id, seat):
                await self._say_dms_closed(notice, user_id)
            return None

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None:
        """A DM of a notice to its seat (the senders outside this class use it)."""
        return await self.dm(notice, content, **kwargs)

    async def in_thread_only(self, notice: Notice) -> bool:
        """Whether the notice's player asked for no DMs (`/game notify`): their turns are
        announced in the thread, and they answer with `/game act` or its Act button."""
        prefs = await self.svc.notify_prefs(notice.match_id, user_of(notice))
        return bool(prefs.announce == THREAD)

    async def _dm_channel(self, notice: Notice) -> discord.PartialMessageable | discord.DMChannel:
        return await self.dm_channel_for(notice.match_id, notice.seat, user_of(notice))

    async def dm_channel_for(self, match_id: int, seat: int | None,
                             user_id: int) -> discord.PartialMessageable | discord.DMChannel:
        """The seat's DM channel: the stored one, else opened (and stored) once. discord.py keeps
        only 128 DM channels, so with more players it fetched the user and opened the channel
        again for nearly every DM (two requests, one under a tight bot-wide limit)."""
        known = self.dm_channels.get(user_id)
        if known is None and seat is not None:
            known = await self.svc.dm_channel(match_id, seat, user_id)
        if known is not None:
            self._know_dm_channel(user_id, known)
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        dm = user.dm_channel or await user.create_dm()
        if seat is not None:
            await self.svc.remember_dm_channel(match_id, seat, user_id, dm.id)
        self._know_dm_channel(user_id, dm.id)
        return dm

    def _know_dm_channel(self, user_id: int, channel_id: int) -> None:
        if len(self.dm_channels) >= DM_CHANNELS_KEPT:
            self.dm_channels.clear()  # a bound, not a policy: they are read again as needed
        self.dm_channels[user_id] = channel_id

    async def dms_closed(self, match_id: int, seat: int) -> bool:
        """Whether the seat's DMs refused the match's notices (then its DMs go to the channel)."""
        known = self.closed_dms.get((match_id, seat))
        if known is None:
            if len(self.closed_dms) >= DM_CHANNELS_KEPT:
                self.closed_dms.clear()
            known = self.closed_dms[(match_id, seat)] = bool(await self.svc.dms_closed(match_id, seat))
        return known

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool:
        """Record that the seat's DMs are closed; True only the first time (say it once)."""
        self.closed_dms[(match_id, seat)] = True
        return bool(await self.svc.mark_dms_closed(match_id, seat))

    async def _say_dms_closed(self, notice: Notice, user_id: int) -> None:
        """Best effort: a channel that refuses it parks its own notices when it next meets one."""
        channel = self.bot.get_partial_messageable(channel_of(notice))
        try:
            await channel.send(
                f"<@{user_id}> I cannot send you direct messages (your DMs are closed for this server). "
                "Answer your decisions here with `/game act` instead.",
                nonce=nonce_of(notice, "dms-closed"),
                allowed_mentions=only([user_id]),
            )
        except discord.HTTPException as exc:
            log.info("could not say in channel %s that %s's DMs are closed: %s", notice.channel_id, user_id, exc)

    async def dm_text(self, notice: Notice) -> str | None:
        """Lines only this seat may see (its own sealed choice, what its scouts saw)."""
        if await self.in_thread_only(notice):
            return NO_DMS  # `/game act` shows the seat's own view
        lines = notice.payload.get("events") or [notice.payload.get("text", "")]
        return await self.dm(notice, clip(inert("\n".join(lines))), silent=ROUTINE)

    async def dm_prompt(self, notice: Notice) -> str | None:
        """A decision in the seat's DMs, rendered from the match as it stands (turn_dm.py). The
        seat's next decision of the same sequence (its own answer led to it, its sealed step was
        revealed into it, or it replaces one not answered yet) edits its turn DM in place, saying
        how the previous decision ended: one DM per turn, not one per click. Otherwise a new DM
        notifies, and the previous turn DM takes its final form. A prompt the seat no longer owes
        by the time it would go out is not sent (it answered elsewhere, the game moved on, the
        match ended), unless the AI answered it: then it comes in its final form, saying what
        the AI chose for the seat."""
        payload = notice.payload
        seat = seat_of(notice)
        prefs = await self.svc.notify_prefs(notice.match_id, user_of(notice))
        if prefs.announce == THREAD:
            return NO_DMS  # the turn notice mentions them in the thread
        quiet = prefs.quiet_until(self.svc.clock()) is not None  # it arrives, but buzzes nobody
        async with self.turns.hold(notice.match_id, seat, self.svc.seat_fence):  # one writer at a time: seat_turns.py
            previous = await self.svc.seat_turn(notice.match_id, seat, before_id=notice.id)
            if previous is None:
                return "skipped"
            turn = previous.about(notice.id, payload)
            late = None if turn.live else turn_dm.its_choice(turn)
            if turn.subject is None or not (turn.live or (late is not None and late.by != "player")):
                return SUPERSEDED
            # (a prompt the AI answered before it went out still comes, saying what the AI chose)
            head = [inert(line) for line in payload.get("news") or []]
            before = previous.subject
            in_place = bool(payload.get("in_place")) and before is not None
            if in_place and turn_dm.its_choice(previous, until=turn.subject.version) is not None:
                head += turn_dm.outcome(previous, until=turn.subject.version)
            rendered = turn_dm.render(turn, head)
            files: list[discord.File] = []
            if turn_dm.asked(turn).secret and payload.get("view"):
                png = await drawing.draw_private(str(payload.get("game")), payload["view"], turn.names)
                files.append(discord.File(io.BytesIO(png), "you.png"))
                await self.ensure_lease()
            if in_place and before is not None and before.dm is not None:
                if await self.svc.newer_prompt(notice.match_id, seat, notice.id):
                    return str(before.dm)  # the newer prompt edits this same message: never show an older one
                edited = await self._edit_dm(notice, before.dm, self._linked(turn, rendered), rendered.view, files)
                if edited is not None:
                    if edited.isdigit():
                        turn_dm.remember(self.turns.shown, int(edited), rendered, head, [])
                        await self._close_superseded_reminders(previous, turn.subject.version)
                    return edited
            ref = await self.dm(notice, self._linked(turn, rendered), view=rendered.view, files=files, silent=quiet)
            if ref is not None and ref.isdigit():
                turn_dm.remember(self.turns.shown, int(ref), rendered, head, [])
                if before is not None and before.dm is not None and before.dm != int(ref):
                    await self._finalize(previous, until=turn.subject.version)
                await self._close_superseded_reminders(previous, turn.subject.version)
            return ref

    async def last_to_choose(self, notice: Notice) -> str:
        """The one seat still choosing is told that everyone waits for it, on its open prompt: its
        turn DM rendered as the match stands when this goes out (a seat that has chosen since,
        or whose step moved on, is not told, and its DM is not re-opened)."""
        return await self._reconcile_seat(notice.match_id, seat_of(notice)) or "skipped"

    async def reconcile(self, match_id: int) -> None:
        """After a match's notices went out: each seat's turn DM as the match stands now (a
        sealed choice revealed, a turn the AI played, a match over), and its reminder DMs. Best
        effort: a failure here loses nothing, the next reconciling renders the same."""
        try:
            if not await self.bot.holds_lease("deliver"):
                return
            await self._close_consents(match_id)
            await close_votes(self, match_id)
            info = await self.svc.get_match(match_id)
            for seat in info.seats:
                if seat.user_id is not None:
                    if not await self.bot.holds_lease("deliver"):
                        return  # paused past the lease meanwhile: the holder brings the DMs up to date
                    async with self.gate:
                        await self._reconcile_seat(match_id, seat.seat)
        except Exception:
            log.exception("could not bring the turn DMs of match %s up to date", match_id)

    async def _close_consents(self, match_id: int) -> None:
        """Undo consent DMs whose request can no longer be answered (refused, done, expired, the
        match moved on or ended) lose their Agree/Refuse buttons and say why."""
        sent = self.consents.get(match_id)
        if sent is None:
            return
        for ref, notice in list(sent.items()):
            why = await self.svc.undo_closed(match_id, int(notice.payload["undo_id"]), seat_of(notice))
            if why is None:
                continue
            del sent[ref]
            if why == ANSWERED:
                continue
            try:
                dm = await self.dm_channel_for(match_id, seat_of(notice), user_of(notice))
                async with self.gate:
                    await dm.get_partial_message(ref).edit(content=closed_consent_text(notice, why), view=None,
                                                           allowed_mentions=NOBODY)
            except discord.HTTPException as exc:
                log.info("could not close undo consent DM %s of match %s: %s", ref, match_id, exc)
        if not sent:
            self.consents.pop(match_id, None)

    async def _reconcile_seat(self, match_id: int, seat: int) -> str | None:
        """Edit the seat's turn DM if what it shows is no longer what the match says; its ref."""
        async with self.turns.hold(match_id, seat, self.svc.seat_fence):
            turn = await self.svc.seat_turn(match_id, seat)
            if turn is None or turn.subject is None or turn.subject.dm is None:
                return None
            ref = turn.subject.dm
            if await self.dms_closed(match_id, seat):
                return str(ref)
            shown = self.turns.shown.get(ref)
            if shown is None or not shown.final:
                rendered = turn_dm.render(turn, shown.head if shown else [], shown.notes if shown else [])
                # A DM this process never wrote (it restarted) shows its prompt as delivered.
                assumed = shown.digest if shown is not None else turn_dm.as_delivered(turn).digest
                same = rendered.digest == assumed
                if not same:
                    await self._write_turn(turn, ref, rendered, shown)
            if not turn.live:
                await self._close_reminders(turn)
            return str(ref)

    async def _finalize(self, previous: SeatTurn, until: int | None) -> None:
        """A new turn DM supersedes the seat's previous one: that one takes its final form (what
        was chosen, how it ended, no components), so only the newest DM asks. Best effort."""
        before = previous.subject
        if before is None or before.dm is None:
            return
        shown = self.turns.shown.get(before.dm)
        if shown is not None and shown.final:
            return
        ended = _ended(previous, until)
        rendered = turn_dm.render(ended, shown.head if shown else [], shown.notes if shown else [], final=True)
        await self._write_turn(ended, before.dm, rendered, shown)

    async def _close_superseded_reminders(self, previous: SeatTurn, until: int | None) -> None:
        """A newer decision asks now: the reminders sent for the previous one said it still waited,
        and they now say how it ended (the reconciling after a drain sees only the newest turn's).
        Best effort."""
        if previous.subject is None or previous.live:
            return
        try:
            await self._close_reminders(_ended(previous, until))
        except discord.HTTPException as exc:
            log.info("could not take back the reminders of match %s seat %s: %s", previous.match_id, previous.seat, exc)

    def _linked(self, turn: SeatTurn, rendered: turn_dm.Rendered) -> str:
        """The turn DM's text with the seat's private table link under it (when the web table is on)."""
        return table_links.with_seat_link(self.bot, rendered.content, turn.match_id, turn.seat, turn.user_id)

    async def _write_turn(self, turn: SeatTurn, ref: int, rendered: turn_dm.Rendered, shown: Shown | None) -> None:
        try:
            dm = await self.dm_channel_for(turn.match_id, turn.seat, turn.user_id)
            await dm.get_partial_message(ref).edit(content=self._linked(turn, rendered), view=rendered.view,
                                                   allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            log.info("could not bring turn DM %s of match %s up to date: %s", ref, turn.match_id, exc)
            return
        turn_dm.remember(self.turns.shown, ref, rendered, shown.head if shown else [], shown.notes if shown else [])

    async def _close_reminders(self, turn: SeatTurn) -> None:
        """Reminders of a decision the AI took (or the match ended) say so, not "still waits"."""
        text = turn_dm.reminder_text(turn)
        todo = [ref for ref in turn.reminders if not (self.turns.shown.get(ref) or Shown()).final]
        if text is None or not todo:
            return
        dm = await self.dm_channel_for(turn.match_id, turn.seat, turn.user_id)
        for ref in todo:
            try:
                await dm.get_partial_message(ref).edit(content=text, allowed_mentions=NOBODY)
            except discord.HTTPException as exc:
                log.info("could not take back reminder DM %s of match %s: %s", ref, turn.match_id, exc)
            self.turns.shown[ref] = Shown(final=True)

    async def _edit_dm(self, notice: Notice, ref: int, content: str, view: discord.ui.View | None,
                       files: list[discord.File] | None) -> str | None:
        """Edit the seat's prompt DM in place (``files`` None keeps its attachments); None when
        it is gone (a new DM follows)."""
        if await self.dms_closed(notice.match_id, seat_of(notice)):
            return "dms-closed"
        dm = await self._dm_channel(notice)
        extra: dict[str, Any] = {} if files is None else {"attachments": files}
        try:
            await dm.get_partial_message(ref).edit(content=content, view=view, allowed_mentions=NOBODY, **extra)
        except discord.HTTPException as exc:
            if exc.code != UNKNOWN_MESSAGE and (not refused.is_refusal(exc) or final_code(exc) is not None):
                raise
            if exc.code != UNKNOWN_MESSAGE:
                log.info("Discord refused the edit of prompt DM %s (%s); a new DM follows", ref, exc)
            return None
        return str(ref)


def _ended(previous: SeatTurn, until: int | None) -> SeatTurn:
    """The seat's previous turn as it ended: the choices up to log position ``until`` only."""
    return replace(previous, choices=[c for c in previous.choices if until is None or c.seq <= until])
