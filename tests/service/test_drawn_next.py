"""A DM click's submit says when the seat's next decision is a sealed one carrying the seat's
private map (``SubmitResult.drawn_next``): the router then skips the read of that decision,
which could only decide to write nothing (bot/discord/dm_replies.py ``next_decision_in_dm``
shows no sealed decision with a view). The flag must say exactly what that read would find."""

from __future__ import annotations

import random
from typing import Any

import engine
from bot.service import MatchService
from bot.service.types import PendingPrompt
from tests.service.helpers import BOB, CHANNEL, HOST


async def test_drawn_next_says_what_the_next_decision_read_finds(svc: MatchService) -> None:
    game = engine.get("tinybigwars")
    heuristic = game.policies()["heuristic"]
    rng = random.Random(3)
    info = await svc.create(None, CHANNEL, HOST, "host", "tinybigwars", {}, seed=3)
    await svc.join(CHANNEL, BOB, "bob")
    await svc.add_ai(CHANNEL, HOST)
    await svc.start(CHANNEL, HOST)
    message = 1000
    seen = {True: 0, False: 0}
    for _ in range(120):
        moved = False
        for user in (HOST, BOB):
            _match, seats, state, _deadline = await svc._read(info.id)
            seat = next(s for s in seats if s.user_id == user)
            prompt = next((p for p in game.prompts(state) if p.seat == seat.seat_no), None) if state else None
            if prompt is None or seat.prompt_version is None or prompt.answered:
                continue
            made = engine.decide(game, heuristic, state, prompt, rng)
            version = seat.prompt_version

            def choose(_found: PendingPrompt, made: dict[str, Any] = made) -> dict[str, Any]:
                return made

            message += 1
            result = await svc.submit(info.id, user, {}, version=version, interaction_id=f"click-{message}",
                                      message_id=message, choose=choose)
            if result.locked and result.version not in (None, version):
                found = await svc.next_decision(info.id, seat.seat_no, result.version)
                assert found is not None, "the notice the click's transaction wrote waits for delivery"
                shown_never = bool(found.payload["prompt"].get("secret") and found.payload.get("view"))
                assert result.drawn_next == shown_never, f"version {result.version}: {found.payload['prompt']}"
                seen[result.drawn_next] += 1
            else:
                assert not result.drawn_next, "no next decision: nothing to skip"
            for notice in await svc.outbox(limit=100):  # delivered, each prompt into a DM of its own
                message += 1
                await svc.delivered(notice.id, str(message))
            moved = True
        if not moved or (await svc.get_match(info.id)).status != "active":
            break
    assert seen[True] >= 3 and seen[False] >= 10, seen
