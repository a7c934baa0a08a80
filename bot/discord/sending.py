"""What every notice sender shares: its text made safe and short, its nonce, and the outcomes
a delivery reports. A leaf module, so the senders (nudges, phase posts, refusals, DMs) need not
import the delivery loop that calls them."""

from __future__ import annotations

import contextvars
import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.service import Notice

NONCE_LENGTH = 25
"""Discord takes string nonces of up to 25 characters."""

DELIVERED, PARKED, RETRY = "delivered", "parked", "retry"
SUPERSEDED = "superseded"
"""The ref of a prompt notice not sent: the seat no longer owed it when its turn came."""
DROPPED = "dropped"
"""Refused for good and left out (its reason stored, the host told once)."""
HELD = "held"
"""Its target answered a 429 longer than discord.py waits: held back until then, the rest goes on."""
LOST = "lost"
"""The delivery lease is no longer this process's: it sends nothing more."""
MAX_TRIES = 3
"""Tries of a notice Discord refuses with a 4xx (other than 429) before it stops holding up the queue."""


class LeaseLost(Exception):
    """The delivery lease is no longer this process's (it was paused past it): what was being
    sent is not sent (the holder sends it)."""


SENDS_UNDER: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar("warhost_sends_under",
                                                                                       default=None)
"""Set in a task that sends under the delivery lease: whether the lease is surely still this
process's. The HTTP trace asks it just before each request goes (observe.py), and a request it
denies raises LeaseLost unsent. A lease check made before awaiting a send slot, or before
discord.py sleeps inside the request for a rate-limit bucket, cannot see a pause that comes
after it: a process stopped there sent on resume, past its lease (tests/e2e/test_paused_process.py)."""


def clip(text: str, limit: int = 2000, more: str = "\n... (`/game log` shows the rest)") -> str:
    return text if len(text) <= limit else text[: limit - len(more)] + more


def inert(text: str) -> str:
    """Service text as posted: it never means to ping, whatever a player's name says."""
    return discord.utils.escape_mentions(text)


def nonce_of(notice: Notice, part: str = "") -> str:
    """The nonce of a notice's message (``part`` for a second message of the same notice): the same
    on every attempt, different for every notice (keys are unique per match, so the match is in it)."""
    seed = f"warhost:{notice.match_id}:{notice.key}:{part}"
    return hashlib.sha256(seed.encode()).hexdigest()[:NONCE_LENGTH]


def parse_time(value: Any) -> datetime | None:
    """A time from a notice's payload (stored as ISO text), or None."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def channel_of(notice: Notice) -> int:
    """The channel a channel notice goes to (the service writes one on every such kind)."""
    if notice.channel_id is None:
        raise ValueError(f"notice {notice.id} ({notice.kind}) names no channel")
    return notice.channel_id


def user_of(notice: Notice) -> int:
    """The user a DM notice goes to (the service writes one on every such kind)."""
    if notice.user_id is None:
        raise ValueError(f"notice {notice.id} ({notice.kind}) names no user")
    return notice.user_id


def seat_of(notice: Notice) -> int:
    """The seat a seat's DM notice is about (the service writes one on every such kind)."""
    if notice.seat is None:
        raise ValueError(f"notice {notice.id} ({notice.kind}) names no seat")
    return notice.seat
