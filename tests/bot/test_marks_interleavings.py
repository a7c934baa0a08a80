"""The waiting delivered marks under many random interleavings (waiting_marks.py).

The real delivery (its rounds, its match workers, the waiting marks with every match's marks
written together) runs against a store whose every call pauses a random number of turns of the
loop before and after it acts, and sometimes fails before writing anything (a busy database),
or after the marks' own statement and before the read that came with them (SQLite writes them
in a statement of their own). Several matches' workers send, mark, read their next batch, read
a seat's turn before a prompt, bring turn DMs up to date, meet a refusal that writes the marks
before it is judged, and back off. Each seed is one deterministic run. Checked:

- every read that needs a match's marks (its next batch, a seat's turn, every seat's turns, a
  write of marks before a refusal is judged, a sender that reads the marks of some kinds:
  READS_MARKS) sees every notice of the match that went before it was asked (a batch that
  still held one would send it again);
- no notice is sent twice, and none is marked twice (a mark found already written);
- every notice is delivered and marked with the ref of its send, and no mark waits at the end;
- no read waits forever: the run ends within a bound of rounds (a worker waiting for a write
  that never ends would hold its match back: the stall this guards against).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import bot.discord.delivery as delivery_module
import bot.discord.waiting_marks as marks_module
from bot.discord.delivery import Delivery
from bot.service.outbox import DeliveryBatch, DeliveryRound
from tests.bot.test_delivery_marks import quiet
from tests.bot.test_discord_hot_paths import _host

KINDS = ["prompt", "prompt", "prompt", "private", "private", "turn", "host", "timeout", "lobby", "reminder"]
"""Kinds of the notices written: prompts (whose sender reads the seat's turn), kinds whose
marks wait, turn pings (waiting or marked at once by their ref), and kinds marked at once whose
senders read every mark: the lobby, and a reminder (a DM to a player whose channel is looked up
first: the worker waits before it asks whether a mark it reads waits)."""
ROUNDS = 4000
"""Rounds a run may take: a run whose notices are not all delivered by then is stuck."""


class Busy(Exception):
    """The store was busy: nothing (more) was done."""


@dataclass
class Row:
    id: int
    match_id: int
    kind: str
    seat: int | None
    user_id: int | None
    channel_id: int = 100
    version: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    delivered: str | None = None


class Store:
    """The service's calls delivery makes, over rows in memory, each pausing and failing at random."""

    def __init__(self, rng: random.Random, clock: list[float], failures: float) -> None:
        self.rng = rng
        self.now = clock
        self.failures = failures
        self.rows: dict[int, Row] = {}
        self.sent: dict[int, str] = {}
        """Notice -> the ref its send returned."""
        self.violations: list[str] = []
        self.marks_again: list[int] = []
        """Marks written for notices already marked."""
        self.progress = 0

    def add(self, match_id: int) -> Row:
        kind = self.rng.choice(KINDS)
        seat = self.rng.randrange(3) if kind in ("prompt", "private") else None
        row_id = len(self.rows) + 1
        user_id = 100_000 + row_id if kind == "reminder" else None if seat is None else 500 + match_id * 10 + seat
        row = Row(id=row_id, match_id=match_id, kind=kind, seat=seat, user_id=user_id)
        self.rows[row.id] = row
        return row

    def waiting(self, match_id: int | None = None) -> list[Row]:
        return [row for row in self.rows.values()
                if row.delivered is None and (match_id is None or row.match_id == match_id)]

    async def _pause(self) -> None:
        for _ in range(self.rng.randrange(6)):
            await asyncio.sleep(0)
        self.now[0] += self.rng.uniform(0.0, 0.25)

    def _fails(self) -> bool:
        return self.rng.random() < self.failures

    async def _write(self, marks: list[Any]) -> int:
        await self._pause()
        if self._fails():
            raise Busy("no write turn")
        written = 0
        for mark in marks:
            row = self.rows[mark.notice_id]
            if row.delivered is not None:
                self.marks_again.append(row.id)
                continue
            if self.sent.get(row.id) != mark.ref:
                self.violations.append(f"notice {row.id} marked with {mark.ref}, sent as {self.sent.get(row.id)}")
            row.delivered = mark.ref
            written += 1
        self.progress += 1
        return written

    async def _read(self, marks: Any, went: set[int], what: str) -> None:
        """The marks written first (a statement of their own), then the read, which must see
        ``went`` marked."""
        if marks is not None and marks.marks:
            marks.written = await self._write(marks.marks)
            marks.committed = True
        await self._pause()
        if self._fails():
            raise Busy("the read failed")
        unmarked = sorted(n for n in went if self.rows[n].delivered is None)
        if unmarked:
            self.violations.append(f"{what} read with notices {unmarked} gone but not marked")
        await self._pause()

    def _went(self, match_id: int, seat: int | None = None, kind: str | None = None) -> set[int]:
        return {n for n in self.sent if self.rows[n].match_id == match_id
                and (seat is None or self.rows[n].seat == seat) and (kind is None or self.rows[n].kind == kind)}

    async def delivery_round(self, limit: int = 500, marks: Any = None) -> DeliveryRound:
        await self._read(marks, set(), "the round's")
        return DeliveryRound(list(dict.fromkeys(row.match_id for row in self.waiting()))[:limit])

    async def next_batch(self, match_id: int, limit: int = 50, with_prefs: bool = True,
                         marks: Any = None) -> DeliveryBatch:
        went = self._went(match_id)
        await self._read(marks, went, f"match {match_id}'s batch")
        return DeliveryBatch([SimpleNamespace(**vars(row)) for row in self.waiting(match_id)[:limit]])

    async def seat_turn(self, match_id: int, seat: int, before_id: int | None = None, marks: Any = None) -> None:
        await self._read(marks, self._went(match_id, seat, "prompt"), f"match {match_id} seat {seat}'s turn")

    async def seat_turns(self, match_id: int, marks: Any = None) -> dict[int, Any]:
        await self._read(marks, self._went(match_id, kind="prompt"), f"match {match_id}'s turns")
        return {}

    async def delivered_all(self, marks: list[Any], fence: Any = None) -> int:
        return await self._write(marks)

    async def holds_term(self, fence: Any) -> bool:
        return True

    async def due_probes(self, match_id: int) -> list[Any]:
        return []

    async def user_dm_channel(self, user_id: int) -> int:
        await self._pause()
        return 9000 + user_id

    async def take_lease(self, name: str, holder: str, ttl_seconds: float) -> bool:
        return True

    def clock(self) -> datetime:
        return datetime.now(UTC)


class Refused(SimpleNamespace):
    """What discord.py's HTTPException reads of a response."""


def server_error() -> discord.HTTPException:
    return discord.HTTPException(Refused(status=503, reason="Service Unavailable"), "try again later")  # type: ignore[arg-type]


async def run(seed: int, matches: int, notices: int, failures: float, refusals: float,
              monkeypatch: pytest.MonkeyPatch) -> Store:
    rng = random.Random(seed)
    clock = [1000.0]
    fake_time = SimpleNamespace(monotonic=lambda: clock[0])
    monkeypatch.setattr(marks_module, "time", fake_time)
    monkeypatch.setattr(delivery_module, "time", fake_time)
    store = Store(rng, clock, failures)
    delivery = Delivery(_host(store))
    quiet(delivery)
    delivery.opener.ahead = lambda match_id: None  # type: ignore[method-assign]
    write_marks = delivery.write_marks

    async def checked_write_marks(match_id: int) -> bool:
        """A write of the match's marks (before a refusal is judged, before a sender that reads
        them): every notice of the match that went before it is marked once it returns."""
        went = store._went(match_id)
        written = await write_marks(match_id)
        unmarked = sorted(n for n in went if store.rows[n].delivered is None)
        if written and unmarked:
            store.violations.append(f"match {match_id}'s marks written, notices {unmarked} gone but not marked")
        return written

    async def deliver(notice: Any) -> str:
        if notice.kind == "prompt":  # its sender reads the seat's turn first (prompt_dms.dm_prompt)
            await delivery.read_seat_turn(notice.match_id, notice.seat, before_id=notice.id)
        else:  # its sender reads the marks of these kinds (every kind: None) as it begins
            reads = marks_module.READS_MARKS.get(notice.kind)
            unmarked = sorted(n for n in store._went(notice.match_id) if store.rows[n].delivered is None
                              and (reads is None or store.rows[n].kind in reads))
            if unmarked:
                store.violations.append(f"notice {notice.id} ({notice.kind}) sent with {unmarked} gone but not marked")
        await store._pause()
        if rng.random() < refusals:
            raise server_error()  # the match's marks are written, then it backs off (refused.judge: RETRY)
        if notice.id in store.sent:
            store.violations.append(f"notice {notice.id} sent again")
        ref = "dm" if notice.kind == "turn" and rng.random() < 0.5 else str(10_000 + notice.id)
        store.sent[notice.id] = ref
        store.progress += 1
        return ref

    async def reconcile(match_id: int) -> None:
        await delivery.read_seat_turns(match_id)  # as dm_delivery.reconcile reads

    delivery.write_marks = checked_write_marks  # type: ignore[method-assign]
    delivery.deliver = deliver  # type: ignore[method-assign]
    delivery.reconcile = reconcile  # type: ignore[method-assign]

    written = 0
    for _ in range(ROUNDS):
        while written < matches * notices and rng.random() < 0.6:
            match_id = rng.randrange(1, matches + 1)
            store.add(match_id)
            written += 1
            if rng.random() < 0.5:
                delivery.wake_for(match_id)
        woken, delivery.woken = delivery.woken, set()
        with contextlib.suppress(Busy):  # the round's read failed: its marks wait again (run_forever goes on)
            await delivery.dispatch(only=woken if woken and rng.random() < 0.5 else None)
        for _ in range(rng.randrange(1, 20)):
            await asyncio.sleep(0)
        clock[0] += rng.uniform(0.0, 0.5)
        idle = not any(not task.done() for task in delivery.workers.values())
        if written == matches * notices and idle and not store.waiting() and not delivery.marks:
            break
    else:
        stuck = {match_id: task.get_stack(limit=3) for match_id, task in delivery.workers.items() if not task.done()}
        pytest.fail(f"seed {seed}: notices {[row.id for row in store.waiting()]} not delivered and marks "
                    f"{ {m: [mark.notice_id for mark, _n in w] for m, w in delivery.marks.items()} } waiting "
                    f"after {ROUNDS} rounds; workers still running: {stuck}")
    await asyncio.gather(*delivery.workers.values())
    assert not delivery._writing, f"seed {seed}: writes still counted as under way: {delivery._writing}"
    return store


def checked(store: Store, seed: int) -> None:
    assert store.violations == [], f"seed {seed}: {store.violations[:5]}"
    assert store.marks_again == [], f"seed {seed}: notices {store.marks_again} marked twice"
    assert sorted(store.sent) == sorted(store.rows), f"seed {seed}: not every notice went"
    assert all(row.delivered == store.sent[row.id] for row in store.rows.values()), f"seed {seed}: a mark lost"


@pytest.mark.parametrize("first", range(0, 200, 25))
async def test_marks_under_random_interleavings_of_several_matches(first: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(first, first + 25):
        store = await run(seed, matches=4, notices=15, failures=0.08, refusals=0.05, monkeypatch=monkeypatch)
        checked(store, seed)


async def test_marks_with_many_matches_and_no_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many matches, nothing failing: marks of other matches ride along in nearly every write."""
    for seed in range(1000, 1010):
        store = await run(seed, matches=12, notices=12, failures=0.0, refusals=0.0, monkeypatch=monkeypatch)
        checked(store, seed)


async def test_marks_when_the_store_fails_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy store: a quarter of the calls fail, marks are put back again and again."""
    for seed in range(2000, 2020):
        store = await run(seed, matches=5, notices=10, failures=0.25, refusals=0.1, monkeypatch=monkeypatch)
        checked(store, seed)
