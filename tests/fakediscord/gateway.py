"""The fake's gateway: the websocket discord.py logs in through (IDENTIFY, RESUME, heartbeats,
member chunks) and the dispatches a test sends to the shard that owns a guild. A half of
FakeDiscord (server.py), which keeps the sessions."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .models import Guild, shard_for, snowflake


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


class Gateway:
    """FakeDiscord's gateway half: its methods use the fake's sessions, guilds and token."""

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
