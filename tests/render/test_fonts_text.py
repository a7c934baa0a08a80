"""Fonts are bundled, big enough for Discord's half-size preview, and survive any name."""

from __future__ import annotations

import pytest
from PIL import ImageFont

import render
from render import fonts, text
from render import tinybigwars as tbw
from tests.render import views


def test_fonts_are_bundled_with_their_license() -> None:
    for path in (fonts.REGULAR, fonts.BOLD):
        assert path.is_file() and path.parent.name == "fonts" and "render" in path.parts
        assert not str(path).startswith("/usr/share")
    assert "Bitstream" in (fonts.FONT_DIR / "LICENSE.md").read_text()


def test_minimum_font_stays_readable_when_halved() -> None:
    for bold in (False, True):
        f = fonts.font(fonts.MIN_FONT_PX, bold)
        _, top, _, bottom = f.getbbox("Hg")
        assert (bottom - top) / 2 >= 8, "text lines must stay >= 8 px tall at half size"


def test_smaller_fonts_are_refused() -> None:
    with pytest.raises(ValueError):
        fonts.font(fonts.MIN_FONT_PX - 1)


def test_every_font_used_by_the_renderer_is_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[int] = []
    real = fonts.font

    def recording(size: int, bold: bool = False, shaping: bool = False) -> ImageFont.FreeTypeFont:
        used.append(size)
        return real(size, bold, shaping)

    monkeypatch.setattr(fonts, "font", recording)
    text._SPRITES.clear()
    text._fit.cache_clear()
    text._ellipsize.cache_clear()
    text._wrap.cache_clear()
    tbw._STATIC.clear()
    for build in views.ALL.values():
        v = build()
        render.draw("tinybigwars", v)
        render.draw_private("tinybigwars", views.seat_view(v, 0, {"energy": 1}))
    assert used and min(used) >= fonts.MIN_FONT_PX


def test_unknown_glyphs_are_replaced_not_boxed() -> None:
    assert fonts.has_glyph("♥") and fonts.has_glyph("Ж") and fonts.has_glyph("λ")
    assert not fonts.has_glyph("李")
    assert fonts.sanitize("Дмитрий λ 李🐉") == "Дмитрий λ ??"
    assert fonts.sanitize("a\x00b\nc") == "ab c"


def test_long_names_are_ellipsised_to_fit() -> None:
    f = fonts.font(20, bold=True)
    short = text.ellipsize("Bo", f, 200)
    long = text.ellipsize("Bartholomew the Magnificent of the Northern Reaches", f, 200)
    assert short == "Bo"
    assert long.endswith("…") and f.getlength(long) <= 200
    name, ff = text.fit("x" * 80, 150, (20, 18, 17), bold=True)
    assert name.endswith("…") and ff.getlength(name) <= 150


def test_render_imports_no_discord_and_no_db() -> None:
    import subprocess
    import sys

    code = "import sys, render; bad = [m for m in sys.modules if m.split('.')[0] in ('discord', 'db', 'sqlmodel', 'sqlalchemy')]; print(bad)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=fonts.FONT_DIR.parents[1])
    assert out.stdout.strip() == "[]"


def test_right_to_left_names_are_shaped_and_latin_is_not() -> None:
    assert fonts.needs_shaping("محمد") and fonts.needs_shaping("דוד")
    assert not fonts.needs_shaping("Zoë Дмитрий Ελένη")
    latin = fonts.font_for("Akira", 20, True)
    assert latin.layout_engine == ImageFont.Layout.BASIC  # identical output on every machine
    if fonts.RAQM:
        assert fonts.font_for("محمد", 20, True).layout_engine == ImageFont.Layout.RAQM
