"""custom_ids: every id the bot makes parses back; anything else is refused."""

from __future__ import annotations

import pytest

from bot.discord import ids


@pytest.mark.parametrize(
    "made",
    [
        ids.LobbyId(12, "join"),
        ids.LobbyId(999999999999, "start"),
        ids.PromptId(3, 2, 41, "o", "move-jade"),
        ids.PromptId(3, 0, 7, "m"),
        ids.PromptId(3, 0, 7, "n"),
        ids.PromptId(3, 1, 8, "c"),
        ids.ModalId(5, 1, 99),
    ],
)
def test_round_trip(made: ids.ParsedId) -> None:
    text = made.encode()
    assert len(text) <= ids.MAX_CUSTOM_ID
    assert ids.parse(text) == made


def test_longest_option_value_fits_discord_limit() -> None:
    text = ids.PromptId(999999999999, 4, 999999999, "o", "x" * 50).encode()
    assert len(text) <= 100
    assert ids.parse(text) is not None


@pytest.mark.parametrize(
    "forged",
    [
        "",
        "join",
        "wh:l:12:steal",
        "wh:l:abc:join",
        "wh:p:1:0:3:z",
        "wh:p:1:0:3:o:" + "x" * 51,
        "wh:p:1:0:3:o:has space",
        "wh:pm:1:0",
        "wh:l:12:join:extra",
        "x" * 101,
    ],
)
def test_forged_ids_are_refused(forged: str) -> None:
    assert ids.parse(forged) is None
