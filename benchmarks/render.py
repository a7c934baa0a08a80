"""Rendering benchmark: time and size of the Tiny Big Wars, Samurai Swords and Tiny Epic Defenders maps and panels.

Run from the repository root:  python benchmarks/render.py
Prints medians over many runs; CPU time is shown too, since wall time on a shared machine
includes waiting for a core. "warm" = the map's static layer and text sprites are cached
(every phase after the first in a running bot); "cold" = caches cleared before each draw.

    python benchmarks/render.py --matches 200          # draws in turn for 200 matches on one map
    python benchmarks/render.py --loop-lag 300 [--burst 8] [--workers 1]

`--loop-lag N` draws N Tiny Big Wars maps (20 matches' names, in bursts of concurrent draws, as
phase ends come in the bot) through bot/service/drawing.py while the event loop measures its
own lag: a task sleeps 5 ms again and again and records how late it wakes. Once with the draws
in a thread (DRAW_WORKERS=0, how the bot drew before) and once in the process pool. The floor
is the loop's lag with nothing drawing and the warm draw in this process.
"""

from __future__ import annotations

import asyncio
import copy
import io
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import render  # noqa: E402
from render import encode as encoding  # noqa: E402
from render import text  # noqa: E402
from render import tinybigwars as tbw  # noqa: E402
from tests.render import views  # noqa: E402


def median_ms(
    fn: Callable[[], object], runs: int, before: Callable[[], None] | None = None, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Median time of `fn` in milliseconds (wall clock unless another clock is given)."""
    times = []
    for _ in range(runs):
        if before:
            before()
        t = clock()
        fn()
        times.append(clock() - t)
    return statistics.median(times) * 1000


def clear_caches() -> None:
    tbw._STATIC.clear()
    text._SPRITES.clear()


def encode_variants(v: dict) -> None:
    """PNG encodings compared on one frame: why the fixed palette deflated by ISA-L at its level 1
    was chosen (Pillow's zlib at level 3 was used before)."""
    img = tbw.render_image(v)
    pal = tbw.static_layer(v).palette

    def save(im: Image.Image, level: int) -> bytes:
        buf = io.BytesIO()
        im.save(buf, format="PNG", compress_level=level)
        return buf.getvalue()

    def mapped() -> Image.Image:
        return img.quantize(palette=pal, dither=Image.Dither.NONE)

    variants: dict[str, Callable[[], bytes]] = {
        "RGB, zlib level 1": lambda: save(img, 1),
        "RGB, zlib level 6": lambda: save(img, 6),
        "adaptive 96 colours, zlib level 6": lambda: save(img.quantize(96, method=Image.Quantize.FASTOCTREE), 6),
        "fixed map palette, zlib level 1": lambda: save(mapped(), 1),
        "fixed map palette, zlib level 3": lambda: save(mapped(), 3),
        "fixed map palette, zlib level 6": lambda: save(mapped(), 6),
        "fixed map palette, ISA-L level 0": lambda: encoding.png(img, pal, 0),
        "fixed map palette, ISA-L level 1 (used)": lambda: encoding.png(img, pal, 1),
        "fixed map palette, ISA-L level 3": lambda: encoding.png(img, pal, 3),
    }
    for label, fn in variants.items():
        ms = median_ms(fn, 15)
        print(f"  encode {label:40s} {ms:6.1f} ms {len(fn()) / 1024:6.0f} KiB")


def main() -> None:
    runs = 40
    for label, build in (("3 seats, mid-game", views.three_seat_mid), ("4 seats, combat", views.four_seat_combat)):
        v = build()
        data = render.draw("tinybigwars", v, views.NAMES_4)
        warm = median_ms(lambda v=v: render.draw("tinybigwars", v, views.NAMES_4), runs)
        cpu = median_ms(lambda v=v: render.draw("tinybigwars", v, views.NAMES_4), runs, clock=time.thread_time)
        compose = median_ms(lambda v=v: tbw.render_image(v, views.NAMES_4), runs)
        cold = median_ms(lambda v=v: render.draw("tinybigwars", v, views.NAMES_4), 8, before=clear_caches)
        cold_cpu = median_ms(lambda v=v: render.draw("tinybigwars", v, views.NAMES_4), 8, before=clear_caches,
                             clock=time.thread_time)
        print(f"map {label:18s} {tbw.WIDTH}x{tbw.HEIGHT}: {warm:6.1f} ms warm ({cpu:.1f} ms CPU) "
              f"(compose {compose:.1f} ms), {cold:6.1f} ms cold ({cold_cpu:.1f} ms CPU), PNG {len(data) / 1024:.0f} KiB")
    sv = views.seat_view(views.four_seat_combat(), 3, {"energy_spend": 2, "use": "add hits"})
    pdata = render.draw_private("tinybigwars", sv, views.NAMES_4)
    pms = median_ms(lambda: render.draw_private("tinybigwars", sv, views.NAMES_4), runs)
    print(f"private panel {tbw.PRIVATE_SIZE[0]}x{tbw.PRIVATE_SIZE[1]}: {pms:6.1f} ms, PNG {len(pdata) / 1024:.0f} KiB")

    encode_variants(views.four_seat_combat())

    builders = list(views.ALL.values())
    frames = []
    per_frame = []
    for i in range(60):
        v = builders[i % len(builders)]()
        v["round"] = i // 4
        v["phase_label"] = f"Round {i // 4} - phase {i % 4}"
        t = time.perf_counter()
        frames.append(render.draw("tinybigwars", v))
        per_frame.append(time.perf_counter() - t)
    print(f"60 changing phases over 3 maps: median {statistics.median(per_frame) * 1000:.1f} ms per map "
          f"(first draws of each map included in the max: {max(per_frame) * 1000:.0f} ms)")
    t = time.perf_counter()
    gif = render.animate(frames)
    gms = (time.perf_counter() - t) * 1000
    print(f"replay GIF 60 frames (half size): {gms:6.0f} ms, {len(gif) / 1024:.0f} KiB")


def many_matches(matches: int, draws: int) -> None:
    """Draws in turn for `matches` live matches on one map whose location names differ per
    match (as seeded names do in the bot): what the static-layer cache gives under load."""
    variants = match_variants(matches)
    clear_caches()
    builds = tbw._STATIC.builds
    times = []
    for i in range(draws):
        v = variants[i % matches]
        t = time.thread_time()
        render.draw("tinybigwars", v, views.NAMES_4)
        times.append(time.thread_time() - t)
    later = sorted(times[matches:])
    first = sorted(times[:matches])
    print(f"map draws for {matches} matches on one map ({draws} draws in turn, names differ per match): "
          f"CPU mean {statistics.mean(times) * 1000:.1f} ms; after each match's first draw mean "
          f"{statistics.mean(later) * 1000:.1f}, p50 {statistics.median(later) * 1000:.1f}, "
          f"p99 {later[int(len(later) * 0.99) - 1] * 1000:.1f}; first draws mean {statistics.mean(first) * 1000:.1f}; "
          f"{tbw._STATIC.builds - builds} layer builds; load average {Path('/proc/loadavg').read_text().split()[0]}")


LAG_TICK = 0.005
"""Seconds the lag watcher sleeps; how much later it wakes is the loop's lag."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def match_variants(matches: int) -> list[dict]:
    """One mid-game view per match, whose location names differ per match (as seeded names do)."""
    base = views.three_seat_mid()
    variants = []
    for match in range(matches):
        v = copy.deepcopy(base)
        for location in v["locations"]:
            location["name"] = f"{location['name'][:14]} {match}"
        variants.append(v)
    return variants


async def lag_while(work: Callable[[], Awaitable[None]] | None, seconds: float = 1.0) -> list[float]:
    """Milliseconds the loop woke late, each LAG_TICK sleep, while `work()` (a coroutine) runs;
    without work, for `seconds` (the loop's own lag on this machine now)."""
    lags: list[float] = []
    done = asyncio.Event()

    async def watch() -> None:
        while not done.is_set():
            started = time.perf_counter()
            await asyncio.sleep(LAG_TICK)
            lags.append((time.perf_counter() - started - LAG_TICK) * 1000)

    watcher = asyncio.create_task(watch())
    if work is None:
        await asyncio.sleep(seconds)
    else:
        await work()
    done.set()
    await watcher
    return lags


async def loop_lag(draws: int, burst: int, workers: int) -> None:
    """Thread against process pool: the loop's lag while maps are drawn, and what a draw costs."""
    from bot.service.drawing import DrawingPool

    variants = match_variants(20)
    names = views.NAMES_4
    floor_cpu = []
    for v in variants * 2:  # the second round is warm
        started = time.thread_time()
        render.draw("tinybigwars", v, names)
        floor_cpu.append((time.thread_time() - started) * 1000)
    floor_cpu = floor_cpu[len(variants):]
    idle = await lag_while(None, 2.0)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"loop lag while drawing {draws} Tiny Big Wars maps in bursts of {burst} (20 matches' names), "
          f"load average {load}")
    print(f"  floor: loop lag with nothing drawing p50 {statistics.median(idle):.2f} / p99 "
          f"{percentile(idle, 0.99):.2f} ms; warm draw in this process {statistics.median(floor_cpu):.1f} ms CPU "
          f"(p99 {percentile(floor_cpu, 0.99):.1f})")
    for label, size in (("thread (DRAW_WORKERS=0)", 0), (f"process pool ({workers} worker)", workers)):
        pool = DrawingPool(size)
        try:
            started = time.perf_counter()
            await asyncio.gather(*(pool.draw("tinybigwars", v, names) for v in variants))  # start, warm caches
            warm_up = time.perf_counter() - started

            async def work(pool: DrawingPool = pool) -> None:
                for first in range(0, draws, burst):
                    await asyncio.gather(*(pool.draw("tinybigwars", variants[i % len(variants)], names)
                                           for i in range(first, min(draws, first + burst))))

            before = pool.figures()["draw"].count
            cpu, wall = time.process_time(), time.perf_counter()
            lags = await lag_while(work)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            samples = list(pool.figures()["draw"].samples)[-(pool.figures()["draw"].count - before):]
        finally:
            await pool.close()
        draw_cpu = [sample[0] for sample in samples]
        draw_wall = [sample[1] for sample in samples]
        print(f"  {label:26s} loop lag p50 {statistics.median(lags):6.2f} / p99 {percentile(lags, 0.99):6.2f} / "
              f"max {max(lags):6.1f} ms ({len(lags)} wake-ups); drawing side {statistics.fmean(draw_cpu):5.1f} ms CPU "
              f"a draw (p50 {statistics.median(draw_cpu):.1f}), wall p50 {statistics.median(draw_wall):.1f} ms a draw; "
              f"this process {1000 * cpu / len(samples):5.1f} ms CPU a draw; {len(samples)} draws in {wall:.1f} s "
              f"(warm-up {warm_up:.1f} s)")
    print(f"  load average after {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


def option(name: str, default: int) -> int:
    return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


# --------------------------------------------------------------------------- Samurai Swords


def samurai() -> None:
    """Samurai Swords: the 68-province map (warm/cold, size) and the private screen."""
    from render import samurai as sam
    from tests.render import samurai_views as sv

    def clear() -> None:
        sam._STATIC.clear()
        text._SPRITES.clear()

    runs = 30
    for name in ("base4_battle", "lwtv4_war", "qs5_levy"):
        v, names = sv.public(name), sv.names(name)
        data = render.draw("samurai", v, names)
        warm = median_ms(lambda v=v, names=names: render.draw("samurai", v, names), runs)
        cpu = median_ms(lambda v=v, names=names: render.draw("samurai", v, names), runs, clock=time.thread_time)
        compose = median_ms(lambda v=v, names=names: sam.render_image(v, names), runs)
        cold = median_ms(lambda v=v, names=names: render.draw("samurai", v, names), 5, before=clear)
        cold_cpu = median_ms(lambda v=v, names=names: render.draw("samurai", v, names), 5, before=clear,
                             clock=time.thread_time)
        print(f"samurai map {name:13s} {sam.WIDTH}x{sam.HEIGHT}: {warm:6.1f} ms warm ({cpu:.1f} ms CPU) "
              f"(compose {compose:.1f} ms), {cold:6.1f} ms cold ({cold_cpu:.1f} ms CPU), PNG {len(data) / 1024:.0f} KiB")
    seat_view = sv.seat_view("lwtv4_war", 1)
    pdata = render.draw_private("samurai", seat_view, sv.names("lwtv4_war"))
    pms = median_ms(lambda: render.draw_private("samurai", seat_view, sv.names("lwtv4_war")), runs)
    print(f"samurai private screen {sam.PRIVATE_SIZE[0]}x{sam.PRIVATE_SIZE[1]}: {pms:6.1f} ms, "
          f"PNG {len(pdata) / 1024:.0f} KiB")


# --------------------------------------------------------------------------- Tiny Epic Defenders


def defenders() -> None:
    """Tiny Epic Defenders: the ring map (warm/cold, size) and the private Defender panel."""
    from render import defenders as ted
    from tests.render import defenders_views as dv

    def clear() -> None:
        ted._STATIC.clear()
        text._SPRITES.clear()

    runs = 30
    for name in ("early", "mid_battle", "campaign_final"):
        v = dv.ALL[name]()
        names = dv.names(v)
        data = render.draw("defenders", v, names)
        warm = median_ms(lambda v=v, names=names: render.draw("defenders", v, names), runs)
        cpu = median_ms(lambda v=v, names=names: render.draw("defenders", v, names), runs, clock=time.thread_time)
        compose = median_ms(lambda v=v, names=names: ted.render_image(v, names), runs)
        cold = median_ms(lambda v=v, names=names: render.draw("defenders", v, names), 5, before=clear)
        cold_cpu = median_ms(lambda v=v, names=names: render.draw("defenders", v, names), 5, before=clear,
                             clock=time.thread_time)
        print(f"defenders map {name:14s} {ted.WIDTH}x{ted.HEIGHT}: {warm:6.1f} ms warm ({cpu:.1f} ms CPU) "
              f"(compose {compose:.1f} ms), {cold:6.1f} ms cold ({cold_cpu:.1f} ms CPU), PNG {len(data) / 1024:.0f} KiB")
    seat_view = dv.seat_view(dv.mid_battle(), 2)
    size = ted.private_size(seat_view)
    pdata = render.draw_private("defenders", seat_view, dv.NAMES)
    pms = median_ms(lambda: render.draw_private("defenders", seat_view, dv.NAMES), runs)
    print(f"defenders private panel {size[0]}x{size[1]}: {pms:6.1f} ms, PNG {len(pdata) / 1024:.0f} KiB")


if __name__ == "__main__":
    if "--matches" in sys.argv:
        many_matches(int(sys.argv[sys.argv.index("--matches") + 1]), 600)
        sys.exit(0)
    if "--loop-lag" in sys.argv:
        from bot.service.drawing import default_workers

        asyncio.run(loop_lag(option("--loop-lag", 300), option("--burst", 8), option("--workers", default_workers())))
        sys.exit(0)
    main()
    samurai()
    defenders()
