"""Random play with illegal, stale and duplicate submissions: the log always replays to the stored state."""

from __future__ import annotations

import random

import pytest

from bot.service import MatchService, ServiceError
from db import Store
from tests.service.helpers import BOB, CAROL, CHANNEL, HOST, lobby, log_and_state


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_play_keeps_log_and_state_in_step(svc: MatchService, store: Store, seed: int) -> None:
    rng = random.Random(seed)
    info = await lobby(svc, [HOST, BOB, CAROL], ais=1, rounds=50, channel=CHANNEL + seed)
    seen: dict[str, int] = {}
    refused = 0
    for n in range(80):
        user = rng.choice([HOST, BOB, CAROL])
        choice = rng.choice([{"bid": rng.randint(-1, 7)}, {"action": rng.choice(["gather", "raid", "fly"])}, {}])
        version = rng.choice([None, rng.randint(0, 40)])
        pending = await svc.pending_prompt(info.id, user)
        if pending is not None and rng.random() < 0.5:
            version = pending.version
        ix = rng.choice([f"i{n}", f"i{rng.randint(0, max(n - 1, 0))}"])
        try:
            res = await svc.submit(info.id, user, choice, version=version, interaction_id=ix)
        except ServiceError:
            refused += 1
            continue
        if ix in seen:
            assert res.duplicate and res.seq == seen[ix]
        else:
            assert not res.duplicate
            seen[ix] = res.seq
    log, loaded, replayed = await log_and_state(store, info.id)
    assert [c.seq for c in log] == list(range(1, len(log) + 1))
    assert loaded == replayed
    assert refused > 0 and seen
    assert all(log[seq - 1].interaction_id == ix for ix, seq in seen.items())
