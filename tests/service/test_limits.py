"""Every number the service takes is bounded, refused with a sentence naming it, changing nothing."""

from __future__ import annotations

import math

from bot.service import BadChoice, MatchService
from db import Store
from tests.service.helpers import BOB, CHANNEL, GUILD, HOST, lobby
from tests.service.test_errors import refused


async def test_deadline_hours_out_of_range_are_refused(svc: MatchService, store: Store) -> None:
    for hours in (1e12, 0, -1, 721, math.nan, math.inf, "soon", None, True):
        text = await refused(store, BadChoice, svc.create(GUILD, CHANNEL, HOST, "host", "toy", {},
                                                          deadline_hours=hours))
        assert text.startswith("deadline_hours must be a number from 0.05 to 720 hours"), text
    text = await refused(store, BadChoice, svc.create(GUILD, CHANNEL, HOST, "host", "toy",
                                                      {"deadline_hours": 1e12}))
    assert "deadline_hours" in text
    for seed in (-1, 2**63, 1.5):
        assert "seed" in await refused(store, BadChoice, svc.create(GUILD, CHANNEL, HOST, "host", "toy", {},
                                                                    seed=seed))


async def test_a_lobby_with_the_longest_deadline_starts(svc: MatchService) -> None:
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "toy", {}, deadline_hours=720)
    await svc.join(CHANNEL, BOB, "bob")
    await svc.start(CHANNEL, HOST)
    assert (await svc.get_match(info.id)).status == "active"


async def test_extend_is_bounded(svc: MatchService, store: Store) -> None:
    await lobby(svc, [HOST, BOB], hours=24)
    for hours in (1e12, 0, -5, math.nan, 337):
        text = await refused(store, BadChoice, svc.extend(CHANNEL, HOST, hours))
        assert text.startswith("hours must be a number from 0.1 to 336 hours"), text
    await svc.extend(CHANNEL, HOST, 336)
    await svc.extend(CHANNEL, HOST, 336)
    text = await refused(store, BadChoice, svc.extend(CHANNEL, HOST, 100))
    assert "at most 720 hours away" in text and "24.0 hours" in text, text


async def test_log_lines_are_bounded(svc: MatchService, store: Store) -> None:
    await lobby(svc, [HOST, BOB])
    for lines in (0, -1, 51, 10**9, 2.5):
        assert "lines must be a whole number from 1 to 50" in await refused(store, BadChoice, svc.log(CHANNEL, lines))
    assert isinstance(await svc.log(CHANNEL, 50), list)
