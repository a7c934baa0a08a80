"""The progress line of a simultaneous secret step: posted when the number of seats that
have finished grows, never once per part of a seat's answer (levied units placed one at a
time), and not for a new step that has only just opened."""

from __future__ import annotations

import re
from typing import Any

import pytest

import engine
from bot.service import MatchService
from bot.service.progress import progress_after, secret_tally
from engine.contract import Prompt
from tests.service.helpers import BOB, CAROL, CHANNEL, DAVE, GUILD, HOST


def levy_all(prompt: Prompt) -> dict[str, Any]:
    """The default everywhere, except that a levy takes as many spearmen as allowed."""
    if prompt.kind == "levy" and not prompt.answered:
        return {f.name: (f.max if f.name == "spearman" else 0) for f in prompt.fields}
    return dict(prompt.default)


@pytest.mark.parametrize("steps", ["classic", "combined"])
def test_samurai_levy_progress_counts_finished_seats_not_placements(steps: str) -> None:
    """Through the engine's prompts()/submit(): every placement is one choice, but the line
    moves only when a seat has placed all of its units (combined: its whole muster)."""
    game = engine.get("samurai")
    state = game.setup(4, game.options_model()(mode="base", steps=steps), 3)
    phases = ("levy", "place") if steps == "classic" else ("muster",)
    while state.phase != phases[0]:
        prompt = [p for p in game.prompts(state) if not p.answered][0]
        state = game.submit(state, prompt.seat, prompt.default).state
    posts: list[str] = []
    choices = finished = 0
    while state.phase in phases:
        prompts = game.prompts(state)
        prompt = [p for p in prompts if not p.answered][0]
        before = secret_tally(prompts)
        step = game.submit(state, prompt.seat, levy_all(prompt))
        after = secret_tally(game.prompts(step.state))
        choices += 1
        if before and after and before.seats == after.seats and after.done > before.done:
            finished += 1
        reported = progress_after(None, before, after, step.events)
        if reported is not None:
            posts.append(reported.text())
        state = step.state
    assert posts and len(posts) == finished < choices
    counts = [int(re.match(r"(\d) of 4 have chosen\.$", p)[1]) for p in posts]
    assert all(0 < n < 4 for n in counts)
    assert "0 of 4 have chosen." not in posts


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
        if p.seat_view["phase"] == "war":
            break
        placements += p.prompt.kind == "place"
        await svc.submit(info.id, user, levy_all(p.prompt), version=p.version)
    progress = [n.payload["text"] for n in await svc.outbox(limit=10_000) if n.kind == "progress"]
    assert placements > 3
    assert "0 of 4 have chosen." not in progress
    # setup, plan, swords, muster: each step posts at most "1 of 4", "2 of 4" and "3 of 4"
    assert len(progress) <= 4 * 3 < placements
