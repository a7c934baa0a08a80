"""FakeDiscord: an aiohttp server speaking Discord's REST API (v10) and gateway on 127.0.0.1,
good enough for the real discord.py client to log in, sync commands and handle interactions.

It enforces the Discord rules that catch real bot bugs (see limits.py), answering with Discord's
real error codes and recording each breach in `violations`; the pytest fixtures fail a test
that leaves an unexpected violation behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from . import command_rules, limits
from .faults import Fault, Faults, Slowmode
from .limits import FLAG_EPHEMERAL, FLAG_LOADING
from .models import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Message,
    Thread,
    User,
    now_iso,
    shard_for,
    snowflake,
    snowflake_on_shard,
)
from .ratelimits import RateLimiter
from .spec import load_spec

log = logging.getLogger("fakediscord")

JsonHandler = Callable[..., Awaitable[web.StreamResponse]]
TOKEN_IN_URL = ("/interactions/", "/webhooks/")
"""Routes authenticated by the interaction or webhook token in their URL, not by the bot token."""


def jresp(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly "application/json": discord.http.json_or_text only parses
    that exact value (aiohttp's json_response appends "; charset=utf-8")."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


class DiscordError(Exception):
    """Raised inside a handler to answer with one of Discord's error bodies and record a violation."""

    def __init__(self, status: int, code: int, message: str, kind: str, detail: str = "",
                 extra: dict | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.kind, self.detail = status, code, message, kind, detail
        self.extra = extra or {}


@dataclass
class Violation:
    """A Discord rule the bot broke (or an unhandled route it called)."""

    kind: str
    code: int
    status: int
    route: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.status}/{self.code} {self.route}: {self.detail}"


@dataclass
class Call:
    """One REST request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[tuple[str, bytes]]
    status: int = 200
    multipart: bool = False


@dataclass(eq=False)
class Interaction:
    """One INTERACTION_CREATE the fake sent, and everything the bot did with it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    payload: dict
    created: float
    message: Message | None = None
    shard_id: int | None = None
    ack_type: int | None = None
    error: dict | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    modal: dict | None = None
    choices: list[dict] | None = None
    callback: asyncio.Future[None] | None = None

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild


@dataclass
class GatewaySession:
    ws: web.WebSocketResponse
    shard_id: int = 0
    shard_count: int = 1
    session_id: str = ""
    seq: int = 0
    identify: dict = field(default_factory=dict)
    intents: int = 0
    events: list[str] = field(default_factory=list)  # "EVENT" or "EVENT:<id>" for each dispatch sent


class FakeDiscord:
    """In-process fake of Discord for one bot application.

    `guilds` guilds are created up front (each with a #game channel), spread over `shards` so that
    guild i lands on shard i % shards. `ack_deadline` and `token_ttl` model Discord's 3 s and
    15 min interaction windows and can be shrunk by tests. Only `token` logs in (any other bot
    token gets Discord's 401); `bot_permissions`, when set, is the invite's permissions integer:
    each guild then has the managed bot role Discord creates with it. `rate_time_scale` shrinks
    every rate limit window (0.1: 5 messages per 0.5 s; 0 turns rate limits off), see ratelimits.py.
    """

    def __init__(self, *, guilds: int = 1, shards: int = 1, ack_deadline: float = limits.ACK_DEADLINE,
                 token_ttl: float = limits.TOKEN_TTL,
                 attachment_size_limit: int = limits.DEFAULT_ATTACHMENT_LIMIT,
                 token: str = "fake-token", bot_permissions: int = 0,
                 rate_time_scale: float = 1.0) -> None:
        self.token = token
        self.bot_permissions = bot_permissions
        self.app_id = snowflake()
        self.bot_user = User(self.app_id, "GameMaster", bot=True)
        self.owner = User(snowflake(), "owner")
        self.shard_count = shards
        self.ack_deadline = ack_deadline
        self.ack_grace = 1.0  # extra wait before declaring an interaction never acknowledged
        self.token_ttl = token_ttl
        self.attachment_size_limit = attachment_size_limit
        self.message_size_limit = limits.DEFAULT_ATTACHMENT_LIMIT
        self.users: dict[int, User] = {}
        self.guilds: list[Guild] = []
        self.dm_channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.commands: dict[int | None, list[dict]] = {}
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.modals: dict[int, tuple[dict, Interaction]] = {}
        self.calls: list[Call] = []
        self.violations: list[Violation] = []
        self.allowed: set[str] = set()
        self.identifies: list[dict] = []
        self.sessions: dict[int, GatewaySession] = {}
        self._all_sessions: dict[str, GatewaySession] = {}
        self.rate_limiter = RateLimiter(rate_time_scale)
        self.rate_limited: list[str] = []  # the route of every 429 answered, injected ones included
        self.faults = Faults()
        """Refusals a test injects (`fail`), answered before the route's handler."""
        self.slowmode = Slowmode()
        self.in_flight = 0
        self.last_activity = time.monotonic()
        self._players: dict[int, Any] = {}
        self._change: asyncio.Event | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.host = "127.0.0.1"
        from .pins import PinRoutes
        from .threads import ThreadRoutes

        self.thread_routes = ThreadRoutes(self)
        self.pin_routes = PinRoutes(self)
        self._routes = self._build_routes()
        self.spec = load_spec()
        """Discord's OpenAPI spec every request is validated against (None: no copy here)."""
        for i in range(guilds):
            self.add_guild(f"Guild {i + 1}", shard=i % max(shards, 1))

    # ------------------------------------------------------------------ world setup
    def add_guild(self, name: str, *, shard: int | None = None, channels: tuple[str, ...] = ("game",)) -> Guild:
        """A guild whose id routes to `shard` under this fake's shard count; the bot is a member."""
        gid = snowflake_on_shard(shard, self.shard_count) if shard is not None else snowflake()
        guild = Guild(gid, name, owner_id=self.owner.id)
        for pos, cname in enumerate(channels):
            guild.channels.append(Channel(snowflake(), cname, guild=guild, position=pos))
        guild.add_member(self.bot_user)
        if self.bot_permissions:
            guild.add_bot_role(self.bot_user, self.bot_permissions)
        for user in self.users.values():
            guild.add_member(user)
        self.guilds.append(guild)
        return guild

    @property
    def guild(self) -> Guild:
        return self.guilds[0]

    @property
    def channel(self) -> Channel:
        return self.guilds[0].channel

    def add_user(self, name: str, *, manage_guild: bool = False, guilds: list[Guild] | None = None) -> User:
        """A human member of `guilds` (all guilds by default)."""
        user = User(snowflake(), name)
        self.users[user.id] = user
        for guild in self.guilds if guilds is None else guilds:
            guild.add_member(user, manage_guild=manage_guild)
        return user

    def user(self, name: str, *, manage_guild: bool = False) -> Any:
        """The virtual player called `name` (created on first use)."""
        from .players import Player

        found = next((u for u in self.users.values() if u.name == name), None)
        if found is None:
            found = self.add_user(name, manage_guild=manage_guild)
        elif manage_guild:
            for guild in self.guilds:
                guild.add_member(found, manage_guild=True)
        if found.id not in self._players:
            self._players[found.id] = Player(self, found)
        return self._players[found.id]

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and `user` (Discord has exactly one)."""
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = Channel(snowflake(), f"dm-{user.name}", recipient=user)
        return self.dm_channels[user.id]

    def find_channel(self, channel_id: int) -> Channel | None:
        for guild in self.guilds:
            for ch in [*guild.channels, *guild.threads]:
                if ch.id == channel_id:
                    return ch
        return next((c for c in self.dm_channels.values() if c.id == channel_id), None)

    def channel_messages(self, channel: Channel) -> list[Message]:
        """Every live message in `channel`, ephemeral ones included (use Place.messages for one viewer)."""
        return [m for m in channel.log if not m.deleted]

    def visible_messages(self, user: User) -> list[Message]:
        """Every message `user` can currently see, in creation order (for leak checks)."""
        return [m for m in self.messages.values() if m.visible_to(user)]

    def seen_by(self, user: User) -> list[Message]:
        """Every message `user` could see at some point, deleted ones included."""
        return [m for m in self.messages.values() if m.visible_to(user, include_deleted=True)]

    def leaks(self, text: str, *, allowed: Iterable[Any]) -> list[str]:
        """Who, outside `allowed` (players or users), ever saw `text` in any version of any message."""
        ok = {getattr(a, "id", a) for a in allowed}
        found = []
        for user in self.users.values():
            if user.id in ok:
                continue
            for msg in self.seen_by(user):
                if any(text in t for t in msg.texts):
                    found.append(f"{user.name} saw {text!r} in {msg.audience} message {msg.id}")
        return found

    # ------------------------------------------------------------------ server lifecycle
    async def start(self, port: int = 0, host: str = "127.0.0.1") -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{aid}/{name}", self._attachment)
        from .control import add_control_routes

        add_control_routes(app, self)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.host = host
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for session in list(self._all_sessions.values()):
            if not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    @property
    def env(self) -> dict[str, str]:
        """Environment for a bot process that reads its Discord URLs from settings."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url,
                "DISCORD_TOKEN": self.token}

    def patch_discord(self) -> Callable[[], None]:
        """Point discord.py at this fake; returns a function that restores the real URLs."""
        return patch_discord(self.api_base, self.gateway_url)

    # ------------------------------------------------------------------ violations
    def violation(self, kind: str, code: int, status: int, route: str, detail: str) -> Violation:
        v = Violation(kind, code, status, route, detail)
        self.violations.append(v)
        log.warning("fakediscord violation %s", v)
        self._notify()
        return v

    def allow(self, *kinds: str) -> None:
        """Declare violation kinds this test expects, so teardown does not fail on them."""
        self.allowed.update(kinds)

    def pop_violations(self, kind: str | None = None) -> list[Violation]:
        """Remove and return the recorded violations (of one kind, or all)."""
        taken = [v for v in self.violations if kind is None or v.kind == kind]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    @contextlib.contextmanager
    def expect_violation(self, kind: str) -> Iterator[list[Violation]]:
        """Assert that the block records at least one `kind` violation, and consume it."""
        found: list[Violation] = []
        before = len(self.violations)
        yield found
        new = self.violations[before:]
        found += [v for v in new if v.kind == kind]
        if not found:
            raise AssertionError(f"expected a {kind!r} violation, got {[str(v) for v in new]}")
        self.violations = [v for v in self.violations if v not in found]

    def unexpected_violations(self) -> list[Violation]:
        return [v for v in self.violations if v.kind not in self.allowed]

    def assert_no_violations(self) -> None:
        bad = self.unexpected_violations()
        if bad:
            raise AssertionError("fakediscord recorded Discord rule violations:\n  " +
                                 "\n  ".join(str(v) for v in bad))

    def rate_limit(self, method: str, route: str, *, times: int = 1, retry_after: float = 0.05,
                   is_global: bool = False) -> None:
        """Answer the next `times` requests to `route` (a template like "/channels/{id}/messages",
        relative to /api/v10) with 429 and Retry-After, as Discord does when a bucket is exhausted;
        recorded in `rate_limiter.refusals` as kind "injected", apart from the real buckets' 429s."""
        self.rate_limiter.inject(method, route, times=times, retry_after=retry_after, is_global=is_global)

    def fail(self, method: str, route: str, code: int, *, times: int = 1,
             when: Callable[[Any], bool] | None = None) -> Fault:
        """Answer the next `times` requests to `route` (a template relative to /api/v10) whose body
        `when` accepts with Discord's error `code` (faults.ERRORS: its status and message)."""
        return self.faults.inject(method, route, code, times=times, when=when)

    # ------------------------------------------------------------------ change notification
    def _notify(self) -> None:
        if self._change is not None:
            self._change.set()
        self._change = None

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 60.0) -> Any:
        """Wait until `predicate()` is truthy (re-checked whenever the fake's state changes)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            if self._change is None:
                self._change = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._change.wait(), min(remaining, 0.02))

    # ------------------------------------------------------------------ gateway
    async def _send(self, session: GatewaySession, op: int, d: Any, t: str | None = None) -> None:
        msg: dict[str, Any] = {"op": op, "d": d, "s": None, "t": t}
        if op == 0:
            session.seq += 1
            msg["s"] = session.seq
            session.events.append(f"{t}:{d['id']}" if t == "INTERACTION_CREATE" else str(t))
        await session.ws.send_str(json.dumps(msg))  # uncompressed TEXT frames; discord.py accepts them

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws)
        await self._send(session, 10, {"heartbeat_interval": 41250})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                pkt = json.loads(msg.data)
                op, d = pkt.get("op"), pkt.get("d")
                if op == 1:
                    await self._send(session, 11, None)
                elif op == 2:
                    await self._identify(session, d)
                elif op == 6:
                    session = await self._resume(session, d)
                elif op == 8:
                    await self._member_chunk(session, d)
        finally:
            if self.sessions.get(session.shard_id) is session and session.ws is ws:
                del self.sessions[session.shard_id]
            self._notify()
        return ws

    async def _identify(self, session: GatewaySession, d: dict) -> None:
        if d.get("token") != self.token:
            self.violation("unauthorized", 4004, 0, "gateway IDENTIFY", "a token the fake was not given")
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard_id, shard_count = d.get("shard") or [0, 1]
        session.shard_id, session.shard_count = shard_id, shard_count
        session.identify, session.intents = d, d.get("intents", 0)
        session.session_id = f"fake-session-{snowflake()}"
        self.identifies.append(d)
        self.shard_count = shard_count
        old = self.sessions.get(shard_id)
        if old is not None and not old.ws.closed:
            await old.ws.close()
        self.sessions[shard_id] = session
        self._all_sessions[session.session_id] = session
        mine = [g for g in self.guilds if shard_for(g.id, shard_count) == shard_id]
        await self._send(session, 0, {
            "v": 10, "user": self.bot_user.payload(), "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url, "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
            "application": {"id": str(self.app_id), "flags": 0}, "shard": [shard_id, shard_count],
            "private_channels": [], "relationships": [],
        }, "READY")
        for guild in mine:
            await self._send(session, 0, guild.payload(self.bot_user), "GUILD_CREATE")
        self._notify()

    async def _resume(self, session: GatewaySession, d: dict) -> GatewaySession:
        old = self._all_sessions.get(d.get("session_id", ""))
        if old is None:
            await self._send(session, 9, False)  # INVALID_SESSION, not resumable
            return session
        old.ws = session.ws
        self.sessions[old.shard_id] = old
        await self._send(old, 0, {}, "RESUMED")
        return old

    async def _member_chunk(self, session: GatewaySession, d: dict) -> None:
        """op 8 REQUEST_GUILD_MEMBERS: all members, or those matching `query` / `user_ids`."""
        ids = d.get("guild_id")
        query, limit = d.get("query"), d.get("limit") or 0
        user_ids = d.get("user_ids")
        wanted = {int(u) for u in ([user_ids] if isinstance(user_ids, (str, int)) else user_ids or [])}
        for gid in ids if isinstance(ids, list) else [ids]:
            guild = next((g for g in self.guilds if g.id == int(gid)), None)
            if guild is None:
                continue
            members = [m for m in guild.members.values()
                       if (not wanted or m.user.id in wanted)
                       and (not query or m.user.name.lower().startswith(query.lower()))]
            if limit:
                members = members[:limit]
            await self._send(session, 0, {
                "guild_id": str(guild.id), "members": [guild.member_payload(m) for m in members],
                "chunk_index": 0, "chunk_count": 1, "nonce": d.get("nonce"),
                "not_found": [str(u) for u in wanted if u not in guild.members],
            }, "GUILD_MEMBERS_CHUNK")

    async def request_reconnect(self, shard_id: int = 0) -> None:
        """Send op 7 RECONNECT to a shard, as Discord does before a gateway restart; discord.py
        reconnects and RESUMEs the session (answered with RESUMED)."""
        session = self.sessions[shard_id]
        await self._send(session, 7, None)

    def session_for(self, guild: Guild | None) -> GatewaySession:
        """Discord's routing: guild events by (guild_id >> 22) % shard_count, everything else to shard 0."""
        shard = 0 if guild is None else shard_for(guild.id, self.shard_count)
        session = self.sessions.get(shard)
        if session is None or session.ws.closed:
            raise RuntimeError(f"fakediscord: no gateway connection for shard {shard}; is the bot running?")
        return session

    async def dispatch(self, event: str, data: dict, guild: Guild | None = None) -> int:
        """Send a dispatch event to the shard that owns `guild` (shard 0 for DMs); returns the shard id."""
        session = self.session_for(guild)
        await self._send(session, 0, data, event)
        return session.shard_id

    async def wait_for_shards(self, count: int | None = None, timeout: float = 10.0) -> None:
        """Wait until `count` shards (default: the fake's shard count) have identified."""
        want = count or self.shard_count
        await self.wait_until(lambda: len([s for s in self.sessions.values() if not s.ws.closed]) >= want, timeout)

    # ------------------------------------------------------------------ REST plumbing
    def _build_routes(self) -> list[tuple[str, re.Pattern[str], JsonHandler]]:
        table: list[tuple[str, str, JsonHandler]] = [
            *self.pin_routes.routes(),  # before /channels/{cid}/messages/{mid}, which "pins" would match
            *self.thread_routes.routes(),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_app),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/gateway", self._get_gateway),
            ("PUT", "/applications/{app}/commands", self._put_valid_commands),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_valid_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("POST", "/interactions/{iid}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_message),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{uid}", self._get_user),
            ("GET", "/channels/{cid}", self._get_visible_channel),
            ("POST", "/channels/{cid}/messages", self._post_permitted_message),
            ("GET", "/channels/{cid}/messages/{mid}", self._channel_message),
            ("PATCH", "/channels/{cid}/messages/{mid}", self._channel_message),
            ("DELETE", "/channels/{cid}/messages/{mid}", self._channel_message),
            ("POST", "/channels/{cid}/typing", self._typing),
            ("GET", "/guilds/{guild}", self._get_guild),
            ("GET", "/guilds/{guild}/members/{uid}", self._get_member),
            ("GET", "/guilds/{guild}/roles", self._get_roles),
        ]
        out = []
        for method, template, handler in table:
            regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            if not template.startswith(TOKEN_IN_URL):
                handler = self._with_bot_token(handler)
            out.append((method, re.compile(f"^{regex}$"), handler))
        return out

    def _with_bot_token(self, handler: JsonHandler) -> JsonHandler:
        """Discord answers 401 to a bot route without this application's `Authorization: Bot <token>`."""
        async def checked(request: web.Request, *args: Any, **kwargs: Any) -> web.StreamResponse:
            if request.headers.get("Authorization") != f"Bot {self.token}":
                raise DiscordError(401, 0, "401: Unauthorized", "unauthorized",
                                   "no bot token, or one the fake was not given")
            return await handler(request, *args, **kwargs)
        return checked

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        """JSON body, or multipart `payload_json` + `files[n]` parts (files kept in index order)."""
        if request.headers.get("Content-Type", "").startswith("multipart/"):
            payload: Any = None
            indexed: list[tuple[int, str, bytes]] = []
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    m = re.match(r"files\[(\d+)\]", part.name or "")
                    data = bytes(await part.read())  # type: ignore[union-attr]
                    indexed.append((int(m.group(1)) if m else len(indexed), part.filename or "file", data))
            indexed.sort()
            return payload, [(name, data) for _, name, data in indexed]
        raw = await request.read()
        return (json.loads(raw) if raw else None), []

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        self.in_flight += 1
        try:
            return await self._rest_inner(request)
        finally:
            self.in_flight -= 1
            self.last_activity = time.monotonic()

    async def quiesce(self, quiet: float = 0.05, timeout: float = 2.0) -> None:
        """Wait until the bot has made no REST request for `quiet` seconds (bounded by `timeout`),
        so a bot is not stopped halfway through work a test did not wait for."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.in_flight == 0 and time.monotonic() - self.last_activity >= quiet:
                return
            await asyncio.sleep(quiet / 2)

    async def _rest_inner(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        call = Call(request.method, path, dict(request.query), body, files,
                    multipart=request.headers.get("Content-Type", "").startswith("multipart/"))
        self.calls.append(call)
        route = f"{request.method} {path}"
        admission = self.rate_limiter.admit(request.method, path, body, files)
        if admission.refused is not None:
            self.rate_limited.append(route)
            call.status = 429
            return admission.refused
        injected = self.faults.check(request.method, path, body) if self.faults.rules else None
        if injected is not None:
            call.status = injected.status
            return injected
        refused = self.spec.check(request.method, path, dict(request.query), body) if self.spec else None
        if refused is not None:
            self.violation("spec", int(refused.body["code"]), refused.status, route, refused.detail)
            call.status = refused.status
            self._refused_callback(path, refused)
            return jresp(refused.body, status=refused.status, headers=admission.headers)
        try:
            for method, pattern, handler in self._routes:
                m = pattern.match(path)
                if m and method == request.method:
                    resp = await handler(request, body, files, **m.groupdict())
                    break
            else:
                raise DiscordError(404, 0, f"fakediscord: unhandled {route}", "unhandled_route", route)
        except DiscordError as err:
            self.violation(err.kind, err.code, err.status, route, err.detail or err.message)
            call.status = err.status
            return jresp({"message": err.message, "code": err.code, **err.extra}, status=err.status,
                         headers=admission.headers)
        resp.headers.update(admission.headers)
        call.status = resp.status
        self._notify()
        return resp

    async def _attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["aid"])
        for msg in self.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(body=att.data, content_type=att.payload(self.base_url)["content_type"]
                                        or "application/octet-stream")
        return web.Response(status=404)

    # ------------------------------------------------------------------ login and commands
    async def _get_me(self, request: web.Request, body: Any, files: list) -> web.Response:
        return jresp(self.bot_user.payload())

    async def _get_app(self, request: web.Request, body: Any, files: list) -> web.Response:
        return jresp({"id": str(self.app_id), "name": self.bot_user.name, "description": "", "icon": None,
                      "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.payload(),
                      "verify_key": "00", "flags": 0, "team": None, "bot": self.bot_user.payload()})

    async def _get_gateway_bot(self, request: web.Request, body: Any, files: list) -> web.Response:
        return jresp({"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": {
            "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 16}})

    async def _get_gateway(self, request: web.Request, body: Any, files: list) -> web.Response:
        return jresp({"url": self.gateway_url})

    def _check_app(self, app: str) -> None:
        if app != str(self.app_id):
            raise DiscordError(404, 10002, "Unknown Application", "unknown_application", app)

    async def _put_commands(self, request: web.Request, body: Any, files: list, app: str,
                            guild: str | None = None) -> web.Response:
        """Bulk overwrite; ids stay stable per name across syncs, as on Discord."""
        self._check_app(app)
        gid = int(guild) if guild else None
        if gid is not None and not any(g.id == gid for g in self.guilds):
            raise DiscordError(403, 50001, "Missing Access", "unknown_guild", guild or "")
        old = {c["name"]: c["id"] for c in self.commands.get(gid, [])}
        out = []
        for cmd in body or []:
            item = {**cmd, "id": old.get(cmd["name"]) or str(snowflake()), "application_id": str(self.app_id),
                    "version": str(snowflake()), "type": cmd.get("type", 1)}
            if gid is not None:
                item["guild_id"] = str(gid)
            out.append(item)
        self.commands[gid] = out
        return jresp(out)

    async def _put_valid_commands(self, request: web.Request, body: Any, files: list, app: str,
                                  guild: str | None = None) -> web.Response:
        """Discord refuses the whole upload when one command breaks its rules (see command_rules)."""
        errors = command_rules.check_commands(body or [])
        if errors.flat:
            raise DiscordError(400, 50035, "Invalid Form Body", "invalid_commands", "; ".join(errors.flat),
                               extra={"errors": errors.tree})
        return await self._put_commands(request, body, files, app, guild)

    async def _get_commands(self, request: web.Request, body: Any, files: list, app: str,
                            guild: str | None = None) -> web.Response:
        self._check_app(app)
        return jresp(self.commands.get(int(guild) if guild else None, []))

    def find_command(self, name: str, guild: Guild | None) -> dict | None:
        """A synced chat-input command by name: the guild's own commands first, then global ones."""
        pools = ([self.commands.get(guild.id, [])] if guild else []) + [self.commands.get(None, [])]
        for pool in pools:
            for cmd in pool:
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    if guild is None and not _allowed_in_dm(cmd):
                        continue
                    return cmd
        return None

    # ------------------------------------------------------------------ messages
    def _build_attachments(self, body: dict, files: list[tuple[str, bytes]],
                           existing: list[Attachment] | None) -> list[Attachment]:
        """New files are the `files[n]` parts; on edit, `attachments` lists the ids to keep."""
        described = {str(a.get("id")): a for a in body.get("attachments") or []}
        new = [Attachment(snowflake(), described.get(str(i), {}).get("filename") or name, data,
                          described.get(str(i), {}).get("description")) for i, (name, data) in enumerate(files)]
        if existing is None:
            return new
        if "attachments" in body:
            keep_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            return [a for a in existing if str(a.id) in keep_ids] + new
        return existing + new

    def _validate(self, body: dict, files: list[tuple[str, bytes]], size_limit: int,
                  editing: Message | None = None) -> None:
        """Discord's refusals of a message body; `editing` is the message an edit would change."""
        if editing is not None:
            self.thread_routes.check_editable(editing)
        too_big = limits.oversized_files(files, size_limit)
        if too_big:
            raise DiscordError(413, 40005, "Request entity too large", "attachment_too_large", "; ".join(too_big))
        names = [a.filename for a in self._build_attachments(body, files, editing.attachments if editing else None)]
        problems = limits.check_message(body, files, size_limit, attachments=names,
                                        previous=editing.versions[-1] if editing is not None else None)
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body", "invalid_message", "; ".join(problems),
                               extra={"errors": limits.form_error(problems)["errors"]})

    def create_message(self, channel: Channel, body: dict, files: list[tuple[str, bytes]], *,
                       ephemeral_to: User | None = None, interaction: Interaction | None = None,
                       extra_flags: int = 0) -> Message:
        flags = int(body.get("flags") or 0) | extra_flags
        msg = Message(snowflake(), channel, self.bot_user, content=str(body.get("content") or ""),
                      embeds=list(body.get("embeds") or []), components=list(body.get("components") or []),
                      attachments=self._build_attachments(body, files, None), flags=flags,
                      ephemeral_to=ephemeral_to, interaction_id=interaction.id if interaction else None,
                      webhook_id=self.app_id if interaction else None,
                      nonce=None if body.get("nonce") is None else str(body["nonce"]),
                      allowed_mentions=body.get("allowed_mentions"))
        msg.snapshot()
        self.messages[msg.id] = msg
        channel.log.append(msg)
        return msg

    def edit_message(self, msg: Message, body: dict, files: list[tuple[str, bytes]]) -> Message:
        """Edit in place: only the fields present in the body change; finishes a "thinking" state."""
        if "content" in body:
            msg.content = str(body["content"] or "")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            if msg.interaction_id is not None:  # an interaction response's flags, set by its callback
                msg.flags = (msg.flags & FLAG_EPHEMERAL) | (int(body["flags"]) & ~FLAG_EPHEMERAL)
            else:
                msg.flags = limits.edited_flags(msg.flags, int(body["flags"]))
        msg.attachments = self._build_attachments(body, files, msg.attachments)
        msg.flags &= ~FLAG_LOADING
        msg.edited_timestamp = now_iso()
        msg.snapshot()
        return msg

    def _channel(self, cid: str) -> Channel:
        channel = self.find_channel(int(cid))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel", "unknown_channel", cid)
        return channel

    async def _post_message(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        """Post as the bot: refused as Discord would (closed DMs, no mutual guild, the bot's channel
        permissions); an enforced nonce the bot used here within NONCE_WINDOW returns that message;
        `channel.fail_after_post` answers 5xx after creating the message (the response was lost)."""
        channel = self._channel(cid)
        recipient = channel.recipient
        if recipient is not None and recipient.dms_closed:
            raise DiscordError(403, 50007, "Cannot send messages to this user", "dms_closed",
                               f"DM to {recipient.name}, whose DMs are closed")
        if recipient is not None and not any(recipient.id in g.members for g in self.guilds):
            raise DiscordError(403, 50278, "Cannot send messages to this user due to having no mutual guilds",
                               "no_mutual_guilds", f"DM to {recipient.name}, who shares no guild with the bot")
        body = body or {}
        self._check_flags(body.get("flags"))
        self._validate(body, files, self.message_size_limit)
        nonce = body.get("nonce")
        if nonce is not None and not (isinstance(nonce, int) or (isinstance(nonce, str) and len(nonce) <= limits.MAX_NONCE)):
            raise DiscordError(400, 50035, "Invalid Form Body", "invalid_message", f"nonce {nonce!r}")
        if nonce is not None and body.get("enforce_nonce"):
            cutoff = time.monotonic() - limits.NONCE_WINDOW
            earlier = next((m for m in reversed(channel.log) if m.nonce == str(nonce)
                            and m.author is self.bot_user and m.created >= cutoff), None)
            if earlier is not None:
                return jresp(earlier.payload(self.base_url))
        msg = self.create_message(channel, body, files)
        if channel.fail_after_post:
            status = channel.fail_after_post.pop(0)
            return jresp({"message": "Internal Server Error", "code": 0}, status=status)
        return jresp(msg.payload(self.base_url))

    async def _channel_message(self, request: web.Request, body: Any, files: list, cid: str,
                               mid: str) -> web.StreamResponse:
        channel = self._channel(cid)
        msg = self.messages.get(int(mid))
        if msg is None or msg.channel is not channel or msg.deleted or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message", "unknown_message", f"{cid}/{mid}")
        if request.method == "GET":
            return jresp(msg.payload(self.base_url))
        if msg.author is not self.bot_user:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user", "not_author", mid)
        if request.method == "DELETE":
            msg.deleted = True
            return web.Response(status=204)
        body = body or {}
        self._check_flags(body.get("flags"), msg.flags)
        self._validate(body, files, self.message_size_limit, editing=msg)
        return jresp(self.edit_message(msg, body, files).payload(self.base_url))

    @staticmethod
    def _check_flags(flags: Any, current: int | None = None) -> None:
        """Discord's refusal of message flags a bot may not set (on a post, or by an edit)."""
        problems = limits.check_flags(None if flags is None else int(flags), current)
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body", "invalid_flags", "; ".join(problems),
                               extra={"errors": {"flags": {"_errors": [{"code": "MESSAGE_FLAGS_INVALID",
                                                                        "message": problems[0]}]}}})

    async def _typing(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        self._channel(cid)
        return web.Response(status=204)

    async def _create_dm(self, request: web.Request, body: Any, files: list) -> web.Response:
        user = self.users.get(int((body or {}).get("recipient_id", 0)))
        if user is None:
            raise DiscordError(400, 50033, "Invalid Recipient(s)", "unknown_user", str(body))
        return jresp(self.dm_channel(user).payload())

    async def _get_user(self, request: web.Request, body: Any, files: list, uid: str) -> web.Response:
        user = self.users.get(int(uid)) if uid.isdigit() else None
        if user is None:
            raise DiscordError(404, 10013, "Unknown User", "unknown_user", uid)
        return jresp(user.payload())

    async def _get_channel(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        return jresp(self._channel(cid).payload(self.bot_user))

    def _require_permissions(self, channel: Channel, *, posting: bool = False, files: list | None = None) -> None:
        """Discord's answers to a bot that may not do this here: Missing Access when it cannot see
        the channel; Missing Permissions when posting without Send Messages (Send Messages in
        Threads in a thread; Attach Files for a file)."""
        if channel.guild is None:
            return
        have = channel.permissions_of(self.bot_user)
        if not have & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access", "missing_access",
                               f"the bot lacks View Channel in #{channel.name}")
        lacking = []
        send_bit, send_name = channel.SEND
        if posting and not have & send_bit:
            lacking.append(send_name)
        if posting and files and not have & ATTACH_FILES:
            lacking.append("Attach Files")
        if lacking:
            raise DiscordError(403, 50013, "Missing Permissions", "missing_permissions",
                               f"the bot lacks {' and '.join(lacking)} in #{channel.name}")

    async def _get_visible_channel(self, request: web.Request, body: Any, files: list, cid: str) -> web.Response:
        self._require_permissions(self._channel(cid))
        return await self._get_channel(request, body, files, cid)

    async def _post_permitted_message(self, request: web.Request, body: Any, files: list,
                                      cid: str) -> web.Response:
        channel = self._channel(cid)
        self._require_permissions(channel, posting=True, files=files)
        slowed = None
        if channel.rate_limit_per_user > 0 and not channel.is_dm:
            slowed = self.slowmode.admit(channel.id, channel.rate_limit_per_user, channel.permissions_of(self.bot_user))
        if slowed is not None:
            self.rate_limited.append(f"POST /channels/{cid}/messages")
            return slowed
        if isinstance(channel, Thread):
            self.thread_routes.check_post(channel)
            resp = await self._post_message(request, body, files, cid)
            await self.thread_routes.after_post(channel)
            return resp
        return await self._post_message(request, body, files, cid)

    async def _get_roles(self, request: web.Request, body: Any, files: list, guild: str) -> web.Response:
        return jresp([r.payload() for r in self._guild(guild).roles])

    def _guild(self, gid: str) -> Guild:
        guild = next((g for g in self.guilds if str(g.id) == gid), None)
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild", "unknown_guild", gid)
        return guild

    async def _get_guild(self, request: web.Request, body: Any, files: list, guild: str) -> web.Response:
        return jresp(self._guild(guild).payload(self.bot_user))

    async def _get_member(self, request: web.Request, body: Any, files: list, guild: str,
                          uid: str) -> web.Response:
        g = self._guild(guild)
        member = g.members.get(int(uid))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member", "unknown_member", uid)
        return jresp(g.member_payload(member))

    # ------------------------------------------------------------------ interactions
    def app_permissions(self, channel: Channel) -> int:
        """The bot's permissions where the interaction happens, overwrites included, as Discord
        computes `app_permissions` (Interaction object); in DMs, the implicit ones (all here)."""
        if channel.guild is None or self.bot_user.id not in channel.guild.members:
            return ALL_PERMISSIONS
        return channel.permissions_of(self.bot_user)

    def new_interaction(self, itype: int, user: User, channel: Channel, data: dict,
                        message: Message | None = None) -> Interaction:
        """Build an INTERACTION_CREATE payload as Discord would send it to the bot."""
        iid = snowflake()
        token = f"fake-token-{iid}"
        guild = channel.guild
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": itype, "token": token, "version": 1,
            "attachment_size_limit": self.attachment_size_limit, "locale": "en-US",
            "app_permissions": str(self.app_permissions(channel)), "entitlements": [], "channel_id": str(channel.id),
            "channel": channel.payload(), "data": data,
        }
        if guild is not None:
            member = guild.members.get(user.id) or guild.add_member(user)
            payload.update(guild_id=str(guild.id), guild_locale="en-US", context=0,
                           authorizing_integration_owners={"0": str(guild.id)},
                           member={**guild.member_payload(member), "permissions": str(guild.permissions_of(user))})
        else:
            payload.update(user=user.payload(), context=1, authorizing_integration_owners={"0": "0"})
        if message is not None:
            payload["message"] = message.payload(self.base_url)
        rec = Interaction(iid, token, itype, user, channel, payload, time.monotonic(), message=message)
        self.interactions[iid] = rec
        self._by_token[token] = rec
        return rec

    async def send_interaction(self, rec: Interaction, *, wait: bool = True) -> Interaction:
        """Dispatch INTERACTION_CREATE to the right shard and wait for the bot's callback.

        If nothing at all arrives within the ack deadline (plus a short grace), a `no_ack`
        violation is recorded: Discord would show "The application did not respond".
        """
        loop = asyncio.get_running_loop()
        rec.callback = loop.create_future()
        rec.created = time.monotonic()
        rec.shard_id = await self.dispatch("INTERACTION_CREATE", rec.payload, rec.guild)
        if wait:
            try:
                await asyncio.wait_for(asyncio.shield(rec.callback), self.ack_deadline + self.ack_grace)
            except TimeoutError:
                self.violation("no_ack", 10062, 0, f"interaction {rec.id}",
                               f"type {rec.type} interaction never acknowledged within {self.ack_deadline} s")
        return rec

    def _refused_callback(self, path: str, refused: Any) -> None:
        """A callback Discord refused acknowledges nothing; the waiting test hears of it at once."""
        found = re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path)
        rec = self.interactions.get(int(found[1])) if found else None
        if rec is not None and rec.token == found[2] and rec.ack_type is None:  # type: ignore[index]
            rec.error = {"status": refused.status, "code": refused.body.get("code"),
                         "message": refused.body.get("message"), "detail": refused.detail}
            self._resolve(rec)

    def _resolve(self, rec: Interaction) -> None:
        if rec.callback is not None and not rec.callback.done():
            rec.callback.set_result(None)

    async def _callback(self, request: web.Request, body: Any, files: list, iid: str,
                        token: str) -> web.Response:
        rec = self.interactions.get(int(iid)) if iid.isdigit() else None
        if rec is None or rec.token != token:
            raise DiscordError(404, 10062, "Unknown interaction", "unknown_interaction", iid)
        try:
            return self._handle_callback(rec, body or {}, files)
        except DiscordError as err:
            if rec.ack_type is None:
                rec.error = {"status": err.status, "code": err.code, "message": err.message, "detail": err.detail}
            raise
        finally:
            self._resolve(rec)

    def _handle_callback(self, rec: Interaction, body: dict, files: list[tuple[str, bytes]]) -> web.Response:
        elapsed = time.monotonic() - rec.created
        if rec.ack_type is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.", "double_ack",
                               f"interaction {rec.id} already acknowledged with type {rec.ack_type}")
        if elapsed > self.ack_deadline:
            raise DiscordError(404, 10062, "Unknown interaction", "late_ack",
                               f"callback {elapsed:.2f} s after the interaction (deadline {self.ack_deadline} s)")
        cb_type = int(body.get("type", 0))
        data = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}.get(rec.type, set())
        if cb_type == 7 and rec.message is None or cb_type not in allowed:
            raise DiscordError(400, 50035, "Invalid Form Body", "bad_callback_type",
                               f"callback type {cb_type} is not valid for interaction type {rec.type}")
        ephemeral_to = rec.user if int(data.get("flags") or 0) & FLAG_EPHEMERAL else None
        if cb_type in (4, 7):
            self._validate(data, files, self.attachment_size_limit, editing=rec.message if cb_type == 7 else None)
        elif cb_type == 9:
            problems = limits.check_modal(data)
            if problems:
                raise DiscordError(400, 50035, "Invalid Form Body", "invalid_modal", "; ".join(problems))
        elif cb_type == 8:
            problems = limits.check_choices(data.get("choices") or [])
            if problems:
                raise DiscordError(400, 50035, "Invalid Form Body", "invalid_choices", "; ".join(problems))
        rec.ack_type = cb_type
        result: dict[str, Any] = {"interaction": {
            "id": str(rec.id), "type": rec.type, "response_message_loading": cb_type == 5,
            "response_message_ephemeral": ephemeral_to is not None}}
        if cb_type == 4:
            rec.original = self.create_message(rec.channel, data, files, ephemeral_to=ephemeral_to, interaction=rec)
        elif cb_type == 5:
            rec.original = self.create_message(rec.channel, {"flags": data.get("flags")}, [],
                                               ephemeral_to=ephemeral_to, interaction=rec, extra_flags=FLAG_LOADING)
        elif cb_type in (6, 7):
            rec.original = rec.message
            if cb_type == 7 and rec.message is not None:
                self.edit_message(rec.message, data, files)
        elif cb_type == 8:
            rec.choices = list(data.get("choices") or [])
        elif cb_type == 9:
            rec.modal = data
            self.modals[rec.user.id] = (data, rec)
        if rec.original is not None and cb_type in (4, 5, 7):
            result["interaction"]["response_message_id"] = str(rec.original.id)
            result["resource"] = {"type": cb_type, "message": rec.original.payload(self.base_url)}
        return jresp(result)

    def _webhook_interaction(self, app: str, token: str) -> Interaction:
        rec = self._by_token.get(token)
        if rec is None or app != str(self.app_id):
            raise DiscordError(404, 10015, "Unknown Webhook", "unknown_webhook", f"token {token[:24]}")
        age = time.monotonic() - rec.created
        if age > self.token_ttl:
            raise DiscordError(401, 50027, "Invalid Webhook Token", "expired_token",
                               f"interaction token used {age:.2f} s after the interaction (ttl {self.token_ttl} s)")
        if rec.ack_type is None:
            raise DiscordError(404, 10015, "Unknown Webhook", "followup_before_ack",
                               f"interaction {rec.id} used as a webhook before it was acknowledged")
        return rec

    async def _followup(self, request: web.Request, body: Any, files: list, app: str,
                        token: str) -> web.Response:
        rec = self._webhook_interaction(app, token)
        body = body or {}
        self._validate(body, files, self.attachment_size_limit)
        original = rec.original
        if rec.ack_type == 5 and original is not None and original.loading:
            # Discord: the first follow-up after a "thinking" defer replaces the loading message.
            # It still works but is the deprecated form: edit @original instead (a second
            # follow-up would be a new message, so a bot that relies on this posts twice).
            self.violation("followup_as_edit", 0, 200, f"POST /webhooks/{app}/{{token}}",
                           f"interaction {rec.id}: a follow-up used to answer a thinking defer; "
                           "PATCH /webhooks/{app}/{token}/messages/@original instead")
            return jresp(self.edit_message(original, body, files).payload(self.base_url))
        ephemeral_to = rec.user if int(body.get("flags") or 0) & FLAG_EPHEMERAL else None
        msg = self.create_message(rec.channel, body, files, ephemeral_to=ephemeral_to, interaction=rec)
        rec.followups.append(msg)
        return jresp(msg.payload(self.base_url))

    async def _webhook_message(self, request: web.Request, body: Any, files: list, app: str, token: str,
                               mid: str) -> web.StreamResponse:
        rec = self._webhook_interaction(app, token)
        if mid == "@original":
            msg = rec.original
        else:
            msg = next((m for m in [rec.original, *rec.followups] if m is not None and str(m.id) == mid), None)
        if msg is None or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message", "unknown_message",
                               f"{mid} of interaction {rec.id} (ack type {rec.ack_type})")
        if request.method == "GET":
            return jresp(msg.payload(self.base_url))
        if request.method == "DELETE":
            msg.deleted = True
            return web.Response(status=204)
        body = body or {}
        self._validate(body, files, self.attachment_size_limit, editing=msg)
        return jresp(self.edit_message(msg, body, files).payload(self.base_url))


def _allowed_in_dm(cmd: dict) -> bool:
    contexts = cmd.get("contexts")
    if contexts is not None:
        return 1 in contexts
    return cmd.get("dm_permission", True) is not False


def patch_discord(api_base: str, gateway_url: str) -> Callable[[], None]:
    """Point discord.py's REST base (Route.BASE) and gateway (DEFAULT_GATEWAY) at a fake;
    returns a function restoring the previous values. Interaction callbacks and webhooks use
    the same Route class, so these two class attributes redirect every request."""
    import discord.gateway
    import discord.http

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)

    def restore() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return restore
