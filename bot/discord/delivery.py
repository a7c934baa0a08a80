"""Outbox → Discord. Notices are written by the service in the same transaction as the
state change; this loop delivers them and marks each delivered.

Each match has its own queue and its own worker, so one match's backlog or refused channel never
delays another match. A post Discord refuses for good (see refusals.py) parks its target
instead of being retried every round; the target is probed at a slow, backing-off pace and its
parked notices follow in order once it works. Every post and DM carries a nonce derived from its
notice (Discord returns the earlier message for a repeated nonce), so a crash between sending
and marking, or a response lost to a 5xx, never shows a player the same message twice."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import nudges, phase_posts, replays
from bot.discord.board import Boards
from bot.discord.mentions import NOBODY, mentions, only, plain_names
from bot.discord.prompt_ui import option_label, prompt_text, prompt_view
from bot.discord.refusals import UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, alert_text, final_code, reason_for
from bot.discord.seat_turns import SeatTurns
from bot.discord.undo_ui import consent_text, consent_view
from bot.naming import named_prompt
from bot.service import drawing
from bot.service.history import REPLAY_NOTICE
from bot.service.outbox import ALERT, PHASE_POST_KINDS, target_of

if TYPE_CHECKING:
    from bot.discord.app import WarhostBot

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
BATCH = 50
"""Notices of one match read at a time."""
MATCHES_PER_ROUND = 500
"""Matches a round looks at (those waiting longest first); the rest are seen next round."""
PARALLEL_SENDS = 16
"""Requests to Discord in flight at once, over all matches."""
DM_CHANNELS_KEPT = 100_000
"""Users whose DM channel (and seats whose closed DMs) are kept in memory: a dict slot each."""
RETRY_MAX_SECONDS = 60.0
"""A match whose delivery keeps failing for a passing reason (5xx, network) waits at most this long."""
PUBLIC_TEXT = frozenset({"turn", "reminder", "timeout", "host"})
"""Notice kinds posted as plain channel text; anything else is never posted publicly."""
NONCE_LENGTH = 25
"""Discord takes string nonces of up to 25 characters."""

DELIVERED, PARKED, RETRY = "delivered", "parked", "retry"


def _groups(batch: list[Any]) -> list[list[Any]]:
    """The batch in delivery order, consecutive phase-post notices of one channel together."""
    groups: list[list[Any]] = []
    for notice in batch:
        if groups and phase_posts.joins_group(groups[-1], notice) and groups[-1][0].kind in PHASE_POST_KINDS:
            groups[-1].append(notice)
        else:
            groups.append([notice])
    return groups


def written_at(group: list[Any]) -> int | None:
    """The newest match version a group of notices was written at; None when one of them is a
    marker or an alert, which no version of the match wrote."""
    versions = [notice.version for notice in group]
    return None if None in versions else max(versions)


def clip(text: str, limit: int = 2000, more: str = "\n... (`/game log` shows the rest)") -> str:
    return text if len(text) <= limit else text[: limit - len(more)] + more


def inert(text: str) -> str:
    """Service text as posted: it never means to ping, whatever a player's name says."""
    return discord.utils.escape_mentions(text)


def nonce_of(notice: Any, part: str = "") -> str:
    """The nonce of a notice's message (``part`` for a second message of the same notice): the same
    on every attempt, different for every notice (keys are unique per match, so the match is in it)."""
    seed = f"warhost:{notice.match_id}:{notice.key}:{part}"
    return hashlib.sha256(seed.encode()).hexdigest()[:NONCE_LENGTH]


class Delivery:
    """The outbox loop of the process holding the ``deliver`` lease: a worker per match."""

    def __init__(self, bot: WarhostBot) -> None:
        self.bot = bot
        self.wake = asyncio.Event()
        self.gate = asyncio.Semaphore(PARALLEL_SENDS)
        self.workers: dict[int, asyncio.Task[int]] = {}
        self.again: set[int] = set()
        """Matches that got new notices while their worker ran: it reads once more before it ends."""
        self.retry_at: dict[int, tuple[float, int]] = {}
        """Match -> (monotonic time before which it is not tried again, failures in a row)."""
        self.boards = Boards(bot)
        """The status boards, refreshed (coalesced) after a match's notices went out."""
        self.replays = replays.Replays()
        """Replay GIFs drawn ahead of their posts (outside the send slots)."""
        self.dm_channels: dict[int, int] = {}
        """User -> their DM channel with the bot, which never changes: a DM needs no read for it."""
        self.turns = SeatTurns()
        """Held while a seat's prompt DM is written (here, and by the reply to a click: router.py)."""
        self.closed_dms: dict[tuple[int, int], bool] = {}
        """(match, seat) -> whether its DMs are closed, as read or marked while this process held
        the delivery lease. Only the holder marks them, so what it read stays true while it
        holds the lease; a lease lost and taken again starts over (another holder may have marked)."""

    @property
    def svc(self) -> Any:
        return self.bot.svc

    def _setting(self, name: str, default: float) -> float:
        return float(getattr(getattr(self.bot, "settings", None), name, default))

    def probe_delay(self, probes: int) -> float:
        """Seconds to the next probe of a blocked target after ``probes`` failed ones: doubling, capped."""
        first = self._setting("delivery_probe_seconds", 60.0)
        return min(first * 2 ** min(probes, 30), self._setting("delivery_probe_max_seconds", 900.0))

    async def run_forever(self, every: float) -> None:
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=every)
                self.wake.clear()
                try:
                    await self.dispatch()
                except Exception:
                    log.exception("delivery round failed; retrying on the next round")
        finally:
            await self.stop()

    async def stop(self) -> None:
        """Cancel the match workers (at shutdown); what they had not marked is delivered next time."""
        tasks = list(self.workers.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.workers.clear()
        await self.boards.stop()

    async def dispatch(self) -> list[asyncio.Task[int]]:
        """Start a worker for each match with something to deliver (or a probe due) that has none."""
        if not await self.bot.holds_lease("deliver"):
            self.closed_dms.clear()
            return []
        started = []
        now = time.monotonic()
        for match_id in await self.svc.delivery_queue(MATCHES_PER_ROUND):
            running = self.workers.get(match_id)
            if running is not None and not running.done():
                self.again.add(match_id)
                continue
            if self.retry_at.get(match_id, (0.0, 0))[0] > now:
                continue
            task = asyncio.create_task(self._work(match_id), name=f"deliver-match-{match_id}")
            self.workers[match_id] = task
            started.append(task)
        return started

    async def deliver_pending(self) -> int:
        """One round, waiting for the matches it started; returns the notices delivered."""
        return sum(await asyncio.gather(*await self.dispatch()))

    async def _work(self, match_id: int) -> int:
        """One match's notices, oldest first, until none is left (or a passing failure)."""
        sent = 0
        try:
            sent += await self._probe(match_id)
            while True:
                self.again.discard(match_id)
                batch = await self.svc.next_notices(match_id, BATCH)
                if not batch:
                    if match_id in self.again:
                        continue
                    self.retry_at.pop(match_id, None)
                    return sent
                for group in _groups(batch):
                    outcome = await self._deliver_one(group)
                    if outcome == DELIVERED:
                        sent += len(group)
                        if group[0].kind == "lobby":
                            break  # it may have moved the match into its thread: read the targets again
                        self.boards.touch(match_id, written_at(group))
                    elif outcome == PARKED:
                        break  # that target's other notices are parked too: read the queue again
                    else:
                        self._back_off(match_id)
                        return sent
        except Exception:
            log.exception("delivering the notices of match %s failed; retrying later", match_id)
            self._back_off(match_id)
            return sent
        finally:
            if self.workers.get(match_id) is asyncio.current_task():
                del self.workers[match_id]

    def _back_off(self, match_id: int) -> None:
        failures = self.retry_at.get(match_id, (0.0, 0))[1] + 1
        wait = min(self._setting("deliver_seconds", 1.0) * 2 ** min(failures, 30), RETRY_MAX_SECONDS)
        self.retry_at[match_id] = (time.monotonic() + wait, failures)

    async def _deliver_one(self, group: list[Any]) -> str:
        """Deliver one notice, or consecutive phase-post notices as one post or edit."""
        notice = group[0]
        try:
            await self.replays.prepare(self, notice)  # slow drawing takes no send slot
            async with self.gate:
                ref = await (phase_posts.deliver_group(self, group) if len(group) > 1 else self.deliver(notice))
        except discord.HTTPException as exc:
            code = final_code(exc)
            if notice.kind == ALERT and isinstance(exc, (discord.Forbidden, discord.NotFound)):
                log.info("could not tell %s about a blocked target of match %s: %s", target_of(notice), notice.match_id, exc)
                await self.svc.delivered(notice.id, "undeliverable")
                return DELIVERED
            if code is None:
                log.warning("could not deliver notice %s (%s) of match %s: %s; will retry",
                            notice.id, notice.kind, notice.match_id, exc)
                return RETRY
            await self._park(notice, code)
            return PARKED
        for each in group:
            await self.svc.delivered(each.id, ref)
        return DELIVERED

    async def _park(self, notice: Any, code: int) -> None:
        kind, target_id = target_of(notice)
        reason = reason_for(self.bot, code, kind, target_id)
        block = await self.svc.park(notice.id, code, reason, retry_in=self.probe_delay(0))
        if block is not None:
            log.warning("parked %d notices of match %s for %s %s: %s (Discord error %s); next try in %.0f s",
                        block.held, notice.match_id, kind, target_id, reason, code, self.probe_delay(0))

    async def _probe(self, match_id: int) -> int:
        """Try each due blocked target with its oldest parked notice; if it goes, the rest follow."""
        sent = 0
        for block in await self.svc.due_probes(match_id):
            notice = await self.svc.probe_notice(block)
            if notice is None:
                await self.svc.unblock(block)
                continue
            try:
                async with self.gate:
                    ref = await self.deliver(notice)
            except discord.HTTPException as exc:
                code = final_code(exc)
                reason = reason_for(self.bot, code, block.kind, block.target_id) if code else block.reason
                dropped = await self.svc.probe_failed(block, code or block.code, reason,
                                                      self.probe_delay(block.probes + 1))
                if dropped is not None:
                    log.warning("gave up on %s %s of match %s (over, refused since %s): %d notices dropped",
                                block.kind, block.target_id, match_id, block.since, dropped)
                continue
            await self.svc.delivered(notice.id, ref)
            held = await self.svc.unblock(block)
            sent += 1
            log.info("%s %s of match %s works again; %d held notices follow", block.kind, block.target_id,
                     match_id, held)
        return sent

    # ------------------------------------------------------------------ one notice

    async def deliver(self, notice: Any) -> str | None:
        kind = notice.kind
        payload: dict[str, Any] = notice.payload
        if kind == "prompt":
            return await self.dm_prompt(notice)
        if kind == "private":
            return await self.dm_text(notice)
        if kind == ALERT:
            return await self.alert(notice)
        if kind == "consent":
            return await self._dm(notice, consent_text(notice), view=consent_view(notice))
        channel = self.bot.get_partial_messageable(notice.channel_id)
        if kind == "lobby":
            return await self.lobby(notice, channel)
        if kind in PHASE_POST_KINDS:
            return await phase_posts.deliver_group(self, [notice])
        if kind == REPLAY_NOTICE:
            return await replays.post(self, notice, channel, clip(inert(payload.get("text", ""))), nonce_of(notice))
        if kind == "turn":
            return await nudges.turn(self, notice)
        if kind == "reminder":
            return await nudges.reminder(self, notice)
        if kind == "last_to_choose":
            return await self.last_to_choose(notice)
        if kind not in PUBLIC_TEXT:
            log.warning("not posting notice %s of unknown kind %r", notice.id, kind)
            return "skipped"
        text = inert(payload.get("text", ""))
        users = [int(u) for u in payload.get("user_ids", [])]
        if users:
            text = f"{mentions(users)} {text}"
        msg = await channel.send(clip(text), nonce=nonce_of(notice), allowed_mentions=only(users))
        return str(msg.id)

    async def lobby(self, notice: Any, channel: discord.PartialMessageable) -> str:
        """The lobby is one message in the channel where the match was opened, edited in place
        (an edit repeated is harmless); the match's thread starts from it (threads.py)."""
        from bot.discord import threads
        from bot.discord.lobby import lobby_view

        info = await self.svc.get_match(notice.match_id)
        channel = self.bot.get_partial_messageable(info.lobby_channel_id or notice.channel_id)
        payload = notice.payload
        view = lobby_view(notice.match_id, payload.get("status", "lobby"))
        text = clip(inert(payload["text"]))
        ref = await self.svc.notice_ref(notice.match_id, "lobby")
        if ref:
            try:
                await channel.get_partial_message(int(ref)).edit(content=text, view=view, allowed_mentions=NOBODY)
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_CHANNEL:
                    raise
                ref = None
        if not ref:
            ref = str((await channel.send(text, view=view, nonce=nonce_of(notice), allowed_mentions=NOBODY)).id)
        if info.opens_thread and not info.in_thread:
            await threads.start_from_lobby(self.bot, info, int(ref))
        return ref

    async def alert(self, notice: Any) -> str | None:
        """Tell someone that a target of the match refuses its notices (a ``blocked`` notice)."""
        payload = notice.payload
        text = clip(alert_text(payload, notice.channel_id, notice.match_id))
        if notice.user_id is not None:
            return await self._dm(notice, text)
        channel = self.bot.get_partial_messageable(notice.channel_id)
        users = [int(payload["target_id"])] if payload.get("target_kind") == "user" else []
        msg = await channel.send(text, nonce=nonce_of(notice), allowed_mentions=only(users))
        return str(msg.id)

    async def _dm(self, notice: Any, content: str, **kwargs: Any) -> str | None:
        """Send to the seat's DMs; if they are closed, say so in the channel once."""
        user_id = int(notice.user_id)
        seat = None if notice.seat is None else int(notice.seat)
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

    async def _dm_channel(self, notice: Any) -> discord.PartialMessageable | discord.DMChannel:
        return await self.dm_channel_for(notice.match_id, None if notice.seat is None else int(notice.seat),
                                         int(notice.user_id))

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

    async def _say_dms_closed(self, notice: Any, user_id: int) -> None:
        """Best effort: a channel that refuses it parks its own notices when it next meets one."""
        channel = self.bot.get_partial_messageable(notice.channel_id)
        try:
            await channel.send(
                f"<@{user_id}> I cannot send you direct messages (your DMs are closed for this server). "
                "Answer your decisions here with `/game act` instead.",
                nonce=nonce_of(notice, "dms-closed"),
                allowed_mentions=only([user_id]),
            )
        except discord.HTTPException as exc:
            log.info("could not say in channel %s that %s's DMs are closed: %s", notice.channel_id, user_id, exc)

    async def dm_text(self, notice: Any) -> str | None:
        """Lines only this seat may see (its own sealed choice, what its scouts saw)."""
        lines = notice.payload.get("events") or [notice.payload.get("text", "")]
        return await self._dm(notice, clip(inert("\n".join(lines))))

    async def dm_prompt(self, notice: Any) -> str | None:
        """A decision in the seat's DMs. The seat's next decision of the same sequence (its own
        answer led to it, or it replaces one not answered yet) edits the previous prompt's
        message in place: one DM per turn, not one per click. Otherwise a new DM notifies."""
        payload = notice.payload
        if "names" in payload and "title" in payload:  # everything is in the notice: no read
            names, title, game = payload["names"], payload["title"], payload["game"]
        else:
            info = await self.svc.get_match(notice.match_id)
            names, title, game = info.names(), info.title, info.game
        prompt = named_prompt(payload["prompt"], names)
        written = named_prompt(payload["prompt"], plain_names(names))
        deadline = _parse_time(payload.get("deadline"))
        previous = await self.svc.previous_prompt(notice.match_id, int(notice.seat), notice.id)
        before = [inert(line) for line in payload.get("news") or []]
        if payload.get("choice") is not None and previous is not None:
            label = option_label(named_prompt(previous[1], plain_names(names)), payload["choice"])
            before.append(f"You chose: **{inert(label).rstrip('.')}**.")
        content = prompt_text(written, deadline, f"**{title}** in <#{notice.channel_id}>")
        if before:
            content = clip("\n".join([*before, "", content]))
        view = prompt_view(notice.match_id, int(notice.seat), int(payload["version"]), prompt)
        files: list[discord.File] = []
        if prompt.get("secret") and payload.get("view"):
            png = await drawing.draw_private(game, payload["view"], names)
            files.append(discord.File(io.BytesIO(png), "you.png"))
        async with self.turns.hold(notice.match_id, int(notice.seat)):  # after a click's reply: seat_turns.py
            if payload.get("in_place") and previous is not None:
                edited = await self._edit_dm(notice, int(previous[0]), content, view, files)
                if edited is not None:
                    return edited
            ref = await self._dm(notice, content, view=view, files=files)
            if ref is not None and ref.isdigit() and previous is not None:
                await self.retire(notice, previous)
            return ref

    async def last_to_choose(self, notice: Any) -> str:
        """Tell the one seat still choosing that everyone waits for it: on its open prompt, edited
        (it already has that DM; a second one would only buzz again). Best effort."""
        found = await self.svc.prompt_notice_before(notice.match_id, int(notice.seat), notice.id)
        if found is None:
            return "skipped"
        ref, payload = found
        info = await self.svc.get_match(notice.match_id)
        if info.status != "active" or info.seat_user(int(notice.seat)) != int(notice.user_id):
            return "skipped"
        written = named_prompt(payload["prompt"], plain_names(info.names()))
        prompt = named_prompt(payload["prompt"], info.names())
        content = prompt_text(written, _parse_time(payload.get("deadline")), f"**{info.title}** in <#{notice.channel_id}>")
        content = clip(f"**{inert(str(notice.payload.get('text', '')))}**\n{content}")
        view = prompt_view(notice.match_id, int(notice.seat), int(payload["version"]), prompt)
        try:  # no files: the DM keeps its map (the delivered notice no longer holds the view it came from)
            async with self.turns.hold(notice.match_id, int(notice.seat)):
                await self._edit_dm(notice, int(ref), content, view, None)
        except discord.HTTPException as exc:
            log.info("could not tell seat %s of match %s it is the last to choose: %s", notice.seat, notice.match_id, exc)
        return ref

    async def _edit_dm(self, notice: Any, ref: int, content: str, view: discord.ui.View,
                       files: list[discord.File] | None) -> str | None:
        """Edit the seat's prompt DM in place (``files`` None keeps its attachments); None when
        it is gone (a new DM follows)."""
        if await self.dms_closed(notice.match_id, int(notice.seat)):
            return "dms-closed"
        dm = await self._dm_channel(notice)
        extra: dict[str, Any] = {} if files is None else {"attachments": files}
        try:
            await dm.get_partial_message(ref).edit(content=content, view=view, allowed_mentions=NOBODY, **extra)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
            return None
        return str(ref)

    async def retire(self, notice: Any, previous: tuple[str, dict[str, Any]]) -> None:
        """A new DM supersedes the seat's previous prompt: take the old message's buttons away
        (a sealed choice's Change, a shared or optional offer), so only the newest message
        offers live choices. Best effort: a stale click is refused anyway."""
        ref, old = previous
        if not (old.get("shared") or old.get("optional") or old.get("secret")):
            return  # answered in place already: its message shows the answer, with no buttons
        try:
            dm = await self._dm_channel(notice)
            await dm.get_partial_message(int(ref)).edit(view=None)
        except discord.HTTPException:
            log.info("could not retire the previous prompt DM %s of notice %s", ref, notice.id)


def _parse_time(value: Any) -> Any:
    from datetime import datetime

    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))
