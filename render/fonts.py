"""Cached fonts from the bundled DejaVu files, and glyph coverage.

The fonts ship inside the package so output does not depend on the machine. FreeType
faces are not safe to share between threads, so each thread keeps its own cache.
Characters the font lacks are replaced (see `sanitize`) instead of drawn as empty boxes.
"""

from __future__ import annotations

import functools
import struct
import threading
import unicodedata
from functools import cache
from pathlib import Path

from PIL import ImageFont, features

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"

# Discord previews an image about 550 px wide on phones. Public maps are 1200 px wide, so
# their text is at least 20 px (>= 9 px there); private panels are 800-900 px wide, where
# 17 px stays >= 10 px. Nothing smaller than 17 px may be requested.
MIN_FONT_PX = 17
MAP_MIN_PX = 20
PHONE_WIDTH = 550
REPLACEMENT = "?"

_local = threading.local()


def font(size: int, bold: bool = False, shaping: bool = False) -> ImageFont.FreeTypeFont:
    """A cached font of `size` px; refuses sizes that would be unreadable on Discord.

    The basic layout is used unless `shaping` is asked for: it is faster and identical on
    every machine. Shaping (raqm) is only needed for right-to-left and joined scripts.
    """
    if size < MIN_FONT_PX:
        raise ValueError(f"font size {size} is below the readable minimum {MIN_FONT_PX}")
    fonts: dict[tuple[int, bool, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = {}
    shaping = shaping and RAQM
    key = (size, bold, shaping)
    f = fonts.get(key)
    if f is None:
        engine = ImageFont.Layout.RAQM if shaping else ImageFont.Layout.BASIC
        f = ImageFont.truetype(str(BOLD if bold else REGULAR), size, layout_engine=engine)
        fonts[key] = f
    return f


RAQM = bool(features.check("raqm"))
_COMPLEX_BIDI = {"R", "AL", "AN", "NSM"}


@functools.lru_cache(maxsize=4096)
def needs_shaping(text: str) -> bool:
    """True for text with right-to-left or joining characters (Arabic, Hebrew, ...). ASCII never
    needs it (no ASCII character is right-to-left or joining): most text is answered without the
    per-character look-up, which a draw of new event lines paid for every line."""
    if text.isascii():
        return False
    return any(unicodedata.bidirectional(ch) in _COMPLEX_BIDI for ch in text)


def font_for(text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font to draw `text` with: shaped layout only where the script needs it."""
    return font(size, bold, shaping=needs_shaping(text))


def _cmap_codepoints(data: bytes) -> frozenset[int]:
    """Code points mapped by a TrueType font's Unicode cmap (formats 4 and 12)."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_off = None
    for i in range(num_tables):
        tag, _, off, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_off = off
    if cmap_off is None:
        return frozenset()
    n = struct.unpack_from(">H", data, cmap_off + 2)[0]
    points: set[int] = set()
    for i in range(n):
        platform, encoding, off = struct.unpack_from(">HHI", data, cmap_off + 4 + 8 * i)
        if platform not in (0, 3):
            continue
        sub = cmap_off + off
        fmt = struct.unpack_from(">H", data, sub)[0]
        if fmt == 4:
            segx2 = struct.unpack_from(">H", data, sub + 6)[0]
            ends = struct.unpack_from(f">{segx2 // 2}H", data, sub + 14)
            starts = struct.unpack_from(f">{segx2 // 2}H", data, sub + 16 + segx2)
            deltas = struct.unpack_from(f">{segx2 // 2}h", data, sub + 16 + 2 * segx2)
            ro_base = sub + 16 + 3 * segx2
            ranges = struct.unpack_from(f">{segx2 // 2}H", data, ro_base)
            for k, (s, e) in enumerate(zip(starts, ends, strict=True)):
                for c in range(s, e + 1):
                    if c == 0xFFFF:
                        continue
                    if ranges[k] == 0:
                        gid = (c + deltas[k]) & 0xFFFF
                    else:
                        addr = ro_base + 2 * k + ranges[k] + 2 * (c - s)
                        gid = struct.unpack_from(">H", data, addr)[0]
                        gid = (gid + deltas[k]) & 0xFFFF if gid else 0
                    if gid:
                        points.add(c)
        elif fmt == 12:
            groups = struct.unpack_from(">I", data, sub + 12)[0]
            for g in range(groups):
                s, e, gid = struct.unpack_from(">III", data, sub + 16 + 12 * g)
                points.update(range(s, e + 1) if gid else range(s + 1, e + 1))
    return frozenset(points)


@cache
def coverage(bold: bool = False) -> frozenset[int]:
    """Code points the bundled font can draw (parsed once; immutable, so thread-safe)."""
    return _cmap_codepoints((BOLD if bold else REGULAR).read_bytes())


def has_glyph(ch: str, bold: bool = False) -> bool:
    """True if the bundled font draws `ch` (used before relying on symbols like ♥)."""
    return ord(ch) in coverage(bold)


@cache
def _draws_printable_ascii(bold: bool) -> bool:
    """True if the font draws every printable ASCII character (space to tilde)."""
    return all(code in coverage(bold) for code in range(0x21, 0x7F))


@functools.lru_cache(maxsize=4096)
def sanitize(text: str, bold: bool = False) -> str:
    """Replace characters the font cannot draw, and control characters, by `?`.

    Printable ASCII is returned as it is when the font draws all of it (the bundled ones do):
    what the character loop below would give, without its per-character look-ups (about half a
    millisecond for a map's new event lines)."""
    if text.isascii() and text.isprintable() and _draws_printable_ascii(bold):
        return text
    cov = coverage(bold)
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in "\n\t\r" or unicodedata.category(ch).startswith("C"):
            out.append(" " if ch in "\n\t\r" else "")
        elif ord(ch) in cov or ch == " ":
            out.append(ch)
        elif unicodedata.category(ch) in ("Mn", "Me"):
            continue
        else:
            out.append(REPLACEMENT)
    return "".join(out)
