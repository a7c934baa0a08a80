"""An all-AI match played through the real service and store (``simulate --db URL``).

Unlike a pure engine simulation, this exercises the whole stored path: lobby, start,
AI turns logged like player choices, snapshots, outbox. The result can be audited with
``python -m bot replay MATCH_ID --db URL --verify``.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

import engine
from bot.service import MatchService
from db import Match, Store

SIMULATOR = 1
"""The user id that hosts a simulated match (it plays no seat); 0 is the service's "no host"."""


async def simulate_stored(
    url: str, key: str, seats: int, seed: int, policy: str = "heuristic", options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Play ``seats`` AI seats of game ``key`` to the end; return a summary with ``match_id``."""
    started = time.perf_counter()
    store = await Store.open(url, migrate=True)
    svc = MatchService(store, holder="storesim")
    try:
        channel = secrets.randbits(62)  # a channel of its own: one open match per channel
        info = await svc.create(None, channel, SIMULATOR, "simulator", key, options or {}, max_seats=seats,
                                seed=seed, host_plays=False)
        for _ in range(seats):
            await svc.add_ai(channel, SIMULATOR, policy)
        await svc.start(channel, SIMULATOR)
        await svc.thinking_done(info.id)  # search AIs choose after the transactions that asked them
        final = await svc.get_match(info.id)
        async with store.read() as session:
            match = await session.get(Match, info.id)
            assert match is not None
            log = [(c.seat, c.payload) for c in await store.choices(session, info.id)]
        notices = len([n for n in await svc.outbox(limit=1_000_000) if n.match_id == info.id])
    finally:
        await svc.stop_thinking()
        await store.close()
    return {
        "match_id": info.id,
        "game": key,
        "seats": seats,
        "seed": seed,
        "policy": policy,
        "status": final.status,
        "choices": final.step,
        "result": final.result,
        "log_sha256": engine.log_sha256(log),
        "notices": notices,
        "seconds": round(time.perf_counter() - started, 3),
    }
