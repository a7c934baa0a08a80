"""What the service's part of a DM click costs (CPU time), beside its floor: a toy submit.

A DM click in the bot (bot/discord/router.py) is, on the service's side: the submit judged in
its own transaction (``submit`` with ``choose``, the clicked message and the interaction id),
then the reply's read of the seat's next decision (``next_decision``; none when that is a
sealed one with the seat's map, ``SubmitResult.drawn_next``), or of its turn (``seat_turn``)
when it has none; delivery then reads the turns of the seats it writes to
(``seat_turn`` for each prompt notice) and the status board is refreshed (``board_of``). This
plays ``--matches`` Tiny Big Wars matches (two players, one heuristic AI) on a SQLite file, each
player answering every prompt with the heuristic, in that order, and prints the CPU time
(``time.process_time()``: every thread of the process) per click of the whole, and of the
submit alone, beside the floor measured in the same run: one toy submit through the service
(``benchmarks/discord_load.py``'s floor, ``load_figures.submit_floor``).

    python benchmarks/click_path.py [--matches 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from benchmarks.load_figures import submit_floor  # noqa: E402
from bot.service import MatchService  # noqa: E402
from bot.service.types import PendingPrompt  # noqa: E402
from db import Store  # noqa: E402

HOST, GUEST = 2**62 + 11, 2**62 + 12
Chooser = Callable[[PendingPrompt], dict[str, Any]]


async def heuristic_clicks(svc: MatchService, match_id: int, users: tuple[int, ...],
                           rng: random.Random) -> AsyncIterator[tuple[int, int, int, Chooser]]:
    """Each decision these users' seats owe, in turn, answered by the heuristic as a DM click
    would: (user, seat number, the prompt's version, the ``choose`` for ``submit``), until none
    of them owes one or the match ended. The caller submits each before taking the next."""
    game = engine.get("tinybigwars")
    heuristic = game.policies()["heuristic"]
    while True:
        moved = False
        for user in users:
            _match, seats, state, _deadline = await svc._read(match_id)
            seat = next(s for s in seats if s.user_id == user)
            prompt = next((p for p in game.prompts(state) if p.seat == seat.seat_no), None) if state else None
            if prompt is None or seat.prompt_version is None or prompt.answered:
                continue
            choice = engine.decide(game, heuristic, state, prompt, rng)

            def choose(_found: PendingPrompt, choice: dict[str, Any] = choice) -> dict[str, Any]:
                return choice

            yield user, seat.seat_no, seat.prompt_version, choose
            moved = True
        if not moved or (await svc.get_match(match_id)).status != "active":
            return


async def one_match(svc: MatchService, channel: int, seed: int, rng: random.Random,
                    spent: dict[str, float]) -> int:
    """Play one match by DM clicks; add the CPU of the submits and of the whole to ``spent``."""
    info = await svc.create(None, channel, HOST, "host", "tinybigwars", {}, seed=seed)
    await svc.join(channel, GUEST, "guest")
    await svc.add_ai(channel, HOST)
    await svc.start(channel, HOST)
    clicks = 0
    message = 1000
    async for user, seat_no, version, choose in heuristic_clicks(svc, info.id, (HOST, GUEST), rng):
        if clicks >= 400:
            break
        message += 1
        start = time.process_time()
        result = await svc.submit(info.id, user, {}, version=version, interaction_id=f"{channel}-{message}",
                                  message_id=message, choose=choose)
        submitted = time.process_time()
        if result.version not in (None, version):
            if not result.drawn_next:  # a sealed one with the seat's map: delivery writes it (router.py)
                await svc.next_decision(info.id, seat_no, result.version)
        else:
            await svc.seat_turn(info.id, seat_no)
        for notice in await svc.outbox(limit=100):
            if notice.kind == "prompt" and notice.seat is not None:
                await svc.seat_turn(info.id, notice.seat)
            await svc.delivered(notice.id, str(message))
        await svc.board_of(info.id)
        spent["submit"] += submitted - start
        spent["whole"] += time.process_time() - start
        clicks += 1
    return clicks


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    wholes, submits, floors = [], [], []
    for round_no in range(args.repeat):
        with tempfile.TemporaryDirectory() as folder:
            store = await Store.open(f"sqlite+aiosqlite:///{Path(folder) / 'click.db'}", migrate=True)
            try:
                svc = MatchService(store, holder="bench")
                spent = {"submit": 0.0, "whole": 0.0}
                clicks = 0
                for n in range(args.matches):
                    clicks += await one_match(svc, 100 + n, seed=n, rng=random.Random(n), spent=spent)
            finally:
                await store.close()
        floors.append(await submit_floor())
        wholes.append(spent["whole"] / clicks * 1e3)
        submits.append(spent["submit"] / clicks * 1e3)
        print(f"round {round_no + 1}: {clicks} clicks, whole {wholes[-1]:.2f} ms CPU a click "
              f"(submit {submits[-1]:.2f} ms), floor {floors[-1]:.2f} ms (one toy submit)", flush=True)
    print(f"median: whole {statistics.median(wholes):.2f} ms, submit {statistics.median(submits):.2f} ms, "
          f"floor {statistics.median(floors):.2f} ms CPU")


if __name__ == "__main__":
    asyncio.run(main())
