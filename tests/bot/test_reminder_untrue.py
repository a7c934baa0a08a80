"""A reminder reaches only the players the match still waits for when it is delivered: one who
answered after the reminder was written (the outbox was busy) is not told they are late."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from bot.discord import nudges
from bot.service.notify import NotifyPrefs
from bot.service.types import Notice

ANN, BEN = 11, 12


class FakeDelivery:
    def __init__(self, waiting: list[int]) -> None:
        self.sent: list[tuple[int, str]] = []
        seats = [SimpleNamespace(seat=0, user_id=ANN), SimpleNamespace(seat=1, user_id=BEN)]
        info = SimpleNamespace(title="Tiny Big Wars", seat_of=lambda user: {ANN: 0, BEN: 1}.get(user))
        status = SimpleNamespace(waiting=[s for s in seats if s.user_id in waiting])

        async def status_of(_match_id: int) -> Any:
            return status

        async def get_match(_match_id: int) -> Any:
            return info

        async def blocked_targets(_match_id: int) -> list[Any]:
            return []

        async def dms_closed_at(_match_id: int, _seat: int) -> None:
            return None

        async def notify_prefs(_match_id: int, _user_id: int) -> NotifyPrefs:
            return NotifyPrefs()  # the defaults: turns by DM

        self.svc = SimpleNamespace(status_of=status_of, get_match=get_match, blocked_targets=blocked_targets,
                                   dms_closed_at=dms_closed_at, notify_prefs=notify_prefs)

    async def notify_prefs(self, match_id: int, user_id: int) -> NotifyPrefs:
        return await self.svc.notify_prefs(match_id, user_id)

    async def blocked_users(self, match_id: int) -> set[int]:
        return set()

    async def dms_closed_at(self, match_id: int, seat: int) -> None:
        return None

    async def dm_channel_for(self, match_id: int, seat: int | None, user_id: int) -> Any:
        delivery = self

        class Channel:
            async def send(self, content: str, **_kwargs: Any) -> Any:
                delivery.sent.append((user_id, content))
                return SimpleNamespace(id=900 + user_id)

        return Channel()


def reminder() -> Notice:
    return Notice(id=5, match_id=7, key="v9:0:reminder", kind="reminder", channel_id=500, user_id=None, seat=None,
                  payload={"text": "Half the time is gone.", "user_ids": [ANN, BEN], "deadline": None},
                  created_at=datetime(2026, 1, 1, tzinfo=UTC))


async def test_a_player_who_answered_meanwhile_gets_no_reminder() -> None:
    delivery = FakeDelivery(waiting=[BEN])
    ref = await nudges.reminder(delivery, reminder())  # type: ignore[arg-type]
    assert [user for user, _ in delivery.sent] == [BEN]
    assert ref == f"dm:{BEN}:{900 + BEN}", "the DM is recorded, so her answer can take it back"


async def test_nobody_late_any_more_means_no_reminder_at_all() -> None:
    delivery = FakeDelivery(waiting=[])
    assert await nudges.reminder(delivery, reminder()) == "skipped"  # type: ignore[arg-type]
    assert delivery.sent == []
