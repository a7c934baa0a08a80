"""render/textruns.py gives exactly what Pillow gives: widths (`getlength`) and plain masks
(`getmask2`, "L", every anchor the renderers use and the rest), over every proven font.

The corpus: every public event line of many simulated matches of each game with names filled
in, the lines the maps build from them ("Latest: ...", "Waiting for: ..."), names, random
text over every proven character, every pair of printable ASCII characters within a word and
as two words, and lines crowded with kerned pairs (their rounding carries a word's glyphs to
other pixels than in the word alone: those must go to Pillow). A cache that dropped the
kerning, rounded a pen position another way, placed a word a pixel off, took another anchor or
kept a line whose glyphs carry would fail here.
"""

from __future__ import annotations

import functools
import random

import pytest
from PIL import ImageFont

import engine as eng
from bot.simulate import simulate
from engine.text import fill
from render import fonts, text, textruns

NAMES = ["p0", "p1", "AI Ayame", "Björn the Unbreakable", "Zoë", "Player 3", "Łukasz", "O'Neil-Żak", "ÆØÅ æøå"]
MATCHES = [("tinybigwars", 3, {"round_limit": 2}, seed) for seed in range(7000, 7010)] + [
    ("tinybigwars", 2, {"round_limit": 3}, 11), ("tinybigwars", 4, {"round_limit": 2}, 5),
    ("samurai", 3, {}, 2), ("samurai", 4, {}, 9), ("defenders", 2, {}, 4), ("defenders", 3, {}, 8)]
USED_ANCHORS = ("la", "lm", "rm", "mm")
ANCHORS = [horizontal + vertical for horizontal in "lmr" for vertical in "amsdtb"]
MAP_SIZES = (17, 18, 20, 22, 24)
ASCII = [chr(code) for code in range(0x21, 0x7F)]


@functools.cache
def corpus() -> tuple[str, ...]:
    """Every public event line of the matches (names filled in), the lines made of them, names,
    random text over the proven characters and kerning-heavy lines."""
    lines: list[str] = []
    for game, seats, options, seed in MATCHES:
        rules = eng.get(game)
        state = rules.setup(seats, eng.parse_options(rules, options), seed)
        names = NAMES[seed % 3: seed % 3 + seats]
        for seat, choice in simulate(game, seats, seed, options=options)["log"][:400]:
            step = rules.submit(state, seat, choice)
            state = step.state
            lines += [fill(event.text, names) for event in step.events if event.seats is None and event.text]
    events = list(dict.fromkeys(fonts.sanitize(line) for line in lines))
    assert len(events) > 600
    made = ["Latest: " + line for line in events[::5]] + ["Waiting for: " + ", ".join(NAMES[k:k + 3]) for k in range(7)]
    rng = random.Random(26)
    proven = sorted(textruns.PROVEN_CHARACTERS)
    noise = ["".join(rng.choice(proven) for _ in range(rng.randint(1, 60))) for _ in range(300)]
    spaced = [" ".join("".join(rng.choice(proven[1:]) for _ in range(rng.randint(1, 9))) for _ in range(rng.randint(1, 9)))
              for _ in range(300)]
    return tuple(dict.fromkeys(events + made + NAMES + noise + spaced + kerned()))


def kerned() -> list[str]:
    """Lines whose kerned pairs add up past half a pixel before a word with kerning of its own."""
    return [head * count + tail for head in ("AV", "To", "Ty", "LT", "P.") for count in range(1, 70, 3)
            for tail in (" To", " AVAV Ty", "  Yo.", " w")]


def runs_of(size: int, bold: bool) -> tuple[ImageFont.FreeTypeFont, textruns.FontRuns]:
    font = fonts.font(size, bold)
    found = textruns.runs(font)
    assert found is not None
    return font, found


def same_mask(font: ImageFont.FreeTypeFont, line: str, anchor: str, made: textruns.Mask) -> bool:
    core, offset = made
    theirs, their_offset = font.getmask2(line, "L", anchor=anchor)
    return offset == their_offset and core.size == theirs.size and core.chop_difference(theirs).getbbox() is None


@pytest.mark.parametrize("size", sorted(textruns.PROVEN_SIZES))
def test_widths_are_what_pillow_measures(size: int) -> None:
    for bold in (False, True):
        font, runs = runs_of(size, bold)
        for line in corpus():
            ours = runs.length(line)
            assert ours is not None, line
            assert ours == round(font.getlength(line) * 64), (size, bold, line)
            assert textruns.length(font, line) == font.getlength(line)


@pytest.mark.parametrize("size", sorted(textruns.PROVEN_SIZES))
def test_plain_masks_are_what_pillow_renders(size: int) -> None:
    taken = passed_on = 0
    for bold in (False, True):
        font, runs = runs_of(size, bold)
        # the maps' sizes: every line, in turn at each anchor the renderers use; else a third of them
        # at every anchor in turn
        lines, anchors = (corpus(), USED_ANCHORS) if size in MAP_SIZES else (corpus()[bold::3], ANCHORS)
        for index, line in enumerate(lines):
            anchor = anchors[index % len(anchors)]
            made = runs.mask(line, anchor)
            if made is None:
                passed_on += 1
                continue
            taken += 1
            assert same_mask(font, line, anchor, made), (size, bold, anchor, line)
    assert passed_on < taken / 20  # nearly every line is made from words, not handed to Pillow


def test_every_anchor_on_every_event_line_at_the_maps_size() -> None:
    for bold in (False, True):
        font, runs = runs_of(fonts.MAP_MIN_PX, bold)
        for line in corpus()[:150]:
            for anchor in ANCHORS:
                made = runs.mask(line, anchor)
                assert made is not None, (line, anchor)  # event lines are never handed to Pillow
                assert same_mask(font, line, anchor, made), (bold, anchor, line)


@pytest.mark.parametrize("size", MAP_SIZES)
def test_every_pair_of_printable_characters_as_two_words(size: int) -> None:
    for bold in (False, True):
        font, runs = runs_of(size, bold)
        for first in ASCII:
            for second in ASCII:
                line = f"{first} {second}"  # one word alone is Pillow's own mask
                assert runs.length(line) == round(font.getlength(line) * 64), (line, size, bold)
                made = runs.mask(line, "la")
                assert made is not None and same_mask(font, line, "la", made), (line, size, bold)


def test_lines_whose_kerning_carries_a_word_are_left_to_pillow() -> None:
    """Pillow adds a pair's kerning in whole pixels to a 26.6 advance (-1 px kerning: -1/64 px),
    so many kerned pairs shift what follows by a fraction: a word after them can round a glyph to
    another pixel than alone. Those lines must be handed to Pillow, and the rest still match."""
    handed = 0
    for size in MAP_SIZES:
        font, runs = runs_of(size, False)
        for line in kerned():
            made = runs.mask(line, "la")
            if made is None:
                handed += 1
            else:
                assert same_mask(font, line, "la", made), (size, line)
    assert handed > 0


def test_other_fonts_text_and_outlines_are_pillows_own() -> None:
    shaped = fonts.font(20, shaping=True)
    assert textruns.runs(shaped) is None or not fonts.RAQM
    assert textruns.runs(ImageFont.truetype(str(fonts.REGULAR), 40)) is None  # not a proven size
    font, runs = runs_of(20, False)
    for line in ("李小龙 moves", "Ω", "tab\there", "", "   "):
        assert runs.mask(line, "la") is None
        assert textruns.length(font, line) == font.getlength(line)
        core, offset = textruns.mask(font, line, "la")
        theirs, their_offset = font.getmask2(line, "L", anchor="la")
        assert (offset, core.size, bytes(core)) == (their_offset, theirs.size, bytes(theirs))  # small


def pillow_ellipsize(line: str, font: ImageFont.FreeTypeFont, max_width: int) -> str:
    """The ellipsis as it was: every prefix + ellipsis laid out and measured by Pillow."""
    if font.getlength(line) <= max_width:
        return line
    lo, hi = 0, len(line)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.getlength(line[:mid].rstrip() + text.ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return line[:lo].rstrip() + text.ELLIPSIS if lo else text.ELLIPSIS


def test_a_prefix_and_its_ellipsis_measure_what_pillow_measures() -> None:
    for size, bold in ((20, False), (22, True), (17, False), (24, True)):
        font, runs = runs_of(size, bold)
        for line in corpus()[::7]:
            suffixed = runs.suffixed(line, text.ELLIPSIS)
            assert suffixed is not None
            for end in range(len(line) + 1):
                assert suffixed(end) == round(font.getlength(line[:end] + text.ELLIPSIS) * 64), (line, end)


def test_ellipsised_lines_are_cut_where_pillows_measures_cut_them() -> None:
    text._ellipsize.cache_clear()
    for size, bold in ((20, False), (22, True), (18, True)):
        font = fonts.font(size, bold)
        for line in corpus()[::3]:
            for width in (40, 233, 536, 900):
                assert text.ellipsize(line, font, width) == pillow_ellipsize(line, font, width), (line, width)
    text._ellipsize.cache_clear()


def test_every_proven_font_agrees_with_this_pillow_at_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runs are checked against the Pillow of the process before their first use: with
    this Pillow every proven font passes (so the fast paths are on where the tests prove them)."""
    monkeypatch.setattr(textruns, "_RUNS", {})
    for bold in (False, True):
        for size in sorted(textruns.PROVEN_SIZES):
            assert textruns.runs(fonts.font(size, bold)) is not None, (size, bold)


def test_a_pillow_that_lays_text_out_otherwise_gets_its_own_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs that disagree with the process's Pillow (here: kerning not added, as a Pillow or
    FreeType that kerned otherwise would look to them) are never used: widths and masks are
    Pillow's own."""
    monkeypatch.setattr(textruns, "_RUNS", {})
    monkeypatch.setattr(textruns.FontRuns, "_kerning", lambda self, couple: 0)
    font = fonts.font(20, False)
    assert textruns.runs(font) is None
    line = "AV To Wa: Ayame takes the Old Market"
    assert textruns.length(font, line) == font.getlength(line)
    core, offset = textruns.mask(font, line, "la")
    theirs, their_offset = font.getmask2(line, "L", anchor="la")
    assert (offset, core.size, bytes(core)) == (their_offset, theirs.size, bytes(theirs))
