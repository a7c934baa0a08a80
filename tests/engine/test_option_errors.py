"""Refused game options read as plain sentences naming the option and what it allows."""

from __future__ import annotations

import pytest

import engine


@pytest.mark.parametrize(("game", "options", "sentence"), [
    ("samurai", {"mode": "bogus"}, "Bad options for Samurai Swords: mode must be one of base, quickstart, lwtv."),
    ("tinybigwars", {"point_limit": 5}, "Bad options for Tiny Big Wars: point_limit must be from 10 to 200."),
    ("samurai", {"round_limit": 0}, "Bad options for Samurai Swords: round_limit must be at least 1."),
    ("samurai", {"round_limit": "x"}, "Bad options for Samurai Swords: round_limit must be a whole number."),
    ("defenders", {"speed": 3}, "Bad options for Tiny Epic Defenders: There is no option speed."),
    ("defenders", {"difficulty": "nightmare"},
     "Bad options for Tiny Epic Defenders: difficulty must be one of easy, normal, hard, epic."),
])
def test_refused_option_is_one_plain_sentence(game: str, options: dict, sentence: str) -> None:
    with pytest.raises(engine.IllegalChoice) as refused:
        engine.parse_options(engine.get(game), options)
    text = str(refused.value)
    assert text == sentence
    assert "http" not in text and "Input should" not in text and "validation error" not in text
