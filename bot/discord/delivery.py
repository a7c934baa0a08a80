"""Outbox → Discord. Notices are written by the service in the same transaction as the
state change; this loop delivers them at least once and marks each delivered."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

import render
from bot.discord.prompt_ui import prompt_text, prompt_view, timestamp
from bot.naming import named_prompt

if TYPE_CHECKING:
    from bot.discord.app import WarhostBot

log = logging.getLogger(__name__)

USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
DMS_CLOSED = 50007
BATCH = 200
PARALLEL_MATCHES = 16
"""Outbox rows read per round, and matches whose notices are delivered at the same time."""
PUBLIC_TEXT = frozenset({"events", "progress", "turn", "reminder", "timeout", "host"})
"""Notice kinds posted as plain channel text; anything else is never posted publicly."""


def clip(text: str, limit: int = 2000, more: str = "\n... (`/game log` shows the rest)") -> str:
    return text if len(text) <= limit else text[: limit - len(more)] + more


def mentions(user_ids: list[int]) -> str:
    return " ".join(f"<@{uid}>" for uid in user_ids)


class Delivery:
    def __init__(self, bot: WarhostBot) -> None:
        self.bot = bot
        self.wake = asyncio.Event()

    @property
    def svc(self) -> Any:
        return self.bot.svc

    async def run_forever(self, every: float) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=every)
            self.wake.clear()
            try:
                await self.deliver_pending()
            except Exception:
                log.exception("delivery round failed; retrying on the next round")

    async def deliver_pending(self) -> int:
        """Deliver the outbox: in order within a match, several matches at once.

        One notice at a time (a render, a REST call and a database write each) capped the whole
        bot at about 30 notices a second, and with a hundred busy matches prompts reached their
        players 10-20 s late (benchmarks/discord_load.py)."""
        if not await self.bot.holds_lease("deliver"):
            return 0
        sent = 0
        while True:
            batch = await self.svc.outbox(limit=BATCH)
            if not batch:
                return sent
            by_match: dict[int, list[Any]] = {}
            for notice in batch:
                by_match.setdefault(notice.match_id, []).append(notice)
            gate = asyncio.Semaphore(PARALLEL_MATCHES)
            counts = await asyncio.gather(*(self._deliver_in_order(notices, gate) for notices in by_match.values()))
            sent += sum(n for n, _ok in counts)
            if not all(ok for _n, ok in counts):
                return sent  # a refused notice is retried on the next round, its successors after it

    async def _deliver_in_order(self, notices: list[Any], gate: asyncio.Semaphore) -> tuple[int, bool]:
        """One match's notices, oldest first, stopping at the first that Discord refuses."""
        sent = 0
        async with gate:
            for notice in notices:
                try:
                    ref = await self.deliver(notice)
                except discord.HTTPException:
                    log.exception("could not deliver notice %s (%s); will retry", notice.id, notice.kind)
                    return sent, False
                await self.svc.delivered(notice.id, ref)
                sent += 1
        return sent, True

    async def deliver(self, notice: Any) -> str | None:
        kind = notice.kind
        payload: dict[str, Any] = notice.payload
        if kind == "prompt":
            return await self.dm_prompt(notice)
        if kind == "private":
            return await self.dm_text(notice)
        channel = self.bot.get_partial_messageable(notice.channel_id)
        if kind == "lobby":
            return await self.lobby(notice, channel)
        if kind in ("phase", "result"):
            names = payload.get("names")
            if names is None:
                names = (await self.svc.get_match(notice.match_id)).names()
            png = await asyncio.to_thread(render.draw, payload["game"], payload["view"], names=names)
            msg = await channel.send(
                clip(payload.get("text", "")),
                file=discord.File(io.BytesIO(png), "map.png"),
                allowed_mentions=USERS_ONLY,
            )
            return str(msg.id)
        if kind not in PUBLIC_TEXT:
            log.warning("not posting notice %s of unknown kind %r", notice.id, kind)
            return "skipped"
        text = payload.get("text", "")
        users = [int(u) for u in payload.get("user_ids", [])]
        if kind == "reminder" and payload.get("deadline"):
            text = f"{text} Deadline {timestamp(_parse_time(payload['deadline']))}."
        if users:
            text = f"{mentions(users)} {text}"
        msg = await channel.send(clip(text), allowed_mentions=USERS_ONLY)
        return str(msg.id)

    async def lobby(self, notice: Any, channel: discord.PartialMessageable) -> str:
        from bot.discord.lobby import lobby_view

        payload = notice.payload
        view = lobby_view(notice.match_id, payload.get("status", "lobby"))
        old = await self.svc.notice_ref(notice.match_id, "lobby")
        if old:
            try:
                await channel.get_partial_message(int(old)).edit(content=clip(payload["text"]), view=view)
                return old
            except discord.NotFound:
                pass
        msg = await channel.send(clip(payload["text"]), view=view, allowed_mentions=USERS_ONLY)
        return str(msg.id)

    async def _dm(self, notice: Any, content: str, **kwargs: Any) -> str | None:
        """Send to the seat's DMs; if they are closed, say so in the channel once."""
        user_id = int(notice.user_id)
        if await self.svc.dms_closed(notice.match_id, int(notice.seat)):
            return "dms-closed"
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            msg = await user.send(content, **kwargs)
            return str(msg.id)
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                raise
            if await self.svc.mark_dms_closed(notice.match_id, int(notice.seat)):
                channel = self.bot.get_partial_messageable(notice.channel_id)
                await channel.send(
                    f"<@{user_id}> I cannot send you direct messages (your DMs are closed for this server). "
                    "Answer your decisions here with `/game act` instead.",
                    allowed_mentions=USERS_ONLY,
                )
            return None

    async def dm_text(self, notice: Any) -> str | None:
        """Lines only this seat may see (its own sealed choice, what its scouts saw)."""
        return await self._dm(notice, clip("\n".join(notice.payload.get("events") or [notice.payload.get("text", "")])))

    async def dm_prompt(self, notice: Any) -> str | None:
        payload = notice.payload
        if "names" in payload and "title" in payload:  # everything is in the notice: no read
            names, title, game = payload["names"], payload["title"], payload["game"]
        else:
            info = await self.svc.get_match(notice.match_id)
            names, title, game = info.names(), info.title, info.game
        prompt = named_prompt(payload["prompt"], names)
        deadline = _parse_time(payload.get("deadline"))
        content = prompt_text(prompt, deadline, f"**{title}** in <#{notice.channel_id}>")
        view = prompt_view(notice.match_id, int(notice.seat), int(payload["version"]), prompt)
        files: list[discord.File] = []
        if prompt.get("secret") and payload.get("view"):
            png = await asyncio.to_thread(render.draw_private, game, payload["view"])
            files.append(discord.File(io.BytesIO(png), "you.png"))
        ref = await self._dm(notice, content, view=view, files=files)
        if ref is not None and ref.isdigit():
            await self.retire_previous(notice)
        return ref

    async def retire_previous(self, notice: Any) -> None:
        """A new version of a shared or optional prompt replaces the seat's previous one (a
        teammate answered first, the moment changed): take the old DM's buttons away, so only
        the newest message offers live choices. Best effort: a stale click is refused anyway."""
        previous = await self.svc.previous_prompt(notice.match_id, int(notice.seat), notice.id)
        if previous is None:
            return
        ref, old = previous
        if not (old.get("shared") or old.get("optional")):
            return  # e.g. a sealed choice keeps its Change button until the step locks
        try:
            user = self.bot.get_user(int(notice.user_id)) or await self.bot.fetch_user(int(notice.user_id))
            dm = user.dm_channel or await user.create_dm()
            await dm.get_partial_message(int(ref)).edit(view=None)
        except discord.HTTPException:
            log.info("could not retire the previous prompt DM %s of notice %s", ref, notice.id)


def _parse_time(value: Any) -> Any:
    from datetime import datetime

    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))
