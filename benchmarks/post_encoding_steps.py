"""CPU of a phase post's encoding step by step (its PNG and its replay frame from a drawn map),
the way of session 25 beside this tree's, paired post by post, beside the machine floor.

    nice -n 5 python benchmarks/post_encoding_steps.py [--matches 40]

The phase ends of ``matches`` seeded Tiny Big Wars matches (as benchmarks/phase_map_cost.py plays
them: two seats, two rounds, each post titled with the phase it closes and its replay frame with
the phase after it). Each post's map is drawn (not timed), then its PNG and replay frame are made
both ways, which first alternating post by post, each step timed by thread CPU:

- before (68fb8a4): a copy of the layer's indices and of its half map; each box cut out, mapped
  onto the palette, pasted, halved, the half mapped and pasted; the frame's title rows drawn,
  halved, mapped and pasted; the PNG's rows made new (width + 1), the indices pasted in whole,
  ``tobytes``; ISA-L; the chunks; the frame as a GIF by Pillow's ``save`` (``anim.piece`` then).
- this tree (``render.post_and_frame`` in its parts): a copy of the layer's PNG rows (bytes)
  and half map; each box cut out, mapped, pasted into the rows (through an image sharing their
  memory), halved below the title rows, mapped and pasted (Pillow's core operations, without
  their Python wrappers); the title rows as before; ISA-L straight from the rows; the chunks;
  the frame's GIF block from Pillow's LZW encoder, rows in order (``anim.piece``).

Both ways' PNG are checked equal to ``render.post_and_frame``'s, and their frames' pixels
equal (this tree's frame block is ``post_and_frame``'s; 68fb8a4's was interlaced, bytes apart
for the same pixels: tests/render/test_frame_encoding.py). Needs this tree (its
``render.encode.Layer.rows``); for the before figures of another tree run phase_map_cost.py.
"""

from __future__ import annotations

import io
import statistics
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render  # noqa: E402
from benchmarks.draw_floors import load_average, machine_floor, start  # noqa: E402
from benchmarks.phase_map_cost import GAME, posts  # noqa: E402
from render import anim, encode  # noqa: E402

Steps = dict[str, float]


class Clock:
    """Thread CPU of named steps, added up over a post."""

    def __init__(self) -> None:
        self.steps: Steps = {}
        self.last = time.thread_time()

    def restart(self) -> None:
        self.last = time.thread_time()

    def __call__(self, step: str) -> None:
        now = time.thread_time()
        self.steps[step] = self.steps.get(step, 0.0) + now - self.last
        self.last = now


_INDEXED: dict[int, Image.Image] = {}
"""68fb8a4's ``Layer.indexed`` of each layer (by its rows' id: the layers live as long as this run)."""
Made = tuple[bytes, bytes, bytes]
"""A way's PNG, its replay frame's GIF block, and the frame's indices (the pixels a viewer sees)."""


def before(picture: encode.Picture, frame_view: dict[str, Any], names: list[str], clock: Clock) -> Made:
    """Session 25's way (68fb8a4's render.post_and_frame), from this tree's layer."""
    layer, palette = picture.layer, picture.palette
    assert layer is not None and palette is not None
    module = render.RENDERERS[GAME]
    width, height = picture.image.size
    indexed = _INDEXED.get(id(layer.rows))
    if indexed is None:  # the layer's indices as 68fb8a4 held them, made once a layer
        rows = Image.frombytes("P", (width + 1, height), layer.rows)
        indexed = _INDEXED[id(layer.rows)] = rows.crop((1, 0, width + 1, height))
        indexed.putpalette(palette.getpalette() or [])
    clock.restart()
    whole = indexed.copy()
    clock("copy the layer's maps")
    half = layer.halved.copy()
    clock("copy the layer's maps")
    for x0, y0, x1, y1 in layer.boxes:
        cut = picture.image.crop((x0, y0, x1, y1))
        clock("cut the boxes")
        mapped = cut.quantize(palette=palette, dither=Image.Dither.NONE)
        clock("map the boxes")
        whole.paste(mapped, (x0, y0))
        clock("paste the boxes")
        small = cut.reduce(2)
        clock("halve the boxes")
        small_mapped = small.quantize(palette=palette, dither=Image.Dither.NONE)
        clock("map the half boxes")
        half.paste(small_mapped, (x0 // 2, y0 // 2))
        clock("paste the boxes")
    title = module.title_rows(frame_view, names)  # type: ignore[attr-defined]
    clock("draw the title rows")
    half.paste(title.reduce(2).quantize(palette=palette, dither=Image.Dither.NONE), (0, 0))
    clock("halve, map, paste the title rows")
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(whole, (1, 0))
    clock("the PNG rows (new, paste whole)")
    raw = rows.tobytes()
    clock("the rows' bytes")
    compressed = encode.isal_zlib.compress(raw, encode.COMPRESS_LEVEL)
    clock("ISA-L deflate")
    entries = bytes(whole.getpalette() or [])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    png = b"".join((encode.PNG_SIGNATURE, encode._chunk(b"IHDR", header), encode._chunk(b"PLTE", entries[:768]),
                    encode._chunk(b"IDAT", compressed), encode._chunk(b"IEND", b"")))
    clock("PNG chunks")
    buffer = io.BytesIO()
    half.save(buffer, format="GIF", optimize=False)
    data = buffer.getvalue()
    clock("GIF: Pillow's save")
    at = 13 + anim.PALETTE_BYTES
    piece = data[13:at] + data[at:-1]
    clock("GIF: the rest")
    return png, piece, half.tobytes()


def this_tree(picture: encode.Picture, frame_view: dict[str, Any], names: list[str], clock: Clock) -> Made:
    """This tree's render.post_and_frame, step by step."""
    layer, palette = picture.layer, picture.palette
    assert layer is not None and palette is not None
    module = render.RENDERERS[GAME]
    below = module.TITLE_ROWS  # type: ignore[attr-defined]
    clock.restart()
    rows, half = bytearray(layer.rows), layer.halved.copy()
    clock("copy the layer's maps")
    target = encode.writable_rows(rows, picture.image.size)
    clock("paste the boxes")
    for box in layer.boxes:
        x0, y0, x1, y1 = box
        pixels = encode.cut(picture.image, box)
        clock("cut the boxes")
        mapped = pixels.convert("P", Image.Dither.NONE, palette.im)
        clock("map the boxes")
        target.im.paste(mapped, (x0 + 1, y0, x1 + 1, y1))
        clock("paste the boxes")
        top = max(y0, below)
        if top < y1:
            small = pixels.reduce((2, 2), (0, top - y0, x1 - x0, y1 - y0))
            clock("halve the boxes")
            small_mapped = small.convert("P", Image.Dither.NONE, palette.im)
            clock("map the half boxes")
            half.im.paste(small_mapped, (x0 // 2, top // 2, x1 // 2, y1 // 2))
            clock("paste the boxes")
    title = module.title_rows(frame_view, names)  # type: ignore[attr-defined]
    clock("draw the title rows")
    half.paste(anim.on_palette(anim.halve(title), palette), (0, 0))
    clock("halve, map, paste the title rows")
    compressed = encode.isal_zlib.compress(rows, encode.COMPRESS_LEVEL)
    clock("ISA-L deflate")
    header = struct.pack(">IIBBBBB", *picture.image.size, 8, 3, 0, 0, 0)
    png = b"".join((encode.PNG_SIGNATURE, encode._chunk(b"IHDR", header),
                    encode._chunk(b"PLTE", encode.palette_entries(palette)[:768]),
                    struct.pack(">I", len(compressed)), b"IDAT", compressed,
                    struct.pack(">I", encode.isal_zlib.crc32(compressed, encode.isal_zlib.crc32(b"IDAT"))),
                    encode._chunk(b"IEND", b"")))
    clock("PNG chunks")
    piece = anim.piece(half)
    clock("GIF: the LZW block")
    return png, piece, half.tobytes()


def main() -> None:
    args = start(__doc__, 40, "a phase post's PNG + replay frame, step by step (thread CPU)", profile=False)
    group = posts(args.matches, 4001)
    module = render.RENDERERS[GAME]
    seen = set()
    for post, _, names in group:
        if names[0] not in seen:  # the match's layer built, as after its first post
            seen.add(names[0])
            render.draw(GAME, post, names)
    ways: dict[str, Callable[..., Made]] = {"before": before, "this tree": this_tree}
    totals: dict[str, list[float]] = {name: [] for name in ways}
    steps: dict[str, list[Steps]] = {name: [] for name in ways}
    for turn, (post, frame, names) in enumerate(group):
        picture = module.picture(post, names)  # type: ignore[attr-defined]
        made: dict[str, Made] = {}
        for name in (list(ways) if turn % 2 else list(ways)[::-1]):
            clock = Clock()
            made[name] = ways[name](picture, frame, names, clock)
            totals[name].append(sum(clock.steps.values()))
            steps[name].append(clock.steps)
        png, piece = render.post_and_frame(GAME, picture, post, names, frame)
        assert made["before"][0] == made["this tree"][0] == png, "a way's PNG differs from render.post_and_frame's"
        assert made["this tree"][1] == piece, "the frame differs from render.post_and_frame's"
        assert made["before"][2] == made["this tree"][2], "the frames' pixels differ"
    names_in_order = list(dict.fromkeys(step for name in ways for post_steps in steps[name] for step in post_steps))
    print(f"  {len(group)} posts, ms CPU mean a post    {'before':>8} {'this tree':>10}")
    for step in names_in_order:
        figures = [statistics.fmean(post_steps.get(step, 0.0) for post_steps in steps[name]) * 1000 for name in ways]
        print(f"  {step:34s} {figures[0]:8.3f} {figures[1]:10.3f}")
    means = [statistics.fmean(totals[name]) * 1000 for name in ways]
    print(f"  {'total':34s} {means[0]:8.3f} {means[1]:10.3f}")
    print(f"  floor machine again: {machine_floor():6.2f} ms CPU; load {load_average()}")


if __name__ == "__main__":
    main()
