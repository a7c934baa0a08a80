"""The delivered marks of a batch are written together, yet every sender, the turn DMs' reconciling
and the next read of the queue see the marks they read: a prompt finds the seat's earlier prompt
DM marked, the lobby (read by its own refresher) is marked as soon as it went. A turn read that
needs waiting marks writes them in its own transaction (no BEGIN of their own)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord.delivery import Delivery
from bot.service.outbox import DeliveryBatch, DeliveryRound
from tests.bot.test_discord_hot_paths import _host


class Outbox:
    """One match's queue; records each write of marks."""

    def __init__(self, notices: list[Any]) -> None:
        self.notices = notices
        self.marked: list[int] = []
        self.writes: list[list[int]] = []
        self.with_reads: list[list[int]] = []
        """The writes made in the transaction of a turn read."""

    def _waiting(self) -> list[Any]:
        return [n for n in self.notices if n.id not in self.marked]

    async def delivery_round(self, limit: int, marks: Any = None) -> DeliveryRound:
        await self._with_read(marks)
        return DeliveryRound(list(dict.fromkeys(n.match_id for n in self._waiting()))[:limit])

    async def next_batch(self, match_id: int, limit: int, marks: Any = None) -> DeliveryBatch:
        await self._with_read(marks)
        return DeliveryBatch([n for n in self._waiting() if n.match_id == match_id][:limit])

    async def due_probes(self, match_id: int) -> list[Any]:
        return []

    async def user_dm_channel(self, user_id: int) -> int:
        return 9000 + user_id  # every player's DM channel is stored: none is opened here

    async def delivered_all(self, marks: list[Any], fence: Any = None) -> int:
        fresh = [mark.notice_id for mark in marks if mark.notice_id not in self.marked]
        self.writes.append(fresh)
        self.marked.extend(fresh)
        return len(fresh)

    async def seat_turn(self, match_id: int, seat: int, before_id: int | None = None, marks: Any = None) -> None:
        await self._with_read(marks)

    async def seat_turns(self, match_id: int, marks: Any = None) -> dict[int, Any]:
        await self._with_read(marks)
        return {}

    async def _with_read(self, marks: Any) -> None:
        if marks is not None:
            marks.written = await self.delivered_all(marks.marks, marks.fence)
            self.with_reads.append(self.writes[-1])

    async def take_lease(self, name: str, holder: str, ttl_seconds: float) -> bool:
        return True

    def clock(self) -> datetime:
        return datetime.now(UTC)


def notice(notice_id: int, kind: str, seat: int | None = None) -> Any:
    return SimpleNamespace(id=notice_id, match_id=1, kind=kind, version=None, seat=seat,
                           user_id=None if seat is None else 500 + seat, channel_id=100, payload={})


def quiet(delivery: Delivery) -> None:
    """No status board or lobby post to follow here."""
    delivery.boards.touch = delivery.lobbies.touch = lambda *_args, **_kwargs: None  # type: ignore[method-assign]


async def test_a_batch_is_marked_in_few_writes_and_each_sender_sees_the_marks_it_reads() -> None:
    queue = [notice(1, "private", 0), notice(2, "private", 1), notice(3, "prompt", 0), notice(4, "prompt", 1),
             notice(5, "prompt", 0), notice(6, "lobby"), notice(7, "private", 0)]
    svc = Outbox(queue)
    delivery = Delivery(_host(svc))
    seen: dict[int, list[int]] = {}

    async def deliver(sent: Any) -> str:
        if sent.kind == "prompt":  # its sender reads the seat's turn first (prompt_dms.dm_prompt)
            await delivery.read_seat_turn(sent.match_id, sent.seat, before_id=sent.id)
        seen[sent.id] = list(svc.marked)  # the marks written when it is sent
        return str(1000 + sent.id)

    reconciled: list[list[int]] = []

    async def reconcile(match_id: int) -> None:
        await delivery.read_seat_turns(match_id)  # as dm_delivery.reconcile reads
        reconciled.append(list(svc.marked))

    delivery.deliver = deliver  # type: ignore[method-assign]
    delivery.reconcile = reconcile  # type: ignore[method-assign]
    quiet(delivery)
    assert await delivery.deliver_pending() == 7
    assert sorted(svc.marked) == [1, 2, 3, 4, 5, 6, 7], "every notice that went is marked"
    assert seen[3] == seen[4] == [], "a prompt with no earlier prompt of its seat waiting needs no mark written first"
    assert {1, 2, 3} <= set(seen[5]), "the seat's earlier prompt DM is marked before its next prompt goes"
    assert set(seen[6]) == {1, 2, 3, 4, 5}, "the lobby waits for nothing"
    assert svc.writes[:3] == [[1, 2, 3, 4], [5], [6]], "the lobby's own mark is written at once"
    assert reconciled == [[1, 2, 3, 4, 5, 6, 7]], "the turn DMs are brought up to date from every mark"
    assert len(svc.writes) == 4, "four writes for seven notices, one of them a lobby"
    assert svc.with_reads == [[1, 2, 3, 4], [7]], "the prompt's read and the reconciling's wrote the marks they read"


async def test_a_worker_that_fails_still_marks_what_went() -> None:
    queue = [notice(1, "private", 0), notice(2, "private", 1), notice(3, "private", 0)]
    svc = Outbox(queue)
    delivery = Delivery(_host(svc))

    async def deliver(sent: Any) -> str:
        if sent.id == 3:
            raise RuntimeError("a bug in a sender")
        return str(1000 + sent.id)

    delivery.deliver = deliver  # type: ignore[method-assign]
    quiet(delivery)
    assert await delivery.deliver_pending() == 2
    assert svc.marked == [1, 2] and svc.writes == [[1, 2]], "what went before the failure is marked, once"


async def test_marks_whose_turn_read_failed_wait_and_are_written_when_the_worker_ends() -> None:
    queue = [notice(1, "prompt", 0), notice(2, "prompt", 0)]
    svc = Outbox(queue)
    delivery = Delivery(_host(svc))
    reads: list[int] = []

    async def seat_turn(match_id: int, seat: int, before_id: int | None = None, marks: Any = None) -> None:
        reads.append(before_id or 0)
        if marks is not None:
            raise RuntimeError("the database went away mid-read")

    async def deliver(sent: Any) -> str:
        await delivery.read_seat_turn(sent.match_id, sent.seat, before_id=sent.id)
        return str(1000 + sent.id)

    svc.seat_turn = seat_turn  # type: ignore[method-assign]
    delivery.deliver = deliver  # type: ignore[method-assign]
    quiet(delivery)
    assert await delivery.deliver_pending() == 1, "the second prompt's read failed: it did not go"
    assert reads == [1, 2]
    assert svc.marked == [1] and svc.writes == [[1]], "the first prompt's mark, rolled back with the read, is written at the end"


async def test_a_turn_notice_that_posted_nothing_waits_and_a_posted_ping_is_marked_at_once() -> None:
    queue = [notice(1, "private", 0), notice(2, "turn"), notice(3, "private", 1), notice(4, "turn"),
             notice(5, "private", 0)]
    svc = Outbox(queue)
    delivery = Delivery(_host(svc))
    seen: dict[int, list[int]] = {}

    async def deliver(sent: Any) -> str:
        seen[sent.id] = list(svc.marked)
        if sent.kind == "turn":
            return "dm" if sent.id == 2 else "9004"  # the players heard by DM / a ping posted
        return str(1000 + sent.id)

    delivery.deliver = deliver  # type: ignore[method-assign]
    quiet(delivery)
    assert await delivery.deliver_pending() == 5
    assert seen[2] == [] and seen[3] == [], "a turn notice reads no mark: none is written for it"
    assert svc.writes[0] == [1, 2, 3, 4], "the ping a click may take back is marked as soon as it went, with those before"
    assert sorted(svc.marked) == [1, 2, 3, 4, 5]


def of_match(match_id: int, notice_id: int, kind: str, seat: int | None = None) -> Any:
    made = notice(notice_id, kind, seat)
    made.match_id = match_id
    return made


async def test_a_match_writing_its_marks_writes_every_other_matchs_waiting_marks_in_the_same_statement() -> None:
    queue = [of_match(2, 1, "prompt", 0), of_match(3, 2, "private", 1), of_match(1, 3, "lobby")]
    svc = Outbox(queue)
    delivery = Delivery(_host(svc))
    assert await delivery.mark(queue[0], "1001") and await delivery.mark(queue[1], "1002")
    assert svc.writes == [], "a prompt's and a private panel's marks wait"
    assert await delivery.mark(queue[2], "1003")
    assert svc.writes == [[3, 1, 2]], "the lobby's mark, written at once, takes the other matches' along"
    assert delivery.marks == {}


async def test_a_read_waits_for_a_write_under_way_that_took_its_matchs_marks_so_nothing_goes_twice() -> None:
    """Match 2's sent prompt waits to be marked; match 1's lobby mark takes it along, and its
    write is slow. Match 2's worker reads its queue meanwhile: it must not send the prompt again."""
    queue = [of_match(2, 1, "prompt", 0), of_match(1, 2, "lobby")]
    svc = Outbox(queue)
    delivery = Delivery(_host(svc))
    quiet(delivery)
    slow = asyncio.Event()
    written = svc.delivered_all

    async def delivered_all(marks: list[Any], fence: Any = None) -> int:
        await slow.wait()
        return await written(marks, fence)

    svc.delivered_all = delivered_all  # type: ignore[method-assign]
    sent: list[int] = []

    async def deliver(notice: Any) -> str:
        sent.append(notice.id)
        return str(1000 + notice.id)

    delivery.deliver = deliver  # type: ignore[method-assign]
    assert await delivery.mark(queue[0], "1001")
    lobby = asyncio.create_task(delivery.mark(queue[1], "1002"))
    await asyncio.sleep(0)  # the lobby's write took both marks and waits for the database
    assert delivery.marks == {}
    worker = asyncio.create_task(delivery._work(2, probe=False))
    for _ in range(5):
        await asyncio.sleep(0)
    slow.set()
    assert await lobby and await worker == 0
    assert sent == [], "the prompt that went is not sent again"
    assert sorted(svc.marked) == [1, 2]


async def test_marks_a_failed_write_took_from_other_matches_wait_again_and_are_written_later() -> None:
    queue = [of_match(2, 1, "prompt", 0), of_match(1, 2, "lobby")]
    svc = Outbox(queue)
    delivery = Delivery(_host(svc))
    written = svc.delivered_all
    failures = [RuntimeError("the database went away mid-write")]

    async def delivered_all(marks: list[Any], fence: Any = None) -> int:
        if failures:
            raise failures.pop()
        return await written(marks, fence)

    svc.delivered_all = delivered_all  # type: ignore[method-assign]
    assert await delivery.mark(queue[0], "1001")
    with pytest.raises(RuntimeError):
        await delivery.mark(queue[1], "1002")
    assert [mark.notice_id for mark, _notice in delivery.marks[2]] == [1], "match 2's mark waits again"
    await delivery.write_idle_marks()
    assert sorted(svc.marked) == [1, 2] and delivery.marks == {}


async def test_a_read_waits_for_every_write_under_way_that_took_its_matchs_marks_the_later_ending_first() -> None:
    """Match 2's first mark goes with match 1's lobby write, its second with match 3's; the
    second write ends first (on PostgreSQL nothing orders them). Match 2's read must wait for
    the first too: else its batch still holds the notice that went, and it is sent again."""
    queue = [of_match(2, 1, "private", 0), of_match(1, 2, "lobby"), of_match(2, 3, "private", 0), of_match(3, 4, "lobby")]
    svc = Outbox(queue)
    delivery = Delivery(_host(svc))
    gates = {2: asyncio.Event(), 4: asyncio.Event()}
    """Lobby notice -> what lets the write carrying its mark go on."""
    written = svc.delivered_all

    async def delivered_all(marks: list[Any], fence: Any = None) -> int:
        await next(gate for notice_id, gate in gates.items() if any(m.notice_id == notice_id for m in marks)).wait()
        return await written(marks, fence)

    svc.delivered_all = delivered_all  # type: ignore[method-assign]
    assert await delivery.mark(queue[0], "1001"), "match 2's private panel: its mark waits"
    first = asyncio.create_task(delivery.mark(queue[1], "1002"))
    await asyncio.sleep(0)
    assert delivery.marks == {}, "match 1's lobby write took match 2's mark along"
    assert await delivery.mark(queue[2], "1003")
    second = asyncio.create_task(delivery.mark(queue[3], "1004"))
    await asyncio.sleep(0)
    assert delivery.marks == {}, "match 3's lobby write took match 2's second mark along"
    read = asyncio.create_task(delivery.read_batch(2, 50))
    gates[4].set()
    assert await second
    for _ in range(5):
        await asyncio.sleep(0)
    assert not read.done(), "match 2's read still waits for the first write, which took its first mark"
    gates[2].set()
    assert await first
    batch = await read
    assert batch is not None and batch.notices == [], "the read sees both marks: nothing of match 2 goes again"
    assert sorted(svc.marked) == [1, 2, 3, 4]
