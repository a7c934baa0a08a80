"""An unchanged status board is not edited again; a change is, and the board is read once."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord.board import Boards

SEAT = SimpleNamespace(seat=0, name="ann", user_id=11, ai_policy=None, away_until=None, ai_takeover=False)


class FakeService:
    def __init__(self) -> None:
        self.phase = "Clan Phase"
        self.reads: list[str] = []

    async def status_of(self, match_id: int) -> Any:
        self.reads.append("status")
        info = SimpleNamespace(id=match_id, title="t", status="active", channel_id=500, host_id=11, seats=[SEAT],
                               away_mode="ai", names=lambda: ["ann"])
        return SimpleNamespace(match=info, phase=self.phase, deadline=None, waiting=[], may_act=[], blocked=[])

    async def log_of(self, match_id: int, limit: int = 20) -> list[str]:
        self.reads.append("log")
        return ["ann gathered."]

    async def board_message(self, match_id: int) -> int | None:
        self.reads.append("board")
        return 321

    async def blocked_targets(self, match_id: int) -> list[Any]:
        raise AssertionError("status_of already says what is blocked")


class FakeHost:
    def __init__(self) -> None:
        self.svc = FakeService()
        self.edits: list[str] = []

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
    assert host.svc.reads == ["status", "log", "board"]
    await boards.refresh(7)
    await boards.refresh(7)
    assert len(host.edits) == 1, "nothing changed: no PATCH"
    host.svc.phase = "Hero Activation"
    await boards.refresh(7)
    assert len(host.edits) == 2 and "Hero Activation" in host.edits[-1]
