"""The status board's changes that nothing in the channel waits on (a seat's own DMs, a phase
post's lines: the board's latest line, who has chosen) wait a while and go in one edit; a phase
end, a turn, a result or any other post edits it at once (at its pace), taking them along."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord import phase_posts
from bot.discord.board import Boards
from bot.discord.phase_pace import quiet
from tests.bot.test_board_unchanged import FakeHost
from tests.bot.test_delivery_marks import Outbox, notice
from tests.bot.test_phase_pace import Posts, arrive, dm, line, paced

GATHER = 0.4
"""A quiet change's wait here: short, and long beside the test's own steps."""


def boards_of(host: FakeHost) -> Boards:
    boards = Boards(host)  # type: ignore[arg-type]
    boards.interval = 0.0
    return boards


async def test_quiet_changes_wait_and_go_in_one_edit_showing_the_last() -> None:
    host = FakeHost()
    boards = boards_of(host)
    host.svc.version, host.svc.phase = 5, "Clan Phase"
    boards.touch(7, 5, within=GATHER)
    await asyncio.sleep(GATHER / 4)
    host.svc.version, host.svc.phase = 6, "Hero Activation"
    boards.touch(7, 6, within=GATHER)  # a later quiet change does not push the edit back
    await asyncio.sleep(GATHER / 4)
    assert host.edits == [] and host.svc.reads == 0, "a quiet change waits, unread"
    await asyncio.wait_for(boards.tasks[7], GATHER)
    assert len(host.edits) == 1 and "Hero Activation" in host.edits[0], "one edit shows both changes"


async def test_a_change_the_channel_waits_on_cuts_the_wait_short() -> None:
    host = FakeHost()
    boards = boards_of(host)
    boards.touch(7, 5, within=60.0)
    await asyncio.sleep(0.05)
    assert host.edits == []
    host.svc.version, host.svc.phase = 6, "Hero Activation"
    boards.touch(7, 6)  # a phase end: at once
    await asyncio.wait_for(boards.tasks[7], 1.0)
    assert len(host.edits) == 1 and "Hero Activation" in host.edits[0]


async def test_a_change_at_once_still_keeps_the_boards_pace() -> None:
    host = FakeHost()
    boards = boards_of(host)
    boards.interval = GATHER
    boards.touch(7, 5)
    await asyncio.wait_for(boards.tasks[7], 1.0)
    host.svc.version, host.svc.phase = 6, "Hero Activation"
    boards.touch(7, 6)
    await asyncio.sleep(GATHER / 2)
    assert len(host.edits) == 1, "an edit at once waits out the interval since the last"
    await asyncio.wait_for(boards.tasks[7], GATHER)
    assert len(host.edits) == 2


def test_only_a_seats_own_dms_and_a_phase_posts_lines_are_quiet() -> None:
    assert quiet([dm(1)]) and quiet([line(1), line(2)]) and quiet([line(1, "progress")])
    assert quiet([notice(1, "prompt", 0), notice(2, "last_to_choose", 0)])
    for kind in ("phase", "result", "turn", "timeout", "host", "lobby"):
        assert not quiet([notice(1, kind)]), f"a {kind} post edits the board at once"
    for kind in ("vote", "consent", "seat_passed", "blocked"):
        assert not quiet([notice(1, kind, 0)]), f"a {kind} DM tells what the board says at once"
    standalone = line(1)
    standalone.payload["standalone"] = True  # an undo: a post of its own
    assert not quiet([standalone]) and not quiet([line(1), line(2, "phase")])


async def test_delivery_lets_the_board_wait_only_for_quiet_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    svc, posts = Outbox([]), Posts()
    delivery, _reconciled = paced(svc, posts, monkeypatch, window=0.0)
    monkeypatch.setattr(phase_posts, "deliver_group", posts.deliver_group)
    touched: list[float] = []

    def touch(_match_id: int, _version: int | None = None, within: float = 0.0) -> None:
        touched.append(within)

    delivery.boards.touch = touch  # type: ignore[method-assign,assignment]
    delivery.boards.quiet = 30.0
    await arrive(delivery, svc, line(1), dm(2))
    assert touched == [30.0, 30.0], "a move's line and its DM: the board waits"
    touched.clear()
    await arrive(delivery, svc, line(3, "phase", "The round ends."))
    assert touched == [0.0], "the phase end edits the board at once"
    touched.clear()
    turn: Any = notice(4, "turn")
    await arrive(delivery, svc, turn)
    assert touched == [0.0], "a turn edits the board at once"


async def test_a_stopping_process_edits_the_boards_that_wait_to_gather() -> None:
    host = FakeHost()
    boards = boards_of(host)
    boards.interval = 60.0
    boards.touch(7, 5)
    await asyncio.wait_for(boards.tasks[7], 1.0)
    host.svc.version, host.svc.phase = 6, "Hero Activation"
    boards.touch(7, 6, within=60.0)
    await asyncio.sleep(0.05)
    await boards.stop(grace=1.0)
    assert len(host.edits) == 2 and "Hero Activation" in host.edits[-1], "the waiting change is not lost"
    assert boards.tasks == {}
