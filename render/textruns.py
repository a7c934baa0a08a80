"""Pillow's basic text layout for the bundled fonts, from cached advances, kerning and word masks.

A map's new lines (events, the caption's "Latest: ...", "Waiting for: ...") were laid out by
FreeType several times each: measured by the wrap and the ellipsis (`getlength`: every glyph
loaded and hinted again, ~35-65 us a line) and rendered (`getmask2`: four more glyph loads and
two renders a glyph, ~330 us an event line). Both are rebuilt here from what repeats:

- **widths**: Pillow's basic layout sums, glyph by glyph, the hinted advance (26.6 fixed point)
  and the kerning of the glyph with the next one; so a text's width is the sum of its
  characters' advances and of its adjacent pairs' kerning, each measured once by Pillow itself
  (a character alone, a pair less its two characters) and summed in the same 26.6 integers.
  Exact by construction (the kerning a pair gets does not depend on its neighbours);
- **plain masks** (no outline): a line's mask is its words' masks, each rendered once by Pillow,
  pasted where Pillow's layout puts them. Each glyph's pixel column is its 26.6 pen position
  rounded (`PIXEL`); a word's glyphs land where they do in the word alone, shifted by the
  rounded pen position of the word's start, when the start's fraction and the word's own
  fractions do not carry across a pixel (checked per word; else Pillow draws the line). The
  line's box and anchor offsets are Pillow's (`bounding_box_and_anchors`) from the words'
  boxes, and words whose boxes would overlap are left to Pillow (a space keeps them apart at
  every size used), so no two glyphs of different words ever blend.

Only the bundled fonts at sizes and characters tests/render/test_text_runs.py proves
against Pillow take these paths (`PROVEN_SIZES`, `PROVEN_CHARACTERS`); anything else (shaped
text, other characters, outlines) is Pillow's own; and a font's runs only once they gave a few
check lines exactly what this process's Pillow gives them (`agrees`: another Pillow or FreeType
that lays text out otherwise keeps its own layout).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from itertools import accumulate
from typing import Any

from PIL import Image, ImageFont

from render import fonts

# What the tests compare with Pillow's own output (every size a renderer asks for, both fonts).
PROVEN_SIZES = frozenset(range(fonts.MIN_FONT_PX, 33))
PROVEN_CHARACTERS = frozenset(chr(code) for code in range(0x20, 0x7F)) | frozenset(
    chr(code) for code in range(0xA1, 0x180) if chr(code).isprintable() and code != 0xAD) | frozenset("…•–—‘’“”→×")
WORDS_KEPT = 4096  # word masks kept a font (~1 KB each; 200 matches' posts kept up to 1,706)
PAIRS_KEPT = 65536  # kerning pairs kept a font before they are measured afresh

Mask = tuple[Any, tuple[int, int]]  # an "L" ImagingCore and its offset, as getmask2 returns them


def _pixel(value: int) -> int:
    """FreeType's 26.6 rounding to whole pixels, as Pillow's PIXEL macro does it."""
    return ((value + 32) & -64) >> 6


class _Word:
    """One word's mask as Pillow renders it alone (anchor "ls": pen origin on the baseline)."""

    __slots__ = ("core", "left", "top", "width", "height", "lowest", "highest")

    def __init__(self, core: Any, left: int, top: int, positions: list[int]) -> None:
        self.core = core
        self.width, self.height = core.size
        self.left, self.top = left, top  # the box's left edge and top (above the baseline), in px
        fractions = [position - 64 * _pixel(position) for position in positions]
        self.lowest, self.highest = min(fractions), max(fractions)


class FontRuns:
    """The cached advances, kerning pairs, anchors and word masks of one bundled font."""

    def __init__(self, size: int, bold: bool) -> None:
        self.size, self.bold = size, bold
        self.advances: dict[str, int] = {}
        self.pairs: dict[str, int] = {}
        self.words: dict[str, _Word] = {}
        self.anchors: dict[str, int] = {}

    def _font(self) -> ImageFont.FreeTypeFont:
        return fonts.font(self.size, self.bold)  # this thread's face (faces are not shared)

    def _measure(self, text: str) -> int:
        return round(self._font().getlength(text) * 64)

    def _kerning(self, couple: str) -> int:
        """What a pair adds to its first character's advance (Pillow adds FreeType's kerning
        in whole pixels to the 26.6 advance: -1/64 px for -1 px)."""
        kerning = self.pairs[couple] = self._measure(couple) - self.advances[couple[0]] - self.advances[couple[1]]
        return kerning

    def advance_list(self, text: str) -> list[int] | None:
        """Each character's x advance as Pillow's basic layout sets it (26.6), or None when a
        character is not proven."""
        advances, pairs = self.advances, self.pairs
        own = list(map(advances.get, text))
        if None in own:
            if not PROVEN_CHARACTERS.issuperset(text):
                return None
            for character in set(text) - advances.keys():
                advances[character] = self._measure(character)
            own = list(map(advances.__getitem__, text))
        couples = list(map(operator.add, text, text[1:]))
        kerning = list(map(pairs.get, couples))
        if None in kerning:
            if len(pairs) > PAIRS_KEPT:
                pairs.clear()
            kerning = [self._kerning(couple) if known is None else known
                       for couple, known in zip(couples, kerning, strict=True)]
        kerning.append(0)
        return list(map(operator.add, own, kerning))

    def length(self, text: str) -> int | None:
        """`text`'s width in 26.6 units, what `getlength` gives times 64 (None: not proven)."""
        advances = self.advance_list(text)
        return None if advances is None else sum(advances)

    def suffixed(self, text: str, suffix: str) -> Callable[[int], int] | None:
        """A measure of `text[:end] + suffix` for any `end` (26.6, what `length` gives), from one
        layout of `text`: the prefix's advances, its last character's own advance and its
        kerning with `suffix` (one character), then the suffix's. None when not proven."""
        advances = self.advance_list(text + suffix)
        if advances is None or len(suffix) != 1:
            return None
        before = [0, *accumulate(advances)]
        own = self.advances

        def width(end: int) -> int:
            if not end:
                return own[suffix]
            last = text[end - 1]
            kerning = self.pairs.get(last + suffix)
            if kerning is None:
                kerning = self._kerning(last + suffix)
            return before[end - 1] + own[last] + kerning + own[suffix]

        return width

    def word(self, text: str) -> _Word:
        found = self.words.get(text)
        if found is None:
            if len(self.words) >= WORDS_KEPT:
                self.words.clear()
            core, (left, up) = self._font().getmask2(text, "L", anchor="ls")
            advances = self.advance_list(text)
            assert advances is not None  # only proven words get here
            found = self.words[text] = _Word(core, left, -up, [0, *accumulate(advances)])
        return found

    def anchor_rise(self, vertical: str) -> int:
        """The y of an ascender, middle or descender anchor above the baseline, in px."""
        rise = self.anchors.get(vertical)
        if rise is None:
            font = self._font()
            rise = self.anchors[vertical] = int(font.getbbox("x", anchor="l" + vertical)[1]
                                                - font.getbbox("x", anchor="ls")[1])
        return rise

    def mask(self, text: str, anchor: str) -> Mask | None:
        """What `getmask2(text, "L", anchor=anchor)` gives, made from word masks; None when the
        line is not one this can prove (Pillow draws it then)."""
        if len(anchor) != 2 or anchor[0] not in "lmr" or anchor[1] not in "amsdtb":
            return None
        advances = self.advance_list(text)
        if advances is None:
            return None
        pens = [0, *accumulate(advances)]
        end = pens[-1]
        left_edge, right_edge, top, bottom = 0, _pixel(end), 0, 0
        placed: list[tuple[_Word, int]] = []
        index = 0
        for piece in text.split(" "):
            if piece:
                start = pens[index]
                shift = _pixel(start)
                fraction = start - 64 * shift
                word = self.word(piece)
                if fraction + word.lowest < -32 or fraction + word.highest > 31 or not word.height:
                    return None  # a glyph would round to another pixel than in the word alone
                x = shift + word.left
                if placed and x < placed[-1][1] + placed[-1][0].width:
                    return None  # this word's box reaches into the last one's
                placed.append((word, x))
                left_edge, right_edge = min(left_edge, x), max(right_edge, x + word.width)
                top, bottom = max(top, word.top), min(bottom, word.top - word.height)
            index += len(piece) + 1
        if not placed:
            return None
        core = Image.core.fill("L", (right_edge - left_edge, top - bottom), 0)
        for word, x in placed:
            x0, y0 = x - left_edge, top - word.top
            core.paste(word.core, (x0, y0, x0 + word.width, y0 + word.height))
        horizontal, vertical = anchor[0], anchor[1]
        x_anchor = 0 if horizontal == "l" else _pixel(end // 2) if horizontal == "m" else _pixel(end)
        y_anchor = top if vertical == "t" else bottom if vertical == "b" else 0 if vertical == "s" else \
            self.anchor_rise(vertical)
        return core, (left_edge - x_anchor, y_anchor - top)


_RUNS: dict[tuple[int, bool], FontRuns | None] = {}
"""Each bundled font's runs, once checked against this process's Pillow (None: it disagreed)."""

CHECK_LINES = (
    "Ayame's fist takes the Old Market: 3 minions, 12 coins (AV To Wa Yo).",
    "Waiting for: Player 12a, Kaito and \u00c9lodie \u2014 \u201cround 2\u201d \u2026",
)
"""Lines a font's runs must measure and draw as Pillow does before they are used (kerning pairs,
capitals, digits, punctuation, Latin-1 and typographic marks)."""


def agrees(found: FontRuns, font: ImageFont.FreeTypeFont) -> bool:
    """Whether these runs give `CHECK_LINES` the widths and masks this process's Pillow and
    FreeType give them. The tests prove the runs over a large corpus for the Pillow they run
    with; a bot installed with another Pillow that lays text out otherwise draws with Pillow's
    own layout instead of drawing text slightly unlike Pillow's."""
    for line in CHECK_LINES:
        if found.length(line) != round(font.getlength(line) * 64):
            return False
        for anchor in ("ls", "la", "mm"):
            made = found.mask(line, anchor)
            if made is None:
                continue
            core, offset = made
            theirs, their_offset = font.getmask2(line, "L", anchor=anchor)
            if offset != their_offset or core.size != theirs.size or core.chop_difference(theirs).getbbox() is not None:
                return False
    return True


def runs(font: ImageFont.FreeTypeFont) -> FontRuns | None:
    """The cache of a bundled font in the basic layout at a proven size, else None."""
    if font.layout_engine != ImageFont.Layout.BASIC or font.size not in PROVEN_SIZES:
        return None
    path = str(font.path)
    if path == str(fonts.REGULAR):
        bold = False
    elif path == str(fonts.BOLD):
        bold = True
    else:
        return None
    key = (int(font.size), bold)  # a whole size: PROVEN_SIZES holds whole sizes only
    if key not in _RUNS:
        made = FontRuns(*key)
        _RUNS.setdefault(key, made if agrees(made, font) else None)
    return _RUNS[key]


def length(font: ImageFont.FreeTypeFont, text: str) -> float:
    """`font.getlength(text)`, from the cache where it is proven."""
    cached = runs(font)
    width = None if cached is None else cached.length(text)
    return font.getlength(text) if width is None else width / 64


def mask(font: ImageFont.FreeTypeFont, text: str, anchor: str) -> Mask:
    """`font.getmask2(text, "L", anchor=anchor)` for a font in the basic layout, from word masks
    where it is proven."""
    cached = runs(font)
    made = None if cached is None else cached.mask(text, anchor)
    return made if made is not None else font.getmask2(text, "L", anchor=anchor)
