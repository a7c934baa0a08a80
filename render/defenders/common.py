"""Small helpers the Defenders map and private panel share: tolerant ints, clean text, names by key.

Views come from an engine written in parallel, so every value is read defensively: a
missing or odd field draws as a default instead of raising.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import fonts, palette, text

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


def as_int(v: Any, default: int = 0) -> int:
    """`v` as an int, or `default` when it is not a number."""
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


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


def region_names(view: dict[str, Any]) -> dict[str, str]:
    """Region key -> its name, the capital included."""
    out = {"capital": str((view.get("capital") or {}).get("name") or "Capital")}
    for r in view.get("ring", []):
        out[str(r.get("key"))] = str(r.get("name") or r.get("key"))
    return out


def defender_name(view: dict[str, Any], idx: Any) -> str:
    """The name of the Defender with index `idx` ("Defender N" when unknown)."""
    for d in view.get("defenders", []):
        if as_int(d.get("idx"), -1) == as_int(idx, -2):
            return str(d.get("name") or f"Defender {as_int(idx) + 1}")
    return f"Defender {as_int(idx) + 1}"
