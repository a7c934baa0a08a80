"""The floors the drawing benchmarks print beside their figures, measured in the same run: the
machine's (zlib level 1 of a fixed 2 MiB: how fast this VM is right now) and a warm map's (one
mid-game Tiny Big Wars view drawn again with everything cached: discord_load.py's floor)."""

from __future__ import annotations

import random
import statistics
import time
import zlib
from pathlib import Path

import render
from bot.service import drawing
from tests.render import views


def machine_floor() -> float:
    """Median thread CPU ms of zlib level 1 of a fixed 2 MiB."""
    rng = random.Random(32)
    data = bytes(rng.choice(b"abcdefgh") for _ in range(1 << 16)) * 32
    times = []
    for _ in range(9):
        started = time.thread_time()
        zlib.compress(data, 1)
        times.append(time.thread_time() - started)
    return statistics.median(times) * 1000


def warm_floor(runs: int = 30) -> float:
    """Median thread CPU ms of one mid-game view's map drawn again (discord_load.py's floor)."""
    view, names = views.three_seat_mid(), views.NAMES_4[:3]
    render.draw("tinybigwars", view, names)
    times = []
    for _ in range(runs):
        started = time.thread_time()
        render.draw("tinybigwars", view, names)
        times.append(time.thread_time() - started)
    return statistics.median(times) * 1000


def as_a_worker() -> str:
    """Set malloc as a drawing worker sets it (where it applies) and say which it is."""
    reuse = getattr(drawing, "reuse_freed_memory", None)
    return "malloc set as a worker's" if reuse is not None and reuse() else "malloc's defaults"


def load_average() -> str:
    """The machine's load averages (1, 5, 15 minutes), as the benchmarks print them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])
