"""What a seat's turn read costs (CPU time), beside its floor: the match rows alone.

A seat's turn DM is rendered from one read (bot/service/turn_views.py): the match with its seats
and deadline and the outbox's part of the seat's turn (its DM's prompt notice, the reminders
after it, its newest prompt, its choices since). This times, on a SQLite file, a toy match of
three seats whose prompts went out, its state in the service's cache:

- ``seat_turn``: one seat's turn (``MatchService.seat_turn``), the read delivery makes for a prompt;
- ``seat_turns``: every seat's (``MatchService.seat_turns``), the reconciling after a drain;
- ``next_decision``: a click's next decision and the turn before it;
- ``board_of``: the status board's read (``MatchService.board_of``);
- the floor: the match rows alone, in one statement without a BEGIN (``Store.match_rows`` on
  ``read_once``), the read every turn read includes.

With ``--game tinybigwars`` the match is instead a Tiny Big Wars match (two players and a
heuristic AI) played ``--clicks`` DM clicks in (as benchmarks/click_path.py plays it, every
notice delivered after each), then one more click whose next decision waits for delivery: the
prompts' payloads, the log and the outbox are a real match's.

With ``--after-write`` each read follows a write to the database (the match's row written as it
is, from a connection of its own that does not sync: the bot's reads mostly follow a write, and
SQLite's readers then read every page they touch again), the floor too: each figure is then
that write and the read.

Figures are microseconds of CPU (``time.process_time()``: every thread of the process, the
connection's thread included) per read, the median of ``--repeat`` rounds, and the statements
each read sends.

    python benchmarks/turn_read.py [--reads 2000] [--repeat 3] [--game toy|tinybigwars] [--clicks 60]
                                   [--after-write]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from benchmarks.click_path import GUEST, heuristic_clicks  # noqa: E402
from benchmarks.click_path import HOST as BIG_HOST  # noqa: E402
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


async def toy_match(svc: MatchService) -> tuple[int, int, int]:
    """A toy match of three whose prompts went out, a choice made since: (match, Bob's seat, its version)."""
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    await deliver_prompts(svc)
    await svc.submit(info.id, HOST, {"bid": 1})  # a choice since the DMs' prompts
    bob = info.seat_of(BOB)
    assert bob is not None
    version = (await svc.seat_turn(info.id, bob)).version  # type: ignore[union-attr]
    assert version is not None
    return info.id, bob, version


async def big_match(svc: MatchService, clicks: int) -> tuple[int, int, int]:
    """A Tiny Big Wars match ``clicks`` DM clicks in, every notice delivered after each, then a
    click whose next decision waits for delivery: (match, that seat, its next version)."""
    info = await svc.create(None, 100, BIG_HOST, "host", "tinybigwars", {}, seed=1)
    await svc.join(100, GUEST, "guest")
    await svc.add_ai(100, BIG_HOST)
    await svc.start(100, BIG_HOST)
    message = 1000
    async for user, seat_no, version, choose in heuristic_clicks(svc, info.id, (BIG_HOST, GUEST), random.Random(1)):
        message += 1
        result = await svc.submit(info.id, user, {}, version=version, interaction_id=f"click-{message}",
                                  message_id=message, choose=choose)
        if clicks <= 0 and result.version not in (None, version) and not result.drawn_next:
            return info.id, seat_no, result.version
        clicks -= 1
        for notice in await svc.outbox(limit=100):
            await svc.delivered(notice.id, str(message))
    raise SystemExit("the match ended before a click led to a next decision: fewer --clicks")


def after_write(writer: sqlite3.Connection, match_id: int,
                read: Callable[[], Awaitable[Any]]) -> Callable[[], Awaitable[Any]]:
    """``read`` after a write to the database (``--after-write``)."""

    async def written_then_read() -> Any:
        writer.execute("UPDATE matches SET board_message_id = board_message_id WHERE id = ?", (match_id,))
        return await read()

    return written_then_read


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", choices=("toy", "tinybigwars"), default="toy")
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--after-write", action="store_true")
    args = parser.parse_args()
    engine.register(GAME)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite+aiosqlite:///{folder}/turns.db")
        try:
            svc = MatchService(store)
            match_id, seat, version = (await toy_match(svc) if args.game == "toy"
                                       else await big_match(svc, args.clicks))

            async def floor() -> None:
                async with store.read_once() as connection:
                    await store.match_rows(connection, match_id)

            routes: dict[str, Callable[[], Awaitable[Any]]] = {
                "seat_turn": lambda: svc.seat_turn(match_id, seat),
                "seat_turns": lambda: svc.seat_turns(match_id),
                "board_of": lambda: svc.board_of(match_id),
                "floor: the match rows alone": floor,
            }
            if hasattr(svc, "next_decision"):  # since session 19 (a tree before it has none)
                routes["next_decision"] = lambda: svc.next_decision(match_id, seat, version)
            if args.after_write:
                writer = sqlite3.connect(f"{folder}/turns.db", isolation_level=None)
                writer.execute("PRAGMA synchronous=OFF")
                routes = {name: after_write(writer, match_id, read) for name, read in routes.items()}
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
