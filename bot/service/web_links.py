"""The addresses of a match's web page and the signed links to a seat's private page.

A seat link carries its match, seat, player and expiry, signed with HMAC-SHA256 under a key
only the bot knows (WEB_SECRET, else one made once and kept in the database, so every bot
process on it signs and checks alike). It opens the seat's page only while it has not expired
and the same player still holds the seat: a kick or a replacement revokes it at once. Every
decision DM carries a fresh one, so a player always has a working link where they play.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.service.types import MatchInfo
from db.store import Store

SECRET_NAME = "web-links"
SIGNATURE_BYTES = 18
"""144 bits of HMAC: 24 URL-safe characters, out of reach of guessing."""
HANDLE_BYTES = 9
"""A match's public handle carries 9 signed bytes (12 characters): match ids are sequential, so
the page of a private server's match is not found by counting."""
HANDLE = re.compile(r"(?P<match>\d{1,12})-(?P<key>[A-Za-z0-9_-]{12})")
TOKEN = re.compile(r"(?P<seat>\d{1,2})\.(?P<user>\d{1,20})\.(?P<expires>\d{1,12})\.(?P<signature>[A-Za-z0-9_-]{24})")


class BadLink(Exception):
    """A seat link that does not open the seat's page; the message says why, in a player's words."""


@dataclass(frozen=True)
class SeatPass:
    """What a valid seat link admits: this seat of this match, as this player."""

    match_id: int
    seat: int
    user_id: int
    expires_at: datetime


class WebLinks:
    """Builds the pages' addresses and signs and checks seat links."""

    def __init__(self, base_url: str, key: bytes, clock: Callable[[], datetime], days: float = 7.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.clock = clock
        self.lifetime = timedelta(days=days)

    @classmethod
    async def open(cls, store: Store, base_url: str, secret: str | None, clock: Callable[[], datetime],
                   days: float = 7.0) -> WebLinks:
        """The links of a bot process: the configured secret, else the one stored (made on first use)."""
        if not secret:
            secret = await store.secret(SECRET_NAME, secrets.token_hex(32), clock())
        return cls(base_url, secret.encode(), clock, days)

    def handle(self, match_id: int) -> str:
        """The match's name in its pages' addresses: its id and a signature of it."""
        mac = hmac.new(self.key, f"warhost-table:{match_id}".encode(), hashlib.sha256).digest()
        return f"{match_id}-{base64.urlsafe_b64encode(mac[:HANDLE_BYTES]).decode()}"

    def match_of(self, handle: str) -> int:
        """The match a handle names (LookupError, as for a match that is not there, when it is forged)."""
        found = HANDLE.fullmatch(handle)
        if found is None or not hmac.compare_digest(self.handle(int(found["match"])), handle):
            raise LookupError(handle)
        return int(found["match"])

    def table(self, match_id: int) -> str:
        """The match's public page (reached only through the links the bot posts)."""
        return f"{self.base_url}/m/{self.handle(match_id)}"

    def seat(self, match_id: int, seat: int, user_id: int) -> str:
        """A fresh private link for the player who holds this seat now."""
        expires = int((self.clock() + self.lifetime).timestamp())
        return f"{self.table(match_id)}/s/{self.token(match_id, seat, user_id, expires)}"

    def token(self, match_id: int, seat: int, user_id: int, expires: int) -> str:
        body = f"{seat}.{user_id}.{expires}"
        return f"{body}.{self._sign(match_id, body)}"

    def _sign(self, match_id: int, body: str) -> str:
        mac = hmac.new(self.key, f"warhost-seat:{match_id}:{body}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:SIGNATURE_BYTES]).decode()

    def read(self, match_id: int, token: str) -> SeatPass:
        """The seat a link opens, if its signature holds for this match and it has not expired."""
        found = TOKEN.fullmatch(token)
        if found is None:
            raise BadLink("This is not a seat link of this bot.")
        body = f"{found['seat']}.{found['user']}.{found['expires']}"
        if not hmac.compare_digest(self._sign(match_id, body), found["signature"]):
            raise BadLink("This seat link is not valid for this match.")
        expires_at = datetime.fromtimestamp(int(found["expires"]), tz=self.clock().tzinfo)
        if expires_at <= self.clock():
            raise BadLink("This seat link has expired: open the link in your newest decision DM.")
        return SeatPass(match_id, int(found["seat"]), int(found["user"]), expires_at)

    @staticmethod
    def admit(seat_pass: SeatPass, info: MatchInfo) -> None:
        """Refuse a link whose player no longer holds the seat (kicked, replaced, or the AI plays it)."""
        if info.id != seat_pass.match_id or info.seat_user(seat_pass.seat) != seat_pass.user_id:
            raise BadLink("This seat link was revoked: you no longer hold this seat.")
