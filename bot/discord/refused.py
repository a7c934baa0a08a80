"""What delivery does with a notice Discord refuses: a refusal never holds back the notices
behind it.

- A passing failure (5xx, network) is retried later, the match backing off (delivery.py).
- A refusal that will not change for its target (refusals.FINAL: no permission, a deleted
  channel, a locked thread) parks the target; the host and players are told where they can be.
- An archived thread is reopened when the bot may, then the notice is tried again.
- Any other 4xx (other than 429) is tried at most MAX_TRIES times; a phase post whose edit is
  refused is posted again as a new message (the whole phase so far), otherwise the notice is
  dropped with its reason stored and the host told once per match.
- A 429 longer than discord.py waits (a slowmode channel) holds that target back until then
  (``Held``), and the match's other targets go on.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Protocol

import discord

from bot.discord import threads
from bot.discord.error_codes import ARCHIVED_THREAD
from bot.discord.refusals import final_code
from bot.discord.sending import DELIVERED, DROPPED, LOST, MAX_TRIES, PARKED, RETRY
from bot.service.outbox import ALERT, CHANNEL, PHASE_POST_KINDS, target_of

if TYPE_CHECKING:
    from bot.discord.wiring import Messenger
    from bot.service import Notice
    from bot.service.outbox import Fence


class RefusalService(Protocol):
    """The service calls judging a refusal makes."""

    async def drop(self, notice_id: int, code: int, reason: str, fence: Fence | None = None) -> bool: ...

    async def holds_term(self, fence: Fence) -> bool: ...


class RefusalJudge(Protocol):
    """What judging a refusal uses of the delivery: the messenger (to reopen a thread), the
    service, and the fenced marking and parking of notices."""

    @property
    def bot(self) -> Messenger: ...

    @property
    def svc(self) -> RefusalService: ...

    def fence(self) -> Fence | None: ...

    async def mark(self, notice: Notice, ref: str | None) -> bool: ...

    async def park(self, notice: Notice, code: int) -> None: ...

log = logging.getLogger(__name__)

AGAIN = "again"
RECREATE = "recreate"


class Held:
    """Targets a long 429 holds back, until when (monotonic seconds): their notices wait without a send slot."""

    def __init__(self) -> None:
        self.until: dict[tuple[str, int], float] = {}

    def hold(self, target: tuple[str, int], seconds: float) -> None:
        self.until[target] = time.monotonic() + max(seconds, 0.0)

    def held(self, target: tuple[str, int]) -> bool:
        until = self.until.get(target)
        if until is None:
            return False
        if until <= time.monotonic():
            del self.until[target]
            return False
        return True


def is_refusal(exc: discord.HTTPException) -> bool:
    """A 4xx other than 429: Discord answered, and asking the same again will not change it."""
    return 400 <= exc.status < 500 and exc.status != 429


def recreatable(group: list[Notice]) -> bool:
    """A phase post that gathers lines can be posted anew when its edit is refused."""
    return group[0].kind in PHASE_POST_KINDS and group[0].kind != "result"


async def judge(delivery: RefusalJudge, group: list[Notice], exc: discord.HTTPException, attempt: int) -> str:
    """What to do after Discord refused try ``attempt`` of a group: AGAIN, RECREATE, or one of
    delivery's outcomes (DELIVERED, PARKED, RETRY, DROPPED)."""
    notice = group[0]
    kind, target_id = target_of(notice)
    if notice.kind == ALERT and isinstance(exc, (discord.Forbidden, discord.NotFound)):
        log.info("could not tell %s about a blocked target of match %s: %s", target_of(notice), notice.match_id, exc)
        return DELIVERED if await delivery.mark(notice, "undeliverable") else LOST
    if not is_refusal(exc):
        log.warning("could not deliver notice %s (%s) of match %s: %s; will retry",
                    notice.id, notice.kind, notice.match_id, exc)
        return RETRY
    if exc.code == ARCHIVED_THREAD and kind == CHANNEL:
        if attempt < MAX_TRIES and await threads.reopen(delivery.bot, target_id):
            return AGAIN
        await delivery.park(notice, ARCHIVED_THREAD)
        return PARKED
    code = final_code(exc)
    if code is not None:
        await delivery.park(notice, code)
        return PARKED
    log.info("Discord refused notice %s (%s) of match %s, try %d of %d: %s",
             notice.id, notice.kind, notice.match_id, attempt, MAX_TRIES, exc)
    if attempt == MAX_TRIES - 1 and recreatable(group):
        return RECREATE
    if attempt < MAX_TRIES:
        return AGAIN
    return await give_up(delivery, group, exc)


async def give_up(delivery: RefusalJudge, group: list[Notice], exc: discord.HTTPException) -> str:
    """Leave the group's notices out, each with the reason; the host hears of it once per match."""
    reason = f"Discord refused it (error {exc.code or exc.status}: {exc.text or exc.response.reason})"
    fence = delivery.fence()
    for notice in group:
        written = await delivery.svc.drop(notice.id, int(exc.code or exc.status), reason, fence)
        if not written and fence is not None and not await delivery.svc.holds_term(fence):
            return LOST
    log.warning("left out %d notice(s) of match %s (%s) after %s", len(group), group[0].match_id,
                group[0].kind, reason)
    return DROPPED


__all__ = ["AGAIN", "RECREATE", "Held", "give_up", "is_refusal", "judge"]
