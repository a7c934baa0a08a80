"""The floors the drawing benchmarks print beside their figures, measured in the same run: the
machine's (zlib level 1 of a fixed 2 MiB: how fast this VM is right now) and a warm map's (one
mid-game Tiny Big Wars view drawn again with everything cached: discord_load.py's floor)."""

from __future__ import annotations

import argparse
import random
import statistics
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import render
from bot.service import drawing
from tests.render import views


def mean_ms(items: list[Any], job: Callable[[Any], object]) -> float:
    """Mean thread CPU of ``job`` over ``items``, in ms (each item timed on its own)."""
    times = []
    for item in items:
        started = time.thread_time()
        job(item)
        times.append(time.thread_time() - started)
    return statistics.fmean(times) * 1000


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


def arguments(doc: str | None, matches: int, *, profile: bool) -> argparse.Namespace:
    """A drawing benchmark's command line: ``--matches`` (and ``--profile`` where it has one)."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n")[0])
    parser.add_argument("--matches", type=int, default=matches, help=f"matches played (default {matches})")
    if profile:
        parser.add_argument("--profile", action="store_true")
    return parser.parse_args()


def setting() -> str:
    """Which tree is measured, with malloc set as a drawing worker's (``as_a_worker``), at what load."""
    return f"tree {Path(render.__file__).resolve().parents[1]}, {as_a_worker()}, load {load_average()}"


def print_profile(job: Callable[[], object], lines: int) -> None:
    """Run ``job`` under cProfile and print its ``lines`` costliest functions by their own time."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    job()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(lines)


def start(doc: str | None, matches: int, title: str, *, profile: bool) -> argparse.Namespace:
    """A drawing benchmark's command line read (``arguments``), its heading printed with the
    tree, malloc and load it runs on (``setting``), and the machine's floor before anything runs."""
    args = arguments(doc, matches, profile=profile)
    print(f"{title}, {setting()}")
    print(f"  floor machine: zlib level 1 of a fixed 2 MiB {machine_floor():6.2f} ms CPU")
    return args
