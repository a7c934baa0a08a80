"""A DM goes to the seat's stored DM channel: no user fetch and no channel open once it is known."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.delivery import Delivery


class FakeService:
    def __init__(self, stored: int | None) -> None:
        self.stored = stored
        self.remembered: list[tuple[int, int, int, int]] = []

    async def dm_channel(self, match_id: int, seat: int, user_id: int) -> int | None:
        return self.stored

    async def remember_dm_channel(self, match_id: int, seat: int, user_id: int, dm_channel_id: int) -> None:
        self.remembered.append((match_id, seat, user_id, dm_channel_id))


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

        async def create_dm() -> Any:
            self.opens += 1
            return SimpleNamespace(id=9000 + user_id)

        return SimpleNamespace(dm_channel=None, create_dm=create_dm)

    def get_partial_messageable(self, channel_id: int, type: Any = None) -> Any:  # noqa: A002 (discord.py's name)
        self.partial.append((channel_id, type))
        return SimpleNamespace(id=channel_id)


def _delivery(stored: int | None) -> tuple[Delivery, FakeBot, FakeService]:
    svc = FakeService(stored)
    bot = FakeBot(svc)
    delivery = Delivery.__new__(Delivery)
    delivery.bot = bot  # type: ignore[assignment]
    return delivery, bot, svc


NOTICE = SimpleNamespace(match_id=7, seat=1, user_id=42)


async def test_a_known_dm_channel_needs_no_fetch_and_no_open() -> None:
    delivery, bot, svc = _delivery(stored=5555)
    channel = await delivery._dm_channel(NOTICE)
    assert channel.id == 5555
    assert bot.partial == [(5555, discord.ChannelType.private)]
    assert (bot.fetches, bot.opens) == (0, 0)
    assert svc.remembered == []


async def test_the_first_dm_opens_the_channel_and_stores_it() -> None:
    delivery, bot, svc = _delivery(stored=None)
    channel = await delivery._dm_channel(NOTICE)
    assert channel.id == 9042
    assert (bot.fetches, bot.opens) == (1, 1)
    assert svc.remembered == [(7, 1, 42, 9042)]
