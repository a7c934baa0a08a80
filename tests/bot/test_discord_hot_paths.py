"""The work the bot does on every click: as little database traffic as correctness allows."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord import ack_window
from bot.discord.app import Leases
from bot.discord.ids import PromptId
from bot.discord.router import Router
from bot.discord.seat_turns import SeatTurns
from bot.discord.texts import NOT_OPEN
from bot.service.outbox import DeliveryBatch, DeliveryRound
from bot.service.play import NotPending


class Svc:
    """Records service calls; the lease answer is configurable."""

    def __init__(self, lease: bool = True, undo_mark: int | None = None) -> None:
        self.calls: list[str] = []
        self.lease = lease
        self.undo_mark = undo_mark

    async def pending_prompt(self, match_id: int, user_id: int) -> Any:
        self.calls.append("pending_prompt")
        prompt = {"seat": 1, "kind": "pick", "text": "Pick", "options": []}
        return SimpleNamespace(seat=1, version=7, prompt=prompt, names=["ana", "bo"], undo_mark=self.undo_mark)

    async def prompt_retired(self, match_id: int, message_id: int) -> bool:
        self.calls.append("prompt_retired")
        return message_id <= 100

    async def get_match(self, match_id: int) -> Any:
        self.calls.append("get_match")
        return SimpleNamespace(seat_user=lambda seat: 42)

    async def take_lease(self, name: str, holder: str, ttl_seconds: float) -> bool:
        self.calls.append(f"lease:{name}")
        return self.lease


def _leases(svc: Any) -> Leases:
    guard = SimpleNamespace(held=True)  # this process holds its instance name
    return Leases(svc, guard, "test", ttl_seconds=10.0)  # type: ignore[arg-type]


def _wiring(svc: Svc) -> Any:
    """What the router acts through: the service, no messenger needed, a delivery to wake."""
    return SimpleNamespace(service=svc, messenger=None, wake_delivery=lambda *_match: None, seat_turns=SeatTurns())


def _host(svc: Any) -> Any:
    """What delivery needs of the bot: the service, the settings and the leases."""
    leases = _leases(svc)
    return SimpleNamespace(svc=svc, settings=SimpleNamespace(tick_seconds=0.2, deliver_seconds=0.05),
                           holds_lease=leases.holds)


async def test_an_open_prompt_of_ones_own_seat_needs_one_read() -> None:
    """Before a modal opens (the acknowledgement) the router reads the database once (a DM
    click: the seat decides, no guild to compare)."""
    svc = Svc()
    router = Router(_wiring(svc))
    interaction = SimpleNamespace(user=SimpleNamespace(id=42), guild_id=None)
    cid = PromptId(match_id=3, seat=1, version=7, op="n", value=None)
    pending = await router._pending(interaction, cid)  # type: ignore[arg-type]
    assert pending is not None and svc.calls == ["pending_prompt"]


async def test_a_prompt_sent_before_an_undo_is_refused_and_costs_a_second_read_only_then(monkeypatch) -> None:
    """Only a match that was undone is asked whether the clicked DM was retired by the undo."""
    import bot.discord.router as module

    svc = Svc(undo_mark=5)
    router = Router(_wiring(svc))
    refused: list[str] = []

    async def refuse(interaction: Any, text: str) -> None:
        refused.append(text)

    monkeypatch.setattr(module, "refuse", refuse)
    cid = PromptId(match_id=3, seat=1, version=7, op="o", value="a")
    old = SimpleNamespace(user=SimpleNamespace(id=42), guild_id=None, message=SimpleNamespace(id=99))
    assert await router._pending(old, cid) is None  # type: ignore[arg-type]
    assert refused and "undone" in refused[0]
    new = SimpleNamespace(user=SimpleNamespace(id=42), guild_id=None, message=SimpleNamespace(id=101))
    assert await router._pending(new, cid) is not None  # type: ignore[arg-type]
    assert svc.calls == ["pending_prompt", "prompt_retired"] * 2


async def test_delivery_lease_is_not_renewed_on_every_round_but_the_tick_lease_is() -> None:
    svc = Svc()
    leases = _leases(svc)
    assert all([await leases.holds("deliver") for _ in range(3)])
    assert all([await leases.holds("tick") for _ in range(3)])
    assert svc.calls == ["lease:deliver"] + ["lease:tick"] * 3


async def test_a_lease_held_by_another_process_is_asked_for_again() -> None:
    svc = Svc(lease=False)
    leases = _leases(svc)
    assert not await leases.holds("deliver")
    assert not await leases.holds("deliver")
    assert svc.calls == ["lease:deliver"] * 2


class Outbox:
    """An outbox of notices for two matches; delivering one of match 1 waits until match 2 is being delivered."""

    def __init__(self, notices: list[Any]) -> None:
        self.pending = notices
        self.done: list[int] = []

    def _waiting(self) -> list[Any]:
        return [n for n in self.pending if n.id not in self.done]

    async def delivery_round(self, limit: int, marks: Any = None) -> DeliveryRound:
        return DeliveryRound(list(dict.fromkeys(n.match_id for n in self._waiting()))[:limit])

    async def next_batch(self, match_id: int, limit: int, marks: Any = None) -> DeliveryBatch:
        if marks is not None:  # written in the read's transaction
            marks.written = await self.delivered_all(marks.marks, marks.fence)
        return DeliveryBatch([n for n in self._waiting() if n.match_id == match_id][:limit])

    async def due_probes(self, match_id: int) -> list[Any]:
        return []

    async def delivered(self, notice_id: int, ref: Any, fence: Any = None) -> bool:
        self.done.append(notice_id)
        return True

    async def delivered_all(self, marks: list[Any], fence: Any = None) -> int:
        self.done.extend(mark.notice_id for mark in marks)
        return len(marks)

    def clock(self) -> datetime:
        return datetime.now(UTC)

    async def take_lease(self, name: str, holder: str, ttl_seconds: float) -> bool:
        return True


async def test_delivery_runs_matches_side_by_side_and_keeps_each_matchs_order() -> None:
    import asyncio

    import discord

    from bot.discord.delivery import Delivery

    notices = [SimpleNamespace(id=i, match_id=m, kind="private", version=None, user_id=None, channel_id=100 + m)
               for i, m in [(1, 1), (2, 2), (3, 1), (4, 2), (5, 3)]]
    svc = Outbox(notices)
    delivery = Delivery(_host(svc))
    second_match_started = asyncio.Event()
    order: list[int] = []

    async def deliver(notice: Any) -> str:
        order.append(notice.id)
        if notice.match_id == 2:
            second_match_started.set()
        if notice.id == 1:
            await asyncio.wait_for(second_match_started.wait(), 2)  # one at a time would never get there
        if notice.id == 4:
            raise discord.HTTPException(SimpleNamespace(status=500, reason="x"), "refused")
        return str(notice.id)

    delivery.deliver = deliver  # type: ignore[method-assign]
    assert await delivery.deliver_pending() == 4  # notice 4 failed (a 500): retried later
    assert sorted(svc.done) == [1, 2, 3, 5]
    assert order.index(1) < order.index(3) and order.index(2) < order.index(4)


class ClickSvc(Svc):
    """A service whose submit judges the click itself (``choose``), as the real one does in its
    transaction; ``open`` says whether the clicked prompt is the seat's open one there."""

    def __init__(self, open_prompt: bool, claimed: int | None = None, locked: bool = True,
                 drawn_next: bool = False) -> None:
        super().__init__()
        self.open = open_prompt
        self.chosen: list[dict[str, Any]] = []
        self.claimed, self.locked, self.drawn_next = claimed, locked, drawn_next

    async def submit(self, match_id: int, user_id: int, choice: dict[str, Any], **kwargs: Any) -> Any:
        self.calls.append("submit")
        choose = kwargs.get("choose")
        if choose is not None:
            if not self.open:
                raise NotPending
            prompt = {"seat": 1, "kind": "pick", "text": "Pick", "options": [{"value": "a", "label": "A", "choice": {"pick": "a"}}]}
            choice = choose(SimpleNamespace(seat=1, version=7, prompt=prompt, names=["ana", "bo"], undo_mark=None))
        self.chosen.append(choice)
        return SimpleNamespace(reminders=[], pings=[], locked=self.locked, version=8 if self.locked else 7, private=[],
                               claimed=self.claimed, drawn_next=self.drawn_next)

    async def stale_reason(self, match_id: int, seat: int, version: int) -> str | None:
        self.calls.append("stale_reason")
        return None

    @contextlib.asynccontextmanager
    async def seat_fence(self, match_id: int, seat: int) -> AsyncIterator[Any]:
        yield SimpleNamespace(kept=True)

    async def next_decision(self, match_id: int, seat: int, version: int) -> Any:
        self.calls.append("next_decision")
        return None  # delivery went first: it writes the next decision


class Response:
    """An interaction's response that only acknowledges (a silent defer)."""

    def __init__(self) -> None:
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def defer(self) -> None:
        self.done = True


def _dm_click() -> Any:
    return SimpleNamespace(user=SimpleNamespace(id=42), guild_id=None, id=555, message=SimpleNamespace(id=101),
                           response=Response())


async def test_a_dm_click_is_judged_in_its_submit_without_a_read_before_it() -> None:
    svc = ClickSvc(open_prompt=True)
    await Router(_wiring(svc)).prompt(_dm_click(), PromptId(match_id=3, seat=1, version=7, op="o", value="a"), {})  # type: ignore[arg-type]
    assert svc.calls[0] == "submit" and svc.chosen == [{"pick": "a"}], "the submit's transaction judged it"
    assert svc.calls == ["submit", "next_decision"], "after it, only the read of the next decision it led to"


async def test_a_dm_click_whose_next_decision_is_a_drawn_sealed_one_reads_nothing_after_its_submit() -> None:
    """Its answer could not show that decision (its private map is delivery's to draw): no read
    of it, and the click is acknowledged without a write (delivery writes the DM: in the click's
    callback while its window is open, clicked_dms.py; else the window's timer defers)."""
    svc = ClickSvc(open_prompt=True, drawn_next=True)
    click = _dm_click()
    click.id = discord.utils.time_snowflake(discord.utils.utcnow())  # a window of its own: 1 s from now
    wiring = _wiring(svc)
    router = Router(wiring, reply_wait=1.0)
    await router.prompt(click, PromptId(match_id=3, seat=1, version=7, op="o", value="a"), {})  # type: ignore[arg-type]
    assert svc.calls == ["submit"] and svc.chosen == [{"pick": "a"}]
    assert not click.response.done, "left open for delivery's edit"
    assert wiring.seat_turns.clicks.click_on(101) is click, "which goes through this click"
    await asyncio.gather(*ack_window.timers())
    assert click.response.done, "acknowledged by the window's end (a silent defer)"


async def test_a_dm_click_that_claimed_its_prompt_and_closed_it_tells_delivery(monkeypatch) -> None:
    """The click answered the decision on a DM whose notice's delivery was not marked (it claimed
    it) and its decision is closed: delivery is told it has nothing to write for that notice. A
    sealed choice still waiting for the others (its decision open) tells it nothing."""
    import bot.discord.router as module

    async def reply(*_args: Any) -> None:
        return None

    monkeypatch.setattr(module, "reply_in_dm", reply)
    closed = ClickSvc(open_prompt=True, claimed=99)
    wiring = _wiring(closed)
    await Router(wiring).prompt(_dm_click(), PromptId(match_id=3, seat=1, version=7, op="o", value="a"), {})  # type: ignore[arg-type]
    assert wiring.seat_turns.take_closed(99) and not wiring.seat_turns.take_closed(99)
    sealed = ClickSvc(open_prompt=True, claimed=99, locked=False)
    wiring = _wiring(sealed)
    await Router(wiring).prompt(_dm_click(), PromptId(match_id=3, seat=1, version=7, op="o", value="a"), {})  # type: ignore[arg-type]
    assert not wiring.seat_turns.take_closed(99), "its decision is still open: delivery reads it"


async def test_a_dm_click_its_submit_finds_not_open_is_judged_by_the_reads(monkeypatch) -> None:
    import bot.discord.router as module

    refused: list[str] = []

    async def refuse(interaction: Any, text: str) -> None:
        refused.append(text)

    monkeypatch.setattr(module, "refuse", refuse)
    svc = ClickSvc(open_prompt=False)
    await Router(_wiring(svc)).prompt(_dm_click(), PromptId(match_id=3, seat=1, version=6, op="o", value="a"), {})  # type: ignore[arg-type]
    assert svc.calls == ["submit", "pending_prompt", "get_match", "stale_reason"], "the reads judge it, as before"
    assert refused == [NOT_OPEN] and svc.chosen == []
