"""Small helpers the Defenders map and private panel share: clean text, fitted lines, names by key.

The view is typed (engine/defenders/view_models.py), so values are read as they are; a name
may still be empty, and then a plain fallback ("Capital", "Defender 2") is drawn.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.defenders.view_models import PublicView
from render import fonts, palette, text

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


def clean(s: Any, bold: bool = False) -> str:
    """A value as drawable text (characters the font lacks replaced)."""
    return fonts.sanitize(str(s if s is not None else ""), bold)


def stamp_fit(img: Image.Image, xy: tuple[float, float], s: str, width: float, size: int = 17, bold: bool = False,
              fill_: tuple[int, ...] = palette.TEXT, anchor: str = "lm", stroke: int = 0) -> Box:
    """Stamp `s` at `size` px, ellipsised to `width` px (17 px suits the 900 px private panel only)."""
    s = fonts.sanitize(s, bold)
    s = text.ellipsize(s, fonts.font_for(s, size, bold), max(8, width))
    return text.stamp(img, xy, s, size, bold=bold, fill=fill_, stroke=stroke, anchor=anchor)


def wrapped_lines(s: str, width: int, n: int, size: int) -> list[str]:
    """`s` wrapped into at most `n` lines of `width` px at `size` px, the last one ellipsised."""
    s = clean(s)
    if n <= 0 or not s.strip():
        return []
    if n == 1:
        return [text.ellipsize(s, fonts.font_for(s, size), width)]
    return text.wrap(s, fonts.font(size), width, n)


def region_names(view: PublicView) -> dict[str, str]:
    """Region key -> its name, the capital included."""
    out = {"capital": view.capital.name or "Capital"}
    for region in view.ring:
        out[region.key] = region.name or region.key
    return out


def defender_name(view: PublicView, idx: int | None) -> str:
    """The name of the Defender with index `idx` ("Defender N" when unknown)."""
    number = (idx or 0) + 1
    for defender in view.defenders:
        if idx is not None and defender.idx == idx:
            return defender.name or f"Defender {number}"
    return f"Defender {number}"
