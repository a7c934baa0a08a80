"""Players' DM channels opened in one lane, ahead of need, so opening one never holds up a send.

A DM can only go to a channel the bot opened with the player (POST /users/@me/channels), and
Discord limits those opens per bot, not per player (5 per 5 s): with many new players at once
the opens queue for a minute. discord.py waits for the bucket inside the request, so an open
made by a sender would hold a send slot of the outbox (and its match's worker) all that time,
and every other match's posts would wait for the slots. Here instead:

- one lane opens the channels, one request at a time (the bucket's pace, and no request of
  another match waits behind a held one), those a notice waits for before those opened ahead,
  and among those the players whose match has the fewest left to open (a match can play once
  all of its players hear it);
- a player's channel is opened ahead of need, when they sit down in a lobby (its lobby notice
  went: after their click was answered), unless it is stored for them already from any seat of
  any match (bot/service/dm_channels.py), which also holds after a restart;
- delivery steps over a notice whose player's channel is not open yet, as over a target a long
  429 holds back: that player's later notices wait with it, in order, the rest of the match and
  every other match go on; the match is woken once the channel is open.

An open Discord refuses for good (an unknown user) is left to the notice's own sender, whose
refusal is judged as any other (refused.py); one that fails for a passing reason is tried again.
Only the holder of the delivery lease opens (the bucket is the bot's, shared by its processes).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import discord

from bot.aio_tasks import cancel_and_wait
from bot.discord.refused import is_refusal
from bot.service.notify import THREAD
from bot.service.outbox import PREFS_KINDS, USER, target_of

if TYPE_CHECKING:
    from bot.service import Notice
    from bot.service.dm_channels import SeatedUser
    from bot.service.notify import NotifyPrefs

log = logging.getLogger(__name__)

PASSING_TRIES = 5
"""Tries of one open that fails for a passing reason (5xx, network) before its notices' own senders try."""
RETRY_SECONDS = 1.0
"""The first wait after an open failed for a passing reason; doubled after each."""
NO_CHANNEL_KINDS = frozenset({"seat_passed"})
"""DM notices that only edit a DM already sent (its channel is known whenever there is one)."""


class OpenerService(Protocol):
    """The service calls the opener makes: players' DM channels by user (dm_channels.py)."""

    async def user_dm_channel(self, user_id: int) -> int | None: ...

    async def unopened_dms(self, match_id: int) -> list[SeatedUser]: ...

    async def remember_user_dm_channel(self, user_id: int, dm_channel_id: int) -> None: ...


class OpenerHost(Protocol):
    """The bot as the opener uses it: opening a DM, and the delivery lease it opens under."""

    @property
    def svc(self) -> OpenerService: ...

    async def create_dm(self, user: discord.abc.Snowflake, /) -> discord.DMChannel: ...

    async def holds_lease(self, name: str) -> bool: ...


@dataclass
class Wanted:
    """A player whose DM channel is to be opened: for which matches, and whether a notice waits for it."""

    asked: int
    """Order of the first ask (earlier first among equals)."""
    matches: set[int] = field(default_factory=set)
    needed: bool = False


class DmOpener:
    """The lane that opens DM channels, and the players waiting for theirs."""

    def __init__(self, host: OpenerHost, known: dict[int, int], know: Callable[[int, int], None],
                 wake: Callable[[int], None]) -> None:
        self.host = host
        self.known = known
        """User -> their DM channel, as the delivery keeps them (``dm_channels``)."""
        self.know = know
        self.wake = wake
        """Wakes a match's delivery: a channel it waited for is open (or its open was refused)."""
        self.wanted: dict[int, Wanted] = {}
        self.refused: set[int] = set()
        """Players whose open Discord refused: their notices' senders open (and are refused) themselves."""
        self.asks = 0
        self.lane: asyncio.Task[None] | None = None
        self.scans: dict[int, asyncio.Task[None]] = {}
        self.rescan: set[int] = set()

    def waits(self, user_id: int) -> bool:
        """Whether the player's channel is being opened (their DM notices wait for it)."""
        return user_id in self.wanted

    def want(self, user_id: int, match_id: int, needed: bool = True) -> None:
        """Open the player's channel (``needed``: a notice of the match waits for it)."""
        wanted = self.wanted.get(user_id)
        if wanted is None:
            self.asks += 1
            wanted = self.wanted[user_id] = Wanted(self.asks)
        wanted.matches.add(match_id)
        wanted.needed = wanted.needed or needed
        if self.lane is None or self.lane.done():
            self.lane = asyncio.create_task(self._run(), name="dm-opener")

    def ahead(self, match_id: int) -> None:
        """Someone sat down in the match: open its players' channels not known yet, in the
        background (one look at a time per match; a look asked meanwhile runs after it)."""
        running = self.scans.get(match_id)
        if running is not None and not running.done():
            self.rescan.add(match_id)
            return
        self.scans[match_id] = asyncio.create_task(self._scan(match_id), name=f"dm-ahead-{match_id}")

    async def _scan(self, match_id: int) -> None:
        try:
            while True:
                self.rescan.discard(match_id)
                if not await self.host.holds_lease("deliver"):
                    return
                for seated in await self.host.svc.unopened_dms(match_id):
                    await self._look(seated, match_id)
                if match_id not in self.rescan:
                    return
        except Exception:
            log.exception("could not look for the DM channels to open of match %s", match_id)
        finally:
            if self.scans.get(match_id) is asyncio.current_task():
                del self.scans[match_id]

    async def _look(self, seated: SeatedUser, match_id: int) -> None:
        """A seated player with no channel on their seat: the one known for them elsewhere is
        stored on it (and kept), else it is opened, unless it is being opened or was refused."""
        known = self.known.get(seated.user_id, seated.known)
        if known is not None:
            self.know(seated.user_id, known)
            await self.host.svc.remember_user_dm_channel(seated.user_id, known)
        elif seated.user_id not in self.refused:
            self.want(seated.user_id, match_id, needed=False)

    def _next(self) -> int:
        """Who is opened next: a player a notice waits for, then the one whose match has the
        fewest players left to open, then the first asked."""
        left = Counter(match for wanted in self.wanted.values() for match in wanted.matches)
        return min(self.wanted, key=lambda user: (not self.wanted[user].needed,
                                                  min(left[match] for match in self.wanted[user].matches),
                                                  self.wanted[user].asked))

    async def _run(self) -> None:
        """Open the wanted channels one at a time, until none is wanted (or the lease is gone:
        then its holder opens them). Should the lane fail, the players it had not opened are
        left to their notices' senders: no notice waits for a lane that is gone."""
        try:
            while self.wanted:
                if not await self.host.holds_lease("deliver"):
                    self.wanted.clear()
                    return
                user_id = self._next()
                channel = await self._open(user_id)
                wanted = self.wanted.pop(user_id)
                if channel is None:
                    self.refused.add(user_id)
                else:
                    self.know(user_id, channel)
                    await self._store(user_id, channel)
                for match_id in sorted(wanted.matches):
                    self.wake(match_id)
        except Exception:
            log.exception("the DM opener failed; the DMs it had not opened are opened by their senders")
            left, self.wanted = self.wanted, {}
            self.refused.update(left)
            for match_id in sorted({match for wanted in left.values() for match in wanted.matches}):
                self.wake(match_id)

    async def _store(self, user_id: int, channel: int) -> None:
        try:
            await self.host.svc.remember_user_dm_channel(user_id, channel)
        except Exception:  # kept in memory all the same; opened again after a restart
            log.exception("could not store the DM channel of %s", user_id)

    async def _open(self, user_id: int) -> int | None:
        """Open the player's DM channel (by id: no read of the user first); None when Discord
        refuses it for good, or keeps failing."""
        delay = RETRY_SECONDS
        for _ in range(PASSING_TRIES):
            try:
                return (await self.host.create_dm(discord.Object(user_id))).id
            except discord.RateLimited as exc:  # a wait longer than discord.py's own
                await asyncio.sleep(exc.retry_after)
                continue
            except discord.HTTPException as exc:
                if is_refusal(exc):
                    log.info("Discord refused to open the DMs of %s: %s", user_id, exc)
                    return None
                log.warning("could not open the DMs of %s (%s); trying again", user_id, exc)
            except Exception as exc:  # the network, Discord going away: passing
                log.warning("could not open the DMs of %s (%r); trying again", user_id, exc)
            await asyncio.sleep(delay)
            delay *= 2
        return None

    async def stop(self) -> None:
        """Cancel the lane and the looks, and wait for them (at shutdown; what they had not
        opened is opened next time)."""
        tasks = [task for task in [self.lane, *self.scans.values()] if task is not None]
        self.lane = None
        self.scans.clear()
        self.wanted.clear()
        await cancel_and_wait(tasks)


class WaitingDelivery(Protocol):
    """What deciding whether a notice waits for a DM channel uses of the delivery."""

    @property
    def svc(self) -> OpenerService: ...

    @property
    def opener(self) -> DmOpener: ...

    dm_channels: dict[int, int]

    def _know_dm_channel(self, user_id: int, channel_id: int) -> None: ...

    async def dms_closed(self, match_id: int, seat: int) -> bool: ...

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs: ...


def dm_users(notice: Notice) -> list[int]:
    """The players whose DM channel the notice's sender may write to: its own player (a DM
    notice), or the players a channel's reminder DMs."""
    kind, target_id = target_of(notice)
    if kind == USER:
        return [] if notice.kind in NO_CHANNEL_KINDS else [target_id]
    if notice.kind == "reminder":
        return [int(user) for user in notice.payload.get("user_ids", [])]
    return []


async def waits_for_dms(delivery: WaitingDelivery, group: list[Notice]) -> list[int]:
    """The players whose DM channel the group would need and that is not open yet: each is
    asked of the opener (the group waits for them). A player known here or in the store, whose
    DMs are closed for the seat, who asked for no DMs, or whose open was refused needs none (a
    refused one's sender opens it itself, and its refusal is judged)."""
    notice = group[0]
    waiting = []
    for user_id in dm_users(notice):
        if user_id in delivery.dm_channels:
            continue
        if delivery.opener.waits(user_id):
            waiting.append(user_id)
            continue
        if user_id in delivery.opener.refused:
            delivery.opener.refused.discard(user_id)  # once: its sender meets the refusal itself
            continue
        known = await delivery.svc.user_dm_channel(user_id)
        if known is not None:
            delivery._know_dm_channel(user_id, known)
            continue
        if notice.user_id is not None and notice.seat is not None and await delivery.dms_closed(
                notice.match_id, notice.seat):
            continue
        if notice.kind in PREFS_KINDS and (await delivery.notify_prefs(notice.match_id, user_id)).announce == THREAD:
            continue
        delivery.opener.want(user_id, notice.match_id)
        waiting.append(user_id)
    return waiting
