"""Shared helpers for the render tests: decode PNGs and compare pixels with a tolerance."""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).with_name("golden")
MAX_DIFF = 0.005
"""At most 0.5 % of the pixels may differ by more than 40 in some channel (room for FreeType or
zlib differences, none for a changed drawing)."""
REGEN = os.environ.get("WARHOST_REGEN_GOLDEN") == "1"


def open_png(data: bytes) -> Image.Image:
    """Decode PNG bytes (and check they are a PNG) into an RGB image."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB")


def diff_fraction(a: Image.Image, b: Image.Image, threshold: int = 40, box: tuple[int, int, int, int] | None = None) -> float:
    """Fraction of pixels whose largest channel difference exceeds `threshold`."""
    if box:
        a, b = a.crop(box), b.crop(box)
    assert a.size == b.size
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    r, g, bl = diff.split()
    peak = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    over = peak.point(lambda v: 255 if v > threshold else 0)
    return over.histogram()[255] / (a.width * a.height)


def has_colour(img: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int], tol: int = 8) -> bool:
    """True if some pixel inside `box` is within `tol` per channel of `colour`."""
    region = img.crop(box).convert("RGB")
    for count, pixel in region.getcolors(maxcolors=region.width * region.height) or []:
        if count and all(abs(p - c) <= tol for p, c in zip(pixel, colour, strict=True)):
            return True
    return False


def check_golden(name: str, data: bytes) -> None:
    """Compare a drawing with its golden PNG (or rewrite the golden with WARHOST_REGEN_GOLDEN=1)."""
    path = GOLDEN / f"{name}.png"
    if REGEN:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(data)
    assert path.is_file(), f"missing golden {path}; run with WARHOST_REGEN_GOLDEN=1"
    expected = Image.open(path).convert("RGB")
    actual = open_png(data)
    assert actual.size == expected.size
    frac = diff_fraction(actual, expected)
    assert frac <= MAX_DIFF, f"{name}: {frac:.2%} of pixels differ (limit {MAX_DIFF:.1%})"
