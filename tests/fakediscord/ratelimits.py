"""Discord's rate limits as the fake applies them, so a bot that floods a channel is slowed or
refused here as it would be in production instead of passing against a limitless fake.

Two layers, as in Discord's "Rate Limits" topic:
- per-route buckets, keyed by the route's bucket plus its top-level resource (channel_id,
  guild_id, webhook_id + webhook_token; the fake adds interaction_id + interaction_token);
  every answer on such a route carries X-RateLimit-Limit / -Remaining / -Reset / -Reset-After /
  -Bucket, which discord.py paces itself by (it waits on Remaining 0 instead of getting a 429);
- the global limit, 50 requests per second per bot, which discord.py does not pace: it only
  retries after the 429. Interaction endpoints are exempt.

Windows are fixed: one opens at the first request after the previous one closed and lasts the
bucket's period times `time_scale` (1.0 = real seconds; tests shrink it, 0 switches limits off).

Discord publishes no per-route numbers ("parse the headers"), so the table says where each one
comes from: measured by the community, from a discord-api-docs thread, or chosen for the fake.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

RATE_LIMITED = "You are being rate limited."
GLOBAL_LIMIT = 50  # requests per GLOBAL_PERIOD per bot: docs, "Global Rate Limit"
GLOBAL_PERIOD = 1.0
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token", "interaction_id",
                    "interaction_token")
"""Path parameters that split a bucket: Discord's top-level resources, plus the interaction
(each interaction is answered on its own token, and discord.py locks per interaction)."""
MAX_WINDOWS = 4096  # closed windows are dropped past this many (one per interaction token adds up)
VIA = "1.1 google"  # discord.py treats a 429 without Via as a Cloudflare ban and does not retry


@dataclass(frozen=True)
class RouteLimit:
    """One route's bucket: `limit` requests per `period` seconds per top-level resource."""

    method: str
    template: str
    limit: int
    period: float
    why: str
    bucket: str = ""  # routes naming the same bucket share one count; default: the route itself
    global_exempt: bool = False

    @property
    def bucket_name(self) -> str:
        return self.bucket or f"{self.method} {self.template}"


ROUTE_LIMITS: tuple[RouteLimit, ...] = (
    RouteLimit("POST", "/channels/{channel_id}/messages", 5, 5.0,
               "5 messages per 5 s per channel, DM channels alike: the long-measured Discord value"),
    RouteLimit("GET", "/channels/{channel_id}/messages/pins", 10, 1.0,
               "chosen: a read; listed before the message fetch, whose {message_id} \"pins\" would match"),
    RouteLimit("PUT", "/channels/{channel_id}/messages/pins/{message_id}", 5, 5.0,
               "chosen: pinning posts Discord's notice, so it paces like posting"),
    RouteLimit("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", 5, 5.0, "chosen: as pinning"),
    RouteLimit("POST", "/channels/{channel_id}/threads", 5, 5.0,
               "chosen: starting a thread paces like posting in the parent channel"),
    RouteLimit("POST", "/channels/{channel_id}/messages/{message_id}/threads", 5, 5.0,
               "chosen: as starting a thread without a message"),
    RouteLimit("PATCH", "/channels/{channel_id}/messages/{message_id}", 5, 5.0,
               "edits pace like posts; own bucket, as PATCH and DELETE hash apart (discord-api-docs#1135)"),
    RouteLimit("DELETE", "/channels/{channel_id}/messages/{message_id}", 5, 1.0,
               "5 per 1 s per channel, as measured by the community"),
    RouteLimit("GET", "/channels/{channel_id}/messages/{message_id}", 10, 1.0,
               "chosen: a read, roomy enough that only a loop of fetches trips it"),
    RouteLimit("POST", "/channels/{channel_id}/typing", 5, 5.0, "chosen: same pace as posting"),
    RouteLimit("GET", "/channels/{channel_id}", 10, 1.0, "chosen: a read"),
    RouteLimit("POST", "/users/@me/channels", 5, 5.0, "chosen: opening DMs is bot-wide, not per user"),
    RouteLimit("GET", "/users/@me", 5, 5.0, "chosen: read once at login"),
    RouteLimit("GET", "/users/{user_id}", 30, 1.0,
               "30 per window, bot-wide (discord-api-docs#7394); the 1 s window is chosen"),
    RouteLimit("GET", "/oauth2/applications/@me", 5, 5.0, "chosen: read once at login"),
    RouteLimit("GET", "/gateway/bot", 5, 5.0, "chosen: read once per connect"),
    RouteLimit("GET", "/gateway", 5, 5.0, "chosen: read once per connect"),
    RouteLimit("PUT", "/applications/{application_id}/commands", 5, 20.0,
               "chosen: command writes are among the tightest routes; one bulk overwrite per start"),
    RouteLimit("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", 5, 20.0,
               "chosen: as above, per guild"),
    RouteLimit("GET", "/applications/{application_id}/commands", 5, 5.0, "chosen: a rare read"),
    RouteLimit("GET", "/applications/{application_id}/guilds/{guild_id}/commands", 5, 5.0,
               "chosen: a rare read, per guild"),
    RouteLimit("GET", "/guilds/{guild_id}", 10, 1.0, "chosen: a read, per guild"),
    RouteLimit("GET", "/guilds/{guild_id}/members/{user_id}", 10, 1.0, "chosen: a read, per guild"),
    RouteLimit("POST", "/interactions/{interaction_id}/{interaction_token}/callback", 5, 5.0,
               "per interaction (answered once anyway); interaction endpoints skip the global limit "
               "(docs, Receiving and Responding: Endpoints)", global_exempt=True),
    RouteLimit("POST", "/webhooks/{webhook_id}/{webhook_token}", 5, 2.0,
               "5 per 2 s per webhook, failed requests counting too (the community webhook guide quoted "
               "in discord-api-docs#6753); interaction endpoints skip the global limit", bucket="webhook",
               global_exempt=True),
    RouteLimit("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", 5, 2.0,
               "the same webhook bucket", bucket="webhook", global_exempt=True),
    RouteLimit("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", 5, 2.0,
               "the same webhook bucket", bucket="webhook", global_exempt=True),
    RouteLimit("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", 5, 2.0,
               "the same webhook bucket", bucket="webhook", global_exempt=True),
)


def _template_regex(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")


def bucket_hash(name: str) -> str:
    """An opaque X-RateLimit-Bucket value; like Discord's, it names the bucket without the
    top-level resource, so every channel's message bucket reports the same hash."""
    return hashlib.sha256(name.encode()).hexdigest()[:32]


def fingerprint(method: str, path: str, body: Any, files: list[tuple[str, bytes]]) -> str:
    """What identifies one request across discord.py's retries (a retry re-sends the same JSON
    and files; multipart boundaries differ, so the raw bytes cannot be compared)."""
    parts = [method, path, json.dumps(body, sort_keys=True, default=str),
             *(f"{name}:{len(data)}:{hashlib.sha256(data).hexdigest()[:16]}" for name, data in files)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _seconds(value: float) -> float:
    """Rounded up to the millisecond, so a client sleeping this long never comes back early."""
    return math.ceil(round(value * 1000, 6)) / 1000  # round first: 0.1 * 1000 is 100.00000000000001


@dataclass
class Window:
    """Requests counted in one fixed window of a bucket (or of the global limit)."""

    closes: float
    count: int = 0


@dataclass
class InjectedLimit:
    """A test's `fake.rate_limit(...)`: the next `times` matching requests get a 429."""

    method: str
    pattern: re.Pattern[str]
    times: int
    retry_after: float
    is_global: bool
    hits: int = 0


@dataclass(frozen=True)
class Refusal:
    """One 429 the fake answered. `kind` is "bucket", "global" or "injected"; `attempt` counts
    the 429s this same request got in a row (1: discord.py's retry went through)."""

    kind: str
    route: str
    bucket: str | None
    retry_after: float
    at: float
    attempt: int


@dataclass
class Admission:
    """The limiter's verdict: headers to add to the real answer, or (`refused`) a ready 429."""

    headers: dict[str, str] = field(default_factory=dict)
    refused: web.Response | None = None
    kind: str = ""
    retry_after: float = 0.0


def _too_many(kind: str, retry_after: float, is_global: bool, headers: dict[str, str]) -> Admission:
    """Discord's 429: the JSON body discord.py reads `retry_after` and `global` from, Retry-After
    in whole seconds rounded up, and the limit headers."""
    body = {"message": RATE_LIMITED, "retry_after": retry_after, "global": is_global, "code": 0}
    response = web.Response(body=json.dumps(body).encode(), status=429, headers={
        "Content-Type": "application/json", "Retry-After": str(max(1, math.ceil(retry_after))),
        "Via": VIA, **headers})
    return Admission(headers, response, kind, retry_after)


class RateLimiter:
    """Counts each request against its route bucket and the global limit, and answers for it."""

    def __init__(self, time_scale: float = 1.0, *, clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.time_scale = time_scale
        self.clock = clock
        self.wall_clock = wall_clock
        self.injected: list[InjectedLimit] = []
        self.refusals: list[Refusal] = []
        self._routes = [(limit, _template_regex(limit.template)) for limit in ROUTE_LIMITS]
        self._windows: dict[tuple[str, str], Window] = {}
        self._global: Window | None = None
        self._streaks: dict[str, int] = {}

    @property
    def enabled(self) -> bool:
        return self.time_scale > 0

    def bucket_refusals(self) -> list[Refusal]:
        """The 429s Discord itself would have sent (not the ones a test injected)."""
        return [r for r in self.refusals if r.kind != "injected"]

    def inject(self, method: str, route: str, *, times: int, retry_after: float, is_global: bool) -> None:
        pattern = re.compile("^" + re.sub(r"\\\{[^}]*\\\}", "[^/]+", re.escape(route)) + "$")
        self.injected.append(InjectedLimit(method.upper(), pattern, times, retry_after, is_global))

    def route_limit(self, method: str, path: str) -> tuple[RouteLimit, str] | None:
        """The bucket a request falls in and its top-level resource key, if the route has one."""
        for limit, pattern in self._routes:
            found = pattern.match(path) if limit.method == method else None
            if found:
                params = found.groupdict()
                return limit, "+".join(params[name] for name in MAJOR_PARAMETERS if name in params)
        return None

    def admit(self, method: str, path: str, body: Any = None,
              files: list[tuple[str, bytes]] | None = None) -> Admission:
        """Count the request; a refusal is recorded in `refusals` and returned as a 429."""
        now = self.clock()
        verdict = self._injected(method, path) or self._limited(method, path, now)
        if verdict.refused is None and not self._streaks:
            return verdict  # nothing was refused lately: no need to hash the request
        request = fingerprint(method, path, body, files or [])
        if verdict.refused is None:
            self._streaks.pop(request, None)
            return verdict
        attempt = self._streaks[request] = self._streaks.get(request, 0) + 1
        self.refusals.append(Refusal(verdict.kind, f"{method} {path}", verdict.headers.get("X-RateLimit-Bucket"),
                                     verdict.retry_after, now, attempt))
        return verdict

    def _injected(self, method: str, path: str) -> Admission | None:
        for rule in self.injected:
            if rule.times > 0 and rule.method == method and rule.pattern.match(path):
                rule.times -= 1
                rule.hits += 1
                headers = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                           "X-RateLimit-Reset-After": str(rule.retry_after), "X-RateLimit-Bucket": "fake-bucket",
                           "X-RateLimit-Scope": "user", **({"X-RateLimit-Global": "true"} if rule.is_global else {})}
                return _too_many("injected", rule.retry_after, rule.is_global, headers)
        return None

    def _window(self, current: Window | None, period: float, now: float) -> Window:
        if current is None or now >= current.closes:
            return Window(now + period * self.time_scale)
        return current

    def _limited(self, method: str, path: str, now: float) -> Admission:
        if not self.enabled:
            return Admission()
        found = self.route_limit(method, path)
        if found is None or not found[0].global_exempt:
            self._global = self._window(self._global, GLOBAL_PERIOD, now)
            if self._global.count >= GLOBAL_LIMIT:
                retry_after = _seconds(self._global.closes - now)
                headers = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
                return _too_many("global", retry_after, True, headers)
            self._global.count += 1
        if found is None:
            return Admission()
        limit, resource = found
        key = (limit.bucket_name, resource)
        if len(self._windows) > MAX_WINDOWS:
            self._windows = {k: w for k, w in self._windows.items() if w.closes > now}
        window = self._windows[key] = self._window(self._windows.get(key), limit.period, now)
        reset_after = _seconds(window.closes - now)
        headers = {"X-RateLimit-Limit": str(limit.limit), "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                   "X-RateLimit-Reset": f"{_seconds(self.wall_clock() + reset_after):.3f}",
                   "X-RateLimit-Bucket": bucket_hash(limit.bucket_name)}
        if window.count >= limit.limit:
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user"})
            return _too_many("bucket", reset_after, False, headers)
        window.count += 1
        headers["X-RateLimit-Remaining"] = str(limit.limit - window.count)
        return Admission(headers)
