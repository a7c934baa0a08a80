"""A match's targets are delivered side by side, each in its own order.

discord.py sleeps inside the request that empties a channel's rate-limit bucket until the
window resets (up to 5 s). Here a post's send waits until the test lets it go, as that sleep
does: the match's DMs (and its other channels) go meanwhile, and the channel's later posts wait
for it, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from tests.bot.test_dm_opener import (
    CHANNEL,
    DM_BASE,
    FakeDiscord,
    Store,
    delivery_of,
    dm,
    post,
    running,
    until,
)


def held_until(released: asyncio.Event) -> Callable[[], Awaitable[None]]:
    async def wait() -> None:
        await released.wait()

    return wait


async def test_a_post_asleep_for_its_channels_bucket_does_not_hold_the_matchs_dms() -> None:
    store = Store([post(1, 1, "the phase ends"), dm(2, 1, 501, "your decision"), post(3, 1, "the next phase"),
                   dm(4, 1, 502, "their decision")], stored={501: DM_BASE + 501, 502: DM_BASE + 502})
    discord_ = FakeDiscord(store)
    released = asyncio.Event()
    discord_.before_send["the phase ends"] = held_until(released)
    delivery = delivery_of(discord_)
    async with running(delivery):
        await until(lambda: discord_.texts(DM_BASE + 501) == ["your decision"]
                    and discord_.texts(DM_BASE + 502) == ["their decision"])
        assert discord_.texts(CHANNEL + 1) == [], "the channel's next post waits for the one asleep"
        assert 1 not in store.marked, "a post not yet taken is not marked"
        released.set()
        await until(lambda: discord_.texts(CHANNEL + 1) == ["the phase ends", "the next phase"])
        await until(lambda: sorted(store.marked) == [1, 2, 3, 4])
    assert len(discord_.sent) == 4, "each notice went once"


async def test_each_target_keeps_its_order_while_the_targets_overtake_each_other() -> None:
    """Two players' DMs and two channels of two matches, each held at some send: every target's
    messages arrive in the order they were written, whatever the others do meanwhile."""
    notices = []
    for match_id in (1, 2):
        for step in range(3):
            base = 100 * match_id + 10 * step
            notices += [post(base + 1, match_id, f"m{match_id} post {step}"),
                        dm(base + 2, match_id, 500 + match_id, f"m{match_id} dm {step}"),
                        dm(base + 3, match_id, 600 + match_id, f"m{match_id} other dm {step}")]
    store = Store(notices, stored={user: DM_BASE + user for user in (501, 502, 601, 602)})
    discord_ = FakeDiscord(store)
    gates = {text: asyncio.Event() for text in ("m1 post 0", "m1 dm 1", "m2 other dm 0", "m2 post 2")}
    for text, gate in gates.items():
        discord_.before_send[text] = held_until(gate)
    delivery = delivery_of(discord_)
    async with running(delivery):
        await until(lambda: "m1 other dm 2" in discord_.texts(DM_BASE + 601) and "m2 dm 2" in discord_.texts(DM_BASE + 502))
        assert discord_.texts(CHANNEL + 1) == [], "m1's channel waits for its first post"
        assert discord_.texts(DM_BASE + 501) == ["m1 dm 0"], "the player's second DM is held, the third waits"
        for gate in reversed(list(gates.values())):  # let them go in another order than they were written
            gate.set()
            await asyncio.sleep(0)
        await until(lambda: len(store.marked) == len(notices))
    for match_id in (1, 2):
        assert discord_.texts(CHANNEL + match_id) == [f"m{match_id} post {step}" for step in range(3)]
        assert discord_.texts(DM_BASE + 500 + match_id) == [f"m{match_id} dm {step}" for step in range(3)]
        assert discord_.texts(DM_BASE + 600 + match_id) == [f"m{match_id} other dm {step}" for step in range(3)]
    assert len(discord_.sent) == len(notices), "each notice went once"


async def test_a_dm_written_while_a_post_is_asleep_goes_before_the_post_wakes() -> None:
    """The match's worker is waiting for its channel's post when a click writes the next prompt:
    the worker reads it at once and sends it beside the post; the post is sent once."""
    store = Store([post(1, 1, "the phase ends")], stored={501: DM_BASE + 501})
    discord_ = FakeDiscord(store)
    released, asleep = asyncio.Event(), asyncio.Event()

    async def sleeping() -> None:
        asleep.set()
        await released.wait()

    discord_.before_send["the phase ends"] = sleeping
    delivery = delivery_of(discord_)
    async with running(delivery):
        await asyncio.wait_for(asleep.wait(), 10)
        store.notices.append(dm(2, 1, 501, "your next decision"))
        delivery.wake_for(1)
        await until(lambda: discord_.texts(DM_BASE + 501) == ["your next decision"])
        assert discord_.texts(CHANNEL + 1) == [], "the post still sleeps"
        released.set()
        await until(lambda: sorted(store.marked) == [1, 2])
    assert discord_.texts(CHANNEL + 1) == ["the phase ends"], "the post went once"
