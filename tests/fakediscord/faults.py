"""Faults a test injects at the REST layer, answered with Discord's documented error bodies, and
Discord's slowmode as it meets a bot.

`fake.fail("PATCH", "/channels/{id}/messages/{mid}", 30046, times=3)` answers the next three
matching requests with that error (its HTTP status and message from ERRORS) instead of handling
them; `when=` narrows it to requests whose body a predicate accepts (a DM edit, a board edit).

Slowmode (`channel.rate_limit_per_user`, 0-21600 s): Discord's channel resource documents that
users with Manage Messages or Manage Channels (and, since 2025, Bypass Slowmode) are unaffected;
a bot without them is held to one message per interval like anyone, and a post inside the
interval is answered 429 with error 20016 and the seconds left in ``retry_after``."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .permissions import bits
from .ratelimits import VIA

ERRORS: dict[int, tuple[int, str]] = {
    10003: (404, "Unknown Channel"),
    10008: (404, "Unknown Message"),
    20016: (429, "This action cannot be performed due to slowmode rate limit"),
    30046: (400, "Maximum number of edits to messages older than 1 hour reached. Try again later"),
    50001: (403, "Missing Access"),
    50013: (403, "Missing Permissions"),
    50027: (401, "Invalid Webhook Token"),
    50035: (400, "Invalid Form Body"),
    50083: (400, "Thread is archived"),
    160005: (403, "Thread is locked"),
}
"""Discord's error codes (its "JSON Error Codes" table): HTTP status and message."""

SLOWMODE_BYPASS = bits("manage_messages", "manage_channels", "bypass_slowmode")
"""Any of these lets a member (the bot too) post past a channel's slowmode."""


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    code: int
    times: int
    when: Callable[[Any], bool] | None = None
    hits: int = 0


def route_pattern(route: str) -> re.Pattern[str]:
    """A route template ("/channels/{id}/messages") as a regex over request paths."""
    return re.compile("^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(route)) + "$")


def error_response(code: int, *, status: int | None = None, message: str | None = None,
                   extra: dict[str, Any] | None = None) -> web.Response:
    known_status, known_message = ERRORS.get(code, (400, f"error {code}"))
    body = {"message": message or known_message, "code": code, **(extra or {})}
    return web.Response(body=json.dumps(body).encode(), status=status or known_status,
                        headers={"Content-Type": "application/json"})


class Faults:
    """The injected refusals of one fake."""

    def __init__(self) -> None:
        self.rules: list[Fault] = []
        self.answered: list[tuple[str, int]] = []
        """(route, code) of every injected refusal answered."""

    def inject(self, method: str, route: str, code: int, *, times: int = 1,
               when: Callable[[Any], bool] | None = None) -> Fault:
        fault = Fault(method.upper(), route_pattern(route), code, times, when)
        self.rules.append(fault)
        return fault

    def clear(self) -> None:
        self.rules.clear()

    def check(self, method: str, path: str, body: Any) -> web.Response | None:
        for fault in self.rules:
            if fault.times > 0 and fault.method == method and fault.pattern.match(path) and (
                    fault.when is None or fault.when(body)):
                fault.times -= 1
                fault.hits += 1
                self.answered.append((f"{method} {path}", fault.code))
                return error_response(fault.code)
        return None


class Slowmode:
    """When the bot last posted in each slowmode channel (monotonic seconds)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last_post: dict[int, float] = {}
        self.refused: list[tuple[int, float]] = []
        """(channel id, retry_after) of every post refused for slowmode."""

    def admit(self, channel_id: int, interval: int, permissions: int) -> web.Response | None:
        """None if the bot may post now (and the post starts a new interval), else Discord's 429."""
        if interval <= 0 or permissions & SLOWMODE_BYPASS:
            return None
        now = self.clock()
        last = self.last_post.get(channel_id)
        if last is not None and now < last + interval:
            left = round(last + interval - now, 3)
            self.refused.append((channel_id, left))
            response = error_response(20016, extra={"retry_after": left, "global": False})
            response.headers.update({"Retry-After": str(max(1, math.ceil(left))), "X-RateLimit-Scope": "user",
                                     "Via": VIA})
            return response
        self.last_post[channel_id] = now
        return None
