"""A DM's route costs a read once: a user's DM channel never changes, and a seat whose DMs are
closed stays so, so delivery keeps both instead of asking the database before every DM."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord.delivery import Delivery


class FakeService:
    def __init__(self, stored: int | None, closed: bool = False) -> None:
        self.stored, self.closed = stored, closed
        self.reads: list[str] = []
        self.remembered: list[int] = []

    async def dm_channel(self, match_id: int, seat: int, user_id: int) -> int | None:
        self.reads.append("dm_channel")
        return self.stored

    async def remember_dm_channel(self, match_id: int, seat: int, user_id: int, channel_id: int) -> None:
        self.remembered.append(channel_id)

    async def dms_closed(self, match_id: int, seat: int) -> bool:
        self.reads.append("dms_closed")
        return self.closed

    async def mark_dms_closed(self, match_id: int, seat: int) -> bool:
        self.closed = True
        return True


def delivery_over(svc: FakeService) -> tuple[Delivery, list[int]]:
    opened: list[int] = []

    async def create_dm() -> Any:
        opened.append(1)
        return SimpleNamespace(id=777)

    user = SimpleNamespace(dm_channel=None, create_dm=create_dm)
    bot = SimpleNamespace(svc=svc, get_user=lambda _user_id: user,
                          get_partial_messageable=lambda channel_id, type=None: SimpleNamespace(id=channel_id))
    return Delivery(bot), opened  # type: ignore[arg-type]


async def test_a_stored_dm_channel_is_read_once_per_user() -> None:
    svc = FakeService(stored=555)
    delivery, opened = delivery_over(svc)
    first = await delivery.dm_channel_for(7, 0, 11)
    again = await delivery.dm_channel_for(8, 2, 11)  # the same player in another match
    assert first.id == again.id == 555
    assert svc.reads == ["dm_channel"] and opened == []


async def test_a_dm_opened_once_is_not_opened_or_read_again() -> None:
    svc = FakeService(stored=None)
    delivery, opened = delivery_over(svc)
    assert (await delivery.dm_channel_for(7, 0, 11)).id == 777
    assert (await delivery.dm_channel_for(7, 0, 11)).id == 777
    assert opened == [1] and svc.remembered == [777] and svc.reads == ["dm_channel"]


async def test_closed_dms_are_read_once_and_known_once_marked() -> None:
    svc = FakeService(stored=None, closed=True)
    delivery, _opened = delivery_over(svc)
    assert await delivery.dms_closed(7, 0) and await delivery.dms_closed(7, 0)
    assert svc.reads == ["dms_closed"]
    svc_open = FakeService(stored=None)
    fresh, _ = delivery_over(svc_open)
    assert not await fresh.dms_closed(7, 1), "open DMs are asked each time: the lease's previous holder may have marked them"
    assert await fresh.mark_dms_closed(7, 1) and await fresh.dms_closed(7, 1)
    assert svc_open.reads == ["dms_closed"]
