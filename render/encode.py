"""PNG encoding with a palette fixed per map.

Adaptive quantization of a 1200×900 frame costs ~15 ms; mapping onto a palette built once
per map costs ~2 ms, and the result is deterministic (it depends on the map only, never on
which frames were drawn before). The palette is the static layer's own colours plus blends
of every drawing colour with the usual backgrounds, so antialiased edges find a close match.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import NamedTuple

from PIL import Image

from render import palette

RGB = tuple[int, int, int]


class Picture(NamedTuple):
    """A public map before encoding: the RGB image and its map's fixed palette (None: adaptive).
    A map post encodes it as PNG; a replay halves and maps it straight onto the palette."""

    image: Image.Image
    palette: Image.Image | None

BLEND_STEPS = (0.2, 0.4, 0.6, 0.8)


def drawing_colours() -> list[RGB]:
    """Every colour the renderers draw with, besides the static layer."""
    seat = list(palette.SEAT_COLOURS)
    tints = [palette.tint(c, 0.6, palette.PLATE) for c in seat] + [palette.tint(palette.COMBAT, a) for a in (0.25, 0.5, 0.75)]
    fixed = [
        palette.NEUTRAL, palette.BACKGROUND, palette.BACKGROUND_EDGE, palette.PANEL, palette.PANEL_EDGE, palette.PLATE,
        palette.PLATE_EDGE, palette.TEXT, palette.TEXT_DIM, palette.OUTLINE, palette.COIN, palette.INFLUENCE,
        palette.HEALTH, palette.ENERGY, palette.EMPTY_PIP, palette.ALERT, palette.COMBAT, palette.ROAD,
        (70, 30, 36), (255, 150, 80), (200, 60, 60), (240, 230, 210), (90, 60, 40), (60, 160, 220), (250, 250, 250),
        (150, 90, 60), (170, 150, 120), (250, 250, 245), (150, 150, 158),
    ]
    return seat + tints + fixed


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def fixed_palette(base: Image.Image, colours: Iterable[RGB], base_colours: int = 64) -> Image.Image:
    """A "P" image whose palette holds `colours` exactly, `base`'s colours and their blends."""
    exact = list(dict.fromkeys(colours))[:128]
    grounds = [palette.OUTLINE, palette.BACKGROUND_EDGE, palette.PLATE, palette.PANEL, palette.TEXT]
    swatches = [_mix(c, g, t) for c in exact for g in grounds for t in BLEND_STEPS]
    probe = Image.new("RGB", (len(swatches), 1))
    probe.putdata(swatches)
    n_blends = 256 - len(exact) - base_colours
    blends = probe.quantize(n_blends, method=Image.Quantize.FASTOCTREE)
    own = base.convert("RGB").quantize(base_colours, method=Image.Quantize.FASTOCTREE)
    entries = [v for c in exact for v in c]
    entries += (own.getpalette() or [])[: 3 * base_colours] + (blends.getpalette() or [])[: 3 * n_blends]
    entries += [0] * (768 - len(entries))
    pal = Image.new("P", (1, 1))
    pal.putpalette(entries[:768])
    return pal


def png(img: Image.Image, pal: Image.Image | None = None, compress_level: int = 3) -> bytes:
    """PNG bytes of an RGB image, mapped onto `pal` (or adaptively quantized without one)."""
    if pal is not None:
        q = img.quantize(palette=pal, dither=Image.Dither.NONE)
    else:
        q = img.quantize(128, method=Image.Quantize.FASTOCTREE)
    buf = io.BytesIO()
    q.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()
