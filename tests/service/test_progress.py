"""The progress line of a simultaneous secret step: posted when the number of seats that
have finished grows, never once per part of a seat's answer (levied units placed one at a
time), and not for a new step that has only just opened."""

from __future__ import annotations

from typing import Any

from bot.service import MatchService
from engine.contract import Prompt
from tests.service.helpers import BOB, CAROL, CHANNEL, DAVE, GUILD, HOST


def levy_all(prompt: Prompt) -> dict[str, Any]:
    """The default everywhere, except that a levy takes as many spearmen as allowed."""
    if prompt.kind == "levy" and not prompt.answered:
        return {f.name: (f.max if f.name == "spearman" else 0) for f in prompt.fields}
    return dict(prompt.default)


async def test_samurai_progress_notices_through_the_service(svc: MatchService) -> None:
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "samurai", {"mode": "base", "round_limit": 1}, seed=5)
    await svc.join(CHANNEL, BOB, "bob")
    await svc.join(CHANNEL, CAROL, "carol")
    await svc.join(CHANNEL, DAVE, "dave")
    await svc.start(CHANNEL, HOST)
    placements = 0
    for _ in range(2000):
        status = await svc.get_match(info.id)
        pending = [(user, p) for user in (HOST, BOB, CAROL, DAVE)
                   if (p := await svc.pending_prompt(info.id, user)) is not None and not p.prompt.answered]
        if not pending or status.status != "active":
            break
        user, p = pending[0]
        if (await svc.seat_view(info.id, user))["phase"] == "war":
            break
        placements += p.prompt.kind == "place"
        await svc.submit(info.id, user, levy_all(p.prompt), version=p.version)
    progress = [n.payload["text"] for n in await svc.outbox(limit=10_000) if n.kind == "progress"]
    assert placements > 3
    assert "0 of 4 have chosen." not in progress
    # plan, levy, placement, ronin: each step posts at most "1 of 4", "2 of 4" and "3 of 4"
    assert len(progress) <= 4 * 3 < placements
