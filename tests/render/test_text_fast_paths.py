"""The shortcuts of render/text.py and render/fonts.py give what the plain loops gave.

A map's new event lines are wrapped, cleaned for the font, checked for shaping and drawn as
sprites at each draw: those take shortcuts (wrapping by halving the words that fit, ASCII
answered at once, a plain label's sprite made from one glyph mask). Each is compared here with
the code it replaced, on the event lines of real matches and on odd text, and whole maps and
replays of seeded matches of every game are drawn both ways and must be the same bytes: a
shortcut that moved a line break, let a character through or changed a pixel would fail.
"""

from __future__ import annotations

import itertools
import random
import unicodedata
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import engine as eng
import render
from bot.service.history import public_frames
from bot.simulate import simulate
from engine.text import fill
from render import fonts, palette, text, textruns

WIDTHS = (120, 300, 536)


def greedy_wrap(line: str, bold: bool, size: int, max_width: int, max_lines: int) -> tuple[str, ...]:
    """The word wrap as it was: one measure per word."""
    font = fonts.font(size, bold)
    words = line.split()
    lines: list[str] = []
    current = ""
    for i, word in enumerate(words):
        candidate = f"{current} {word}".strip()
        if font.getlength(candidate) <= max_width or not current:
            current = candidate
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines - 1:
            current = " ".join(words[i:])
            break
    if current:
        lines.append(current)
    return tuple(text.ellipsize(kept, font, max_width) for kept in lines[:max_lines])


def loop_sanitize(line: str, bold: bool = False) -> str:
    """The font's clean-up as it was: every character looked up."""
    cov = fonts.coverage(bold)
    out = []
    for ch in unicodedata.normalize("NFC", line):
        if ch in "\n\t\r" or unicodedata.category(ch).startswith("C"):
            out.append(" " if ch in "\n\t\r" else "")
        elif ord(ch) in cov or ch == " ":
            out.append(ch)
        elif unicodedata.category(ch) in ("Mn", "Me"):
            continue
        else:
            out.append(fonts.REPLACEMENT)
    return "".join(out)


def event_lines() -> list[str]:
    """Every public event line of a few seeded matches of each game, names filled in."""
    lines: list[str] = []
    names = ["Ada", "Björn the Unbreakable Captain of the Northern Fleet", "Player 3", "Zoë", "李小龙"]
    for game, seats, options, seed in (("tinybigwars", 2, {"round_limit": 2}, 11), ("tinybigwars", 4, {"round_limit": 2}, 5),
                                       ("samurai", 3, {}, 2), ("defenders", 2, {}, 4)):
        rules = eng.get(game)
        state = rules.setup(seats, eng.parse_options(rules, options), seed)
        for seat, choice in simulate(game, seats, seed, options=options)["log"][:250]:
            step = rules.submit(state, seat, choice)
            state = step.state
            lines += [fill(event.text, names[:seats]) for event in step.events if event.seats is None and event.text]
    return list(dict.fromkeys(lines))


def odd_lines() -> list[str]:
    rng = random.Random(32)
    words = ["a", "I", "Wm", "Totomi", "moves", "army", "1", "→", "Ω", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
             "kerning:AVATAR", "To.", "Yy", "ffi", "\u202e", "مرحبا", "e\u0301", "\x07"]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(1, 30))) for _ in range(150)]


def test_wrapping_breaks_every_line_where_the_word_by_word_wrap_did() -> None:
    lines = event_lines()
    assert len(lines) > 150
    for line in lines + odd_lines():
        for bold in (False, True):
            for width in WIDTHS:
                for max_lines in (1, 2, 3):
                    font = fonts.font(20, bold)
                    expected = greedy_wrap(line, bold, 20, width, max_lines)
                    assert tuple(text.wrap(line, font, width, max_lines)) == expected, (line, width, max_lines)


def test_clean_up_and_shaping_answer_as_the_character_loops_did() -> None:
    samples = event_lines() + odd_lines() + ["tab\there", "new\nline", "bell\x07", "", " ", "~!@#$%^&*()_+{}|:<>?"]
    samples += [chr(code) for code in range(0, 0x250)]
    for line in samples:
        for bold in (False, True):
            assert fonts.sanitize(line, bold) == loop_sanitize(line, bold), repr(line)
        shaped = any(unicodedata.bidirectional(ch) in {"R", "AL", "AN", "NSM"} for ch in line)
        assert fonts.needs_shaping(line) is shaped, repr(line)


def drawn_sprite(line: str, size: int, bold: bool, colour: tuple[int, ...], stroke: int,
                 anchor: str) -> tuple[Image.Image, int, int]:
    """A label's sprite as it was made: the text drawn on a clear image by ImageDraw."""
    font = fonts.font_for(line, size, bold)
    direction = text._direction(font)
    x0, y0, x1, y1 = (int(edge) for edge in font.getbbox(line, stroke_width=stroke, anchor=anchor, direction=direction))
    sprite = Image.new("RGBA", (max(1, x1 - x0), max(1, y1 - y0)), (0, 0, 0, 0))
    ImageDraw.Draw(sprite).text((-x0, -y0), line, font=font, fill=colour, stroke_width=stroke,
                                stroke_fill=palette.OUTLINE, anchor=anchor, direction=direction)
    return sprite, x0, y0


def test_a_plain_label_pastes_the_pixels_drawing_it_gave() -> None:
    lines = event_lines()[:60] + ["16", "Tiger", "j", " ", "", "Ωμέγα", "Björn", "محمد wins!", "李小龙"]
    for line in lines:
        for size, bold in ((20, False), (22, True), (17, False)):
            for colour in (palette.TEXT, palette.ALERT, palette.OUTLINE):
                for anchor in ("la", "lm", "rm", "mm"):
                    made, x0, y0 = text._make_sprite(line, size, bold, colour, 0, anchor)
                    drawn, dx0, dy0 = drawn_sprite(line, size, bold, colour, 0, anchor)
                    assert (x0, y0, made.size) == (dx0, dy0, drawn.size), (line, anchor)
                    pasted = []
                    for sprite in (made, drawn):
                        ground = Image.new("RGB", (sprite.width + 4, sprite.height + 4), palette.PLATE)
                        ground.paste(sprite, (2, 2), sprite)
                        pasted.append(ground)
                    assert ImageChops.difference(*pasted).getbbox() is None, (line, size, colour, anchor)


def _as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Put the replaced code back (sprites drawn, word-by-word wrap, per-character loops, widths
    measured by Pillow, outlines drawn by ImageDraw), caches emptied."""
    monkeypatch.setattr(text, "_make_sprite", drawn_sprite)
    monkeypatch.setattr(textruns, "runs", lambda font: None)
    monkeypatch.setattr(text, "outlined", outlined_as_before)
    monkeypatch.setattr(text, "_wrap", greedy_wrap_cached)
    monkeypatch.setattr(fonts, "sanitize", loop_sanitize)
    monkeypatch.setattr(fonts, "needs_shaping",
                        lambda line: any(unicodedata.bidirectional(ch) in {"R", "AL", "AN", "NSM"} for ch in line))
    _empty_caches()


def _empty_caches() -> None:
    text._SPRITES.clear()
    text._OUTLINES.clear()
    textruns._RUNS.clear()
    text._ellipsize.cache_clear()
    text._fit.cache_clear()


def outlined_as_before(draw: ImageDraw.ImageDraw, xy: tuple[float, float], line: str, font: Any,
                       fill: tuple[int, ...] = palette.TEXT, outline: tuple[int, ...] = palette.OUTLINE,
                       stroke: int = 2, anchor: str = "la") -> tuple[float, ...]:
    return drawn_outlined(draw, xy, line, font, fill, outline, stroke, anchor)


def greedy_wrap_cached(line: str, path: str, size: int, max_width: int, max_lines: int) -> tuple[str, ...]:
    return greedy_wrap(line, path == str(fonts.BOLD), size, max_width, max_lines)


MATCHES: list[tuple[str, int, dict[str, Any], int, int]] = [
    ("tinybigwars", 2, {"round_limit": 2}, 11, 400),
    ("tinybigwars", 4, {"round_limit": 2}, 5, 400),
    ("samurai", 3, {}, 2, 150),
    ("defenders", 2, {}, 4, 200),
]


@pytest.mark.parametrize(("game", "seats", "options", "seed", "choices"), MATCHES, ids=[m[0] + str(m[1]) for m in MATCHES])
def test_maps_and_replays_are_the_same_bytes_as_before(monkeypatch: pytest.MonkeyPatch, game: str, seats: int,
                                                       options: dict[str, Any], seed: int, choices: int) -> None:
    log = simulate(game, seats, seed, options=options)["log"][:choices]
    frames = public_frames(game, seats, options, seed, log)
    names = ["Ada", "Björn the Unbreakable", "Player 3", "Zoë"][:seats]
    _empty_caches()
    now = [render.draw(game, view, names) for view in frames]
    replay_now = render.replay(game, frames, names)
    with monkeypatch.context() as patched:
        _as_before(patched)
        before = [render.draw(game, view, names) for view in frames]
        replay_before = render.replay(game, frames, names)
    _empty_caches()
    assert len(frames) >= 3
    for index, (ours, theirs) in enumerate(zip(now, before, strict=True)):
        assert ours == theirs, f"{game} frame {index} differs"
    assert replay_now == replay_before


def drawn_outlined(draw: ImageDraw.ImageDraw, xy: tuple[float, float], line: str, font: Any,
                   fill: tuple[int, ...], outline: tuple[int, ...], stroke: int, anchor: str) -> tuple[float, ...]:
    """Outlined text as it was drawn: ImageDraw.text with a stroke, and textbbox."""
    direction = text._direction(font)
    draw.text(xy, line, font=font, fill=fill, stroke_width=stroke, stroke_fill=outline, anchor=anchor,
              direction=direction)
    return draw.textbbox(xy, line, font=font, stroke_width=stroke, anchor=anchor, direction=direction)


def test_outlined_text_draws_the_pixels_and_box_imagedraw_gave() -> None:
    """Outlined text is blended from kept masks: on a busy background, at whole and fractional
    positions, drawn twice over itself (the second time from the kept masks), in every colour
    pair, it must give ImageDraw's pixels and box."""
    lines = event_lines()[:25] + ["AI Ayame wins!", "Draw", "the most influence at the 2-round limit", "Totomi",
                                  "محمد wins!", "Björn & Zoë share the win!", "j", "Ωμέγα"]
    ground = Image.effect_noise((420, 90), 60).convert("RGB")
    text._OUTLINES.clear()
    for index, line in enumerate(lines):
        size, bold, stroke = ((22, False, 2), (48, True, 3), (24, True, 2), (20, False, 1))[index % 4]
        font = fonts.font_for(line, size, bold)
        colour = (palette.TEXT, palette.ALERT, palette.seat_colour(index % 4))[index % 3]
        for anchor, xy in itertools.product(("la", "mm", "lm"), ((10, 45), (37.5, 44.75), (210, 30), (120.25, 45))):
            ours, theirs = ground.copy(), ground.copy()
            for _ in range(2):
                box = text.outlined(ImageDraw.Draw(ours), xy, line, font, fill=colour, stroke=stroke, anchor=anchor)
                their_box = drawn_outlined(ImageDraw.Draw(theirs), xy, line, font, colour, palette.OUTLINE, stroke,
                                           anchor)
                assert box == their_box, (line, anchor, xy)
                assert ImageChops.difference(ours, theirs).getbbox() is None, (line, size, anchor, xy)
    assert len(text._OUTLINES) > len(lines)
