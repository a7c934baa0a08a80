"""A DM click's submit says when the seat's next decision is a sealed one carrying the seat's
private map (``SubmitResult.drawn_next``): the router then skips the read of that decision,
which could only decide to write nothing (bot/discord/dm_replies.py ``next_decision_in_dm``
shows no sealed decision with a view). The flag must say exactly what that read would find."""

from __future__ import annotations

import random

from benchmarks.click_path import heuristic_clicks
from bot.service import MatchService
from tests.service.helpers import BOB, CHANNEL, HOST


async def test_drawn_next_says_what_the_next_decision_read_finds(svc: MatchService) -> None:
    info = await svc.create(None, CHANNEL, HOST, "host", "tinybigwars", {}, seed=3)
    await svc.join(CHANNEL, BOB, "bob")
    await svc.add_ai(CHANNEL, HOST)
    await svc.start(CHANNEL, HOST)
    message = 1000
    seen = {True: 0, False: 0}
    clicks = 0
    async for user, seat_no, version, choose in heuristic_clicks(svc, info.id, (HOST, BOB), random.Random(3)):
        clicks += 1
        assert clicks < 250, "the match ends"
        message += 1
        result = await svc.submit(info.id, user, {}, version=version, interaction_id=f"click-{message}",
                                  message_id=message, choose=choose)
        if result.locked and result.version not in (None, version):
            found = await svc.next_decision(info.id, seat_no, result.version)
            assert found is not None, "the notice the click's transaction wrote waits for delivery"
            shown_never = bool(found.payload["prompt"].get("secret") and found.payload.get("view"))
            assert result.drawn_next == shown_never, f"version {result.version}: {found.payload['prompt']}"
            seen[result.drawn_next] += 1
        else:
            assert not result.drawn_next, "no next decision: nothing to skip"
        for notice in await svc.outbox(limit=100):  # delivered, each prompt into a DM of its own
            message += 1
            await svc.delivered(notice.id, str(message))
    assert seen[True] >= 3 and seen[False] >= 10, seen
