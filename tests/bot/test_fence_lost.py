"""Delivery's turn-DM writes learn when the seat's fence was not held throughout (PostgreSQL
ended its idle transaction): another process may have written the DM meanwhile, so the DM is
written again from a fresh read, whatever this process remembers it shows."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from bot.discord import prompt_dms
from db.turn_queries import FenceHold
from tests.bot.test_turn_dm import DM, delivery_for, notice, sealed_turn


class Fences:
    """A fence whose holds report lost for the first ``lost`` takes, then kept."""

    def __init__(self, lost: int) -> None:
        self.lost = lost
        self.taken = 0

    @contextlib.asynccontextmanager
    async def __call__(self, _match_id: int, _seats: Any) -> AsyncIterator[FenceHold]:
        self.taken += 1
        hold = FenceHold()
        yield hold
        if self.taken <= self.lost:
            hold.kept = False


def _delivery(lost: int) -> tuple[Any, Any, Fences, list[str]]:
    turn = sealed_turn(status="finished", version=None, answered=False, secret=False)
    delivery, dm = delivery_for(turn)
    svc: Any = delivery.bot.svc
    reads: list[str] = []
    one, every = svc.seat_turn, svc.seat_turns

    async def seat_turn(*args: Any, **kwargs: Any) -> Any:
        reads.append("seat")
        return await one(*args, **kwargs)

    async def seat_turns(match_id: int) -> Any:
        reads.append("all")
        return await every(match_id)

    fences = Fences(lost)
    svc.seat_turn, svc.seat_turns, svc.seat_fence, svc.seats_fence = seat_turn, seat_turns, fences, fences
    return delivery, dm, fences, reads


async def test_a_reconciling_whose_fence_was_lost_writes_the_dm_again() -> None:
    delivery, dm, fences, reads = _delivery(lost=0)
    assert await prompt_dms.reconcile_seat(delivery, 7, 0) == str(DM)
    assert len(dm.edits) == 1
    assert await prompt_dms.reconcile_seat(delivery, 7, 0) == str(DM)
    assert len(dm.edits) == 1, "the DM shows the match already: a kept fence writes nothing"

    fences.lost, fences.taken = 1, 0
    reads.clear()
    assert await prompt_dms.reconcile_seat(delivery, 7, 0) == str(DM)
    assert reads == ["seat", "seat"], "read again under a new fence"
    assert len(dm.edits) == 2 and dm.edits[-1][0] == DM, "written again, though this process thought it up to date"
    assert fences.taken == 2


async def test_a_fence_lost_again_and_again_stops_after_a_few_writes() -> None:
    delivery, dm, fences, reads = _delivery(lost=100)
    await prompt_dms.reconcile_seat(delivery, 7, 0)
    assert fences.taken == prompt_dms.WRITES and len(reads) == prompt_dms.WRITES


async def test_the_reconciling_of_every_seat_writes_the_held_seats_again_after_a_lost_fence() -> None:
    delivery, dm, fences, reads = _delivery(lost=0)
    await delivery.reconcile(7)  # learns the players' seats, writes the DM
    await delivery.reconcile(7)
    edits = len(dm.edits)
    assert delivery.players[7] == [0] and edits >= 1

    fences.lost, fences.taken = fences.taken + 1, fences.taken  # the next hold of all seats is lost
    reads.clear()
    await delivery.reconcile(7)
    assert reads == ["all", "seat"], "the held seat is read again on its own"
    assert len(dm.edits) == edits + 1, "and its DM written again"


async def test_a_prompt_written_under_a_lost_fence_is_written_again() -> None:
    for lost, writes in ((0, 1), (1, 2)):
        before = sealed_turn(version=9, answered=False, secret=False)  # the seat's next prompt, version 9, is open
        delivery, dm = delivery_for(before)
        svc: Any = delivery.bot.svc
        fences = Fences(lost)
        svc.seat_fence = fences
        payload: dict[str, Any] = {**before.subject.payload, "version": 9, "in_place": True,  # type: ignore[union-attr]
                                   "game": "tinybigwars", "view": {}}
        assert await delivery.deliver(notice("prompt", payload)) == str(DM)
        assert [ref for ref, _ in dm.edits] == [DM] * writes, f"lost {lost}: the prompt's DM written {writes} time(s)"
