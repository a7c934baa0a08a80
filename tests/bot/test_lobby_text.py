"""The lobby post reads as a player expects at each stage of the match."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord.lobby import lobby_text


def _status(status: str, ending: str | None = None) -> Any:
    seats = [SimpleNamespace(seat=0, name="ann", user_id=11), SimpleNamespace(seat=1, name="bob", user_id=12)]
    info = SimpleNamespace(id=3, title="Tiny Big Wars", status=status, host_id=11, seats=seats, max_seats=4,
                           clock=None, takeover_ai=None, in_thread=False, channel_id=500,
                           names=lambda: ["ann", "bob"])
    return SimpleNamespace(match=info, phase="Clan Phase", vote=None, ending=ending)


def test_an_open_lobby_invites_without_a_status_line() -> None:
    text = lobby_text(_status("lobby"), latest="bob joined.")
    assert text.splitlines() == [
        "**Tiny Big Wars** (match #3), hosted by ann",
        "Seats 2 of 4: ann (host), bob",
        "The lobby is open: press Join to take a seat.",
        "Latest: bob joined.",
    ]


def test_an_ended_match_says_how_it_ended() -> None:
    assert lobby_text(_status("aborted")).splitlines()[-1] == "The match is aborted."
    assert lobby_text(_status("finished", ending="**The match is over: ann won**")).splitlines()[-1] == \
        "**The match is over: ann won**"
