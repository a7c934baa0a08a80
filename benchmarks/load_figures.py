"""The figures `discord_load.py` prints last: each goal of issues 18 and 32 beside a floor measured
in the same run, the outbox's lag read from the database, and the bot process's CPU and memory
read from /proc."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class LoopWatch:
    """How long a ready callback waits for an event loop: a thread hands one in every
    ``every`` seconds and notes the wait when it runs. In the benchmark's own process it says how
    late the fake Discord itself hears a callback (its ack figures include that wait)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, every: float = 0.02) -> None:
        self.waits: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._hand_in, args=(loop, every), name="loop-watch", daemon=True)
        self._thread.start()

    def _hand_in(self, loop: asyncio.AbstractEventLoop, every: float) -> None:
        while not self._stop.wait(every):
            handed = time.perf_counter()
            try:
                loop.call_soon_threadsafe(lambda handed=handed: self.waits.append(time.perf_counter() - handed))
            except RuntimeError:  # the loop closed
                return

    def stop(self) -> list[float]:
        self._stop.set()
        self._thread.join()
        return self.waits


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def proc_status(pid: int) -> dict[str, int]:
    out = {}
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                out[key] = int(value.split()[0]) * 1024
    return out


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each live thread of a process, by thread id."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            out[int(task.name)] = cpu_seconds(pid, int(task.name))
    return out


def descendants_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of every live process below ``pid`` (the forkserver and the drawing pool's
    workers it forked), by pid: the draws' CPU, which the bot process's own figure leaves out."""
    out: dict[int, float] = {}
    waiting = [pid]
    while waiting:
        parent = waiting.pop()
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{parent}/task").iterdir():
                with contextlib.suppress(OSError, ValueError):
                    for child in (task / "children").read_text().split():
                        out[int(child)] = cpu_seconds(int(child))
                        waiting.append(int(child))
    return out


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """User + system CPU of a process, or of one of its threads (the main thread's tid is the pid)."""
    with open(f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def submit_floor() -> float:
    """CPU ms of one submit through the match service alone (toy game, a fresh SQLite file):
    the store and service part that an interaction which submits cannot avoid."""
    import engine
    from benchmarks.scale import play_template, submit_cost
    from bot.service import MatchService
    from db import Store
    from tests.service.toygame import GAME

    with contextlib.suppress(Exception):  # already registered
        engine.register(GAME)
    with tempfile.TemporaryDirectory(prefix="warhost-floor-") as tmp:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp}/floor.db")
        try:
            ids = await play_template(MatchService(store), 3)
            return await submit_cost(MatchService(store), ids[0])
        finally:
            await store.close()


def draw_floor(repeat: int = 9) -> tuple[float, float]:
    """Median CPU ms of one Tiny Big Wars map draw in this process: (static layer cached, cold)."""
    import engine
    import render
    from render.tinybigwars import board

    game = engine.get("tinybigwars")
    state = game.setup(3, engine.parse_options(game, {"round_limit": 2}), 7)
    view, names = game.view(state, None), ["p0", "p1", "AI"]
    render.draw("tinybigwars", view, names=names)
    warm, cold = [], []
    for _ in range(repeat):
        started = time.process_time()
        render.draw("tinybigwars", view, names=names)
        warm.append(1000 * (time.process_time() - started))
        board._STATIC.clear()
        started = time.process_time()
        render.draw("tinybigwars", view, names=names)
        cold.append(1000 * (time.process_time() - started))
    return statistics.median(warm), statistics.median(cold)


def without_probe(cpu: float, probe: dict[str, Any] | None) -> tuple[float, float]:
    """(the bot's CPU seconds, the probe's) from the bot process's CPU: the probe
    (benchmarks/bot_probe.py) runs inside the bot process and counts its own CPU, which is the
    benchmark's instrument, not the bot's work."""
    probe_cpu = float(probe.get("probe_cpu_seconds", 0.0)) if probe is not None else 0.0
    return cpu - probe_cpu, probe_cpu


async def print_goals(args: argparse.Namespace, cpu: float, lat: list[float], lag: list[float],
                      first_lag: list[float], probe: dict[str, Any] | None, drawing_cpu: float = 0.0,
                      writes: tuple[float, float] | None = None, rate: float | None = None,
                      lag_floor: tuple[float, float, float] | None = None) -> None:
    """Issue 18's and 32's figures, each with its goal and a floor measured now, on this machine.
    ``writes`` (the run's posts and edits per interaction besides the callback) and ``rate`` (its
    interactions a second) set the framework's floor: a discord.py bot with no warhost code
    answering as many clicks with as many requests (benchmarks/framework_floor.py); None skips it.
    ``lag_floor``: (the least mean lag at Discord's global limit, the matches under way on
    average, requests under the limit a notice), ``Lags.floor_mean``."""
    from benchmarks.framework_floor import measure

    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    submit_ms = await submit_floor()
    warm_ms, cold_ms = draw_floor()
    framework = None if writes is None or not lat else await measure(*writes, rate=rate)
    print(f"goals (issues 18 and 32), floors measured right after the run, load average {load}:")
    cpu, probe_cpu = without_probe(cpu, probe)
    if lat:
        print(f"  bot CPU per interaction      {1000 * cpu / len(lat):7.1f} ms   goal <= 10 ms    "
              f"floor {submit_ms:.2f} ms CPU: one submit through the service alone (toy game, SQLite)")
        if framework is not None:
            print(f"  {'':<28} {'':>7}      {'':<15}  floor {framework.cpu_ms:.2f} ms CPU: discord.py alone, "
                  f"a bot with no warhost code answering clicks with the run's requests ({framework.mix()})")
        if probe is not None:
            print(f"  {'':<28} {'':>7}      {'':<15}  left out: the benchmark's probe inside the bot, "
                  f"{1000 * probe_cpu / len(lat):.2f} ms CPU an interaction (its loop-sampling thread; its hooks only append to lists)")
        print(f"  the same, draws included     {1000 * (cpu + drawing_cpu) / len(lat):7.1f} ms   goal <= 10 ms    "
              f"the drawing processes' {1000 * drawing_cpu / len(lat):.1f} ms added (maps, private panels, replays); "
              f"floor {submit_ms:.2f} ms + the draws' own floor below")
        first = lat[:20]
        print(f"  ack p50 / p99                {1000 * statistics.median(lat):7.1f} / {1000 * percentile(lat, 0.99):.1f} ms"
              f"   goal p99 <= 100 ms   floor: the first {len(first)} acks p50 {1000 * statistics.median(first):.1f} ms, "
              f"max {1000 * max(first):.1f} ms")
    if lag:
        print(f"  outbox lag p50 / p99         {statistics.median(lag):7.2f} / {percentile(lag, 0.99):.2f} s   "
              f"goal p99 <= 2 s     floor: the first {len(first_lag)} notices p50 {statistics.median(first_lag):.2f} s, "
              f"max {max(first_lag):.2f} s")
        if lag_floor is not None:
            least, active, per_notice = lag_floor
            print(f"  {'':<28} {'':>7}      {'':<15}  floor at Discord's global limit: mean >= {least:.2f} s "
                  f"(Little's law: {active:.0f} matches under way on average, each waiting on a notice; "
                  f"{per_notice:.2f} requests under the limit a notice, {GLOBAL_PER_SECOND} a second); "
                  f"measured mean {statistics.fmean(lag):.2f} s")
    if probe is not None:
        for name, samples in probe["draws"].items():
            if not samples:
                continue
            cpu_ms = [cpu for cpu, _ in samples]
            wall_ms = [wall for _, wall in samples]
            goal = "goal <= 10 ms" if name == "draw" else "(no goal)    "
            floor = (f"floor {warm_ms:.1f} ms CPU, same map with its static layer cached ({cold_ms:.1f} ms cold)"
                     if name == "draw" else "")
            print(f"  render.{name:<13} in the bot {statistics.fmean(cpu_ms):5.1f} ms CPU mean, p50 "
                  f"{statistics.median(cpu_ms):.1f}, p99 {percentile(cpu_ms, 0.99):.1f} (wall p50 "
                  f"{statistics.median(wall_ms):.1f}), {len(samples)} draws   {goal}   {floor}")
        statements = sum(probe["statements"].values())
        if lat:
            print(f"  SQL per interaction          {statements / len(lat):7.1f} statements, "
                  f"{probe['commits'] / len(lat):.1f} commits, goal <= 12 statements ({', '.join(f'{kind} {count}' for kind, count in sorted(probe['statements'].items()))})")
        by_task = Counter(probe.get("statements_by_task", {}))
        if lat and by_task:
            print("  SQL per interaction by task  " + ", ".join(f"{name} {count / len(lat):.1f}"
                                                          for name, count in by_task.most_common(8)))
        by_table = Counter(probe.get("statements_by_table", {}))
        if lat and by_table:
            print("  SQL per interaction by table " + ", ".join(f"{name} {count / len(lat):.2f}"
                                                          for name, count in by_table.most_common(14)))
        shapes = Counter(probe.get("transactions", {}))
        if lat and shapes:
            print("  SQL transactions per interaction, by who and what (the 10 most common):")
            for shape, count in shapes.most_common(10):
                print(f"    {count / len(lat):5.2f}  {shape[:160]}")
        counts = probe.get("kept_rows", {})
        if lat and counts:
            print("  per interaction: " + ", ".join(f"{name} {count / len(lat):.2f}" for name, count in sorted(counts.items())))
        stages = probe.get("click_stages", {})
        if stages:
            print("  a DM click's stages and the write turn, wall ms p50 / p90 / p99 (count):")
            for stage, seconds in sorted(stages.items()):
                print(f"    {stage:<52} {1000 * statistics.median(seconds):7.1f} / "
                      f"{1000 * percentile(seconds, 0.90):7.1f} / {1000 * percentile(seconds, 0.99):7.1f}  ({len(seconds)})")
        collector = probe.get("gc")
        if lat and collector:
            cpu, runs = collector["cpu_seconds"], collector["collections"]
            print(f"  garbage collection in the bot {1000 * sum(cpu) / len(lat):.2f} ms CPU an interaction "
                  f"(generations 0/1/2: {' / '.join(f'{1000 * c / len(lat):.2f}' for c in cpu)} ms, "
                  f"{' / '.join(str(r) for r in runs)} collections)")
        threads = probe.get("threads_started")
        if lat and threads is not None:
            kinds = ", ".join(f"{name} {count}" for name, count in sorted(threads.items(), key=lambda item: -item[1]))
            print(f"  threads the bot started       {sum(threads.values())} ({kinds or 'none'}); "
                  f"the log's sync rounds {probe['sync_rounds'] / len(lat):.2f} an interaction")
        print(f"  Tiny Big Wars static layer   {probe['tinybigwars_static_builds']} builds, "
              f"{probe['tinybigwars_static_entries']} cached at the end (render/tinybigwars/board.py keeps 16)")


GLOBAL_PER_SECOND = 50
"""Discord's global limit: requests a second a bot may make outside interaction endpoints."""


@dataclass
class Lags:
    """Seconds from each notice's commit to its delivery (how late players see what happened)."""

    all: list[float]
    first: list[float]
    """The first 20 notices committed (the floor: the bot nearly idle)."""
    by_kind: dict[str, list[float]]
    """By the notice's kind; a player's first turn DM (``prompt, first DM``: it waits for its DM
    channel to be opened, which the fake allows 5 times per 5 s bot-wide) apart from the rest."""
    active_matches: float = 0.0
    """Matches under way on average over the run: each match from its first notice's commit to
    its last notice's delivery, summed, over the run's span (the first commit to the last delivery)."""

    def floor_mean(self, limited_per_notice: float, per_second: float = GLOBAL_PER_SECOND) -> float:
        """The least mean lag any bot could have in this run at Discord's global limit (Little's
        law): with players answering at once every match under way waits on at least one notice
        (its players' next prompt, or the lines a click just wrote), so at least
        ``active_matches`` notices wait at any moment, and at most ``per_second`` requests under
        the global limit go out a second, ``limited_per_notice`` of them a notice."""
        return self.active_matches * limited_per_notice / per_second


FIRST_DM = "prompt, first DM"
"""A player's first turn DM of the run (its DM channel may still be to open)."""


async def outbox_lag(db_url: str, after_id: int = 0) -> Lags:
    """Every delivered notice's lag (of notices after ``after_id``: an earlier week's are not
    this run's), the first 20's, and by kind."""
    sql = ("SELECT created_at, delivered_at, kind, user_id, match_id FROM notices "
           f"WHERE delivered_at IS NOT NULL AND kind <> 'dms_closed' AND id > {int(after_id)} ORDER BY created_at, id")
    if db_url.startswith("sqlite"):
        import sqlite3
        from datetime import datetime

        with contextlib.closing(sqlite3.connect(db_url.split(":///", 1)[1], timeout=30)) as conn:
            rows = [(datetime.fromisoformat(a), datetime.fromisoformat(b), kind, user, match)
                    for a, b, kind, user, match in conn.execute(sql).fetchall()]
    else:
        import asyncpg

        conn = await asyncpg.connect("postgresql://" + db_url.split("://", 1)[1])
        try:
            rows = [(r[0], r[1], r[2], r[3], r[4]) for r in await conn.fetch(sql)]
        finally:
            await conn.close()
    lags = [(delivered - created).total_seconds() for created, delivered, _kind, _user, _match in rows]
    by_kind: dict[str, list[float]] = {}
    prompted: set[int] = set()
    for (_created, _delivered, kind, user, _match), lag in zip(rows, lags, strict=True):
        if kind == "prompt" and user is not None and user not in prompted:
            prompted.add(user)
            kind = FIRST_DM
        by_kind.setdefault(kind, []).append(lag)
    return Lags(lags, lags[:20], by_kind, active_matches(rows))


def active_matches(rows: list[tuple[Any, Any, str, int | None, int]]) -> float:
    """Matches under way on average over the span of these (created, delivered, kind, user,
    match) notices (see ``Lags.active_matches``)."""
    if not rows:
        return 0.0
    spans: dict[int, tuple[Any, Any]] = {}
    for created, delivered, _kind, _user, match in rows:
        first, last = spans.get(match, (created, delivered))
        spans[match] = (min(first, created), max(last, delivered))
    start = min(first for first, _last in spans.values())
    end = max(last for _first, last in spans.values())
    window = (end - start).total_seconds()
    busy = sum((last - first).total_seconds() for first, last in spans.values())
    return busy / window if window > 0 else float(len(spans))
