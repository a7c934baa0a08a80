"""Web table benchmark: the bot's CPU for one page update of a Samurai Swords match, and the page's weight.

Run from the repository root:  python benchmarks/web.py [--updates 40] [--seats 4] [--seed 3]

A 4-seat Samurai match (one human seat answered with its prompts' defaults, three AI seats) is
played through the real service on a SQLite file. After every answer of the human seat (the AI
seats then play on to its next decision) the page update is measured in CPU time of this process:
what the bot does when an open page sees its match move — the feed's version read, the page's
state (status, log, the replay frames brought up to date) and its latest map (DRAW_WORKERS=0:
a drawing runs in this process, so its CPU is counted).

The channel's phase posts draw every phase end's map anyway, and the page shares those drawings
(bot/service/drawing.py keeps the newest maps by what they show): they are drawn first, uncounted,
as delivery would, so the page pays for what it adds: its state. The floor is the warm
`render.draw` of the same view: what one more map would cost. The goal is <= 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render  # noqa: E402
from bot.service import MatchService, drawing  # noqa: E402
from bot.web.feed import Feed  # noqa: E402
from bot.web.server import static_file  # noqa: E402
from bot.web.tables import Tables  # noqa: E402
from bot.web.timeline import Timelines  # noqa: E402
from db import Store  # noqa: E402

HUMAN = 100
GOAL_MS = 50.0
PAGE_GOAL_BYTES = 300 * 1024


async def main(updates: int, seats: int, seed: int) -> None:
    await drawing.configure(0)
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(f"sqlite+aiosqlite:///{folder}/bench.db", migrate=True)
        service = MatchService(store, holder="bench")
        channel = 42
        info = await service.create(None, channel, HUMAN, "alice", "samurai", {}, max_seats=seats, seed=seed)
        for _ in range(seats - 1):
            await service.add_ai(channel, HUMAN, "heuristic")
        await service.start(channel, HUMAN)
        tables, feed, posts = Tables(service), Feed(store), Timelines(store)
        feed.watchers[info.id] = 1
        await tables.state(info.id)  # the page opened: its replay and the first map are built once
        first = time.process_time()
        state = await tables.state(info.id)
        await tables.map_png(info.id, len(state.frames) - 1)
        print(f"first map of the match (cold caches): {(time.process_time() - first) * 1000:.1f} ms CPU")
        names = [seat.name for seat in state.seats]
        posted = 1  # the start's map
        parts: dict[str, list[float]] = {"state": [], "map": [], "update": []}
        floor, drawn = [], 0
        for _ in range(updates):
            pending = await service.pending_prompt(info.id, HUMAN)
            if pending is None:
                break
            await service.submit(info.id, HUMAN, dict(pending.prompt.default), version=pending.version)
            await posts.frames(info.id)
            ends = posts.replays[info.id].ends
            for frame in ends[posted:]:  # the channel's phase posts draw these maps anyway (not counted)
                await drawing.draw("samurai", frame.view, names=names)
            posted = len(ends)
            began = time.process_time()
            await feed.poll()
            state = await tables.state(info.id)
            middle = time.process_time()
            before = len(tables.pngs)
            png = await tables.map_png(info.id, len(state.frames) - 1, state.frames[-1].step)
            done = time.process_time()
            parts["state"].append(middle - began)
            parts["map"].append(done - middle)
            parts["update"].append(done - began)
            drawn += len(tables.pngs) != before
            frame = tables.timelines.replays[info.id].frames(over=False)[-1]
            began = time.process_time()
            render.draw("samurai", frame.view, names=names)
            floor.append(time.process_time() - began)
        page = sum(len(static_file(name)) for name in ("table.html", "table.css", "table.js"))
        page += len(json.dumps(state.json(), separators=(",", ":"))) + len(png)
        await drawing.close()
        await store.close()
    samples = len(parts["update"])
    print(f"{samples} page updates ({drawn} new phase maps, {len(state.frames)} replay frames at the end)")
    for name, what in (("state", "the page's state (feed read, status, log, replay frames)"),
                       ("map", "its map now (shared with the phase post, or drawn)"),
                       ("update", "page update in all")):
        values = parts[name]
        print(f"{what}: median {statistics.median(values) * 1000:.1f} ms CPU, worst {max(values) * 1000:.1f} ms")
    median = statistics.median(parts["update"]) * 1000
    print(f"goal: a page update <= {GOAL_MS:.0f} ms CPU: {'met' if median <= GOAL_MS else 'NOT met'} ({median:.1f})")
    print(f"floor (one warm map drawing, the same view): median {statistics.median(floor) * 1000:.1f} ms CPU")
    print(f"page weight (HTML, CSS, script, state, the map now): {page / 1024:.1f} KiB   goal <= 300 KiB   "
          f"{'met' if page <= PAGE_GOAL_BYTES else 'NOT met'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=40)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.updates, arguments.seats, arguments.seed))
