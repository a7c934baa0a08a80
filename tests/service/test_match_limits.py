"""Open matches per server and per player: past them `/game new` and Join are refused plainly,
and nothing is opened or joined."""

from __future__ import annotations

import pytest

from bot.service import Conflict, MatchService
from bot.service.limits import MatchLimits
from tests.service.helpers import BOB, GUILD, HOST


async def test_a_player_and_a_server_have_their_limits(svc: MatchService) -> None:
    svc.match_limits = MatchLimits(per_server=4, per_user=2)
    carol, dave, erin, frank = (2**62 + n for n in (76, 77, 78, 79))
    await svc.create(GUILD, 1, HOST, "host", "toy", {})
    await svc.create(GUILD, 2, carol, "carol", "toy", {})
    await svc.join(1, BOB, "bob")
    await svc.join(2, BOB, "bob")
    with pytest.raises(Conflict, match="You already play in 2 open matches.*Nothing was opened"):
        await svc.create(GUILD, 3, BOB, "bob", "toy", {})
    assert await svc.find_match(3) is None
    await svc.create(GUILD, 3, dave, "dave", "toy", {})
    with pytest.raises(Conflict, match="You already play in 2 open matches.*You did not join"):
        await svc.join(3, BOB, "bob")
    await svc.create(GUILD, 4, erin, "erin", "toy", {})
    with pytest.raises(Conflict, match="This server already has 4 open matches.*Nothing was opened"):
        await svc.create(GUILD, 5, frank, "frank", "toy", {})
    await svc.create(GUILD + 1, 5, frank, "frank", "toy", {})  # another server has its own count
    await svc.abort(1, HOST)
    await svc.create(GUILD, 6, HOST, "host", "toy", {})  # an aborted match frees both counts
