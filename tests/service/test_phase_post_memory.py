"""The open phase post is read from the outbox once, then known in memory while the process
holds the delivery lease (issue 32): a burst of groups makes one read, and each post or edit is
the one the reads would have made. A lease lost and taken again forgets it: the next group reads."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord import phase_posts
from bot.discord.phase_post_memory import PostMemory
from bot.service import MatchService, Notice
from bot.service.outbox import Fence, Mark
from bot.service.types import OpenPost
from db.models import Notice as NoticeRow
from tests.service.helpers import BOB, HOST, lobby

TERM = Fence("deliver", "me", 1)


class Channel:
    """A channel's requests as (what, message id, content); message ids count from 1000."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, int, str]] = []

    async def send(self, content: str, **_kwargs: Any) -> Any:
        message_id = 1000 + len([r for r in self.requests if r[0] == "send"])
        self.requests.append(("send", message_id, content))
        return SimpleNamespace(id=message_id)

    def get_partial_message(self, ref: int) -> Any:
        channel = self

        class Message:
            async def edit(self, content: str, **_kwargs: Any) -> None:
                channel.requests.append(("edit", ref, content))

        return Message()


class Reads:
    """The service, counting the open phase post's reads."""

    def __init__(self, svc: MatchService) -> None:
        self.svc, self.count = svc, 0

    async def open_phase_post(self, match_id: int, before_id: int) -> OpenPost | None:
        self.count += 1
        return await self.svc.open_phase_post(match_id, before_id)


def delivery_of(svc: MatchService, channel: Channel, memory: PostMemory | None) -> Any:
    async def ensure_lease() -> None:
        return None

    delivery = SimpleNamespace(bot=SimpleNamespace(get_partial_messageable=lambda _id: channel), svc=Reads(svc),
                               ensure_lease=ensure_lease)
    if memory is not None:
        delivery.phase_memory = memory
    return delivery


async def started(svc: MatchService, channel_id: int) -> int:
    """A match whose own notices went out, none of them a phase post open now."""
    info = await lobby(svc, [HOST, BOB], channel=channel_id)
    await svc.delivered_all([Mark(n.id, "x", svc.clock()) for n in await svc.outbox(limit=1000)])
    return info.id


async def write(svc: MatchService, match_id: int, channel_id: int, kinds: list[tuple[str, str]]) -> list[Notice]:
    """Phase-post notices (kind, line), as the service writes them; the first line names its phase."""
    async with svc.store.write() as session:
        for n, (kind, line) in enumerate(kinds):
            payload: dict[str, Any] = {"events": [line], "text": line} if kind == "events" else {"text": line}
            if n == 1:
                payload["label"] = "Round 2"
            session.add(NoticeRow(match_id=match_id, key=f"t:{n}", kind=kind, channel_id=channel_id,
                                  payload=payload, created_at=svc.clock()))
    return [n for n in await svc.outbox(limit=1000) if n.match_id == match_id]


def burst() -> list[list[tuple[str, str]]]:
    """A phase closed, its successor's lines in groups (some waiting lines, enough lines to fill
    a post and go on in another), then that phase closed too and the next one begun."""
    long = "x" * 180
    return [
        [("phase", "Round 1 ends.")],
        [("events", "alice moves")],
        [("progress", "Waiting for bob."), ("events", "bob moves")],
        *[[("events", f"{long} {n}"), ("events", f"{long} {n}b")] for n in range(20)],
        [("progress", "Waiting for alice.")],
        [("events", "alice fights")],
        [("events", "bob retreats"), ("phase", "Round 2 ends."), ("events", "carol moves")],
        [("events", "carol attacks")],
    ]


async def deliver_all(svc: MatchService, match_id: int, channel_id: int, delivery: Any) -> list[str]:
    """Every group of the burst delivered and marked as delivery does; returns the refs."""
    refs = []
    groups = burst()
    notices = await write(svc, match_id, channel_id, [line for group in groups for line in group])
    for group in groups:
        taken, notices = notices[:len(group)], notices[len(group):]
        ref = await phase_posts.deliver_group(delivery, taken)
        await svc.delivered_all([Mark(n.id, ref, svc.clock()) for n in taken])
        memory: PostMemory | None = getattr(delivery, "phase_memory", None)
        known = memory.matches.get(match_id) if memory is not None else None
        if known is not None and known.upto:
            assert known.post == await svc.open_phase_post(match_id, taken[-1].id + 1), "memory is what the read says"
        refs.append(ref)
    return refs


async def test_a_burst_of_groups_reads_the_open_post_once_and_posts_what_the_reads_would(svc: MatchService) -> None:
    remembering, reading = Channel(), Channel()
    with_memory = delivery_of(svc, remembering, PostMemory(lambda: TERM))
    without = delivery_of(svc, reading, None)
    await deliver_all(svc, await started(svc, 501), 501, with_memory)
    await deliver_all(svc, await started(svc, 502), 502, without)
    assert without.svc.count == len(burst()), "without memory every group reads"
    assert with_memory.svc.count == 1, "one read, for the first group: the rest are known"
    assert remembering.requests == reading.requests, "every post and edit is the one the reads make"
    assert len({ref for what, ref, _ in reading.requests if what == "send"}) >= 3, "the phase filled a post and went on"


async def test_a_lease_lost_forgets_the_open_post(svc: MatchService) -> None:
    term = [TERM]
    channel = Channel()
    delivery = delivery_of(svc, channel, PostMemory(lambda: term[0]))
    match_id = await started(svc, 503)
    notices = await write(svc, match_id, 503, [("phase", "Round 1 ends."), ("events", "a"), ("events", "b"),
                                                 ("events", "c"), ("events", "d")])
    for notice in notices[:3]:
        ref = await phase_posts.deliver_group(delivery, [notice])
        await svc.delivered_all([Mark(notice.id, ref, svc.clock())])
    assert delivery.svc.count == 1
    term[0] = Fence("deliver", "me", 2)  # lost, and taken again: another holder may have posted meanwhile
    ref = await phase_posts.deliver_group(delivery, [notices[3]])
    await svc.delivered_all([Mark(notices[3].id, ref, svc.clock())])
    assert delivery.svc.count == 2, "the group after the lease came back reads the open post"
    await phase_posts.deliver_group(delivery, [notices[4]])
    assert delivery.svc.count == 2, "then it is known again"
    assert channel.requests[-1] == ("edit", 1001, "**Round 2**\na\nb\nc\nd")


async def test_a_group_sent_out_of_order_reads(svc: MatchService) -> None:
    channel = Channel()
    delivery = delivery_of(svc, channel, PostMemory(lambda: TERM))
    match_id = await started(svc, 504)
    notices = await write(svc, match_id, 504, [("phase", "Round 1 ends."), ("events", "a"), ("events", "b"),
                                                 ("events", "c")])
    for notice in [notices[0], notices[2], notices[1], notices[3]]:  # b went before a (a was held back)
        ref = await phase_posts.deliver_group(delivery, [notice])
        await svc.delivered_all([Mark(notice.id, ref, svc.clock())])
    assert delivery.svc.count == 3, "the late group and the one after it read: memory did not know of b"
