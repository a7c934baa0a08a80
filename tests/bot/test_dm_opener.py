"""Opening players' DM channels never holds up the rest of the delivery.

Discord lets a bot open DM channels only a few at a time (one bucket for the whole bot), and
discord.py waits for that bucket inside the request. Here the bucket stays empty until a test
refills it: while a player's channel waits to be opened, the match's channel posts and every
other match's notices go; that player's DMs wait, in order, and follow once it is open. A player's
channel is opened when they sit down in a lobby, once, and found again in any other match."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.delivery import HELD_LOOK_SECONDS, PARALLEL_SENDS, Delivery
from bot.service.dm_channels import SeatedUser
from bot.service.notify_prefs import NotifyPrefs
from tests.bot.test_delivery_marks import Outbox, quiet
from tests.bot.test_discord_hot_paths import _host

CHANNEL = 100
DM_BASE = 9000
"""A player's DM channel id is DM_BASE + their user id."""


class Store(Outbox):
    """The queue of notices, the players' stored DM channels, and the parked notices."""

    def __init__(self, notices: list[Any], stored: dict[int, int] | None = None) -> None:
        super().__init__(notices)
        self.stored = dict(stored or {})
        self.stored_now = asyncio.Event()
        self.unopened: dict[int, list[SeatedUser]] = {}
        self.kept: list[tuple[int, int]] = []
        self.parked: list[tuple[int, int]] = []

    def _waiting(self) -> list[Any]:
        parked = {notice_id for notice_id, _code in self.parked}
        return [n for n in super()._waiting() if n.id not in parked]

    async def user_dm_channel(self, user_id: int) -> int | None:
        return self.stored.get(user_id)

    async def remember_user_dm_channel(self, user_id: int, dm_channel_id: int) -> None:
        self.kept.append((user_id, dm_channel_id))
        self.stored[user_id] = dm_channel_id
        self.stored_now.set()

    async def unopened_dms(self, match_id: int) -> list[SeatedUser]:
        return self.unopened.get(match_id, [])

    async def dms_closed(self, match_id: int, seat: int) -> bool:
        return False

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs:
        return NotifyPrefs()

    async def park(self, notice_id: int, code: int, reason: str, retry_in: float) -> None:
        self.parked.append((notice_id, code))


class FakeDiscord:
    """The bot's Discord: what it posted, in order, and its DM-open bucket, empty until refilled."""

    def __init__(self, store: Store, refused: set[int] | None = None) -> None:
        host = _host(store)
        self.svc, self.settings, self.holds_lease = store, host.settings, host.holds_lease
        self.refill = asyncio.Event()
        self.refused = refused or set()
        self.opens: list[int] = []
        self.opening = self.most_opening = 0
        self.sent: list[tuple[int, str]] = []
        """(channel, text) of every message, in the order Discord got them."""
        self.before_send: dict[str, Callable[[], Any]] = {}
        """Text -> what happens on Discord's side just before that message is taken."""

    async def create_dm(self, user: discord.abc.Snowflake) -> Any:
        self.opening += 1
        self.most_opening = max(self.most_opening, self.opening)
        try:
            await self.refill.wait()  # discord.py waits in the request for the bucket
        finally:
            self.opening -= 1
        self.opens.append(user.id)
        if user.id in self.refused:
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                                   {"code": 10013, "message": "Unknown User"})
        return SimpleNamespace(id=DM_BASE + user.id)

    def get_partial_messageable(self, channel_id: int, type: Any = None) -> Any:  # noqa: A002 (discord.py's name)
        return Channel(self, channel_id)

    def texts(self, channel_id: int) -> list[str]:
        return [text for channel, text in self.sent if channel == channel_id]


class Channel:
    def __init__(self, discord_: FakeDiscord, channel_id: int) -> None:
        self.discord, self.id = discord_, channel_id

    async def send(self, content: str, **_kwargs: Any) -> Any:
        before = self.discord.before_send.pop(content, None)
        if before is not None:
            await before()
        self.discord.sent.append((self.id, content))
        return SimpleNamespace(id=5000 + len(self.discord.sent))


def dm(notice_id: int, match_id: int, user_id: int, text: str) -> Any:
    """A private line to a player (a DM notice)."""
    return SimpleNamespace(id=notice_id, match_id=match_id, kind="private", version=None, seat=user_id % 10,
                           user_id=user_id, channel_id=CHANNEL + match_id, payload={"text": text},
                           key=f"k{notice_id}", created_at=datetime.now(UTC))


def post(notice_id: int, match_id: int, text: str, kind: str = "host") -> Any:
    """A post in the match's channel."""
    return SimpleNamespace(id=notice_id, match_id=match_id, kind=kind, version=None, seat=None, user_id=None,
                           channel_id=CHANNEL + match_id, payload={"text": text}, key=f"k{notice_id}",
                           created_at=datetime.now(UTC))


def delivery_of(discord_: FakeDiscord) -> Delivery:
    delivery = Delivery(discord_)  # type: ignore[arg-type]
    quiet(delivery)

    async def reconcile(match_id: int) -> None:
        """No turn DM to bring up to date here: only its read, which writes the waiting marks."""
        await delivery.read_seat_turns(match_id)

    delivery.reconcile = reconcile  # type: ignore[method-assign]
    return delivery


@contextlib.asynccontextmanager
async def running(delivery: Delivery) -> AsyncIterator[None]:
    stopping = asyncio.Event()
    loop = asyncio.create_task(delivery.run_forever(30.0, stopping))  # woken, never by the period here
    delivery.wake_for(None)
    try:
        yield
    finally:
        stopping.set()
        delivery.wake.set()
        await asyncio.wait_for(loop, 10)


async def until(condition: Callable[[], bool]) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), 10)


async def test_a_channel_post_goes_while_the_matchs_first_dm_waits_for_the_dm_open_bucket() -> None:
    store = Store([dm(1, 1, 501, "your decision"), post(2, 1, "the phase ends")])
    discord_ = FakeDiscord(store)
    delivery = delivery_of(discord_)
    async with running(delivery):
        await until(lambda: discord_.texts(CHANNEL + 1) == ["the phase ends"])
        await until(lambda: discord_.opening == 1)
        assert discord_.sent == [(CHANNEL + 1, "the phase ends")], "the DM waits for its channel"
        discord_.refill.set()
        await until(lambda: discord_.texts(DM_BASE + 501) == ["your decision"])
        await until(lambda: sorted(store.marked) == [1, 2])
    assert discord_.opens == [501] and store.kept == [(501, DM_BASE + 501)], "opened once, and stored"
    assert store.marked.count(1) == 1 and len(discord_.sent) == 2, "each notice went once"


async def test_sends_of_other_matches_are_not_held_by_dm_opens() -> None:
    """More matches wait for a DM channel than the outbox has send slots: none holds one."""
    firsts = [dm(match_id, match_id, 600 + match_id, f"hello {match_id}") for match_id in range(1, PARALLEL_SENDS + 5)]
    store = Store([*firsts, post(99, 99, "news of another match")])
    discord_ = FakeDiscord(store)
    delivery = delivery_of(discord_)
    async with running(delivery):
        await until(lambda: discord_.texts(CHANNEL + 99) == ["news of another match"])
        assert discord_.most_opening == 1, "one open at a time, in the bucket's pace"
        discord_.refill.set()
        await until(lambda: len(discord_.sent) == len(firsts) + 1)
    assert sorted(discord_.opens) == [600 + match_id for match_id in range(1, PARALLEL_SENDS + 5)]
    for match_id in range(1, PARALLEL_SENDS + 5):
        assert discord_.texts(DM_BASE + 600 + match_id) == [f"hello {match_id}"]


async def test_a_players_dms_stay_in_order_when_their_channel_opens_between_two_of_them() -> None:
    """The channel opens while the match's post goes, between the player's two DMs: the second
    still waits for the first. Another player's DM goes at once."""
    store = Store([dm(1, 1, 501, "first"), post(2, 1, "news"), dm(3, 1, 501, "second"), dm(4, 1, 502, "to another")],
                  stored={502: DM_BASE + 502})
    discord_ = FakeDiscord(store)

    async def open_meanwhile() -> None:
        discord_.refill.set()
        await store.stored_now.wait()

    discord_.before_send["news"] = open_meanwhile
    delivery = delivery_of(discord_)
    async with running(delivery):
        await until(lambda: len(discord_.sent) == 4)
    assert discord_.texts(DM_BASE + 501) == ["first", "second"]
    assert discord_.sent.index((DM_BASE + 502, "to another")) < discord_.sent.index((DM_BASE + 501, "first"))


async def test_a_dm_channel_is_opened_when_the_player_joins_and_reused_in_every_match() -> None:
    store = Store([post(1, 1, "lobby", kind="lobby")])
    store.unopened[1] = [SeatedUser(seat=0, user_id=501, known=None), SeatedUser(seat=1, user_id=502, known=7777)]
    discord_ = FakeDiscord(store)
    discord_.refill.set()
    delivery = delivery_of(discord_)
    sender = delivery.deliver

    async def deliver(notice: Any) -> str | None:
        return "1" if notice.kind == "lobby" else await sender(notice)  # the lobby post itself is not looked at here

    delivery.deliver = deliver  # type: ignore[method-assign]
    async with running(delivery):
        await until(lambda: (501, DM_BASE + 501) in store.kept and (502, 7777) in store.kept)
        assert discord_.opens == [501], "opened at the join, before any DM; the other player's is known"
        store.notices += [dm(2, 2, 501, "in another match"), dm(3, 2, 502, "to the other player")]
        delivery.wake_for(2)
        await until(lambda: len(discord_.sent) == 2)
    assert discord_.opens == [501], "no open for a player whose channel is known from another match"
    assert discord_.texts(DM_BASE + 501) == ["in another match"] and discord_.texts(7777) == ["to the other player"]

    restarted = FakeDiscord(store)  # a new process: nothing in memory, the store keeps the channels
    store.notices.append(dm(4, 3, 501, "after a restart"))
    delivery = delivery_of(restarted)
    async with running(delivery):
        await until(lambda: restarted.texts(DM_BASE + 501) == ["after a restart"])
    assert restarted.opens == []


async def test_a_player_discord_will_not_open_a_dm_with_is_parked_and_the_match_goes_on() -> None:
    """The open is refused for good (an unknown user): the DM's own sender meets the refusal,
    judged as any other (parked); the match's post behind it goes."""
    store = Store([dm(1, 1, 501, "your decision"), post(2, 1, "the phase ends")])
    discord_ = FakeDiscord(store, refused={501})
    discord_.refill.set()
    delivery = delivery_of(discord_)
    async with running(delivery):
        await until(lambda: store.parked == [(1, 10013)])
        await until(lambda: 2 in store.marked)
    assert discord_.sent == [(CHANNEL + 1, "the phase ends")]
    assert 1 not in store.marked, "parked, not marked delivered: it goes if the player can be reached again"


def counting_reads(store: Store) -> list[int]:
    """The matches whose queue delivery reads, one entry a read, as it reads them."""
    reads: list[int] = []
    next_batch = store.next_batch

    async def counted(match_id: int, limit: int, marks: Any = None) -> Any:
        reads.append(match_id)
        return await next_batch(match_id, limit, marks)

    store.next_batch = counted  # type: ignore[method-assign]
    return reads


async def test_a_pass_that_steps_over_a_dm_waiting_for_its_channel_reads_the_queue_once() -> None:
    """The match's post goes and its worker ends without reading the queue again for the DM
    that waits: the opener wakes the match once the channel is open (a read per pass cost 1.8
    statements an interaction at 40 matches)."""
    store = Store([dm(1, 1, 501, "your decision"), post(2, 1, "the phase ends")])
    reads = counting_reads(store)
    discord_ = FakeDiscord(store)
    delivery = delivery_of(discord_)
    async with running(delivery):
        await until(lambda: discord_.texts(CHANNEL + 1) == ["the phase ends"] and 1 not in delivery.workers)
        assert discord_.opening == 1 and reads == [1], "one read: the DM's wait ends by the opener's wake"
        discord_.refill.set()
        await until(lambda: discord_.texts(DM_BASE + 501) == ["your decision"])
    assert store.marked.count(1) == 1 and store.marked.count(2) == 1


async def test_rounds_leave_a_match_alone_while_only_dms_waiting_for_their_channels_are_left() -> None:
    """A match whose waiting notices all wait for DM channels being opened is not read by every
    round (the opener wakes it); a wake for it, or a round past HELD_LOOK_SECONDS, reads it."""
    store = Store([dm(1, 1, 501, "your decision")])
    reads = counting_reads(store)
    discord_ = FakeDiscord(store)
    delivery = delivery_of(discord_)

    async def round_(only: set[int] | None = None) -> None:
        await asyncio.gather(*await delivery.dispatch(only=only))

    try:
        await round_()
        await until(lambda: discord_.opening == 1)
        assert reads == [1]
        for _ in range(3):
            await round_()
        assert reads == [1], "rounds leave it to the opener's wake"
        await round_(only={1})
        assert reads == [1, 1], "a wake for the match (a notice written here) reads it"
        since, targets = delivery.held_for_opens[1]
        delivery.held_for_opens[1] = (since - HELD_LOOK_SECONDS, targets)
        await round_()
        assert reads == [1, 1, 1], "a round still looks now and then, for what another process wrote"
        discord_.refill.set()
        await until(lambda: store.kept == [(501, DM_BASE + 501)])
        await round_()
        await until(lambda: discord_.texts(DM_BASE + 501) == ["your decision"])
        assert 1 not in delivery.held_for_opens
    finally:
        await delivery.stop()
