"""The seat's DM channel is stored beside the seat, for the user holding it, without a version bump."""

from __future__ import annotations

from bot.service import MatchService


async def test_the_dm_channel_is_kept_for_the_seat_user(svc: MatchService) -> None:
    info = await svc.create(1, 600, 11, "ann", "toy", {}, seed=1)
    await svc.join(600, 12, "bea")
    before = await svc.get_match(info.id)
    assert await svc.dm_channel(info.id, 0, 11) is None
    await svc.remember_dm_channel(info.id, 0, 11, 777)
    assert await svc.dm_channel(info.id, 0, 11) == 777
    assert await svc.dm_channel(info.id, 0, 12) is None, "another user holding the seat opens their own"
    await svc.remember_dm_channel(info.id, 1, 99, 888)  # not this seat's user: nothing stored
    assert await svc.dm_channel(info.id, 1, 12) is None
    assert (await svc.get_match(info.id)).version == before.version
