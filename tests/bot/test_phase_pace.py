"""A match's phase posts are written at most once a window: the first line after a quiet spell
goes at once; moves that come within the window of the last write go out in one edit showing
every line, when the window ends; what closes the post goes at once and takes the waiting lines
with it; a line put off is not marked delivered until the edit showing it went, so a restart
delivers it again; the turn DMs are not brought up to date twice for it. While delivery is
behind (a line seen long after its commit), a line gathers a whole window, quiet spell or not."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord import phase_posts
from bot.discord.delivery import Delivery
from bot.discord.phase_pace import groups, may_wait
from tests.bot.test_delivery_marks import Outbox, notice, quiet
from tests.bot.test_discord_hot_paths import _host

WINDOW = 60.0
"""Long enough that only the test ends a window (it fires the match's timer itself)."""


def line(notice_id: int, kind: str = "events", text: str = "", age: float = 0.0) -> Any:
    """A line committed ``age`` seconds ago (0: just now, delivery keeping up)."""
    made = notice(notice_id, kind)
    made.payload = {"events": [text or f"move {notice_id}"]} if kind == "events" else {"text": text or kind}
    made.created_at = datetime.now(UTC) - timedelta(seconds=age)
    return made


def dm(notice_id: int) -> Any:
    return notice(notice_id, "private", 0)


class Posts:
    """The phase post requests made, each as the notices it showed."""

    def __init__(self) -> None:
        self.requests: list[list[int]] = []
        self.sent: list[int] = []

    async def deliver_group(self, _delivery: Any, group: list[Any], fresh: bool = False) -> str:
        self.requests.append([each.id for each in group])
        return "777"

    async def deliver(self, sent: Any) -> str:
        self.sent.append(sent.id)
        return str(1000 + sent.id)


def paced(svc: Outbox, posts: Posts, monkeypatch: pytest.MonkeyPatch, window: float = WINDOW,
          written: float | None = 0.0) -> tuple[Delivery, list[int]]:
    """A delivery whose match 1 last wrote its phase post ``written`` seconds ago (None: never)."""
    host = _host(svc)
    host.settings = SimpleNamespace(tick_seconds=0.2, deliver_seconds=0.05, phase_edit_seconds=window)
    delivery = Delivery(host)
    quiet(delivery)
    if written is not None:
        delivery.pace.written[1] = asyncio.get_running_loop().time() - written
    monkeypatch.setattr(phase_posts, "deliver_group", posts.deliver_group)
    delivery.deliver = posts.deliver  # type: ignore[method-assign]
    reconciled: list[int] = []

    async def reconcile(match_id: int) -> None:
        reconciled.append(match_id)
        await delivery.read_seat_turns(match_id)  # as dm_delivery.reconcile reads: the marks with it

    delivery.reconcile = reconcile  # type: ignore[method-assign]
    return delivery, reconciled


async def settled(delivery: Delivery) -> None:
    """Every worker started so far has ended."""
    while running := [task for task in delivery.workers.values() if not task.done()]:
        await asyncio.gather(*running)


async def arrive(delivery: Delivery, svc: Outbox, *notices: Any) -> None:
    """Notices written (a move), the delivery woken for their match, its worker done."""
    svc.notices.extend(notices)
    await delivery.dispatch(only={1})
    await settled(delivery)


async def test_five_quick_moves_are_one_edit_showing_all_five(monkeypatch: pytest.MonkeyPatch) -> None:
    svc, posts = Outbox([]), Posts()
    delivery, reconciled = paced(svc, posts, monkeypatch)
    for move in range(1, 6):
        await arrive(delivery, svc, line(move), dm(100 + move))
        assert posts.requests == [], "a move's line waits to be gathered"
        assert posts.sent[-1] == 100 + move, "the DMs of the same moves are not held back"
    assert not {1, 2, 3, 4, 5} & set(svc.marked), "a line is marked delivered only once it went out"
    timer = delivery.pace.timers[1]
    assert timer.when() - asyncio.get_running_loop().time() <= WINDOW, "the lines go out within the window"
    assert delivery.pace.skips(1), "a periodic round leaves the waiting match alone"
    before = len(reconciled)
    timer.cancel()
    delivery.pace._wake(1)  # the window ends
    await delivery.dispatch(only=delivery.woken)
    await settled(delivery)
    assert posts.requests == [[1, 2, 3, 4, 5]], "one edit shows every line of the window"
    assert len(reconciled) == before, "the turn DMs were brought up to date when the lines were put off"
    writes = len(svc.writes)
    await delivery.dispatch()  # the next round: its read of the queue writes the marks the worker left
    assert {1, 2, 3, 4, 5} <= set(svc.marked)
    assert len(svc.writes) == writes + 1 and set(svc.with_reads[-1]) == {1, 2, 3, 4, 5}, \
        "the marks left when the edit's worker ended cost no write of their own"


async def test_the_phase_end_goes_at_once_with_the_lines_that_waited(monkeypatch: pytest.MonkeyPatch) -> None:
    svc, posts = Outbox([]), Posts()
    delivery, _reconciled = paced(svc, posts, monkeypatch)
    await arrive(delivery, svc, line(1), dm(2))
    await arrive(delivery, svc, line(3))
    assert posts.requests == []
    await arrive(delivery, svc, line(4, "phase", "The round ends."))
    assert posts.requests == [[1, 3, 4]], "the closing is not delayed, and shows the lines before it"
    assert {1, 3, 4} <= set(svc.marked)


async def test_anything_else_posted_to_the_channel_takes_the_waiting_lines_first(monkeypatch: pytest.MonkeyPatch) -> None:
    svc, posts = Outbox([]), Posts()
    delivery, _reconciled = paced(svc, posts, monkeypatch)
    await arrive(delivery, svc, line(1))
    await arrive(delivery, svc, line(2, "result", "Alice wins."))
    assert posts.requests == [[1], [2]], "the lines go before the post that follows them in the channel"


async def test_lines_put_off_go_out_after_a_restart(monkeypatch: pytest.MonkeyPatch) -> None:
    svc, posts = Outbox([]), Posts()
    delivery, _reconciled = paced(svc, posts, monkeypatch)
    await arrive(delivery, svc, line(1), line(2))
    assert posts.requests == [] and svc.marked == []
    delivery.pace.stop()  # the process dies with its timers
    again, _ = paced(svc, posts, monkeypatch, window=0.0)  # a restarted bot (here, one gathering nothing)
    await again.deliver_pending()
    assert posts.requests == [[1, 2]], "nothing put off is lost"


async def test_a_posts_lines_gather_across_dms_until_the_phase_end() -> None:
    batch = [line(1), dm(2), line(3), line(4, "progress", "Waiting for bob.")]
    assert groups(batch)[0] == batch[0:1] + batch[2:4] and groups(batch)[1] == [batch[1]]
    assert may_wait(groups(batch)[0], batch)
    closed = [*batch, line(5, "phase", "The round ends.")]
    assert groups(closed)[0][-1].id == 5 and not may_wait(groups(closed)[0], closed)


async def test_the_first_line_after_a_quiet_spell_goes_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    svc, posts = Outbox([]), Posts()
    delivery, _reconciled = paced(svc, posts, monkeypatch, written=None)
    await arrive(delivery, svc, line(1), dm(2))
    assert posts.requests == [[1]], "nothing written lately: the move shows at once"
    await arrive(delivery, svc, line(3))
    assert posts.requests == [[1]], "the post was just written: the next line waits for the pace"
    timer = delivery.pace.timers[1]
    assert timer.when() - asyncio.get_running_loop().time() <= WINDOW
    delivery.pace.stop()
    later = Posts()
    quiet_again, _ = paced(svc, later, monkeypatch, written=WINDOW + 1.0)
    await arrive(quiet_again, svc, line(4))
    assert later.requests[-1][-1] == 4 and 4 in svc.marked, "a write older than the window holds nothing back"


async def test_a_line_waits_only_for_what_is_left_of_the_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    svc, posts = Outbox([]), Posts()
    delivery, _reconciled = paced(svc, posts, monkeypatch, written=WINDOW - 5.0)
    await arrive(delivery, svc, line(1))
    assert posts.requests == []
    left = delivery.pace.timers[1].when() - asyncio.get_running_loop().time()
    assert 0.0 < left <= 5.0, "it goes when the window of the last write ends, not a whole window after it came"


async def test_a_line_seen_late_gathers_a_whole_window_even_after_a_quiet_spell(
        monkeypatch: pytest.MonkeyPatch) -> None:
    svc, posts = Outbox([]), Posts()
    delivery, _reconciled = paced(svc, posts, monkeypatch, written=None)
    await arrive(delivery, svc, line(1, age=30.0))
    assert posts.requests == [], "delivery is behind: the line waits for the moves behind it"
    left = delivery.pace.timers[1].when() - asyncio.get_running_loop().time()
    assert WINDOW - 5.0 < left <= WINDOW, "a whole window from when it was seen"
    await arrive(delivery, svc, line(2, age=29.0))
    assert posts.requests == []
    delivery.pace.timers[1].cancel()
    delivery.pace._wake(1)
    await delivery.dispatch(only=delivery.woken)
    await settled(delivery)
    assert posts.requests == [[1, 2]], "one edit for both"
