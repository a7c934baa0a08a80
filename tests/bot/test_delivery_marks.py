"""The delivered marks of a batch are written together, yet every sender, the turn DMs' reconciling
and the next read of the queue see the marks they read: a prompt finds the seat's earlier prompt
DM marked, the lobby (read by its own refresher) is marked as soon as it went."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from bot.discord.delivery import Delivery
from bot.service.outbox import DeliveryBatch, DeliveryRound
from tests.bot.test_discord_hot_paths import _host


class Outbox:
    """One match's queue; records each write of marks."""

    def __init__(self, notices: list[Any]) -> None:
        self.notices = notices
        self.marked: list[int] = []
        self.writes: list[list[int]] = []

    def _waiting(self) -> list[Any]:
        return [n for n in self.notices if n.id not in self.marked]

    async def delivery_round(self, limit: int) -> DeliveryRound:
        return DeliveryRound(list(dict.fromkeys(n.match_id for n in self._waiting()))[:limit])

    async def next_batch(self, match_id: int, limit: int) -> DeliveryBatch:
        return DeliveryBatch([n for n in self._waiting() if n.match_id == match_id][:limit])

    async def due_probes(self, match_id: int) -> list[Any]:
        return []

    async def delivered_all(self, marks: list[Any], fence: Any = None) -> int:
        fresh = [mark.notice_id for mark in marks if mark.notice_id not in self.marked]
        self.writes.append(fresh)
        self.marked.extend(fresh)
        return len(fresh)

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
        seen[sent.id] = list(svc.marked)  # the marks written when it is sent
        return str(1000 + sent.id)

    reconciled: list[list[int]] = []

    async def reconcile(_match_id: int) -> None:
        reconciled.append(list(svc.marked))

    delivery.deliver = deliver  # type: ignore[method-assign]
    delivery.reconcile = reconcile  # type: ignore[method-assign]
    quiet(delivery)
    assert await delivery.deliver_pending() == 7
    assert sorted(svc.marked) == [1, 2, 3, 4, 5, 6, 7], "every notice that went is marked"
    assert seen[4] == [], "a prompt of another seat needs no mark written first"
    assert {1, 2, 3} <= set(seen[5]), "the seat's earlier prompt DM is marked before its next prompt goes"
    assert set(seen[6]) == {1, 2, 3, 4, 5}, "the lobby waits for nothing"
    assert svc.writes[:3] == [[1, 2, 3, 4], [5], [6]], "the lobby's own mark is written at once"
    assert reconciled == [[1, 2, 3, 4, 5, 6, 7]], "the turn DMs are brought up to date from every mark"
    assert len(svc.writes) == 4, "four writes for seven notices, one of them a lobby"


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
