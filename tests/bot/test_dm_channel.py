"""A DM goes to the seat's stored DM channel: no user fetch and no channel open once it is known;
and a DM's route costs a read once: a user's DM channel never changes, and a seat whose DMs are
closed stays so, so delivery keeps both instead of asking the database before every DM."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.delivery import Delivery


class FakeService:
    def __init__(self, stored: int | None, closed: bool = False) -> None:
        self.stored, self.closed = stored, closed
        self.remembered: list[tuple[int, int]] = []
        self.reads: list[str] = []

    async def user_dm_channel(self, user_id: int) -> int | None:
        self.reads.append("dm_channel")
        return self.stored

    async def dms_closed(self, match_id: int, seat: int) -> bool:
        self.reads.append("dms_closed")
        return self.closed

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool:
        self.closed = True
        return True

    async def remember_user_dm_channel(self, user_id: int, dm_channel_id: int) -> None:
        self.remembered.append((user_id, dm_channel_id))


class FakeBot:
    """Counts the requests discord.py would make to open a DM."""

    def __init__(self, svc: FakeService) -> None:
        self.svc = svc
        self.fetches = 0
        self.opens = 0
        self.partial: list[tuple[int, Any]] = []

    def get_user(self, user_id: int) -> None:
        return None  # not in discord.py's cache: 400 players overflow it

    async def fetch_user(self, user_id: int) -> Any:
        self.fetches += 1
        return SimpleNamespace(id=user_id)

    async def create_dm(self, user: Any) -> Any:
        self.opens += 1
        return SimpleNamespace(id=9000 + user.id)

    def get_partial_messageable(self, channel_id: int, type: Any = None) -> Any:  # noqa: A002 (discord.py's name)
        self.partial.append((channel_id, type))
        return SimpleNamespace(id=channel_id)


def _delivery(stored: int | None, closed: bool = False) -> tuple[Delivery, FakeBot, FakeService]:
    svc = FakeService(stored, closed)
    bot = FakeBot(svc)
    return Delivery(bot), bot, svc  # type: ignore[arg-type]


NOTICE = SimpleNamespace(match_id=7, seat=1, user_id=42)


async def test_a_known_dm_channel_needs_no_fetch_and_no_open() -> None:
    delivery, bot, svc = _delivery(stored=5555)
    channel = await delivery.dm_channel_for(NOTICE.match_id, NOTICE.seat, NOTICE.user_id)
    assert channel.id == 5555
    assert bot.partial == [(5555, discord.ChannelType.private)]
    assert (bot.fetches, bot.opens) == (0, 0)
    assert svc.remembered == []


async def test_the_first_dm_opens_the_channel_by_the_users_id_and_stores_it() -> None:
    """One request: the channel is opened with the user's id, without reading the user first."""
    delivery, bot, svc = _delivery(stored=None)
    channel = await delivery.dm_channel_for(NOTICE.match_id, NOTICE.seat, NOTICE.user_id)
    assert channel.id == 9042
    assert (bot.fetches, bot.opens) == (0, 1)
    assert svc.remembered == [(42, 9042)], "stored for the player, whichever seat asked"


async def test_a_stored_dm_channel_is_read_once_per_user() -> None:
    delivery, bot, svc = _delivery(stored=5555)
    await delivery.dm_channel_for(NOTICE.match_id, NOTICE.seat, NOTICE.user_id)
    again = await delivery.dm_channel_for(8, 2, 42)  # the same player in another match
    assert again.id == 5555 and svc.reads == ["dm_channel"]
    assert (bot.fetches, bot.opens) == (0, 0)


async def test_a_dm_opened_once_is_neither_opened_nor_read_again() -> None:
    delivery, bot, svc = _delivery(stored=None)
    await delivery.dm_channel_for(NOTICE.match_id, NOTICE.seat, NOTICE.user_id)
    assert (await delivery.dm_channel_for(NOTICE.match_id, NOTICE.seat, NOTICE.user_id)).id == 9042
    assert (bot.fetches, bot.opens) == (0, 1) and svc.reads == ["dm_channel"]


async def test_closed_dms_are_read_once_and_known_once_marked() -> None:
    delivery, _bot, svc = _delivery(stored=None, closed=True)
    assert await delivery.dms_closed(7, 0) and await delivery.dms_closed(7, 0)
    assert svc.reads == ["dms_closed"]
    fresh, _bot, open_svc = _delivery(stored=None)
    assert not await fresh.dms_closed(7, 1) and not await fresh.dms_closed(7, 1)
    assert await fresh.mark_dms_closed(7, 1) and await fresh.dms_closed(7, 1)
    assert open_svc.reads == ["dms_closed"], "only the lease holder marks: what it read stays true"


async def test_a_lost_lease_forgets_what_it_knew_of_closed_dms() -> None:
    delivery, bot, svc = _delivery(stored=None)
    assert not await delivery.dms_closed(7, 1)

    async def holds_lease(_name: str) -> bool:
        return False

    bot.holds_lease = holds_lease  # type: ignore[attr-defined]
    assert await delivery.dispatch() == []
    svc.closed = True  # the holder meanwhile marked them
    assert await delivery.dms_closed(7, 1)


async def test_a_lease_lost_while_drawing_sends_nothing() -> None:
    """The lease is asked before a notice goes and again after its slow drawing: a process paused
    meanwhile (past its lease) reports the notice lost instead of sending it."""
    delivery, bot, _svc = _delivery(stored=None)
    answers = [True, False]  # held when the attempt starts, gone once the drawing is done

    async def holds_lease(_name: str) -> bool:
        return answers.pop(0) if answers else False

    sent: list[Any] = []

    async def deliver(notice: Any) -> str:
        sent.append(notice)
        return "1"

    bot.holds_lease = holds_lease  # type: ignore[attr-defined]
    delivery.deliver = deliver  # type: ignore[method-assign]
    notice = SimpleNamespace(id=1, match_id=7, kind="turn", payload={}, channel_id=5, user_id=None, seat=None,
                             key="v1:0:turn")
    assert await delivery._deliver_one([notice]) == "lost"
    assert sent == []
