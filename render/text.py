"""Text helpers: fit to a width, ellipsise, wrap and draw outlined labels.

Labels sit on busy map colours, so they get a dark outline; everything that may be too
long (player and location names) goes through `ellipsize` so it never spills over.
"""

from __future__ import annotations

import functools
import math
from typing import Any, overload

from PIL import Image, ImageDraw, ImageFont

from render import fonts, palette, textruns
from render.cache import LayerCache

Box = tuple[int, int, int, int]
FloatBox = tuple[float, float, float, float]
ELLIPSIS = "…"


def ellipsize(text: str, font: ImageFont.FreeTypeFont, max_width: float) -> str:
    """`text` shortened with an ellipsis so that it fits `max_width` pixels (memoised)."""
    return _ellipsize(text, str(font.path), font.size, int(max_width))


@functools.lru_cache(maxsize=4096)
def _ellipsize(text: str, path: str, size: int, max_width: int) -> str:
    font = fonts.font_for(text, size, path == str(fonts.BOLD))
    if textruns.length(font, text) <= max_width:
        return text
    runs = textruns.runs(font)
    # the text laid out once, each prefix + ellipsis measured from it (not laid out again)
    suffixed = None if runs is None else runs.suffixed(text, ELLIPSIS)
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        kept = text[:mid].rstrip()
        width = font.getlength(kept + ELLIPSIS) if suffixed is None else suffixed(len(kept)) / 64
        if width <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def fit(text: str, max_width: float, sizes: tuple[int, ...], bold: bool = False) -> tuple[str, ImageFont.FreeTypeFont]:
    """The largest of `sizes` that fits `text` in `max_width`; else the smallest, ellipsised."""
    out, size = fitted(text, max_width, sizes, bold)
    return out, fonts.font_for(out, size, bold)


def fitted(text: str, max_width: float, sizes: tuple[int, ...], bold: bool = False) -> tuple[str, int]:
    """What `fit` picks, as the text and its px size: what `stamp` takes."""
    return _fit(text, int(max_width), tuple(sizes), bold)


@functools.lru_cache(maxsize=2048)
def _fit(text: str, max_width: int, sizes: tuple[int, ...], bold: bool) -> tuple[str, int]:
    text = fonts.sanitize(text, bold)
    for size in sizes:
        f = fonts.font_for(text, size, bold)
        if textruns.length(f, text) <= max_width:
            return text, size
    return ellipsize(text, fonts.font_for(text, sizes[-1], bold), max_width), sizes[-1]


def wrap(text: str, font: ImageFont.FreeTypeFont, max_width: float, max_lines: int) -> list[str]:
    """Greedy word wrap into at most `max_lines` lines; the last line is ellipsised."""
    return list(_wrap(text, str(font.path), font.size, int(max_width), max_lines))


@functools.lru_cache(maxsize=1024)
def _wrap(text: str, path: str, size: int, max_width: int, max_lines: int) -> tuple[str, ...]:
    """Each line takes as many words as fit (at least one); the line that reaches `max_lines`
    takes every word left. A line's width only grows with its words (a space and a glyph add
    far more than any kerning takes away), so the most words that fit are found by halving:
    one measure for an event that fits one line, instead of one per word (each measure by
    Pillow lays the whole line out again, ~35 us; textruns sums kept advances, ~12 us).

    A line measured here to fit is not measured again to ellipsise it, where ``ellipsize``
    would measure it with this very font (text needing no shaping): it would keep it whole."""
    font = fonts.font(size, path == str(fonts.BOLD))
    words = text.split()
    lines: list[str] = []
    measured: list[bool] = []  # each line's width was found to fit
    start = 0
    while start < len(words):
        if lines and len(lines) == max_lines - 1:
            lines.append(" ".join(words[start:]))
            measured.append(False)
            break
        fitting, most, fits = 1, len(words) - start, False
        if textruns.length(font, " ".join(words[start:start + most])) <= max_width:
            fitting, fits = most, True
        else:
            most -= 1
            while fitting < most:
                middle = (fitting + most + 1) // 2
                if textruns.length(font, " ".join(words[start:start + middle])) <= max_width:
                    fitting, fits = middle, True
                else:
                    most = middle - 1
        lines.append(" ".join(words[start:start + fitting]))
        measured.append(fits)
        start += fitting
    return tuple(line if fits and not fonts.needs_shaping(line) else ellipsize(line, font, max_width)
                 for line, fits in zip(lines[:max_lines], measured[:max_lines], strict=True))


@overload
def outlined(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: tuple[int, ...] = palette.TEXT,
    outline: tuple[int, ...] = palette.OUTLINE,
    stroke: int = 2,
    anchor: str = "la",
) -> Box: ...


@overload
def outlined(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: tuple[int, ...] = palette.TEXT,
    outline: tuple[int, ...] = palette.OUTLINE,
    stroke: int = 2,
    anchor: str = "la",
) -> FloatBox: ...


def outlined(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: tuple[int, ...] = palette.TEXT,
    outline: tuple[int, ...] = palette.OUTLINE,
    stroke: int = 2,
    anchor: str = "la",
) -> FloatBox:
    """Draw text with a dark outline so it reads on any background; returns its bbox.

    A FreeType font's box is whole pixels, so the bbox is whole pixels when `xy` is, which
    the overloads say (label placement works in whole pixels)."""
    direction = _direction(font)
    if stroke and "\n" not in text and draw.mode in ("RGB", "RGBA") and draw.palette is None and draw.fontmode == "L":
        # What ImageDraw.text and textbbox do for one line on an RGB(A) image, its masks and box
        # kept: the outline's mask blended in the outline's colour, then the text's in its own
        # (~1 ms of FreeType stroking for a banner's 22 px reason line, on every draw of it).
        start = (math.modf(xy[0])[0], math.modf(xy[1])[0])
        key = (text, str(font.path), font.size, font.layout_engine, stroke, anchor, start)
        edge, edge_at, face, face_at, box = _OUTLINES.get(
            key, lambda: _outline_masks(text, font, stroke, anchor, direction, start))
        x, y = int(xy[0]), int(xy[1])
        ink, edge_ink = draw.draw.draw_ink(fill), draw.draw.draw_ink(outline)
        draw.draw.draw_bitmap((x + edge_at[0], y + edge_at[1]), edge, edge_ink)
        if ink != edge_ink:
            draw.draw.draw_bitmap((x + face_at[0], y + face_at[1]), face, ink)
        return (box[0] + xy[0], box[1] + xy[1], box[2] + xy[0], box[3] + xy[1])
    draw.text(xy, text, font=font, fill=fill, stroke_width=stroke, stroke_fill=outline, anchor=anchor,
              direction=direction)
    return draw.textbbox(xy, text, font=font, stroke_width=stroke, anchor=anchor, direction=direction)


Outline = tuple[Any, tuple[int, int], Any, tuple[int, int], FloatBox]  # masks ("L" cores), offsets, box
_OUTLINES: LayerCache[Outline] = LayerCache(max_entries=512)


def _outline_masks(text: str, font: ImageFont.FreeTypeFont, stroke: int, anchor: str, direction: str | None,
                   start: tuple[float, float]) -> Outline:
    """The outline's and the text's masks and the outlined text's box, as ImageDraw.text and
    textbbox ask FreeType for them (the ink matters to colour fonts only)."""
    edge, edge_at = font.getmask2(text, "L", direction, None, None, stroke, anchor, 0, start, stroke_filled=True)
    face, face_at = font.getmask2(text, "L", direction, None, None, 0, anchor, 0, start, stroke_filled=True)
    return edge, edge_at, face, face_at, font.getbbox(text, "L", direction, None, None, stroke, anchor)


def _direction(font: ImageFont.FreeTypeFont) -> str | None:
    """Left-to-right paragraphs for shaped text, so "محمد wins!" keeps English word order
    (None: Pillow's default, the basic layout has no direction)."""
    return "ltr" if font.layout_engine == ImageFont.Layout.RAQM else None


def plain(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: tuple[int, ...] = palette.TEXT,
    anchor: str = "la",
) -> float:
    """Draw text on a flat panel (no outline needed); returns the x after it."""
    draw.text(xy, text, font=font, fill=fill, anchor=anchor)
    return xy[0] + textruns.length(font, text)


_SPRITES: LayerCache[tuple[Image.Image, int, int]] = LayerCache(max_entries=2048)


def _make_sprite(
    text: str, size: int, bold: bool, fill: tuple[int, ...], stroke: int, anchor: str
) -> tuple[Image.Image, int, int]:
    f = fonts.font_for(text, size, bold)
    direction = _direction(f)
    if stroke == 0 and len(fill) == 3:
        # Plain text (a map's event lines, most new sprites): the glyphs' coverage is the
        # sprite's alpha under the fill colour, laid out and rendered once (drawing it on a
        # clear image measured the box, then laid it out and rendered it again: 0.38 -> 0.23 ms
        # for an event line). Pasted, it gives the same pixels: where the alpha is 0 the colour
        # underneath is kept whatever the sprite's colour is. The mask is Pillow's own, made from
        # kept word masks where textruns proves it (0.33 -> 0.04 ms for an event line).
        mask, (x0, y0) = f.getmask2(text, "L", anchor=anchor, direction=direction) if direction else \
            textruns.mask(f, text, anchor)
        width, height = mask.size
        sprite = Image.new("RGBA", (max(1, width), max(1, height)), (*fill, 0))
        if width and height:
            sprite.im.putband(mask, 3)  # what Image.putalpha does with an image's core
        return sprite, x0, y0
    # A FreeType font's box is whole pixels (Pillow's annotation says float for every font kind).
    x0, y0, x1, y1 = (int(edge) for edge in f.getbbox(text, stroke_width=stroke, anchor=anchor, direction=direction))
    sprite = Image.new("RGBA", (max(1, x1 - x0), max(1, y1 - y0)), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).text(
        (-x0, -y0), text, font=f, fill=fill, stroke_width=stroke, stroke_fill=palette.OUTLINE, anchor=anchor,
        direction=direction,
    )
    return sprite, x0, y0


def stamp(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    bold: bool = False,
    fill: tuple[int, ...] = palette.TEXT,
    stroke: int = 2,
    anchor: str = "la",
) -> Box:
    """Paste a cached pre-rendered label (outlined when stroke > 0); returns its bbox.

    Labels repeat from frame to frame ("3/5", hero names), and pasting a cached sprite is
    several times faster than laying out and stroking the text again.
    """
    key = (text, size, bold, tuple(fill), stroke, anchor)
    sprite, x0, y0 = _SPRITES.get(key, lambda: _make_sprite(text, size, bold, tuple(fill), stroke, anchor))
    x, y = round(xy[0]) + x0, round(xy[1]) + y0
    return paste_sprite(image, sprite, x, y)


def paste_sprite(image: Image.Image, sprite: Image.Image, x: int, y: int) -> Box:
    """``image.paste(sprite, (x, y), sprite)`` (an RGBA sprite through its own alpha) straight
    on the images' cores, where that is all ``paste`` would do: an RGB or RGBA image of our own
    drawing. ``Image.paste`` checks and loads both images and takes the box apart first (~10 us,
    as much as the paste of a label itself: some 80 labels a map). Returns the sprite's box."""
    box = (x, y, x + sprite.width, y + sprite.height)
    if sprite.mode == "RGBA" and image.mode in ("RGB", "RGBA") and not image.readonly:
        image.im.paste(sprite.im, box, sprite.im)
    else:
        image.paste(sprite, (x, y), sprite)
    return box
