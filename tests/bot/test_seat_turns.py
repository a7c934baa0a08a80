"""A seat's next prompt is written into the DM the player just clicked, and the reply to that
click edits the same message: the prompt must land last, or the player is left with "Done" and
nothing to answer (seen once in a 200-match load run)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import engine
from bot.discord.delivery import Delivery
from bot.discord.seat_turns import SeatTurns
from bot.service.types import Notice


def next_prompt_notice() -> Notice:
    game = engine.get("tinybigwars")
    prompt = game.prompts(game.setup(3, {}, 1))[0].model_dump(mode="json")
    payload = {"text": "", "version": 3, "game": "tinybigwars", "title": "Tiny Big Wars", "names": ["ann", "ben", "cy"],
               "deadline": None, "shared": False, "optional": False, "prompt": prompt, "in_place": True, "news": [],
               "choice": None}
    return Notice(id=9, match_id=7, key="v5:0:prompt", kind="prompt", channel_id=500, user_id=11, seat=0,
                  payload=payload, created_at=datetime(2026, 1, 1, tzinfo=UTC))


def delivery_writing_to(written: list[str], reached: asyncio.Event) -> Delivery:
    async def previous_prompt(_match_id: int, _seat: int, _before: int) -> tuple[str, dict[str, Any]]:
        reached.set()
        return "321", {}

    async def dm_channel(_match_id: int, _seat: int, _user_id: int) -> int:
        return 900

    async def dms_closed(_match_id: int, _seat: int) -> bool:
        return False

    async def newer_prompt(_match_id: int, _seat: int, _notice_id: int) -> bool:
        return False

    class Message:
        async def edit(self, **_kwargs: Any) -> None:
            written.append("next prompt")

    svc = SimpleNamespace(previous_prompt=previous_prompt, dm_channel=dm_channel, dms_closed=dms_closed,
                          newer_prompt=newer_prompt)
    channel = SimpleNamespace(get_partial_message=lambda _ref: Message())
    bot = SimpleNamespace(svc=svc, get_partial_messageable=lambda _id, type=None: channel)
    return Delivery(bot)  # type: ignore[arg-type]


async def test_the_next_prompt_waits_for_the_reply_to_the_click() -> None:
    written: list[str] = []
    reached, reply_may_finish = asyncio.Event(), asyncio.Event()
    delivery = delivery_writing_to(written, reached)

    async def reply_to_click() -> None:
        async with delivery.turns.hold(7, 0):
            await reply_may_finish.wait()
            written.append("Done: reply")

    replying = asyncio.create_task(reply_to_click())
    await asyncio.sleep(0)
    delivering = asyncio.create_task(delivery.dm_prompt(next_prompt_notice()))
    await reached.wait()
    assert written == [], "the prompt waits while the click's reply is on its way"
    reply_may_finish.set()
    await replying
    assert await delivering == "321"
    assert written == ["Done: reply", "next prompt"]
    assert len(delivery.turns) == 0, "no lock is kept once nobody holds or waits"


async def test_other_seats_do_not_wait_for_each_other() -> None:
    turns = SeatTurns()
    async with turns.hold(7, 0), turns.hold(7, 1):  # would deadlock if seats shared a lock
        assert len(turns) == 2
    assert len(turns) == 0
