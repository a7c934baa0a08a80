"""What a seat's turn read costs (CPU time), beside its floor: the match rows alone.

A seat's turn DM is rendered from one read (bot/service/turn_views.py): the match with its seats
and deadline and the outbox's part of the seat's turn (its DM's prompt notice, the reminders
after it, its newest prompt, its choices since). This times, on a SQLite file, a toy match of
three seats whose prompts went out, its state in the service's cache:

- ``seat_turn``: one seat's turn (``MatchService.seat_turn``), the read delivery makes for a prompt;
- ``seat_turns``: every seat's (``MatchService.seat_turns``), the reconciling after a drain;
- ``next_decision``: a click's next decision and the turn before it;
- the floor: the match rows alone, in one statement without a BEGIN (``Store.match_rows`` on
  ``read_once``), the read every turn read includes.

Figures are microseconds of CPU (``time.process_time()``: every thread of the process, the
connection's thread included) per read, the median of ``--repeat`` rounds, and the statements
each read sends.

    python benchmarks/turn_read.py [--reads 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from bot.service import MatchService  # noqa: E402
from db import Store  # noqa: E402
from tests.service.helpers import BOB, CAROL, HOST, lobby, recorded  # noqa: E402
from tests.service.test_seat_turn import deliver_prompts  # noqa: E402
from tests.service.toygame import GAME  # noqa: E402


async def timed(read: Callable[[], Awaitable[Any]], reads: int, repeat: int) -> float:
    """Microseconds of CPU per read, the median of ``repeat`` rounds of ``reads``."""
    rounds = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(reads):
            await read()
        rounds.append((time.process_time() - start) / reads * 1e6)
    return statistics.median(rounds)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    engine.register(GAME)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite+aiosqlite:///{folder}/turns.db")
        try:
            svc = MatchService(store)
            info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
            await deliver_prompts(svc)
            await svc.submit(info.id, HOST, {"bid": 1})  # a choice since the DMs' prompts
            bob = info.seat_of(BOB)
            assert bob is not None
            version = (await svc.seat_turn(info.id, bob)).version  # type: ignore[union-attr]
            assert version is not None

            async def floor() -> None:
                async with store.read_once() as connection:
                    await store.match_rows(connection, info.id)

            routes: dict[str, Callable[[], Awaitable[Any]]] = {
                "seat_turn": lambda: svc.seat_turn(info.id, bob),
                "seat_turns": lambda: svc.seat_turns(info.id),
                "floor: the match rows alone": floor,
            }
            if hasattr(svc, "next_decision"):  # since session 19 (a tree before it has none)
                routes["next_decision"] = lambda: svc.next_decision(info.id, bob, version)
            for name, read in routes.items():
                await read()  # warm: compiled, the state in the cache
                with recorded(store) as statements:
                    await read()
                micros = await timed(read, args.reads, args.repeat)
                print(f"{name:30s} {micros:7.0f} us CPU a read, {len(statements)} statement(s)")
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
