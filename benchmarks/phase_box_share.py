"""How much of a phase post's map is mapped anew, and what that mapping costs, beside floors.

    nice -n 5 python benchmarks/phase_box_share.py [--matches 40]

The phase posts of ``matches`` seeded Tiny Big Wars matches (two seats, two rounds, as
discord_load.py plays them; the posts benchmarks/phase_map_cost.py pairs), each map drawn once
(``picture``). For the boxes its picture's layer says the phase drew in (``Picture.layer.boxes``):

- share: the boxes' pixels (each counted once) over the whole map's, mean a post; and the pixels
  the boxes crop, map and halve (overlaps counted twice), and how many boxes;
- CPU, thread time, mean a post: the map's picture (drawing and finding its boxes); the post's
  PNG indices and replay frame indices from the boxes (``render.anim.indices``: cropping, mapping,
  halving and pasting the boxes on the mapped layer), the part the boxes decide; and the PNG
  alone (``render.encode.picture_png``: a map drawn without its replay frame).

Floors in the same run: the machine's (zlib level 1 of a fixed 2 MiB) at the start and the end.
Only public entry points, so it measures an older tree too (copy it there; run with that tree's
PYTHONPATH).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render  # noqa: E402
from benchmarks.draw_floors import arguments, machine_floor, setting  # noqa: E402
from benchmarks.phase_map_cost import posts  # noqa: E402
from render import anim, encode  # noqa: E402

GAME = "tinybigwars"


def covered(boxes: tuple[tuple[int, int, int, int], ...], width: int, height: int) -> int:
    """Pixels inside at least one of ``boxes`` (rows swept, each row's spans joined)."""
    total = 0
    for y in range(height):
        spans = sorted((x0, x1) for x0, y0, x1, y1 in boxes if y0 <= y < y1)
        end = 0
        for x0, x1 in spans:
            if x1 > end:
                total += x1 - max(x0, end)
                end = x1
    return total


def main() -> None:
    args = arguments(__doc__, 40, profile=False)
    print(f"phase post boxes ({setting()})")
    print(f"  floor machine: zlib level 1 of a fixed 2 MiB        {machine_floor():6.2f} ms CPU")
    module = render.RENDERERS[GAME]
    group = posts(args.matches, 2001)
    seen = set()
    for post, _, names in group:
        if names[0] not in seen:  # each match's layer built, as after its first post
            seen.add(names[0])
            module.picture(post, names)  # type: ignore[attr-defined]
    shares, mapped, counts, drawn, indices, pngs = [], [], [], [], [], []
    for post, _, names in group:
        started = time.thread_time()
        picture = module.picture(post, names)  # type: ignore[attr-defined]
        drawn.append(time.thread_time() - started)
        started = time.thread_time()
        anim.indices(picture)
        indices.append(time.thread_time() - started)
        started = time.thread_time()
        encode.picture_png(picture)
        pngs.append(time.thread_time() - started)
        assert picture.layer is not None
        boxes = picture.layer.boxes
        width, height = picture.image.size
        shares.append(covered(boxes, width, height) / (width * height))
        mapped.append(sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) / (width * height))
        counts.append(len(boxes))
    print(f"  {len(group)} posts: boxes cover {statistics.fmean(shares):6.1%} of the map (mean), crop and map "
          f"{statistics.fmean(mapped):6.1%}, {statistics.fmean(counts):5.1f} boxes a post")
    draw_ms, indices_ms, png_ms = (statistics.fmean(times) * 1000 for times in (drawn, indices, pngs))
    print(f"  the map's picture {draw_ms:6.2f} ms CPU mean; PNG + frame indices from the boxes {indices_ms:5.2f} "
          f"(sum {draw_ms + indices_ms:5.2f}); the PNG alone {png_ms:5.2f} (sum {draw_ms + png_ms:5.2f})")
    print(f"  floor machine again                                 {machine_floor():6.2f} ms CPU")


if __name__ == "__main__":
    main()
