"""The shortcuts of render/text.py and render/fonts.py give what the plain loops gave.

A map's new event lines are wrapped, cleaned for the font and checked for shaping at each draw:
those take shortcuts (wrapping by halving the words that fit, ASCII answered at once). Each is
compared here with the loop it replaced, on the event lines of real matches and on odd text, so
a shortcut that moved a line break or let a character through would fail.
"""

from __future__ import annotations

import random
import unicodedata

import engine as eng
from bot.simulate import simulate
from engine.text import fill
from render import fonts, text

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


def loop_sanitize(line: str, bold: bool) -> str:
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
