"""A phase post is edited only when what it shows changes: a waiting line said again (the table
still waits for the same seat) leaves the post as it is, a new line edits it; a process that lost
its delivery lease while it read the open post edits nothing."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord import phase_posts
from bot.discord.sending import LeaseLost
from bot.service.types import OpenPost


class Channel:
    def __init__(self) -> None:
        self.edits: list[str] = []

    def get_partial_message(self, ref: int) -> Any:
        channel = self

        class Message:
            async def edit(self, content: str, **_kwargs: Any) -> None:
                channel.edits.append(content)

        return Message()


def delivery_with(open_post: OpenPost, channel: Channel, lease: list[bool] | None = None) -> Any:
    """A delivery whose lease holds while ``lease`` says so (read at each check)."""
    held = lease if lease is not None else [True]

    async def open_phase_post(_match_id: int, _before_id: int) -> OpenPost:
        return open_post

    async def ensure_lease() -> None:
        if not held[0]:
            raise LeaseLost

    return SimpleNamespace(bot=SimpleNamespace(get_partial_messageable=lambda _id: channel),
                           svc=SimpleNamespace(open_phase_post=open_phase_post), ensure_lease=ensure_lease)


def notice(notice_id: int, kind: str, text: str) -> Any:
    return SimpleNamespace(id=notice_id, match_id=1, key=f"k{notice_id}", kind=kind, channel_id=100,
                           payload={"text": text})


OPEN = OpenPost(ref=77, label="Round 1", lines=["alice moves", "Waiting for bob."], progress=[1])


async def test_a_waiting_line_said_again_edits_nothing() -> None:
    channel = Channel()
    ref = await phase_posts.deliver_group(delivery_with(OPEN, channel), [notice(5, "progress", "Waiting for bob.")])
    assert ref == "77" and channel.edits == [], "the post already says it"


async def test_a_new_line_edits_the_post() -> None:
    channel = Channel()
    delivery = delivery_with(OPEN, channel)
    assert await phase_posts.deliver_group(delivery, [notice(5, "progress", "Waiting for carol.")]) == "77"
    assert await phase_posts.deliver_group(delivery, [notice(6, "events", "bob moves")]) == "77"
    assert len(channel.edits) == 2
    assert channel.edits[0].endswith("alice moves\nWaiting for carol."), "the newest waiting line replaces the older"
    assert "bob moves" in channel.edits[1]


async def test_a_lease_lost_while_the_open_post_was_read_edits_nothing() -> None:
    channel = Channel()
    lease = [True]
    delivery = delivery_with(OPEN, channel, lease)

    async def read_while_paused(_match_id: int, _before_id: int) -> OpenPost:
        lease[0] = False  # the process slept past its lease during the read; another one delivers now
        return OPEN

    delivery.svc.open_phase_post = read_while_paused
    with pytest.raises(LeaseLost):
        await phase_posts.deliver_group(delivery, [notice(6, "events", "bob moves")])
    assert channel.edits == []
