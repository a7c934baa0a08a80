"""CPU a drawing worker spends on each kind of draw, beside floors measured in the same run.

    nice -n 5 python benchmarks/draw_cost.py [--runs 30] [--replays 8]

What bot/service/drawing.py's workers draw, each timed by thread CPU (the clock the pool counts a
worker's draw with), as the median of warm runs (static layers and text sprites cached, as in a
worker after a match's first map), in this process set up as a worker is (malloc's thresholds,
``reuse_freed_memory``, where the tree has it):

- Tiny Big Wars maps of 40 matches drawn in turn (each match's city named its own way), as a
  worker draws the phase ends of running matches: mean CPU and page faults a map;

- Tiny Big Wars phase ends of 40 seeded matches (two seats, two rounds, as discord_load.py
  plays them; each match's players named their own way), drawn in turn as a worker meets them:
  every map is a new view (new event lines, captions, hero rows), so this is the cost in the bot,
  not a warm redraw of one view: mean CPU, and the text sprites drawn anew a map;
- the public map of each game (Tiny Big Wars, Samurai Swords, Tiny Epic Defenders) and its PNG size,
  and the share of it that is the PNG (palette mapping and deflate, ``render.encode.png``);
- a Tiny Big Wars private panel;
- the replay GIF of seeded heuristic matches (``bot.service.history.draw_replay``: the log replayed
  through the engine, every public phase end drawn, halved and written as GIF) and its size.

Floors, in the same run:

- "machine": a fixed job (zlib level 1 of the same 2 MiB every run), to compare runs and trees;
- "engine": the replay's public views from its log alone (``public_frames``), which no drawing
  change removes.

Only public entry points are used, so the same script times an older tree (run it with that
tree's PYTHONPATH) for a before/after pair.
"""

from __future__ import annotations

import argparse
import copy
import io
import random
import resource
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import render  # noqa: E402
from bot.service import drawing  # noqa: E402
from bot.service.history import draw_replay, public_frames  # noqa: E402
from bot.simulate import simulate  # noqa: E402
from tests.render import defenders_views, samurai_views, views  # noqa: E402


def cpu_ms(job: Callable[[], object], runs: int) -> float:
    """Median thread CPU of `job` in milliseconds."""
    times = []
    for _ in range(runs):
        started = time.thread_time()
        job()
        times.append(time.thread_time() - started)
    return statistics.median(times) * 1000


def machine_floor(runs: int) -> float:
    """zlib level 1 of a fixed 2 MiB (pseudo-random bytes over a small alphabet, seeded)."""
    rng = random.Random(32)
    data = bytes(rng.choice(b"abcdefgh") for _ in range(1 << 16)) * 32
    return cpu_ms(lambda: zlib.compress(data, 1), runs)


def matches_in_turn(matches: int = 40, rounds: int = 3) -> None:
    variants = []
    for match in range(matches):
        view = copy.deepcopy(views.three_seat_mid())
        for location in view["locations"]:
            location["name"] = f"{location['name'][:14]} {match}"
        variants.append(view)
    for view in variants:
        render.draw("tinybigwars", view, views.NAMES_4[:3])
    times = []
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for view in variants * rounds:
        started = time.thread_time()
        render.draw("tinybigwars", view, views.NAMES_4[:3])
        times.append(time.thread_time() - started)
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / len(times)
    print(f"  map tinybigwars {matches} matches in turn  {statistics.fmean(times) * 1000:6.1f} ms CPU mean "
          f"(p50 {statistics.median(times) * 1000:.1f}), {faults:5.0f} page faults a map")


def phase_ends_in_turn(matches: int = 40) -> None:
    per_match = []
    for seed in range(1, matches + 1):
        log = simulate("tinybigwars", 2, seed, options={"round_limit": 2})["log"]
        frames = public_frames("tinybigwars", 2, {"round_limit": 2}, seed, log)
        per_match.append((frames, [f"Player {seed}a", f"Player {seed}b"]))
    # every match's first map drawn before timing: its static layer built, as in a worker
    for frames, names in per_match:
        render.draw("tinybigwars", frames[0], names)
    sprites = render.text._SPRITES.builds
    times = []
    for index in range(1, max(len(frames) for frames, _ in per_match)):
        for frames, names in per_match:
            if index < len(frames):
                started = time.thread_time()
                render.draw("tinybigwars", frames[index], names)
                times.append(time.thread_time() - started)
    sprites = (render.text._SPRITES.builds - sprites) / len(times)
    print(f"  map tinybigwars phase ends of {matches} matches in turn, each map new  "
          f"{statistics.fmean(times) * 1000:6.1f} ms CPU mean (p50 {statistics.median(times) * 1000:.1f}), "
          f"{len(times)} maps, {sprites:4.1f} text sprites drawn a map")


def maps(runs: int) -> None:
    cases = [
        ("tinybigwars", "4 seats, combat", views.four_seat_combat(), views.NAMES_4),
        ("tinybigwars", "3 seats, mid-game", views.three_seat_mid(), views.NAMES_4[:3]),
        ("samurai", "lwtv4_war", samurai_views.public("lwtv4_war"), samurai_views.names("lwtv4_war")),
        ("samurai", "base4_battle", samurai_views.public("base4_battle"), samurai_views.names("base4_battle")),
        ("defenders", "mid_battle", defenders_views.mid_battle(), defenders_views.names(defenders_views.mid_battle())),
        ("defenders", "early", defenders_views.early(), defenders_views.names(defenders_views.early())),
    ]
    for game, label, view, names in cases:
        module = render.RENDERERS[game]
        data = render.draw(game, view, names)
        total = cpu_ms(lambda game=game, view=view, names=names: render.draw(game, view, names), runs)
        picture = module.picture(view, names)  # type: ignore[attr-defined]
        encode = cpu_ms(lambda picture=picture: render.encode.png(picture.image, picture.palette), runs)
        print(f"  map {game:11s} {label:18s} {total:6.1f} ms CPU (PNG {encode:4.1f} of it)  {len(data) / 1024:5.0f} KiB")
    seat = views.seat_view(views.four_seat_combat(), 3, {"energy_spend": 2, "use": "add hits"})
    data = render.draw_private("tinybigwars", seat, views.NAMES_4)
    total = cpu_ms(lambda: render.draw_private("tinybigwars", seat, views.NAMES_4), runs)
    print(f"  private panel tinybigwars            {total:6.1f} ms CPU               {len(data) / 1024:5.0f} KiB")


REPLAYS = [
    ("tinybigwars", 2, {"round_limit": 2}, 11, "TBW 2 seats, 2 rounds (discord_load.py's)"),
    ("tinybigwars", 4, {"round_limit": 2}, 5, "TBW 4 seats, 2 rounds"),
    ("samurai", 4, {}, 3, "Samurai 4 seats"),
    ("defenders", 2, {}, 4, "Defenders 2 seats"),
]


def replays(runs: int) -> None:
    for game, seats, options, seed, label in REPLAYS:
        log = simulate(game, seats, seed, options=options)["log"]
        names = [f"Player {seat + 1}" for seat in range(seats)]
        if game == "samurai":  # a whole match is 50-70 frames: its first 300 choices
            log = log[:300]
        args = (game, seats, options, seed, log, names)
        frames = len(public_frames(*args[:5]))
        gif = draw_replay(*args)
        engine = cpu_ms(lambda args=args: public_frames(*args[:5]), runs)
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        total = cpu_ms(lambda args=args: draw_replay(*args), runs)
        faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / runs
        print(f"  replay {label:42s} {frames:3d} frames {total:7.1f} ms CPU (engine floor {engine:5.1f}; "
              f"{(total - engine) / frames:5.1f} ms a frame)  GIF {len(gif.data) / 1024:5.0f} KiB, "
              f"{faults:6.0f} page faults a replay")
        check = Image.open(io.BytesIO(gif.data))
        assert check.n_frames == gif.frames == frames, (check.n_frames, gif.frames, frames)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="warm draws timed per map (default 30)")
    parser.add_argument("--replays", type=int, default=8, help="runs timed per replay (default 8)")
    args = parser.parse_args()
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    reuse = getattr(drawing, "reuse_freed_memory", None)
    as_worker = "malloc set as a worker's" if reuse is not None and reuse() else "malloc's defaults"
    print(f"draw CPU (thread time, medians), tree {Path(render.__file__).resolve().parents[1]}, {as_worker}, "
          f"load {load}")
    print(f"  floor machine: zlib level 1 of a fixed 2 MiB {machine_floor(9):6.1f} ms CPU")
    matches_in_turn()
    phase_ends_in_turn()
    maps(args.runs)
    replays(args.replays)
    print(f"  floor machine again                          {machine_floor(9):6.1f} ms CPU; load "
          f"{' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    main()
