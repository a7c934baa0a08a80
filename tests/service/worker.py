"""Subprocess helpers for the concurrency and crash tests (``python -m tests.service.worker``).

``submit URL MATCH USER PREFIX N``: N sealed-bid revisions with interaction ids PREFIX-i.
``play URL MATCH USERS...``: play the match to its end as the given users, printing
``ACK <interaction id> <seq>`` after each submit returns (the crash test kills us at random).
"""

from __future__ import annotations

import asyncio
import random
import sys

import engine
from bot.service import MatchService, StalePrompt
from db import Store
from tests.service.toygame import GAME


async def submit(url: str, match_id: int, user: int, prefix: str, n: int) -> None:
    store = await Store.open(url, migrate=False)
    svc = MatchService(store)
    for i in range(n):
        await svc.submit(match_id, user, {"bid": i % 4}, interaction_id=f"{prefix}-{i}")
    await store.close()


async def play(url: str, match_id: int, users: list[int]) -> None:
    store = await Store.open(url, migrate=False)
    svc = MatchService(store)
    await svc.recover()
    rng = random.Random()
    print("READY", flush=True)
    while (await svc.get_match(match_id)).status == "active":
        for user in users:
            pending = await svc.pending_prompt(match_id, user)
            if pending is None:
                continue
            if pending.prompt.kind == "bid":
                choice = {"bid": rng.randint(0, (await svc.seat_view(match_id, user))["gold"][pending.seat])}
            else:
                choice = {"action": rng.choice(["gather", "raid"])}
            ix = f"{user}-{pending.version}-{rng.getrandbits(40):x}"
            try:
                res = await svc.submit(match_id, user, choice, version=pending.version, interaction_id=ix)
            except StalePrompt:
                continue
            print(f"ACK {ix} {res.seq}", flush=True)
    print("DONE", flush=True)
    await store.close()


def main(argv: list[str]) -> None:
    engine.register(GAME)
    if argv[0] == "submit":
        asyncio.run(submit(argv[1], int(argv[2]), int(argv[3]), argv[4], int(argv[5])))
    elif argv[0] == "play":
        asyncio.run(play(argv[1], int(argv[2]), [int(u) for u in argv[3:]]))
    else:
        raise SystemExit(f"unknown mode {argv[0]}")


if __name__ == "__main__":
    main(sys.argv[1:])
