"""Tiny Epic Defenders through the match service: two people and an AI play a whole battle with
stale, forged and duplicate clicks mixed in; the stored log always replays to the stored state."""

from __future__ import annotations

import random

import pytest

from bot.service import MatchService, ServiceError, StalePrompt
from db import Store
from tests.service.helpers import BOB, CHANNEL, GUILD, HOST, log_and_state


@pytest.mark.parametrize("mode", ["single", "campaign"])
async def test_people_and_an_ai_play_a_battle_to_its_end(svc: MatchService, store: Store, mode: str) -> None:
    rng = random.Random(mode)
    info = await svc.create(GUILD, CHANNEL, HOST, "host", "defenders", {"mode": mode, "difficulty": "easy"},
                            deadline_hours=24, seed=13)
    await svc.join(CHANNEL, BOB, "bob")
    await svc.add_ai(CHANNEL, HOST)
    await svc.start(CHANNEL, HOST)
    refused = stale = shared_races = 0
    kinds: list[tuple[str, ...]] = []
    for n in range(3000):
        match = await svc.get_match(info.id)
        if match.status == "finished":
            break
        mine = {u: await svc.pending_prompt(info.id, u) for u in (HOST, BOB)}
        open_ = [(u, p) for u, p in mine.items() if p is not None]
        assert open_, "nobody has a prompt but the match goes on"
        kinds.append(tuple(sorted(p.prompt.kind for _, p in open_)))
        user, pending = rng.choice(open_)
        prompt = pending.prompt
        roll = rng.random()
        if roll < 0.05:
            choice, version = {"act": "teleport"}, pending.version
        elif roll < 0.1:
            choice, version = dict(prompt.options[0].choice), pending.version - 1
        else:
            spend = [o for o in prompt.options if o.choice["act"] not in ("pass", "focus")]
            pool = spend if prompt.kind == "all" and spend else prompt.options
            choice, version = dict(rng.choice(pool).choice), pending.version
        spends = prompt.kind == "all" and choice.get("act") not in ("pass", "focus")
        other = next((u for u, p in open_ if u != user and p.prompt.kind == "all"), None) if spends else None
        try:
            await svc.submit(info.id, user, choice, version=version, interaction_id=f"i{n}")
        except StalePrompt:
            stale += 1
            continue
        except ServiceError:
            refused += 1
            continue
        if other is not None:
            # Shared AP were spent: the teammate's copy moved on and their old version is refused.
            shared_races += 1
            with pytest.raises(ServiceError):
                await svc.submit(info.id, other, dict(mine[other].prompt.options[-1].choice),
                                 version=mine[other].version, interaction_id=f"race{n}")
        again = await svc.submit(info.id, user, choice, version=version, interaction_id=f"i{n}")
        assert again.duplicate
    match = await svc.get_match(info.id)
    assert match.status == "finished", "the battle did not end"
    assert refused and stale and shared_races, (refused, stale, shared_races, sorted(set(kinds)))
    log, loaded, replayed = await log_and_state(store, info.id)
    assert [c.seq for c in log] == list(range(1, len(log) + 1))
    assert loaded == replayed
    assert {c.by for c in log} >= {"player", "ai"}
