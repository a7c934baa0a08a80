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
from aiohttp import web

from . import command_rules, limits
from .errors import DiscordError, jresp
from .faults import Fault, Faults, Slowmode
from .gateway import Gateway, GatewaySession
from .interactions import Interaction, InteractionRoutes
from .message_events import MessageEvents
from .messages import MessageRoutes
from .models import (
    ATTACH_FILES,
    VIEW_CHANNEL,
    Channel,
    Guild,
    Message,
    Thread,
    User,
    snowflake,
    snowflake_on_shard,
)
from .ratelimits import RateLimiter
from .spec import load_spec

log = logging.getLogger("fakediscord")

JsonHandler = Callable[..., Awaitable[web.StreamResponse]]
TOKEN_IN_URL = ("/interactions/", "/webhooks/")
"""Routes authenticated by the interaction or webhook token in their URL, not by the bot token."""


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
    at: float = field(default_factory=time.monotonic)
    """When the request began to arrive (this process's monotonic clock)."""


class FakeDiscord(Gateway, InteractionRoutes, MessageRoutes):
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
        self.message_events = MessageEvents(self)
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
        arrived = time.monotonic()  # its head: an upload's body may finish arriving much later
        body, files = await self._read_body(request)
        call = Call(request.method, path, dict(request.query), body, files,
                    multipart=request.headers.get("Content-Type", "").startswith("multipart/"), at=arrived)
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

    # ------------------------------------------------------------------ users, channels, guilds
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
