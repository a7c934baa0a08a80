"""Seat links to the web table: signed per match and seat, expiring, revoked when the player no
longer holds the seat; the signing key is made once and shared through the database."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.service.types import MatchInfo, SeatInfo
from bot.service.web_links import BadLink, WebLinks


def info(seats: list[SeatInfo], match_id: int = 7) -> MatchInfo:
    return MatchInfo(id=match_id, guild_id=1, channel_id=2, game="tinybigwars", title="Tiny Big Wars",
                     status="active", host_id=100, options={}, seats=seats, max_seats=2, deadline_hours=24,
                     version=3, step=3, created_at=None)  # type: ignore[arg-type]


SEATS = [SeatInfo(seat=0, user_id=100, name="alice"), SeatInfo(seat=1, user_id=200, name="bob")]


async def test_the_key_is_made_once_and_every_process_shares_it(store, clock) -> None:
    first = await WebLinks.open(store, "https://t.example", None, clock)
    second = await WebLinks.open(store, "https://t.example", None, clock)
    assert first.key == second.key and len(first.key) == 64
    token = first.seat(7, 1, 200).rsplit("/", 1)[1]
    assert second.read(7, token).user_id == 200
    configured = await WebLinks.open(store, "https://t.example", "set-by-the-host", clock)
    assert configured.key == b"set-by-the-host"
    with pytest.raises(BadLink, match="not valid"):
        configured.read(7, token)


async def test_a_link_opens_its_seat_until_it_expires(store, clock) -> None:
    links = await WebLinks.open(store, "https://t.example/", None, clock, days=2)
    url = links.seat(7, 1, 200)
    assert url.startswith(f"https://t.example/m/{links.handle(7)}/s/1.200.")
    assert links.match_of(links.handle(7)) == 7
    for forged in ("7", f"7-{'A' * 12}", links.handle(8).replace("8-", "7-"), links.handle(7) + "x"):
        with pytest.raises(LookupError):
            links.match_of(forged)
    token = url.rsplit("/", 1)[1]
    seat_pass = links.read(7, token)
    assert (seat_pass.match_id, seat_pass.seat, seat_pass.user_id) == (7, 1, 200)
    links.admit(seat_pass, info(SEATS))
    clock.advance(47)
    links.read(7, token)
    clock.advance(1)
    with pytest.raises(BadLink, match="expired"):
        links.read(7, token)


async def test_a_changed_or_foreign_link_opens_nothing(store, clock) -> None:
    links = await WebLinks.open(store, "https://t.example", None, clock)
    token = links.seat(7, 1, 200).rsplit("/", 1)[1]
    seat, user, expires, signature = token.split(".")
    for forged in (f"0.{user}.{expires}.{signature}", f"{seat}.100.{expires}.{signature}",
                   f"{seat}.{user}.{int(expires) + 86400}.{signature}", f"{seat}.{user}.{expires}.{'A' * 24}"):
        with pytest.raises(BadLink, match="not valid"):
            links.read(7, forged)
    with pytest.raises(BadLink, match="not valid"):
        links.read(8, token)  # another match
    with pytest.raises(BadLink, match="not a seat link"):
        links.read(7, "1.200")


async def test_a_kick_or_a_replacement_revokes_the_link(store, clock) -> None:
    links = await WebLinks.open(store, "https://t.example", None, clock)
    seat_pass = links.read(7, links.seat(7, 1, 200).rsplit("/", 1)[1])
    kicked = [SEATS[0], replace(SEATS[1], user_id=None, ai_policy="heuristic", name="bob (AI)")]
    replaced = [SEATS[0], replace(SEATS[1], user_id=300, name="carol")]
    for seats in (kicked, replaced):
        with pytest.raises(BadLink, match="revoked"):
            links.admit(seat_pass, info(seats))
    links.admit(seat_pass, info([SEATS[0], replace(SEATS[1], ai_takeover=True)]))  # still bob's seat
    assert timedelta(days=7) == links.lifetime
