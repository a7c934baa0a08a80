"""An unchanged status board is not edited again; a change is; the board is read once per
refresh, and not at all for a notice written at a version it already showed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord.board import Boards
from engine import Standing

SEAT = SimpleNamespace(seat=0, name="ann", user_id=11, ai_policy=None, away_until=None, ai_takeover=False,
                       open_since=None)


class FakeService:
    def __init__(self) -> None:
        self.phase = "Clan Phase"
        self.version = 4
        self.reads = 0

    async def board_of(self, match_id: int) -> Any:
        self.reads += 1
        info = SimpleNamespace(id=match_id, title="t", status="active", channel_id=500, host_id=11, seats=[SEAT],
                               away_mode="ai", names=lambda: ["ann"], version=self.version)
        status = SimpleNamespace(match=info, phase=self.phase, deadline=None, waiting=[], may_act=[], blocked=[],
                                 chosen=[], standing=Standing())
        return SimpleNamespace(status=status, latest="ann gathered.", message_id=321)


class FakeHost:
    def __init__(self) -> None:
        self.svc = FakeService()
        self.lease = True
        self.edits: list[str] = []

    async def holds_lease(self, name: str) -> bool:
        return self.lease

    def get_channel(self, channel_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int) -> Any:
        host = self

        class Message:
            async def edit(self, content: str, **_kwargs: Any) -> None:
                host.edits.append(content)

        return SimpleNamespace(id=channel_id, get_partial_message=lambda ref: Message())


async def test_an_unchanged_board_makes_no_edit() -> None:
    host = FakeHost()
    boards = Boards(host)  # type: ignore[arg-type]
    await boards.refresh(7)
    assert len(host.edits) == 1
    assert host.svc.reads == 1, "status, log line and board message in one read"
    await boards.refresh(7)
    await boards.refresh(7)
    assert len(host.edits) == 1, "nothing changed: no PATCH"
    host.svc.phase = "Hero Activation"
    await boards.refresh(7)
    assert len(host.edits) == 2 and "Hero Activation" in host.edits[-1]


async def test_a_notice_the_board_already_showed_costs_no_read() -> None:
    host = FakeHost()
    boards = Boards(host)  # type: ignore[arg-type]
    await boards.refresh(7)  # the board shows version 4
    assert host.svc.reads == 1
    for version in (2, 3, 4):  # a draining outbox delivers the notices of versions already shown
        boards.touch(7, version)
    assert 7 not in boards.tasks and host.svc.reads == 1
    host.svc.version, host.svc.phase = 5, "Hero Activation"
    boards.touch(7, 5)
    await boards.tasks[7]
    assert host.svc.reads == 2 and "Hero Activation" in host.edits[-1]
    boards.touch(7, None)  # an alert: no version wrote it, so the board looks
    await boards.tasks[7]
    assert host.svc.reads == 3 and len(host.edits) == 2, "read, found current, not edited"


def test_a_notice_knows_the_version_that_wrote_it() -> None:
    from datetime import UTC, datetime

    from bot.service.types import Notice

    def notice(key: str) -> Notice:
        return Notice(id=1, match_id=7, key=key, kind="phase", channel_id=500, user_id=None, seat=None, payload={},
                      created_at=datetime(2026, 1, 1, tzinfo=UTC))

    assert notice("v12:0:phase").version == 12
    assert notice("blocked:3:channel").version is None
    assert notice("dms-closed:1").version is None


async def test_a_process_that_lost_the_delivery_lease_edits_no_board() -> None:
    """Paused past its lease and resumed, a process must not write: the holder keeps the board."""
    host = FakeHost()
    boards = Boards(host)  # type: ignore[arg-type]
    host.lease = False
    boards.touch(7, 5)
    await boards.tasks[7]
    assert host.edits == [] and host.svc.reads == 0
    host.lease = True
    boards.touch(7, 5)
    await boards.tasks[7]
    assert len(host.edits) == 1
