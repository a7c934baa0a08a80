"""The load benchmark's wait for a player's next prompt: a player is stalled only when nothing
changed in the match's channel or its DM for the bound, not while the other players take turn
after turn (the think-time runs reported such waits as stalls)."""

from __future__ import annotations

import asyncio

import pytest

from benchmarks.message_watch import Watch
from tests.fakediscord.server import FakeDiscord

CHANNEL = 7


async def _changes(watch: Watch, times: int, every: float, seen: list[int] | None = None) -> None:
    for _ in range(times):
        await asyncio.sleep(every)
        if seen is not None:
            seen.append(1)
        watch._fire(CHANNEL)


async def test_an_idle_wait_lasts_while_the_channel_keeps_changing() -> None:
    watch = Watch(FakeDiscord(guilds=0))
    seen: list[int] = []
    changing = asyncio.create_task(_changes(watch, 6, 0.5, seen))
    # six changes half a second apart (3 s in all) against a bound of 2 s without a change
    found = await watch.until((CHANNEL,), lambda: len(seen) == 6, 2.0, idle=True)
    assert found is True
    await changing


async def test_a_wait_times_out_once_nothing_changed_for_the_bound() -> None:
    watch = Watch(FakeDiscord(guilds=0))
    changing = asyncio.create_task(_changes(watch, 2, 0.02))
    with pytest.raises(TimeoutError, match="last change"):
        await watch.until((CHANNEL,), lambda: False, 0.1, idle=True)
    await changing
    with pytest.raises(TimeoutError, match="within 0.1 s$"):  # without idle: the bound from the start
        await watch.until((CHANNEL,), lambda: False, 0.1)
