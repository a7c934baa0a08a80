"""Every public map is legible in a phone's preview (about 550 px wide): big enough text, a tall canvas.

Discord shows an attachment at about 550 px wide on phones. The maps are 1200 px wide, so
every text is at least fonts.MAP_MIN_PX (20 px, >= 9 px there), and the canvas is taller
than wide so that it fills a phone screen instead of shrinking into a strip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import ImageFont

import render
from render import action, fonts, text
from render import defenders as ted
from render import samurai as sam
from render import tinybigwars as tbw
from tests.render import defenders_views as dv
from tests.render import samurai_views as sv
from tests.render import views
from tests.render.helpers import open_png

Case = tuple[str, dict[str, Any], list[str]]


def _samurai() -> Iterator[Case]:
    for name in sv.ALL:
        yield "samurai", sv.public(name), sv.names(name)


def _tinybigwars() -> Iterator[Case]:
    for build in views.ALL.values():
        yield "tinybigwars", build(), views.NAMES_4


def _defenders() -> Iterator[Case]:
    for build in dv.ALL.values():
        v = build()
        yield "defenders", v, dv.names(v)


CASES: dict[str, Callable[[], Iterator[Case]]] = {"samurai": _samurai, "tinybigwars": _tinybigwars,
                                                  "defenders": _defenders}


def _clear_text_caches() -> None:
    text._SPRITES.clear()
    text._fit.cache_clear()
    text._ellipsize.cache_clear()
    text._wrap.cache_clear()


@pytest.mark.parametrize("game", list(CASES))
def test_every_text_on_the_public_map_stays_readable_on_a_phone(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[int] = []
    real = fonts.font

    def recording(size: int, bold: bool = False, shaping: bool = False) -> ImageFont.FreeTypeFont:
        used.append(size)
        return real(size, bold, shaping)

    monkeypatch.setattr(fonts, "font", recording)
    _clear_text_caches()
    sam._STATIC.clear()
    sam._SCENES.clear()
    tbw._STATIC.clear()
    ted._STATIC.clear()
    for key, view, names in CASES[game]():
        data = render.draw(key, view, names)
        img = open_png(data)
        assert img.width == 1200 and img.height > img.width, "a tall canvas fills a phone screen"
        assert len(data) <= 240 * 1024, "about 2x the old maps at most"
    _clear_text_caches()
    assert used and min(used) >= fonts.MAP_MIN_PX
    assert fonts.MAP_MIN_PX * fonts.PHONE_WIDTH / 1200 >= 9


def test_place_names_are_found_in_event_lines() -> None:
    names = {"awa_boso": "Awa (Boso)", "awa_shikoku": "Awa (Shikoku)", "awaji": "Awaji", "kii": "Kii",
             "yamashiro": "Yamashiro (Kyoto)"}
    lines = ["[[seat:0]] attacks Awa (Shikoku) from Kii.", "Awaji is taken.", "[[seat:1]] holds Yamashiro (Kyoto)."]
    assert action.mentioned(lines, names) == ["yamashiro", "awaji", "awa_shikoku", "kii"]
    assert action.mentioned(["Awakening"], names) == []
    assert action.mentioned(["anything"], {}) == []
