"""The service's memory stays bounded however many matches it has served: a recent-state LRU
and per-match locks that vanish when nobody holds them; play is the same with a tiny cache."""

from __future__ import annotations

import asyncio

from bot.service import MatchService
from bot.service.memory import MatchLocks, RecentStates
from db import Store
from tests.service.helpers import BOB, HOST, lobby, log_and_state, play_choice


def test_recent_states_keep_only_the_most_recently_used() -> None:
    states: RecentStates[str] = RecentStates(size=3)
    for match_id in range(1, 2001):
        states.put(match_id, 1, f"state {match_id}")
    assert len(states) == 3 and states.get(1) is None
    assert states.get(1998) == (1, "state 1998")  # used now, so it outlives a newer entry
    states.put(2001, 1, "state 2001")
    assert states.get(1998) is not None and states.get(1999) is None


async def test_locks_serialise_one_match_and_vanish_when_free() -> None:
    locks = MatchLocks()
    order: list[str] = []

    async def work(name: str, match_id: int) -> None:
        async with locks.hold(match_id):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(work("a", 1), work("b", 1), *(work(f"m{n}", n) for n in range(2, 200)))
    a = (order.index("a in"), order.index("a out"))
    b = (order.index("b in"), order.index("b out"))
    assert a[1] < b[0] or b[1] < a[0], "two holders of one match never overlap"
    assert len(locks) == 0, "no lock outlives its last holder"


async def test_a_match_plays_the_same_when_its_state_falls_out_of_the_cache(store: Store, clock) -> None:
    svc = MatchService(store, clock=clock)
    svc._cache = RecentStates(size=1)
    first = await lobby(svc, [HOST, BOB], rounds=3)
    second = await lobby(svc, [HOST, BOB], rounds=3, channel=99)
    for _ in range(40):  # alternate: each submit evicts the other match's state
        moved = False
        for info in (first, second):
            for user in (HOST, BOB):
                pending = await svc.pending_prompt(info.id, user)
                choice = await play_choice(svc, info.id, user)
                if choice is not None and pending is not None and not pending.prompt.answered:
                    await svc.submit(info.id, user, choice, version=pending.version)
                    moved = True
        if not moved:
            break
    assert len(svc._cache) <= 1 and len(svc._locks) == 0
    for info in (first, second):
        assert (await svc.get_match(info.id)).status == "finished"
        _, loaded, replayed = await log_and_state(store, info.id)
        assert loaded == replayed
