"""Rendering benchmark: time and size of the Tiny Big Wars map, private panel and replay GIF.

Run from the repository root:  python benchmarks/render.py
Prints medians over many runs. "warm" = the map's static layer and text sprites are cached
(every phase after the first in a running bot); "cold" = caches cleared before each draw.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render  # noqa: E402
from render import text  # noqa: E402
from render import tinybigwars as tbw  # noqa: E402
from tests.render import views  # noqa: E402


def median_ms(fn: Callable[[], object], runs: int, before: Callable[[], None] | None = None) -> float:
    """Median wall time of `fn` in milliseconds."""
    times = []
    for _ in range(runs):
        if before:
            before()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def clear_caches() -> None:
    tbw._STATIC.clear()
    text._SPRITES.clear()


def main() -> None:
    runs = 40
    for label, build in (("3 seats, mid-game", views.three_seat_mid), ("4 seats, combat", views.four_seat_combat)):
        v = build()
        data = render.draw("tinybigwars", v, views.NAMES_4)
        warm = median_ms(lambda v=v: render.draw("tinybigwars", v, views.NAMES_4), runs)
        compose = median_ms(lambda v=v: tbw.render_image(v, views.NAMES_4), runs)
        cold = median_ms(lambda v=v: render.draw("tinybigwars", v, views.NAMES_4), 8, before=clear_caches)
        print(f"map {label:18s} {tbw.WIDTH}x{tbw.HEIGHT}: {warm:6.1f} ms warm "
              f"(compose {compose:.1f} ms), {cold:6.1f} ms cold, PNG {len(data) / 1024:.0f} KiB")
    sv = views.seat_view(views.four_seat_combat(), 3, {"energy_spend": 2, "use": "add hits"})
    pdata = render.draw_private("tinybigwars", sv, views.NAMES_4)
    pms = median_ms(lambda: render.draw_private("tinybigwars", sv, views.NAMES_4), runs)
    print(f"private panel {tbw.PRIVATE_SIZE[0]}x{tbw.PRIVATE_SIZE[1]}: {pms:6.1f} ms, PNG {len(pdata) / 1024:.0f} KiB")

    builders = list(views.ALL.values())
    frames = []
    for i in range(60):
        v = builders[i % len(builders)]()
        v["round"] = i // 4
        v["phase_label"] = f"Round {i // 4} - phase {i % 4}"
        frames.append(render.draw("tinybigwars", v))
    t = time.perf_counter()
    gif = render.animate(frames)
    gms = (time.perf_counter() - t) * 1000
    print(f"replay GIF 60 frames (half size): {gms:6.0f} ms, {len(gif) / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
