"""HTTP control API (`/_control/...`) so a test in another process can drive virtual players of a
standalone fake, plus `ControlClient`, the async client for it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from .models import Message
from .players import Place, PlayerError, Response

if TYPE_CHECKING:
    from .server import FakeDiscord


def message_json(msg: Message) -> dict[str, Any]:
    """A message as a remote test sees it."""
    return {"id": str(msg.id), "channel_id": str(msg.channel.id), "content": msg.content, "text": msg.text,
            "audience": msg.audience, "ephemeral": msg.ephemeral, "loading": msg.loading,
            "buttons": [{"label": b.label, "custom_id": b.custom_id, "disabled": b.disabled, "style": b.style}
                        for b in msg.buttons],
            "selects": [{"custom_id": s.custom_id, "placeholder": s.placeholder, "options": s.options}
                        for s in msg.selects],
            "attachments": [{"filename": a.filename, "size": len(a.data)} for a in msg.attachments],
            "embeds": msg.embeds, "type": msg.type, "pinned": msg.pinned, "v2": msg.is_v2}


def response_json(resp: Response) -> dict[str, Any]:
    return {"type": resp.type, "ok": resp.ok, "error": resp.error, "shard_id": resp.shard_id,
            "ephemeral": resp.ephemeral, "messages": [message_json(m) for m in resp.messages],
            "modal": resp.modal, "choices": resp.choices}


def info_json(fake: FakeDiscord) -> dict[str, Any]:
    from .models import shard_for

    return {"port": fake.port, "base_url": fake.base_url, "api_base": fake.api_base,
            "gateway_url": fake.gateway_url, "app_id": str(fake.app_id), "shard_count": fake.shard_count,
            "connected_shards": sorted(s for s, sess in fake.sessions.items() if not sess.ws.closed),
            "guilds": [{"id": str(g.id), "name": g.name, "shard": shard_for(g.id, fake.shard_count),
                        "channels": [{"id": str(c.id), "name": c.name} for c in g.channels],
                        "threads": [{"id": str(t.id), "name": t.name, "parent_id": str(t.parent.id) if t.parent else None,
                                     "type": t.type, "archived": t.archived, "locked": t.locked} for t in g.threads]}
                       for g in fake.guilds],
            "users": [{"id": str(u.id), "name": u.name} for u in fake.users.values()]}


def add_control_routes(app: web.Application, fake: FakeDiscord) -> None:
    """Mount the control API on the fake's aiohttp app."""

    def place(body: dict) -> Place:
        player = fake.user(body["user"])
        if body.get("dm"):
            return player.dm
        if body.get("channel_id"):
            channel = fake.find_channel(int(body["channel_id"]))
            if channel is None:
                raise PlayerError(f"unknown channel {body['channel_id']}")
            return player.at(channel)
        return player

    def message(body: dict) -> Message | None:
        mid = body.get("message_id")
        if mid is None:
            return None
        msg = fake.messages.get(int(mid))
        if msg is None:
            raise PlayerError(f"unknown message {mid}")
        return msg

    async def run(request: web.Request, action: Any) -> web.Response:
        try:
            body = await request.json() if request.can_read_body else {}
            result = await action(body)
        except PlayerError as err:
            return web.json_response({"error": str(err)}, status=409)
        except (KeyError, ValueError, TypeError) as err:
            return web.json_response({"error": f"bad control request: {err!r}"}, status=400)
        return web.json_response(result)

    async def info(body: dict) -> Any:
        return info_json(fake)

    async def users(body: dict) -> Any:
        player = fake.user(body["name"], manage_guild=bool(body.get("manage_guild")))
        if "dms_closed" in body:
            player.dms_closed = bool(body["dms_closed"])
        return {"id": str(player.id), "name": player.name}

    async def slash(body: dict) -> Any:
        return response_json(await place(body).slash(body["command"], settle=body.get("settle", True),
                                                     **body.get("options", {})))

    async def autocomplete(body: dict) -> Any:
        return await place(body).autocomplete(body["command"], body["option"], body.get("typed", ""),
                                              **body.get("options", {}))

    async def click(body: dict) -> Any:
        return response_json(await place(body).click(body.get("label"), custom_id=body.get("custom_id"),
                                                     message=message(body), settle=body.get("settle", True)))

    async def select(body: dict) -> Any:
        return response_json(await place(body).select(body.get("name"), body["values"], message=message(body),
                                                      settle=body.get("settle", True)))

    async def modal(body: dict) -> Any:
        return response_json(await place(body).submit_modal(body["values"], custom_id=body.get("custom_id"),
                                                            settle=body.get("settle", True)))

    async def wait_for(body: dict) -> Any:
        text = body["contains"]
        return message_json(await place(body).wait_for(text, timeout=float(body.get("timeout", 5.0))))

    async def ready(body: dict) -> Any:
        try:
            await fake.wait_for_shards(body.get("shards"), timeout=float(body.get("timeout", 60.0)))
        except TimeoutError:
            raise PlayerError("the bot did not connect all shards in time") from None
        return info_json(fake)

    async def violations(body: dict) -> Any:
        return [{"kind": v.kind, "code": v.code, "status": v.status, "route": v.route, "detail": v.detail}
                for v in fake.violations]

    async def clear(body: dict) -> Any:
        return len(fake.pop_violations(body.get("kind")))

    async def config(body: dict) -> Any:
        for key in ("ack_deadline", "token_ttl", "attachment_size_limit"):
            if key in body:
                setattr(fake, key, type(getattr(fake, key))(body[key]))
        if "rate_limit" in body:
            rl = body["rate_limit"]
            fake.rate_limit(rl["method"], rl["route"], times=int(rl.get("times", 1)),
                            retry_after=float(rl.get("retry_after", 0.05)))
        return {"ack_deadline": fake.ack_deadline, "token_ttl": fake.token_ttl}

    async def messages(request: web.Request) -> web.Response:
        q = request.query
        try:
            where = place({"user": q["user"], "dm": q.get("dm") in ("1", "true"), "channel_id": q.get("channel_id")})
        except (KeyError, PlayerError) as err:
            return web.json_response({"error": str(err)}, status=400)
        return web.json_response([message_json(m) for m in where.messages])

    posts = {"users": users, "slash": slash, "autocomplete": autocomplete, "click": click, "select": select,
             "modal": modal, "wait_for": wait_for, "ready": ready, "violations/clear": clear, "config": config}
    def handler(action: Any) -> Any:
        async def handle(request: web.Request) -> web.Response:
            return await run(request, action)

        return handle

    for name, action in posts.items():
        app.router.add_post(f"/_control/{name}", handler(action))
    app.router.add_get("/_control/info", handler(info))
    app.router.add_get("/_control/violations", handler(violations))
    app.router.add_get("/_control/messages", messages)


class ControlError(RuntimeError):
    """The standalone fake refused a control request (e.g. a PlayerError on its side)."""


class ControlClient:
    """Drive a standalone fake (`python -m tests.fakediscord`) from another process."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> ControlClient:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _call(self, method: str, name: str, body: dict | None = None,
                    params: dict[str, str] | None = None) -> Any:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        async with self._session.request(method, f"{self.base_url}/_control/{name}", json=body,
                                         params=params) as resp:
            data = json.loads(await resp.text())
            if resp.status != 200:
                raise ControlError(f"{name}: {resp.status} {data.get('error', data)}")
            return data

    async def info(self) -> dict:
        return await self._call("GET", "info")

    async def wait_ready(self, shards: int | None = None, timeout: float = 60.0) -> dict:
        return await self._call("POST", "ready", {"shards": shards, "timeout": timeout})

    async def add_user(self, name: str, *, manage_guild: bool = False, dms_closed: bool = False) -> dict:
        return await self._call("POST", "users", {"name": name, "manage_guild": manage_guild,
                                                  "dms_closed": dms_closed})

    async def slash(self, user: str, command: str, *, dm: bool = False, channel_id: str | None = None,
                    **options: Any) -> dict:
        return await self._call("POST", "slash", {"user": user, "command": command, "dm": dm,
                                                  "channel_id": channel_id, "options": options})

    async def autocomplete(self, user: str, command: str, option: str, typed: str = "", **options: Any) -> list:
        return await self._call("POST", "autocomplete", {"user": user, "command": command, "option": option,
                                                         "typed": typed, "options": options})

    async def click(self, user: str, label: str | None = None, *, custom_id: str | None = None,
                    message_id: str | None = None, dm: bool = False) -> dict:
        return await self._call("POST", "click", {"user": user, "label": label, "custom_id": custom_id,
                                                  "message_id": message_id, "dm": dm})

    async def select(self, user: str, name: str | None, values: list[str], *, message_id: str | None = None,
                     dm: bool = False) -> dict:
        return await self._call("POST", "select", {"user": user, "name": name, "values": values,
                                                   "message_id": message_id, "dm": dm})

    async def submit_modal(self, user: str, values: dict[str, str], *, custom_id: str | None = None) -> dict:
        return await self._call("POST", "modal", {"user": user, "values": values, "custom_id": custom_id})

    async def messages(self, user: str, *, dm: bool = False, channel_id: str | None = None) -> list[dict]:
        params = {"user": user, "dm": "1" if dm else "0", **({"channel_id": channel_id} if channel_id else {})}
        return await self._call("GET", "messages", params=params)

    async def wait_for(self, user: str, contains: str, *, dm: bool = False, timeout: float = 5.0) -> dict:
        return await self._call("POST", "wait_for", {"user": user, "contains": contains, "dm": dm,
                                                     "timeout": timeout})

    async def violations(self) -> list[dict]:
        return await self._call("GET", "violations")

    async def clear_violations(self, kind: str | None = None) -> int:
        return await self._call("POST", "violations/clear", {"kind": kind})

    async def configure(self, **settings: Any) -> dict:
        return await self._call("POST", "config", settings)
