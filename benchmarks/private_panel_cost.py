"""A seat's private panel in a drawing worker: its CPU, and the share of mapping it onto its palette.

    nice -n 5 python benchmarks/private_panel_cost.py [--matches 20]

Every seat's view at every third choice of ``matches`` seeded Tiny Big Wars matches (two seats,
two rounds, as discord_load.py plays them), each panel drawn as a worker draws it
(``render.draw_private``: the picture, its PNG), by thread CPU: once (the match's names new to the
process) and then again (all its text drawn before). Then the same panels' parts, the plain way:
the picture (``render_private_image``), the whole panel mapped onto the palette, the PNG written.

Floor: "machine", zlib level 1 of a fixed 2 MiB, before and after (to compare runs and trees).
Only public entry points, so it times an older tree too (run it with that tree's PYTHONPATH).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

import engine  # noqa: E402
import render  # noqa: E402
from benchmarks.draw_floors import load_average, machine_floor, mean_ms, start  # noqa: E402
from bot.simulate import simulate  # noqa: E402
from render import encode  # noqa: E402
from render.tinybigwars import private  # noqa: E402

GAME, SEATS, OPTIONS = "tinybigwars", 2, {"round_limit": 2}


def seat_views(matches: int) -> list[tuple[dict[str, Any], list[str]]]:
    game = engine.get(GAME)
    found = []
    for seed in range(1, matches + 1):
        working = engine.Working(game, game.setup(SEATS, engine.parse_options(game, OPTIONS), seed), owned=True)
        names = [f"Player {seed}a", f"Player {seed}b"]
        for index, (seat, choice) in enumerate(simulate(GAME, SEATS, seed, options=OPTIONS)["log"]):
            if index % 3 == 0:
                found.append((game.view(working.state, seat), names))
            working.submit(seat, choice)
    return found


def boxes_way(panels: list[tuple[dict[str, Any], list[str]]]) -> None:
    """Trees whose panel maps only what it drew in: the PNG of the same pictures both ways,
    interleaved panel by panel (the whole panel mapped, ``encode.png``; the boxes on the seat's
    mapped bare canvas, ``draw_private``'s way), and the share of the panel mapped."""
    if not hasattr(private, "drawn_boxes"):
        print("  (this tree maps the whole panel)")
        return
    pal = private._private_palette()
    whole_times, boxes_times, shares = [], [], []
    width, height = private.PRIVATE_SIZE
    for item in panels:
        image, seat, spans = private._panel(*item)
        boxes = private.drawn_boxes(spans)
        private._bare_rows(seat)
        started = time.thread_time()
        whole = encode.png(image, pal)
        middle = time.thread_time()
        rows = bytearray(private._bare_rows(seat))
        target = encode.writable_rows(rows, image.size)
        for box in boxes:
            encode.paste_mapped(target, encode.cut(image, box), box, pal)
        boxes_png = encode.rows_png(rows, image.size, encode.palette_entries(pal))
        ended = time.thread_time()
        assert boxes_png == whole
        whole_times.append(middle - started)
        boxes_times.append(ended - middle)
        shares.append(sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) / (width * height))
    print(f"  its PNG from the same pictures: the whole panel mapped {statistics.fmean(whole_times) * 1000:5.2f} ms, "
          f"only what it drew ({statistics.fmean(shares) * 100:3.0f} % of it) on its bare canvas's rows "
          f"{statistics.fmean(boxes_times) * 1000:5.2f} ms")


def main() -> None:
    args = start(__doc__, 20, "private panel CPU (thread time)", profile=False)
    panels = seat_views(args.matches)
    render.draw_private(GAME, *seat_views(1)[0])  # fonts and the palette loaded
    first = mean_ms(panels, lambda item: render.draw_private(GAME, *item))
    again = mean_ms(panels, lambda item: render.draw_private(GAME, *item))
    pal = private._private_palette()
    pictures = [private.render_private_image(*item) for item in panels]
    picture = mean_ms(panels, lambda item: private.render_private_image(*item))
    mapped = [image.quantize(palette=pal, dither=Image.Dither.NONE) for image in pictures]
    mapping = mean_ms(pictures, lambda image: image.quantize(palette=pal, dither=Image.Dither.NONE))
    writing = mean_ms(mapped, encode.indexed_png)
    print(f"  {len(panels)} panels: draw_private {first:5.2f} ms CPU (new text), {again:5.2f} ms again")
    print(f"  plain parts (again): picture {picture:5.2f} ms, the whole panel mapped {mapping:5.2f} ms, "
          f"PNG rows and deflate {writing:5.2f} ms")
    boxes_way(panels)
    print(f"  floor machine again                          {machine_floor():6.1f} ms CPU; load {load_average()}")


if __name__ == "__main__":
    main()
